package dev.crowdtree.statetree.compiled;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

/**
 * The tables of a {@link CompiledStateTree} (see its layout): private arrays, each read one element
 * at a time through the accessor of the same name ({@code stateParent(s)}; node arrays by
 * {@code task(k)}, {@code condition(i)}, {@code evaluator(i)}, ...), so that no code outside this
 * class can write them. The accessors are trivial and final, and C2 inlines them into the runtimes'
 * loops: they cost nothing over a field's array read (measured, issue 22). The tree extends this
 * class so that its readers say {@code tree.stateParent(s)}.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
abstract class TreeTables {
    private final String[] stateName;
    private final String[] statePath;
    private final String[] printableStatePath;
    private final short[] stateParent;
    private final byte[] stateDepth;
    private final short[] stateSubtreeEnd;
    private final byte[] stateType;
    private final byte[] stateSelection;
    private final short[] stateEnterConditionsBegin;
    private final short[] stateEnterConditionsNum;
    private final short[] stateTransitionsBegin;
    private final short[] stateTransitionsNum;
    private final short[] stateTasksBegin;
    private final short[] stateTasksNum;
    private final byte[] stateTriggerMask;
    private final boolean[] stateTicks;
    private final boolean[] stateTicking;
    private final boolean[] stateAlwaysAwake;
    private final int[] stateAwakeGroup;
    private final int[] stateAwakeGroupsBegin;
    private final int[] statePathTimersBegin;
    private final short[] pathTimerTasks;
    private final int[] statePathBegin;
    private final short[] pathStates;
    private final short[] stateLinkedParamsBegin;
    private final short[] stateLinkedParamsNum;
    private final float[] stateWeight;
    private final short[] stateConsiderationsBegin;
    private final short[] stateConsiderationsNum;
    private final ValueInput[] considerationInput;
    private final float[] considerationMin;
    private final float[] considerationMax;
    private final byte[] considerationCurve;
    private final float[] considerationThreshold;
    private final ValueType[] linkedParamType;
    private final int[] linkedParamSlot;
    private final ValueInput[] linkedParamValue;
    private final short[] transitionSource;
    private final byte[] transitionTrigger;
    private final int[] transitionEvent;
    private final byte[] transitionType;
    private final short[] transitionTarget;
    private final short[] transitionConditionsBegin;
    private final short[] transitionConditionsNum;
    private final float[] transitionDelay;
    private final float[] transitionDelayVariance;
    private final byte[] transitionPriority;
    private final byte[] transitionDeclaredIndex;
    private final boolean[] transitionConsumesEvent;
    private final boolean[] transitionReactivates;
    /** Per transition: the first of its declared transition's compiled ones, and the one after the last. */
    private final short[] transitionGateKey, transitionGroupEnd;
    private final Condition[] conditions;
    private final Task[] tasks;
    private final short[] taskState;
    private final String[] taskName;
    private final String[] printableTaskName;
    private final boolean[] taskReselect;
    private final boolean[] taskConsidered;
    private final int[] taskDoneSlot;
    private final boolean[] stateCompletionAll;
    private final boolean[] stateEnabled;
    private final TimerKind[] taskTimer;
    private final int[] taskTimerValueSlot;
    private final int[] taskTimerDueSlot;
    private final Evaluator[] evaluators;
    private final Evaluator[] evaluatorsEveryTick;
    private final Evaluator[] evaluatorsWhenAwake;
    private final String[] paramName;
    private final ValueType[] paramType;
    private final double[] paramDefault;
    private final int[] paramSlot;
    private final boolean[] paramEntity;
    private final int[] paramGenerationSlot;
    private final String[] floatSlotNames;
    private final String[] intSlotNames;
    private final String[] boolSlotNames;

    /** Freezes what {@code b} collected and what the compiler's fact pass derived ({@link TreeFacts}). */
    TreeTables(CompiledTreeBuilder b) {
        TreeFacts f = b.facts;
        stateName = b.stateName.toArray(new String[0]);
        statePath = b.statePath.toArray(new String[0]);
        printableStatePath = printable(statePath);
        stateParent = Freeze.shorts(b.stateParent);
        stateDepth = Freeze.bytes(b.stateDepth);
        stateSubtreeEnd = Freeze.shorts(b.stateSubtreeEnd);
        stateType = Freeze.bytes(b.stateType);
        stateSelection = Freeze.bytes(b.stateSelection);
        stateEnterConditionsBegin = Freeze.shorts(b.stateEnterConditionsBegin);
        stateEnterConditionsNum = Freeze.shorts(b.stateEnterConditionsNum);
        stateTransitionsBegin = Freeze.shorts(b.stateTransitionsBegin);
        stateTransitionsNum = Freeze.counts(b.stateTransitionsBegin, b.transitionSource.size());
        stateTasksBegin = Freeze.shorts(b.stateTasksBegin);
        stateTasksNum = Freeze.counts(b.stateTasksBegin, b.tasks.size());
        stateLinkedParamsBegin = Freeze.shorts(b.stateLinkedParamsBegin);
        stateLinkedParamsNum = Freeze.counts(b.stateLinkedParamsBegin, b.linkedParamType.size());
        stateWeight = Freeze.floats(b.stateWeight);
        stateConsiderationsBegin = Freeze.shorts(b.stateConsiderationsBegin);
        stateConsiderationsNum = Freeze.counts(b.stateConsiderationsBegin, b.considerationInput.size());
        considerationInput = b.considerationInput.toArray(new ValueInput[0]);
        considerationMin = Freeze.floats(b.considerationMin);
        considerationMax = Freeze.floats(b.considerationMax);
        considerationCurve = Freeze.bytes(b.considerationCurve);
        considerationThreshold = Freeze.floats(b.considerationThreshold);
        linkedParamType = b.linkedParamType.toArray(new ValueType[0]);
        linkedParamSlot = Freeze.ints(b.linkedParamSlot);
        linkedParamValue = b.linkedParamValue.toArray(new ValueInput[0]);
        transitionSource = Freeze.shorts(b.transitionSource);
        transitionTrigger = Freeze.bytes(b.transitionTrigger);
        transitionEvent = Freeze.ints(b.transitionEvent);
        transitionType = Freeze.bytes(b.transitionType);
        transitionTarget = Freeze.shorts(b.transitionTarget);
        transitionConditionsBegin = Freeze.shorts(b.transitionConditionsBegin);
        transitionConditionsNum = Freeze.shorts(b.transitionConditionsNum);
        transitionDelay = Freeze.floats(b.transitionDelay);
        transitionDelayVariance = Freeze.floats(b.transitionDelayVariance);
        transitionPriority = Freeze.bytes(b.transitionPriority);
        transitionDeclaredIndex = Freeze.bytes(b.transitionDeclaredIndex);
        transitionGateKey = new short[transitionDeclaredIndex.length];
        transitionGroupEnd = new short[transitionDeclaredIndex.length];
        for (int t = 0; t < transitionDeclaredIndex.length; t++) {
            boolean sameDeclared = t > 0 && transitionSource[t] == transitionSource[t - 1]
                    && transitionDeclaredIndex[t] == transitionDeclaredIndex[t - 1];
            transitionGateKey[t] = sameDeclared ? transitionGateKey[t - 1] : (short) t;
        }
        for (int t = transitionDeclaredIndex.length - 1; t >= 0; t--) {
            boolean nextSame = t + 1 < transitionDeclaredIndex.length && transitionGateKey[t + 1] == transitionGateKey[t];
            transitionGroupEnd[t] = nextSame ? transitionGroupEnd[t + 1] : (short) (t + 1);
        }
        transitionConsumesEvent = Freeze.booleans(b.transitionConsumesEvent);
        transitionReactivates = Freeze.booleans(b.transitionReactivates);
        conditions = b.conditions.toArray(new Condition[0]);
        tasks = b.tasks.toArray(new Task[0]);
        taskState = Freeze.shorts(b.taskState);
        taskName = b.taskName.toArray(new String[0]);
        printableTaskName = printable(taskName);
        taskReselect = Freeze.booleans(b.taskReselect);
        taskConsidered = Freeze.booleans(b.taskConsidered);
        taskDoneSlot = Freeze.ints(b.taskDoneSlot);
        stateCompletionAll = Freeze.booleans(b.stateCompletionAll);
        stateEnabled = Freeze.booleans(b.stateEnabled);
        evaluators = b.evaluators.toArray(new Evaluator[0]);
        paramName = b.paramName.toArray(new String[0]);
        paramType = b.paramType.toArray(new ValueType[0]);
        paramDefault = Freeze.doubles(b.paramDefault);
        paramSlot = Freeze.ints(b.paramSlot);
        paramEntity = Freeze.booleans(b.paramEntity);
        paramGenerationSlot = Freeze.ints(b.paramGenerationSlot);
        floatSlotNames = b.slotNames.get(ValueType.FLOAT.ordinal()).toArray(new String[0]);
        intSlotNames = b.slotNames.get(ValueType.INT.ordinal()).toArray(new String[0]);
        boolSlotNames = b.slotNames.get(ValueType.BOOL.ordinal()).toArray(new String[0]);
        stateTriggerMask = f.stateTriggerMask;
        stateTicks = f.stateTicks;
        stateTicking = f.stateTicking;
        stateAlwaysAwake = f.stateAlwaysAwake;
        taskTimer = f.taskTimer;
        taskTimerValueSlot = f.taskTimerValueSlot;
        taskTimerDueSlot = f.taskTimerDueSlot;
        evaluatorsEveryTick = f.evaluatorsEveryTick;
        evaluatorsWhenAwake = f.evaluatorsWhenAwake;
        stateAwakeGroup = f.stateAwakeGroup;
        stateAwakeGroupsBegin = f.stateAwakeGroupsBegin;
        statePathTimersBegin = f.statePathTimersBegin;
        pathTimerTasks = f.pathTimerTasks;
        statePathBegin = f.statePathBegin;
        pathStates = f.pathStates;
    }

    public final String stateName(int s) {
        return stateName[s];
    }

    /** Names from the root joined by '/'. */
    public final String statePath(int s) {
        return statePath[s];
    }

    /** {@link #statePath} as a trace line prints it ({@link Printable#escape}), escaped once per tree. */
    public final String printableStatePath(int s) {
        return printableStatePath[s];
    }

    private static String[] printable(String[] names) {
        String[] out = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = Printable.escape(names[i]);
        }
        return out;
    }

    public final short stateParent(int s) {
        return stateParent[s];
    }

    /** 0 for the root. */
    public final byte stateDepth(int s) {
        return stateDepth[s];
    }

    /** Exclusive end of the state's DFS range (its next sibling, if it has one). */
    public final short stateSubtreeEnd(int s) {
        return stateSubtreeEnd[s];
    }

    public final byte stateType(int s) {
        return stateType[s];
    }

    public final byte stateSelection(int s) {
        return stateSelection[s];
    }

    public final short stateEnterConditionsBegin(int s) {
        return stateEnterConditionsBegin[s];
    }

    public final short stateEnterConditionsNum(int s) {
        return stateEnterConditionsNum[s];
    }

    public final short stateTransitionsBegin(int s) {
        return stateTransitionsBegin[s];
    }

    public final short stateTransitionsNum(int s) {
        return stateTransitionsNum[s];
    }

    public final short stateTasksBegin(int s) {
        return stateTasksBegin[s];
    }

    public final short stateTasksNum(int s) {
        return stateTasksNum[s];
    }

    /** OR of the triggers of the state's transitions. */
    public final byte stateTriggerMask(int s) {
        return stateTriggerMask[s];
    }

    /** Whether any task of the state has a tick. */
    public final boolean stateTicks(int s) {
        return stateTicks[s];
    }

    /**
     * Whether the state needs a tick every tick: a task of it ticks, or it has an {@code onTick} transition
     * (SEMANTICS.md section 11); the root also when a global task ticks; a task-less path's state (rule U6).
     */
    public final boolean stateTicking(int s) {
        return stateTicking[s];
    }

    /**
     * Whether an agent whose last active state is this one is awake at every tick: the state or one
     * of its ancestors is {@link #stateTicking(int)}. Otherwise the agent may sleep.
     */
    public final boolean stateAlwaysAwake(int s) {
        return stateAlwaysAwake[s];
    }

    /**
     * Group of each {@link #stateAlwaysAwake(int)} state (-1 for the others): a ticking state has a group of
     * its own, numbered in id order; a state awake only through a ticking ancestor shares its parent's
     * group (its agents need nothing the ancestor's do not, so a transition between such siblings
     * moves no agent between groups). And, for s in {@code 0..stateCount}, the number of groups of
     * the ticking states with an id below s, so that for a ticking state s the agents whose path
     * contains s are the groups {@code [stateAwakeGroupsBegin(s), stateAwakeGroupsBegin(stateSubtreeEnd(s)))}.
     */
    public final int stateAwakeGroup(int s) {
        return stateAwakeGroup[s];
    }

    public final int stateAwakeGroupsBegin(int s) {
        return stateAwakeGroupsBegin[s];
    }

    /**
     * The tasks with a timer on the path from the root to state s (the global tasks' first), in task order:
     * {@code pathTimerTasks[statePathTimersBegin[s] .. statePathTimersBegin[s + 1])}.
     */
    public final int statePathTimersBegin(int s) {
        return statePathTimersBegin[s];
    }

    public final short pathTimerTasks(int k) {
        return pathTimerTasks[k];
    }

    /**
     * The path from the root to state {@code s}, root first, read from a table (no walk up the
     * parents): {@code pathStates(statePathBegin(s) + d)} is the state at depth d, for
     * {@code d <= stateDepth(s)}.
     */
    public final int statePathBegin(int s) {
        return statePathBegin[s];
    }

    public final short pathStates(int k) {
        return pathStates[k];
    }

    public final short stateLinkedParamsBegin(int s) {
        return stateLinkedParamsBegin[s];
    }

    public final short stateLinkedParamsNum(int s) {
        return stateLinkedParamsNum[s];
    }

    /** Weight of each state in its parent's utility selection (1 unless given). */
    public final float stateWeight(int s) {
        return stateWeight[s];
    }

    /** The state's utility considerations: {@code [stateConsiderationsBegin(s), + stateConsiderationsNum(s))}. */
    public final short stateConsiderationsBegin(int s) {
        return stateConsiderationsBegin[s];
    }

    public final short stateConsiderationsNum(int s) {
        return stateConsiderationsNum[s];
    }

    public final ValueInput considerationInput(int i) {
        return considerationInput[i];
    }

    public final float considerationMin(int i) {
        return considerationMin[i];
    }

    public final float considerationMax(int i) {
        return considerationMax[i];
    }

    /** {@link Vocabulary.Curve#code}. */
    public final byte considerationCurve(int i) {
        return considerationCurve[i];
    }

    public final float considerationThreshold(int i) {
        return considerationThreshold[i];
    }

    public final ValueType linkedParamType(int i) {
        return linkedParamType[i];
    }

    public final int linkedParamSlot(int i) {
        return linkedParamSlot[i];
    }

    public final ValueInput linkedParamValue(int i) {
        return linkedParamValue[i];
    }

    public final short transitionSource(int t) {
        return transitionSource[t];
    }

    public final byte transitionTrigger(int t) {
        return transitionTrigger[t];
    }

    /** Event tag id for {@link CompiledStateTree#TRIGGER_EVENT}, else -1. */
    public final int transitionEvent(int t) {
        return transitionEvent[t];
    }

    public final byte transitionType(int t) {
        return transitionType[t];
    }

    /** Target state for {@link CompiledStateTree#GOTO}, else {@link CompiledStateTree#INVALID}. */
    public final short transitionTarget(int t) {
        return transitionTarget[t];
    }

    public final short transitionConditionsBegin(int t) {
        return transitionConditionsBegin[t];
    }

    public final short transitionConditionsNum(int t) {
        return transitionConditionsNum[t];
    }

    /** Gate delay in seconds (0 = not gated). */
    public final float transitionDelay(int t) {
        return transitionDelay[t];
    }

    /** Gate variance in seconds: the delay is {@code delay + variance * u}, u uniform in [-1, 1), at least 0. */
    public final float transitionDelayVariance(int t) {
        return transitionDelayVariance[t];
    }

    /** Priority of each transition ({@link Vocabulary.Priority#code}: a higher code outranks a lower one). */
    public final byte transitionPriority(int t) {
        return transitionPriority[t];
    }

    /** Each transition's index in its state's {@code transitions} as the asset declares it (disabled ones counted). */
    public final byte transitionDeclaredIndex(int t) {
        return transitionDeclaredIndex[t];
    }

    /**
     * How many transitions the asset declares that the tree runs (not the disabled ones): a target
     * that tries several states ({@code @next-selectable}) is one declared transition compiled as
     * one per state, next to each other with the same source and declared index.
     */
    public final int declaredTransitionCount() {
        int n = 0;
        for (int t = 0; t < transitionGateKey.length; t++) {
            if (transitionGateKey[t] == t) { // the first compiled one of its declared transition
                n++;
            }
        }
        return n;
    }

    /** onEvent transitions: whether firing consumes the event ({@code consumeEvent}, default true). */
    public final boolean transitionConsumesEvent(int t) {
        return transitionConsumesEvent[t];
    }

    /**
     * The gate of transition {@code t}: the first compiled transition of the declared one it belongs
     * to. A target that tries several states ({@code @next-selectable}, rules J2, J5) is compiled as
     * one transition per state, next to each other; they share one gate (one delay, drawn once), so
     * the states are tried in order when it opens.
     */
    public final int transitionGateKey(int t) {
        return transitionGateKey[t];
    }

    /** The transition after the last compiled one of the declared transition {@code t} belongs to. */
    public final int transitionGroupEnd(int t) {
        return transitionGroupEnd[t];
    }

    /**
     * Whether transition {@code t} reactivates its target (rule U11, {@code "reactivateTarget": true}):
     * the target and the states below it are exited and entered as changed, even where they stay
     * active.
     */
    public final boolean transitionReactivates(int t) {
        return transitionReactivates[t];
    }

    /** Top-level conditions, referenced by enter-condition and transition-condition ranges (ANDed). */
    public final Condition condition(int i) {
        return conditions[i];
    }

    /** Tasks in DFS order (ancestor tasks before descendant tasks, declared order within a state). */
    public final Task task(int k) {
        return tasks[k];
    }

    public final short taskState(int k) {
        return taskState[k];
    }

    /** Task display name: its name, with {@code #i} appended when its state has two of that name. */
    public final String taskName(int k) {
        return taskName[k];
    }

    /** {@link #taskName} as a trace line prints it ({@link Printable#escape}), escaped once per tree. */
    public final String printableTaskName(int k) {
        return printableTaskName[k];
    }

    /** Unreal's {@code bShouldStateChangeOnReselect}. */
    public final boolean taskReselect(int k) {
        return taskReselect[k];
    }

    /**
     * Whether each task counts for its state's completion ({@code considerForCompletion}, default
     * true); a task that does not is a background task: what it reports on enter or on tick never
     * completes or fails its state.
     */
    public final boolean taskConsidered(int k) {
        return taskConsidered[k];
    }

    /** The bool slot of each task's runtime-owned "finished" flag in a {@code completion: all} state, else -1. */
    public final int taskDoneSlot(int k) {
        return taskDoneSlot[k];
    }

    /** Whether each state completes when all its counted tasks have succeeded ({@code "completion": "all"}). */
    public final boolean stateCompletionAll(int s) {
        return stateCompletionAll[s];
    }

    /** False for a disabled state ({@code "enabled": false} or in one), which is never selected (SEMANTICS.md N2). */
    public final boolean stateEnabled(int s) {
        return stateEnabled[s];
    }

    /** The kind of each task's timer ({@link TimerKind}). */
    public final TimerKind taskTimer(int k) {
        return taskTimer[k];
    }

    /** Each task's timer slots (float value, int due), -1 without a timer. */
    public final int taskTimerValueSlot(int k) {
        return taskTimerValueSlot[k];
    }

    public final int taskTimerDueSlot(int k) {
        return taskTimerDueSlot[k];
    }

    public final Evaluator evaluator(int i) {
        return evaluators[i];
    }

    /** The evaluators ticked for every running agent ({@link Evaluator.Schedule#EVERY_TICK}). */
    public final Evaluator everyTickEvaluator(int i) {
        return evaluatorsEveryTick[i];
    }

    /** The evaluators ticked only for awake agents ({@link Evaluator.Schedule#WHEN_AWAKE}). */
    public final Evaluator whenAwakeEvaluator(int i) {
        return evaluatorsWhenAwake[i];
    }

    public final String paramName(int p) {
        return paramName[p];
    }

    public final ValueType paramType(int p) {
        return paramType[p];
    }

    public final double paramDefault(int p) {
        return paramDefault[p];
    }

    public final int paramSlot(int p) {
        return paramSlot[p];
    }

    /** Whether each parameter is an {@code entity} (an agent id, -1 for none). */
    public final boolean paramEntity(int p) {
        return paramEntity[p];
    }

    /** Entity parameters: the int slot holding the agent's generation (its handle, with the id); else -1. */
    public final int paramGenerationSlot(int p) {
        return paramGenerationSlot[p];
    }

    /** A readable name per slot, for column names and diagnostics. */
    public final String floatSlotNames(int i) {
        return floatSlotNames[i];
    }

    public final String intSlotNames(int i) {
        return intSlotNames[i];
    }

    public final String boolSlotNames(int i) {
        return boolSlotNames[i];
    }
    /** The number of tasks (global tasks first). */
    public final int taskCount() {
        return tasks.length;
    }

    /** The number of top-level conditions. */
    public final int conditionCount() {
        return conditions.length;
    }

    public final int evaluatorCount() {
        return evaluators.length;
    }

    public final int everyTickEvaluatorCount() {
        return evaluatorsEveryTick.length;
    }

    public final int whenAwakeEvaluatorCount() {
        return evaluatorsWhenAwake.length;
    }

    /** The length of {@link #pathTimerTasks(int)}. */
    public final int pathTimerTaskCount() {
        return pathTimerTasks.length;
    }

    public final int considerationCount() {
        return considerationInput.length;
    }

    public final int linkedParamCount() {
        return linkedParamType.length;
    }

    /** The number of the tree's parameters. */
    public final int paramCount() {
        return paramName.length;
    }
}
