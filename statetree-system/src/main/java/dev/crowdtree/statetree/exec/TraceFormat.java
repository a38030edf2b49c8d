package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * Builds the canonical trace lines, so every runtime prints exactly the same text. Names come from
 * the asset, so each name is passed through {@link Printable#escape}: a control character in a
 * state or task name appears as {@code \}{@code uXXXX} and cannot drive a terminal or forge a line
 * (printable names, the usual case, are unchanged and cost no allocation).
 */
public final class TraceFormat {
    private TraceFormat() {
    }

    public static String start(long tick) {
        return tick + " start";
    }

    public static String enter(long tick, CompiledStateTree t, int state, byte change) {
        return tick + " enter " + Printable.escape(t.statePath[state]) + " " + ChangeType.name(change);
    }

    public static String taskEnter(long tick, CompiledStateTree t, int task, boolean failed) {
        return tick + " task-enter " + owner(t, task) + ":" + Printable.escape(t.taskName[task]) + (failed ? " failed" : "");
    }

    public static String exit(long tick, CompiledStateTree t, int state, byte change) {
        return tick + " exit " + Printable.escape(t.statePath[state]) + " " + ChangeType.name(change);
    }

    public static String taskExit(long tick, CompiledStateTree t, int task) {
        return tick + " task-exit " + owner(t, task) + ":" + Printable.escape(t.taskName[task]);
    }

    /**
     * A global task finished the tree with {@code status} (docs/SEMANTICS.md, rules G1 and G2):
     * printed before the exits that follow, since no transition line explains them.
     */
    public static String taskCompleted(long tick, CompiledStateTree t, int task, byte status) {
        return tick + " task-completed " + owner(t, task) + ":" + Printable.escape(t.taskName[task]) + " "
                + RunStatus.name(status);
    }

    /** A task's owner: its state's path, or {@code @global} for a global task. */
    private static String owner(CompiledStateTree t, int task) {
        int s = t.taskState[task];
        return s < 0 ? Vocabulary.GLOBAL_SCOPE : Printable.escape(t.statePath[s]);
    }

    /** A fired transition; {@code transition} is its index, or -1 for the restart from root. */
    public static String transition(long tick, CompiledStateTree t, int leaf, int transition) {
        String target = transition < 0 ? t.statePath[0] : t.transitionTargetName(transition);
        return tick + " transition " + Printable.escape(t.statePath[leaf]) + " -> " + Printable.escape(target);
    }

    /**
     * A transition to state {@code target} that no transition of the asset names: one a composite's
     * rule fired (docs/SEMANTICS.md, rules K4, K5).
     */
    public static String transitionTo(long tick, CompiledStateTree t, int leaf, int target) {
        return tick + " transition " + Printable.escape(t.statePath[leaf]) + " -> "
                + Printable.escape(t.statePath[target]);
    }

    /** Composite {@code state} completed with {@code status} (rule K6): {@code state-completed <path> <status>}. */
    public static String stateCompleted(long tick, CompiledStateTree t, int state, byte status) {
        return tick + " state-completed " + Printable.escape(t.statePath[state]) + " " + RunStatus.name(status);
    }

    /** {@code tree succeeded|failed|stopped}. */
    /** A node failure (rule R1): {@code <tick> fault <node> in <leaf path>: <error>}. */
    public static String fault(NodeFailure f) {
        return f.tick() + " fault " + f.node() + " in " + f.state() + ": " + f.error();
    }

    public static String tree(long tick, String outcome) {
        return tick + " tree " + outcome;
    }
}
