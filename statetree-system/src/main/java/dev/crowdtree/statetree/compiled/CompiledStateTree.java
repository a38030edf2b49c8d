package dev.crowdtree.statetree.compiled;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable compiled StateTree: flat arrays addressed by 16-bit indices, in the spirit of
 * Unreal's {@code FCompactStateTreeState} / {@code FCompactStateTransition}.
 *
 * <p>Layout: states are numbered in depth-first pre-order, root = 0, so the subtree of state
 * {@code s} is the id range {@code [s, stateSubtreeEnd[s])}, the next sibling of {@code s} is
 * {@code stateSubtreeEnd[s]}, and every state's tasks have smaller indices than its descendants'
 * (the invariant Unreal's {@code EnterStateFailedTaskIndex} test relies on). Linked states are
 * compiled with a private copy of their subtree as their only child, so the tree is a plain tree:
 * an active path is always the parent chain of its last state, and "is {@code a} on the path that
 * ends at {@code leaf}" is the O(1) test {@link #isAncestorOrSelf}.
 *
 * <p>All arrays are public for the runtimes' hot loops and must be treated as read-only. A compiled
 * tree is independent of any world: per-agent data lives in slots the runtime maps to SoA columns.
 * THREADING: immutable after construction; safe to share.
 */
public final class CompiledStateTree {
    /** Longest active path (Unreal's {@code FStateTreeActiveStates::MaxStates}). */
    public static final int MAX_DEPTH = 8;
    /** Most states a compiled tree may have (16-bit signed indices). */
    public static final int MAX_STATES = Short.MAX_VALUE;
    /** Invalid state / transition / task index. */
    public static final short INVALID = -1;

    /** State types. */
    public static final byte STATE = 0, GROUP = 1, LINKED = 2, SUBTREE = 3;
    /** Selection behaviours ({@link Vocabulary.Selection}). */
    public static final byte SELECT_CHILDREN_IN_ORDER = 0, TRY_ENTER = 1, SELECT_AT_RANDOM = 2,
            SELECT_HIGHEST_UTILITY = 3, SELECT_WEIGHTED_BY_UTILITY = 4;
    /** Transition trigger flags ({@link #TRIGGER_COMPLETED} = succeeded | failed). */
    public static final byte TRIGGER_SUCCEEDED = 1, TRIGGER_FAILED = 2, TRIGGER_COMPLETED = 3,
            TRIGGER_TICK = 4, TRIGGER_EVENT = 8;
    /** Transition types: go to a state (also {@code @next}), {@code @none}, {@code @succeeded}, {@code @failed}. */
    public static final byte GOTO = 0, NOT_SET = 1, TO_SUCCEEDED = 2, TO_FAILED = 3;
    /** Random stream ids from this value up are the gate delays of transitions (base + index). */
    public static final int GATE_STREAM_BASE = 1 << 20;
    /** Utility consideration curves ({@link Vocabulary.Curve}). */
    public static final byte CURVE_LINEAR = 0, CURVE_INVERSE = 1, CURVE_QUADRATIC = 2, CURVE_STEP = 3;
    /** Random stream ids from this value up order the children of random selections (base + state). */
    public static final int SELECT_STREAM_BASE = 2 << 20;

    public final String name;
    public final String source;

    // ---- states -------------------------------------------------------------------------------
    public final int stateCount;
    public final String[] stateName;
    /** Names from the root joined by '/'. */
    public final String[] statePath;
    public final short[] stateParent;
    /** 0 for the root. */
    public final byte[] stateDepth;
    /** Exclusive end of the state's DFS range (its next sibling, if it has one). */
    public final short[] stateSubtreeEnd;
    public final byte[] stateType;
    public final byte[] stateSelection;
    public final short[] stateEnterConditionsBegin;
    public final short[] stateEnterConditionsNum;
    public final short[] stateTransitionsBegin;
    public final short[] stateTransitionsNum;
    public final short[] stateTasksBegin;
    public final short[] stateTasksNum;
    /** OR of the triggers of the state's transitions. */
    public final byte[] stateTriggerMask;
    /** Whether any task of the state has a tick. */
    public final boolean[] stateTicks;
    /**
     * Whether the state needs a tick every tick: a task of it ticks, or it has an {@code onTick} transition
     * (SEMANTICS.md section 11); the root also when a global task ticks; a task-less path's state (rule U6).
     */
    public final boolean[] stateTicking;
    /**
     * Whether an agent whose last active state is this one is awake at every tick: the state or one
     * of its ancestors is {@link #stateTicking}. Otherwise the agent may sleep.
     */
    public final boolean[] stateAlwaysAwake;
    /** Number of {@link #stateTicking} states among the always-awake ones: the runtime's groups of always-awake agents. */
    public final int awakeGroupCount;
    /**
     * Group of each {@link #stateAlwaysAwake} state (-1 for the others): a ticking state has a group of
     * its own, numbered in id order; a state awake only through a ticking ancestor shares its parent's
     * group (its agents need nothing the ancestor's do not, so a transition between such siblings
     * moves no agent between groups). And, for s in {@code 0..stateCount}, the number of groups of
     * the ticking states with an id below s, so that for a ticking state s the agents whose path
     * contains s are the groups {@code [stateAwakeGroupsBegin[s], stateAwakeGroupsBegin[stateSubtreeEnd[s]])}.
     */
    public final int[] stateAwakeGroup;
    public final int[] stateAwakeGroupsBegin;
    /**
     * The tasks with a timer on the path from the root to state s (the global tasks' first), in task order:
     * {@code pathTimerTasks[statePathTimersBegin[s] .. statePathTimersBegin[s + 1])}.
     */
    public final int[] statePathTimersBegin;
    public final short[] pathTimerTasks;
    public final short[] stateLinkedParamsBegin;
    public final short[] stateLinkedParamsNum;

    /** Weight of each state in its parent's utility selection (1 unless given). */
    public final float[] stateWeight;
    /** The state's utility considerations: {@code [stateConsiderationsBegin[s], + stateConsiderationsNum[s])}. */
    public final short[] stateConsiderationsBegin;
    public final short[] stateConsiderationsNum;
    public final ValueInput[] considerationInput;
    public final float[] considerationMin;
    public final float[] considerationMax;
    /** {@link Vocabulary.Curve#code}. */
    public final byte[] considerationCurve;
    public final float[] considerationThreshold;

    // ---- linked-state parameters (copied into the subtree copy's parameter slots on enter) ----
    public final ValueType[] linkedParamType;
    public final int[] linkedParamSlot;
    public final ValueInput[] linkedParamValue;

    // ---- transitions --------------------------------------------------------------------------
    public final int transitionCount;
    public final short[] transitionSource;
    public final byte[] transitionTrigger;
    /** Event tag id for {@link #TRIGGER_EVENT}, else -1. */
    public final int[] transitionEvent;
    public final byte[] transitionType;
    /** Target state for {@link #GOTO}, else {@link #INVALID}. */
    public final short[] transitionTarget;
    public final short[] transitionConditionsBegin;
    public final short[] transitionConditionsNum;
    /** Gate delay in seconds (0 = not gated). */
    public final float[] transitionDelay;
    /** Gate variance in seconds: the delay is {@code delay + variance * u}, u uniform in [-1, 1), at least 0. */
    public final float[] transitionDelayVariance;
    /** Priority of each transition ({@link Vocabulary.Priority#code}: a higher code outranks a lower one). */
    public final byte[] transitionPriority;
    /** Each transition's index in its state's {@code transitions} as the asset declares it (disabled ones counted). */
    public final byte[] transitionDeclaredIndex;
    /** onEvent transitions: whether firing consumes the event ({@code consumeEvent}, default true). */
    public final boolean[] transitionConsumesEvent;
    /** The event payload fields the transitions declare, and which each transition needs. */
    public final PayloadSchema payloads;
    /** Whether any transition has a priority other than normal (the runtimes' scan must rank them). */
    public final boolean hasPriorities;
    /** Whether each transition is gated: a delay or a variance above 0. */
    private final boolean[] transitionGated;

    // ---- nodes --------------------------------------------------------------------------------
    /** Top-level conditions, referenced by enter-condition and transition-condition ranges (ANDed). */
    public final Condition[] conditions;
    /** Tasks in DFS order (ancestor tasks before descendant tasks, declared order within a state). */
    public final Task[] tasks;
    /** Tasks {@code 0 .. globalTaskCount-1} are the global tasks, ahead of the root's ({@link #taskState} INVALID). */
    public final int globalTaskCount;
    public final short[] taskState;
    /** Task display name: its name, with {@code #i} appended when its state has two of that name. */
    public final String[] taskName;
    /** Unreal's {@code bShouldStateChangeOnReselect}. */
    public final boolean[] taskReselect;
    /**
     * Whether each task counts for its state's completion ({@code considerForCompletion}, default
     * true); a task that does not is a background task: what it reports on enter or on tick never
     * completes or fails its state.
     */
    public final boolean[] taskConsidered;
    /** The bool slot of each task's runtime-owned "finished" flag in a {@code completion: all} state, else -1. */
    public final int[] taskDoneSlot;
    /** Whether each state completes when all its counted tasks have succeeded ({@code "completion": "all"}). */
    public final boolean[] stateCompletionAll;
    /** False for a disabled state ({@code "enabled": false} or in one), which is never selected (SEMANTICS.md N2). */
    public final boolean[] stateEnabled;
    /** The scan order and the composite states' rules (docs/SEMANTICS.md section 4.1). */
    public final ScanRules scanRules;
    /** What the tree's rules need under {@code "rules": "unreal-5.8"} (docs/SEMANTICS.md section 20). */
    public final UnrealRules unreal;
    /** The history states and what they remember (docs/SEMANTICS.md section 17). */
    public final HistoryStates history;
    /** The states' required events to enter (docs/SEMANTICS.md section 18, rules V1-V6). */
    public final RequiredEvents requiredEvents;
    /** The states' tick periods (docs/SEMANTICS.md section 19, rules Z1-Z5). */
    public final TickPeriods tickPeriods;
    /** The states' own parameters (docs/SEMANTICS.md section 19, rules X1-X6). */
    public final StateParameters stateParameters;
    /** The kind of each task's timer ({@link TimerKind}). */
    public final TimerKind[] taskTimer;
    /** Each task's timer slots (float value, int due), -1 without a timer. */
    public final int[] taskTimerValueSlot;
    public final int[] taskTimerDueSlot;
    public final Evaluator[] evaluators;
    /** The evaluators ticked for every running agent ({@link Evaluator.Schedule#EVERY_TICK}). */
    public final Evaluator[] evaluatorsEveryTick;
    /** The evaluators ticked only for awake agents ({@link Evaluator.Schedule#WHEN_AWAKE}). */
    public final Evaluator[] evaluatorsWhenAwake;
    /**
     * Deepest condition nesting anywhere in the tree, including conditions held by tasks: a runtime
     * must provide at least this many scratch arrays ({@link dev.crowdtree.statetree.node.NodeContext#ensureScratch}).
     */
    public final int maxConditionDepth;

    // ---- parameters and slots -----------------------------------------------------------------
    public final String[] paramName;
    public final ValueType[] paramType;
    public final double[] paramDefault;
    public final int[] paramSlot;
    /** The value names of each {@code enum} parameter (its slot holds an index), null for other types. */
    private final String[][] paramEnumValues;
    /** Whether each parameter is an {@code entity} (an agent id, -1 for none). */
    public final boolean[] paramEntity;
    /** Entity parameters: the int slot holding the agent's generation (its handle, with the id); else -1. */
    public final int[] paramGenerationSlot;
    public final int floatSlots;
    public final int intSlots;
    public final int boolSlots;
    /** A readable name per slot, for column names and diagnostics. */
    public final String[] floatSlotNames;
    public final String[] intSlotNames;
    public final String[] boolSlotNames;

    // ---- host data ----------------------------------------------------------------------------
    /** The host table columns the tree's nodes read or write; a node's column handle is a position here. */
    public final List<HostColumn> hostColumns;
    /** The host objects the tree's nodes need; {@link External#index} is the position here. */
    public final List<External<?>> externals;
    /** By host column name: the node that first declared it, in words (for "needed by" messages). */
    public final Map<String, String> hostColumnUsers;
    /** By external name: the node that first declared it, in words. */
    public final Map<String, String> externalUsers;
    /** The names of the node types the tree uses (tasks, conditions, evaluators), in order of first use. */
    public final java.util.Set<String> nodeTypes;
    /** The compiler's authoring warnings about this tree, in the order found (none stops it from running). */
    public final List<CompileWarning> warnings;

    private final java.util.concurrent.atomic.LongAdder divisionsByZero;

    // ---- event tags ---------------------------------------------------------------------------
    private final String[] tagNames;
    private final Map<String, Integer> tagIds;
    /** {@code tagCovers[t][e]}: a transition on tag t matches an event with tag e (e is t or below it). */
    private final boolean[][] tagCovers;

    /**
     * A builder for a new tree; the compiler's assembly pass is its one user.
     *
     * @hidden
     */
    public static CompiledTreeBuilder builder(String name, String source) {
        return new CompiledTreeBuilder(name, source);
    }

    /**
     * Freezes what {@code b} collected and what the compiler's fact pass derived ({@link TreeFacts}),
     * computing nothing (see {@link CompiledTreeBuilder#build}).
     */
    CompiledStateTree(CompiledTreeBuilder b) {
        name = b.name;
        source = b.source;
        stateCount = b.stateName.size();
        stateName = b.stateName.toArray(new String[0]);
        statePath = b.statePath.toArray(new String[0]);
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
        transitionCount = b.transitionSource.size();
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
        transitionConsumesEvent = Freeze.booleans(b.transitionConsumesEvent);
        TreeFacts f = b.facts;
        hasPriorities = f.hasPriorities;
        transitionGated = f.transitionGated;
        conditions = b.conditions.toArray(new Condition[0]);
        tasks = b.tasks.toArray(new Task[0]);
        taskState = Freeze.shorts(b.taskState);
        globalTaskCount = b.globalTaskCount;
        taskName = b.taskName.toArray(new String[0]);
        taskReselect = Freeze.booleans(b.taskReselect);
        taskConsidered = Freeze.booleans(b.taskConsidered);
        taskDoneSlot = Freeze.ints(b.taskDoneSlot);
        stateCompletionAll = Freeze.booleans(b.stateCompletionAll);
        stateEnabled = Freeze.booleans(b.stateEnabled);
        scanRules = new ScanRules(Freeze.bytes(b.stateComposite), b.rootFirst, f.hasComposites);
        unreal = new UnrealRules(b.unrealRules, f.linkedAncestor, f.noTaskOnPath, f.anyNoTaskPath);
        history = new HistoryStates(Freeze.bytes(b.stateHistory), f.historyIndex, f.historyStates);
        tickPeriods = new TickPeriods(Freeze.bytes(b.statePeriodLog), f.periodPathLog, f.anyPeriod);
        stateParameters = new StateParameters(b);
        evaluators = b.evaluators.toArray(new Evaluator[0]);
        paramName = b.paramName.toArray(new String[0]);
        paramType = b.paramType.toArray(new ValueType[0]);
        paramDefault = Freeze.doubles(b.paramDefault);
        paramSlot = Freeze.ints(b.paramSlot);
        paramEnumValues = b.paramEnumValues.toArray(new String[0][]);
        paramEntity = Freeze.booleans(b.paramEntity);
        paramGenerationSlot = Freeze.ints(b.paramGenerationSlot);
        floatSlotNames = b.slotNames.get(ValueType.FLOAT.ordinal()).toArray(new String[0]);
        intSlotNames = b.slotNames.get(ValueType.INT.ordinal()).toArray(new String[0]);
        boolSlotNames = b.slotNames.get(ValueType.BOOL.ordinal()).toArray(new String[0]);
        floatSlots = floatSlotNames.length;
        intSlots = intSlotNames.length;
        boolSlots = boolSlotNames.length;
        tagNames = b.tags.keySet().toArray(new String[0]);
        payloads = new PayloadSchema(List.copyOf(b.payloadFields.keySet()), b.transitionPayloadFields,
                b.transitionPayloadTypes, b.requiredPayloadFields, b.requiredPayloadTypes);
        hostColumns = List.copyOf(b.hostColumns);
        divisionsByZero = b.divisionsByZero;
        externals = List.copyOf(b.externals);
        hostColumnUsers = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(b.hostColumnUsers));
        externalUsers = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(b.externalUsers));
        nodeTypes = Collections.unmodifiableSet(new java.util.LinkedHashSet<>(b.nodeTypes));
        warnings = List.copyOf(b.warnings);
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < tagNames.length; i++) {
            ids.put(tagNames[i], i);
        }
        tagIds = Collections.unmodifiableMap(ids);
        tagCovers = f.tagCovers;
        requiredEvents = new RequiredEvents(b, transitionCount, tagCovers, payloads);
        stateTriggerMask = f.stateTriggerMask;
        stateTicks = f.stateTicks;
        stateTicking = f.stateTicking;
        stateAlwaysAwake = f.stateAlwaysAwake;
        taskTimer = f.taskTimer;
        taskTimerValueSlot = f.taskTimerValueSlot;
        taskTimerDueSlot = f.taskTimerDueSlot;
        evaluatorsEveryTick = f.evaluatorsEveryTick;
        evaluatorsWhenAwake = f.evaluatorsWhenAwake;
        maxConditionDepth = b.maxConditionDepth;
        stateAwakeGroup = f.stateAwakeGroup;
        stateAwakeGroupsBegin = f.stateAwakeGroupsBegin;
        awakeGroupCount = stateAwakeGroupsBegin[stateCount];
        statePathTimersBegin = f.statePathTimersBegin;
        pathTimerTasks = f.pathTimerTasks;
    }

    /**
     * The gate time of gated transition {@code t} for an agent whose gate is armed at {@code tick}:
     * {@code max(0, delay + variance * (2u - 1))} with u in [0, 1) from the agent's counter-based
     * stream {@code GATE_STREAM_BASE + t} (docs/SEMANTICS.md, deviation Q-A1). The one definition of
     * the gate rule: both runtimes and the benchmark's peers call it.
     */
    public float gateDelay(int t, long seed, int agentId, long tick) {
        float u = CounterRng.uniform(seed, agentId, tick, GATE_STREAM_BASE + t);
        return Math.max(0f, transitionDelay[t] + transitionDelayVariance[t] * (2f * u - 1f));
    }

    /** Whether transition {@code t} is gated (a delay or a variance): the one definition of "gated". */
    public boolean isGated(int t) {
        return transitionGated[t];
    }

    /**
     * For a {@code completion: all} state {@code s}: whether the agent at {@code row} (bool slot
     * arrays {@code bools}) has finished every counted task of {@code s} (false without one).
     */
    public boolean allCountedDone(int s, byte[][] bools, int row) {
        boolean any = false;
        for (int k = stateTasksBegin[s], end = k + stateTasksNum[s]; k < end; k++) {
            if (taskConsidered[k]) {
                if (bools[taskDoneSlot[k]][row] == 0) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** Whether {@code a} is {@code s} or one of its ancestors (O(1), from the DFS ranges). */
    public boolean isAncestorOrSelf(int a, int s) {
        return a <= s && s < stateSubtreeEnd[a];
    }

    /** The ancestor of {@code s} at {@code depth} (0 = root); {@code depth <= stateDepth[s]}. */
    public int ancestorAt(int s, int depth) {
        int x = s;
        for (int d = stateDepth[s]; d > depth; d--) {
            x = stateParent[x];
        }
        return x;
    }

    /** Whether state {@code s} has children. */
    public boolean hasChildren(int s) {
        return stateSubtreeEnd[s] > s + 1;
    }

    /** The id of an event tag, or -1 if no node of this tree uses it. */
    public int tagId(String tag) {
        Integer id = tagIds.get(tag);
        return id == null ? -1 : id;
    }

    /**
     * Whether a transition on tag {@code transitionTag} matches an event tagged {@code eventTag}:
     * tags are hierarchical, so {@code Danger} matches {@code Danger}, {@code Danger.Fire} and
     * {@code Danger.Fire.Big}, not {@code DangerZone} (docs/SEMANTICS.md section 8).
     */
    public boolean tagMatches(int transitionTag, int eventTag) {
        return eventTag >= 0 && tagCovers[transitionTag][eventTag];
    }

    /**
     * The id an event tagged {@code tag} travels with: the tag's own id if the tree uses it, else its
     * nearest ancestor the tree uses ({@code Danger.Fire.Big} as {@code Danger.Fire}, or as
     * {@code Danger}), else -1 (no transition could match: the event is dropped).
     */
    public int eventTagId(String tag) {
        for (String t = tag; ; ) {
            Integer id = tagIds.get(t);
            if (id != null) {
                return id;
            }
            int dot = t.lastIndexOf('.');
            if (dot <= 0) {
                return -1;
            }
            t = t.substring(0, dot);
        }
    }

    /** The tag with id {@code id}. */
    public String tagName(int id) {
        return tagNames[id];
    }

    public List<String> tags() {
        return List.of(tagNames);
    }

    /** The state with this path, or -1. */
    public int stateByPath(String path) {
        for (int s = 0; s < stateCount; s++) {
            if (statePath[s].equals(path)) {
                return s;
            }
        }
        return -1;
    }

    /** The parameter named {@code name}, or -1. */
    public int paramIndex(String name) {
        return Arrays.asList(paramName).indexOf(name);
    }

    /**
     * {@link #paramIndex} for a runtime's {@code setParameter}: the same error in both runtimes when
     * the tree has no such parameter, naming the ones it has.
     */
    public int requireParam(String name) {
        int p = paramIndex(name);
        if (p < 0) {
            throw new IllegalArgumentException("tree '" + this.name + "' has no parameter '" + name + "'"
                    + stateParameters.hostNote(name, statePath) + "; its parameters are " + Arrays.toString(paramName));
        }
        return p;
    }

    /**
     * How many divisions by zero the tree's property functions have met, in every runtime that ran
     * it (each gave 0 instead of failing).
     */
    public long divisionsByZero() {
        return divisionsByZero.sum();
    }

    /** The value names of parameter {@code p} if it is an {@code enum}, else null. */
    public List<String> enumValues(int p) {
        return paramEnumValues[p] == null ? null : List.of(paramEnumValues[p]);
    }

    /**
     * The index of value {@code value} of enum parameter {@code name}, for a runtime's
     * {@code setParameter} by name: the same errors in both runtimes.
     */
    public int requireEnumValue(String name, String value) {
        int p = requireParam(name);
        if (paramEnumValues[p] == null) {
            throw new IllegalArgumentException("parameter '" + name + "' of tree '" + this.name + "' is "
                    + (paramEntity[p] ? "entity" : paramType[p].assetName()) + ", not an enum: give a number");
        }
        int index = Arrays.asList(paramEnumValues[p]).indexOf(value);
        if (index < 0) {
            throw new IllegalArgumentException("enum parameter '" + name + "' of tree '" + this.name + "' has no value '"
                    + value + "'; its values are " + Arrays.toString(paramEnumValues[p]));
        }
        return index;
    }

    /** Human-readable target of transition {@code t}: a state path or {@code @none/@succeeded/@failed}. */
    public String transitionTargetName(int t) {
        Vocabulary.Target special = Vocabulary.Target.ofType(transitionType[t]);
        return special != null ? special.keyword() : statePath[transitionTarget[t]];
    }

    @Override
    public String toString() {
        return "CompiledStateTree[" + name + ", " + stateCount + " states, " + transitionCount + " transitions, "
                + tasks.length + " tasks, " + evaluators.length + " evaluators]";
    }
}
