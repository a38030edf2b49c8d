package dev.crowdtree.statetree.compiled;

/**
 * The history states of a tree (docs/SEMANTICS.md section 17, rules Y1-Y7): the states with
 * {@code "history": "shallow"} or {@code "deep"}, which remember the path below them when they are
 * left and resume it when they are selected again, and the one definition of what they remember,
 * which both runtimes call.
 *
 * <p>Each history state has a memory index {@code 0 .. count() - 1}, in state order, and each agent
 * one 16-bit memory per history state (the batched runtime's column {@code st.<tree>.history#<index>},
 * the reference interpreter's array). A memory holds a state id: the remembered child (shallow) or
 * the remembered last state of the path (deep), or {@link #NO_MEMORY}, which is the root's id (the
 * root is below no state, so it is never remembered), so a zeroed memory is an empty one. A tree
 * without history has {@link #count} 0 and no memory at all.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class HistoryStates {
    /** The history of a state ({@link Vocabulary.History}): none, {@code shallow}, {@code deep}. */
    public static final byte NONE = 0, SHALLOW = 1, DEEP = 2;
    /** A memory that holds nothing: the state left had nothing active below it, or it was never left. */
    public static final short NO_MEMORY = 0;

    private final byte[] kind;
    private final int[] index;
    private final int[] states;

    /** The kind of each state, its memory index (-1: none), and the history states in id order. */
    HistoryStates(byte[] kind, int[] index, int[] states) {
        this.kind = kind;
        this.index = index;
        this.states = states;
    }

    /** The number of history states (0: the tree has none, and its agents no memory). */
    public int count() {
        return states.length;
    }

    /** The history state with memory index {@code h}. */
    public int state(int h) {
        return states[h];
    }

    /** The history of state {@code s}: {@link #NONE}, {@link #SHALLOW} or {@link #DEEP}. */
    public byte kind(int s) {
        return kind[s];
    }

    /** Whether state {@code s} is a history state. */
    public boolean has(int s) {
        return kind[s] != NONE;
    }

    /** The memory index of history state {@code s}, or -1 when it is none. */
    public int index(int s) {
        return index[s];
    }

    /**
     * Rule Y2: what history state {@code s} remembers of an active path whose state below {@code s}
     * is {@code child} (-1: the path ends at {@code s}) and whose last state is {@code last}: the
     * child for shallow history, the last state for deep history, {@link #NO_MEMORY} when nothing is
     * active below {@code s}.
     */
    public short memoryOf(int s, int child, int last) {
        if (child < 0) {
            return NO_MEMORY;
        }
        return (short) (kind[s] == DEEP ? last : child);
    }
}
