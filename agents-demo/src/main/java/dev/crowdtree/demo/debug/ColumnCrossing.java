package dev.crowdtree.demo.debug;

import java.util.Arrays;

/**
 * What a column breakpoint ({@code kind: "column"}) watches: whether host column {@link #column}
 * of one agent, or of any agent, crossed {@link #threshold} in the last tick. A value is either
 * below the threshold or at-or-above it; it crossed when it is on the other side than after the
 * previous tick (below to at-or-above: upward; at-or-above to below: downward). A value that is
 * not a number (NaN), or a despawned agent's, is on neither side and never crosses.
 *
 * <p>The values of the tick before are kept (a double per agent for "any agent", in a primitive
 * array grown with the agent count: no allocation per agent). They are only compared when they are
 * of the tick just before: the first tick checked after the breakpoint is set only records the
 * values. Time travel records them at the tick it arrives at ({@link #record}), so that the next
 * tick is compared as when it first ran.
 *
 * <p>THREADING: the session thread only (mutable, unlike the {@link Breakpoint} that holds it).
 */
final class ColumnCrossing {
    /** How many of the agents that crossed in a tick the reason names. */
    static final int AGENTS_NAMED = 5;

    private final String column;
    private final double threshold;
    private final int agent;
    /** The tick whose values {@link #previous} or {@link #previousOne} hold (none yet: MIN_VALUE). */
    private long seen = Long.MIN_VALUE;
    /** Any agent: each agent's value after tick {@link #seen} (NaN: none). */
    private double[] previous = new double[0];
    /** One agent: its value after tick {@link #seen}. */
    private double previousOne = Double.NaN;
    /** Any agent: the first agents that crossed in the tick checked last. */
    private final int[] named = new int[AGENTS_NAMED];

    /**
     * @param column    the host column, one of {@link DebugTarget#columnNames()}
     * @param threshold a finite number
     * @param agent     the agent watched, or -1 for any
     */
    ColumnCrossing(String column, double threshold, int agent) {
        this.column = column;
        this.threshold = threshold;
        this.agent = agent;
    }

    String column() {
        return column;
    }

    double threshold() {
        return threshold;
    }

    /**
     * After tick {@code k}: records the values and, when those of tick {@code k - 1} are known,
     * says which crossed ({@code "column distance crossed 15 (downward) at tick 12: agents 3, 7 (2
     * agents)"}), or null when none did.
     */
    String check(DebugViews views, int agentCount, long k) {
        return check(views, agentCount, k, seen == k - 1);
    }

    /** Records the values after tick {@code k} (the world is as it was then), without comparing. */
    void record(DebugViews views, int agentCount, long k) {
        check(views, agentCount, k, false);
    }

    private String check(DebugViews views, int agentCount, long k, boolean compare) {
        seen = k;
        if (agent >= 0) {
            double before = previousOne;
            double now = agent < agentCount ? views.columnValue(agent, column) : Double.NaN;
            previousOne = now;
            if (!compare || !crossed(before, now)) {
                return null;
            }
            return head(now >= threshold ? "upward" : "downward", k) + "agent " + agent + ", "
                    + DebugViews.columnNumber(before) + " -> " + DebugViews.columnNumber(now);
        }
        if (previous.length < agentCount) {
            int old = previous.length;
            previous = Arrays.copyOf(previous, Math.max(agentCount, old * 2));
            Arrays.fill(previous, old, previous.length, Double.NaN);
        }
        int up = 0;
        int down = 0;
        for (int a = 0; a < agentCount; a++) {
            double now = views.despawned(a) ? Double.NaN : views.columnValue(a, column);
            double before = previous[a];
            previous[a] = now;
            if (compare && crossed(before, now)) {
                if (up + down < AGENTS_NAMED) {
                    named[up + down] = a;
                }
                if (now >= threshold) {
                    up++;
                } else {
                    down++;
                }
            }
        }
        int n = up + down;
        if (n == 0) {
            return null;
        }
        String direction = down == 0 ? "upward" : up == 0 ? "downward" : up + " upward, " + down + " downward";
        StringBuilder sb = new StringBuilder(head(direction, k)).append(n == 1 ? "agent " : "agents ");
        for (int i = 0; i < Math.min(n, AGENTS_NAMED); i++) {
            sb.append(i == 0 ? "" : ", ").append(named[i]);
        }
        if (n > AGENTS_NAMED) {
            sb.append(", ...");
        }
        return sb.append(" (").append(n).append(n == 1 ? " agent)" : " agents)").toString();
    }

    /** Whether a value went from one side of the threshold to the other (neither NaN). */
    private boolean crossed(double before, double now) {
        return before == before && now == now && (before >= threshold) != (now >= threshold);
    }

    private String head(String direction, long k) {
        return "column " + column + " crossed " + DebugViews.columnNumber(threshold) + " (" + direction + ") at tick "
                + k + ": ";
    }

    /** What the breakpoint list shows. */
    String describe() {
        return "column " + column + " of " + (agent < 0 ? "any agent" : "agent " + agent) + " crosses "
                + DebugViews.columnNumber(threshold);
    }
}
