package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.RunStatus;

/**
 * The one codec of the packed per-agent execution word ({@link InstanceData#exec}): the fields the
 * runtime reads and writes for one agent at a time, in one {@code long}, so that an agent visited
 * alone costs one cache line. Layout (bit ranges inclusive):
 * <pre>
 *  0-15  last active state + 1 (0: empty path)
 * 16-31  the task whose EnterState failed + 1 (0: none)
 * 32-34  the tree's run status ({@link RunStatus}: UNSET..STOPPED)
 * 35-36  the last tick status ({@link RunStatus}: UNSET..FAILED)
 * 37     a gate is pending
 * 40-47  the tick period byte (log2 in effect in bits 0-2, a requested log2 in 4-6, bit 7 while requested)
 * 48-63  the low 16 bits of the state-change count
 * </pre>
 * A zeroed word is a fresh, not-started instance. Every enum packed here is checked to fit its bits
 * when the class loads. Stateless; every method is a pure function of the word.
 */
final class ExecWord {
    static final int RUN_SHIFT = 32;
    static final int LAST_SHIFT = 35;
    static final long GATE_BIT = 1L << 37;
    static final int LOD_SHIFT = 40;
    /** The low 16 bits of the state-change count sit at bit 48. */
    static final int CHANGES_SHIFT = 48;
    private static final long RUN_MASK = 7L << RUN_SHIFT;
    private static final long LAST_MASK = 3L << LAST_SHIFT;
    private static final long LOD_MASK = 0xFFL << LOD_SHIFT;

    static {
        // the packed enums fit their bits: a new status would be cut, silently, without this
        if (RunStatus.STOPPED > 7 || RunStatus.UNSET < 0) {
            throw new AssertionError("a run status does not fit the 3 bits of the execution word");
        }
        if (RunStatus.FAILED > 3 || RunStatus.SUCCEEDED > 3 || RunStatus.RUNNING > 3) {
            throw new AssertionError("a tick status does not fit the 2 bits of the execution word");
        }
    }

    private ExecWord() {
    }

    /** Last active state + 1 (0: empty path). */
    static int state(long e) {
        return (int) e & 0xFFFF;
    }

    static long withState(long e, int v) {
        return (e & ~0xFFFFL) | (v & 0xFFFF);
    }

    /** The task whose EnterState failed + 1 (0: none). */
    static int failed(long e) {
        return (int) (e >>> 16) & 0xFFFF;
    }

    static long withFailed(long e, int v) {
        return (e & ~(0xFFFFL << 16)) | ((long) (v & 0xFFFF) << 16);
    }

    /** The tree's run status. */
    static byte run(long e) {
        return (byte) ((e & RUN_MASK) >>> RUN_SHIFT);
    }

    static long withRun(long e, byte v) {
        return (e & ~RUN_MASK) | ((long) v << RUN_SHIFT);
    }

    /** The last tick status. */
    static byte last(long e) {
        return (byte) ((e & LAST_MASK) >>> LAST_SHIFT);
    }

    static long withLast(long e, byte v) {
        return (e & ~LAST_MASK) | ((long) v << LAST_SHIFT);
    }

    /** The tick period byte. */
    static byte lod(long e) {
        return (byte) (e >>> LOD_SHIFT);
    }

    static long withLod(long e, byte v) {
        return (e & ~LOD_MASK) | ((long) (v & 0xFF) << LOD_SHIFT);
    }

    /** The low 16 bits of the state-change count. */
    static int changesLow(long e) {
        return (int) (e >>> CHANGES_SHIFT);
    }
}
