package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.TimerKind;

/**
 * The facts about a tree the runtimes need that follow from what the compiler's assembly pass put
 * in the {@link CompiledTreeBuilder}: the compiler's fact pass ({@code compiler.RuntimeFactsPass})
 * derives them and sets them here, and {@link CompiledTreeBuilder#build} hands them to the tree,
 * whose constructor only freezes. Each setter's arrays are taken over, not copied: the pass makes
 * new ones and keeps no reference. Obtained from {@link CompiledTreeBuilder#facts}.
 *
 * <p>THREADING: confined to the compiling thread.
 *
 * @hidden
 */
public final class TreeFacts {
    boolean hasPriorities;
    boolean[] transitionGated;
    boolean[] statePlainLeaf;
    boolean[][] tagCovers;
    byte[] stateTriggerMask;
    boolean[] stateTicks;
    boolean[] stateTicking;
    boolean[] stateAlwaysAwake;
    int[] stateAwakeGroup;
    int[] stateAwakeGroupsBegin;
    TimerKind[] taskTimer;
    int[] taskTimerValueSlot;
    int[] taskTimerDueSlot;
    int[] statePathTimersBegin;
    short[] pathTimerTasks;
    int[] statePathBegin;
    short[] pathStates;
    Evaluator[] evaluatorsEveryTick;
    Evaluator[] evaluatorsWhenAwake;
    boolean hasComposites;
    short[] linkedAncestor;
    boolean[] noTaskOnPath;
    boolean anyNoTaskPath;
    int[] historyIndex;
    int[] historyStates;
    byte[] periodPathLog;
    boolean anyPeriod;

    TreeFacts() {
    }

    /** Whether some transition is ranked above normal, and which transitions are gated. */
    public void setTransitionFacts(boolean ranked, boolean[] gated) {
        hasPriorities = ranked;
        transitionGated = gated;
    }

    /** Per state, whether it is a plain leaf ({@link CompiledStateTree#isSiblingLeafMove}). */
    public void setPlainLeaves(boolean[] plain) {
        statePlainLeaf = plain;
    }

    /** {@code covers[t][e]}: a transition on tag t matches an event tagged e. */
    public void setTagCovers(boolean[][] covers) {
        tagCovers = covers;
    }

    /** Per state: the OR of its transitions' triggers, whether a task of it ticks, whether it ticks, whether it is always awake. */
    public void setStateFacts(byte[] triggerMask, boolean[] ticks, boolean[] ticking, boolean[] alwaysAwake) {
        stateTriggerMask = triggerMask;
        stateTicks = ticks;
        stateTicking = ticking;
        stateAlwaysAwake = alwaysAwake;
    }

    /** The awake groups ({@link CompiledStateTree#stateAwakeGroup}); {@code groupsBegin} has stateCount + 1 entries. */
    public void setAwakeGroups(int[] group, int[] groupsBegin) {
        stateAwakeGroup = group;
        stateAwakeGroupsBegin = groupsBegin;
    }

    /** The tasks' timers and, per state, the timer tasks on its path. */
    public void setTimers(TimerKind[] kind, int[] valueSlot, int[] dueSlot, int[] pathBegin, short[] pathTasks) {
        taskTimer = kind;
        taskTimerValueSlot = valueSlot;
        taskTimerDueSlot = dueSlot;
        statePathTimersBegin = pathBegin;
        pathTimerTasks = pathTasks;
    }

    /** Every state's path, root first: {@code states[begin[s] .. begin[s] + depth(s)]}. */
    public void setStatePaths(int[] begin, short[] states) {
        statePathBegin = begin;
        pathStates = states;
    }

    /** The evaluators split by schedule, each in evaluator order. */
    public void setEvaluatorSchedules(Evaluator[] everyTick, Evaluator[] whenAwake) {
        evaluatorsEveryTick = everyTick;
        evaluatorsWhenAwake = whenAwake;
    }

    /** Whether some state is a composite (for {@link ScanRules}). */
    public void setHasComposites(boolean any) {
        hasComposites = any;
    }

    /** Rules U2 and U6 per state (for {@link UnrealRules}). */
    public void setUnrealFacts(short[] linkedAncestor, boolean[] noTaskOnPath, boolean anyNoTaskPath) {
        this.linkedAncestor = linkedAncestor;
        this.noTaskOnPath = noTaskOnPath;
        this.anyNoTaskPath = anyNoTaskPath;
    }

    /** Each state's history memory index (-1: none) and the history states in id order (for {@link HistoryStates}). */
    public void setHistoryIndex(int[] index, int[] states) {
        historyIndex = index;
        historyStates = states;
    }

    /** Per state, log2 of the smallest period declared on its path (0: none), and whether any state declares one. */
    public void setPeriodPaths(byte[] pathLog, boolean any) {
        periodPathLog = pathLog;
        anyPeriod = any;
    }

    /** The name of the first fact not set, or null when all are. */
    String missing() {
        Object[] all = {transitionGated, statePlainLeaf, tagCovers, stateTriggerMask, stateTicks, stateTicking, stateAlwaysAwake,
                stateAwakeGroup, stateAwakeGroupsBegin, taskTimer, taskTimerValueSlot, taskTimerDueSlot,
                statePathTimersBegin, pathTimerTasks, statePathBegin, pathStates, evaluatorsEveryTick, evaluatorsWhenAwake, linkedAncestor,
                noTaskOnPath, historyIndex, historyStates, periodPathLog};
        for (int i = 0; i < all.length; i++) {
            if (all[i] == null) {
                return "fact #" + i;
            }
        }
        return null;
    }
}
