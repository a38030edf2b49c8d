package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.EventPayload;
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
        return tick + " enter " + t.printableStatePath(state) + " " + ChangeType.name(change);
    }

    public static String taskEnter(long tick, CompiledStateTree t, int task, boolean failed) {
        return tick + " task-enter " + owner(t, task) + ":" + t.printableTaskName(task) + (failed ? " failed" : "");
    }

    public static String exit(long tick, CompiledStateTree t, int state, byte change) {
        return tick + " exit " + t.printableStatePath(state) + " " + ChangeType.name(change);
    }

    public static String taskExit(long tick, CompiledStateTree t, int task) {
        return tick + " task-exit " + owner(t, task) + ":" + t.printableTaskName(task);
    }

    /**
     * A global task finished the tree with {@code status} (docs/SEMANTICS.md, rules G1 and G2):
     * printed before the exits that follow, since no transition line explains them.
     */
    public static String taskCompleted(long tick, CompiledStateTree t, int task, byte status) {
        return tick + " task-completed " + owner(t, task) + ":" + t.printableTaskName(task) + " "
                + RunStatus.name(status);
    }

    /** A task's owner: its state's path, or {@code @global} for a global task. */
    private static String owner(CompiledStateTree t, int task) {
        int s = t.taskState(task);
        return s < 0 ? Vocabulary.GLOBAL_SCOPE : t.printableStatePath(s);
    }

    /** A fired transition; {@code transition} is its index, or -1 for the restart from root. */
    public static String transition(long tick, CompiledStateTree t, int leaf, int transition) {
        String target = transition < 0 ? t.statePath(0) : t.transitionTargetName(transition);
        return tick + " transition " + t.printableStatePath(leaf) + " -> " + Printable.escape(target);
    }

    /**
     * A transition to state {@code target} that no transition of the asset names: one a composite's
     * rule fired (docs/SEMANTICS.md, rules K4, K5).
     */
    public static String transitionTo(long tick, CompiledStateTree t, int leaf, int target) {
        return tick + " transition " + t.printableStatePath(leaf) + " -> "
                + t.printableStatePath(target);
    }

    /** Composite {@code state} completed with {@code status} (rule K6): {@code state-completed <path> <status>}. */
    public static String stateCompleted(long tick, CompiledStateTree t, int state, byte status) {
        return tick + " state-completed " + t.printableStatePath(state) + " " + RunStatus.name(status);
    }

    /**
     * Why transition {@code tr} fired (docs/SEMANTICS.md section 10, {@code trace --explain}):
     * {@code <tick> why <state> transitions[<i>] <trigger> priority <p>[ gate <d>s]}, the trigger
     * being {@code onTick}, {@code onEvent <event>} ({@link #event}) or a completion trigger with
     * {@code completed <state> <status>} (the completion the scan ran with, {@code completedState}
     * its completed state). {@code event} is null when a delay that ran out fired it (rule U4).
     */
    public static String whyTransition(long tick, CompiledStateTree t, int tr, String event, byte completion,
                                       int completedState) {
        int owner = t.transitionSource(tr);
        StringBuilder b = new StringBuilder().append(tick).append(" why ").append(t.printableStatePath(owner))
                .append(" transitions[").append(t.transitionDeclaredIndex(tr) & 0xFF).append("] ");
        byte trigger = t.transitionTrigger(tr);
        if (trigger == CompiledStateTree.TRIGGER_TICK) {
            b.append(Vocabulary.Trigger.ON_TICK.assetName());
        } else if (trigger == CompiledStateTree.TRIGGER_EVENT) {
            b.append(Vocabulary.Trigger.ON_EVENT.assetName()).append(' ')
                    .append(event != null ? event : Printable.escape(t.tagName(t.transitionEvent(tr))) + " (delay ran out)");
        } else {
            String name = trigger == CompiledStateTree.TRIGGER_SUCCEEDED ? Vocabulary.Trigger.ON_STATE_SUCCEEDED.assetName()
                    : trigger == CompiledStateTree.TRIGGER_FAILED ? Vocabulary.Trigger.ON_STATE_FAILED.assetName()
                    : Vocabulary.Trigger.ON_STATE_COMPLETED.assetName();
            b.append(name).append(completed(t, completion, completedState));
        }
        b.append(" priority ").append(Vocabulary.Priority.of(t.transitionPriority(tr)).assetName());
        if (t.isGated(tr)) {
            b.append(" gate ").append(t.transitionDelay(tr));
            if (t.transitionDelayVariance(tr) > 0f) {
                b.append('~').append(t.transitionDelayVariance(tr));
            }
            b.append('s');
        }
        return b.toString();
    }

    /**
     * Why a composite's rule fired a transition to {@code target} (rules K4, K5):
     * {@code <tick> why composite <composite> <sequence|selector> completed <state> <status>}.
     */
    public static String whyComposite(long tick, CompiledStateTree t, int target, byte completion, int completedState) {
        int composite = t.stateParent(target);
        String rule = t.scanRules.isSequence(composite) ? Vocabulary.Composite.SEQUENCE.assetName()
                : Vocabulary.Composite.SELECTOR.assetName();
        return tick + " why composite " + t.printableStatePath(composite) + " " + rule
                + completed(t, completion, completedState);
    }

    /**
     * Why a task's transition request fired (rules O1-O4):
     * {@code <tick> why request <target path> priority <p>}.
     */
    public static String whyRequest(long tick, CompiledStateTree t, int target, int priority) {
        return tick + " why request " + t.printableStatePath(target) + " priority "
                + Vocabulary.Priority.of((byte) priority).assetName();
    }

    /** Why the tree restarted from the root (section 4): {@code <tick> why restart completed <state> <status>}. */
    public static String whyRestart(long tick, CompiledStateTree t, byte completion, int completedState) {
        return tick + " why restart" + completed(t, completion, completedState);
    }

    private static String completed(CompiledStateTree t, byte completion, int completedState) {
        return " completed " + t.printableStatePath(completedState) + " " + RunStatus.name(completion);
    }

    /**
     * An event as a why line names it: its tag, then its payload fields that are present
     * ({@code {name=value, ...}}, in the tree's field order), from {@code types}/{@code bits} at
     * {@code offset}.
     */
    public static String event(CompiledStateTree t, int tag, byte[] types, int[] bits, int offset) {
        StringBuilder b = new StringBuilder(tag >= 0 ? Printable.escape(t.tagName(tag)) : "?");
        boolean first = true;
        for (int f = 0, n = t.payloads.fieldCount(); f < n; f++) {
            byte type = types[offset + f];
            if (type == EventPayload.ABSENT) {
                continue;
            }
            b.append(first ? " {" : ", ").append(Printable.escape(t.payloads.fieldName(f))).append('=');
            int v = bits[offset + f];
            if (type == EventPayload.BOOL) {
                b.append(v != 0);
            } else if (type == EventPayload.INT) {
                b.append(v);
            } else {
                b.append(Float.intBitsToFloat(v));
            }
            first = false;
        }
        return first ? b.toString() : b.append('}').toString();
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
