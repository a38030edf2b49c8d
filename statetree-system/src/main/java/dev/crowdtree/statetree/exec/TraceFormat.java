package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ChangeType;

/** Builds the canonical trace lines, so every runtime prints exactly the same text. */
public final class TraceFormat {
    private TraceFormat() {
    }

    public static String start(long tick) {
        return tick + " start";
    }

    public static String enter(long tick, CompiledStateTree t, int state, byte change) {
        return tick + " enter " + t.statePath[state] + " " + ChangeType.name(change);
    }

    public static String taskEnter(long tick, CompiledStateTree t, int task, boolean failed) {
        return tick + " task-enter " + t.statePath[t.taskState[task]] + ":" + t.taskName[task] + (failed ? " failed" : "");
    }

    public static String exit(long tick, CompiledStateTree t, int state, byte change) {
        return tick + " exit " + t.statePath[state] + " " + ChangeType.name(change);
    }

    public static String taskExit(long tick, CompiledStateTree t, int task) {
        return tick + " task-exit " + t.statePath[t.taskState[task]] + ":" + t.taskName[task];
    }

    /** A fired transition; {@code transition} is its index, or -1 for the restart from root. */
    public static String transition(long tick, CompiledStateTree t, int leaf, int transition) {
        String target = transition < 0 ? t.statePath[0] : t.transitionTargetName(transition);
        return tick + " transition " + t.statePath[leaf] + " -> " + target;
    }

    /** {@code tree succeeded|failed|stopped}. */
    public static String tree(long tick, String outcome) {
        return tick + " tree " + outcome;
    }
}
