package dev.crowdtree.statetree.compiled;

/**
 * The tick periods states declare ({@code "tickPeriod"}, Unreal 5.6's tick rate of a state;
 * docs/SEMANTICS.md section 19, rules Z1-Z5), and the period they ask of an agent: while states with
 * one are on its active path, the smallest of theirs; the agent's period is then the larger of that
 * and its LOD period (the host's {@code setTickPeriod}). Periods are powers of two, kept as their
 * log2. In a tree without any, {@link #any} is false and the runtimes look no further.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class TickPeriods {
    /** log2 of the largest period a state may declare (64, the runtimes' largest tick period). */
    public static final int MAX_LOG = 6;

    /** Per state: log2 of its own period, -1 without one. */
    private final byte[] declared;
    /** Per state: log2 of the smallest period declared on the path from the root to it, 0 without one. */
    private final byte[] path;
    /** Whether some state declares a period. */
    public final boolean any;

    /** From the declared logs (-1: none) and the compiler's per-path minimums. */
    TickPeriods(byte[] declared, byte[] path, boolean any) {
        this.declared = declared;
        this.path = path;
        this.any = any;
    }

    /** The period state {@code s} declares, 0 without one. */
    public int declaredPeriod(int s) {
        return declared[s] < 0 ? 0 : 1 << declared[s];
    }

    /**
     * log2 of the period an agent whose LOD period is {@code 1 << hostLog} should tick with while its
     * active path ends at {@code leaf} (-1: empty path): the larger of its LOD period and the smallest
     * period declared on the path (rule Z2).
     */
    public int targetLog(int hostLog, int leaf) {
        return leaf < 0 ? hostLog : Math.max(hostLog, path[leaf]);
    }
}
