package dev.crowdtree.statetree.exec;

/**
 * An agent's tick-period byte (the LOD byte of its execution word, {@link ExecWord#lod}): bits 0-2
 * the log2 of the period in effect (docs/SEMANTICS.md section 12: the agent takes part in the steps
 * where {@code (step + id)} is a multiple of it), bits 4-6 the log2 of a period asked for that
 * applies at the next step aligned to both, bit 7 ({@link #PENDING}) set while one is asked for.
 * Bit 3 is always clear. The one place that knows the layout.
 */
final class PeriodByte {
    /** Set while a change of period is pending. */
    static final int PENDING = 0x80;

    private PeriodByte() {
    }

    /** The log2 of the period in effect. */
    static int log(byte b) {
        return b & 7;
    }

    /** The period in effect, in steps (1 to 64). */
    static int period(byte b) {
        return 1 << (b & 7);
    }

    /** Whether a change of period is pending. */
    static boolean pending(byte b) {
        return (b & PENDING) != 0;
    }

    /** The log2 of the pending period (meaningful when {@link #pending}). */
    static int pendingLog(byte b) {
        return (b >> 4) & 7;
    }

    /** The pending period, in steps (meaningful when {@link #pending}). */
    static int pendingPeriod(byte b) {
        return 1 << ((b >> 4) & 7);
    }

    /** The byte with period {@code 1 << log} in effect and nothing pending. */
    static byte of(int log) {
        return (byte) log;
    }

    /** The byte with {@code 1 << current} in effect and {@code 1 << target} pending (none when equal). */
    static byte aiming(int current, int target) {
        return (byte) (target == current ? current : current | target << 4 | PENDING);
    }

    /** Whether an agent with id {@code id} and period byte {@code b} takes part in step {@code step}. */
    static boolean takesPart(int step, int id, byte b) {
        return ((step + id) & ((1 << (b & 7)) - 1)) == 0;
    }

    /** The last step at or before {@code s} in which agent {@code id} takes part under period byte {@code b}. */
    static int lastPart(int s, int id, byte b) {
        return s - ((s + id) & ((1 << (b & 7)) - 1));
    }

    /** Whether the byte is valid: both periods 1..64 and bit 3 clear. */
    static boolean valid(byte b, int periods) {
        return (b & 7) < periods && ((b >> 4) & 7) < periods && (b & 0x08) == 0;
    }
}
