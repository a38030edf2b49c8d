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
 * {@code s} is the id range {@code [s, stateSubtreeEnd(s))}, the next sibling of {@code s} is
 * {@code stateSubtreeEnd(s)}, and every state's tasks have smaller indices than its descendants'
 * (the invariant Unreal's {@code EnterStateFailedTaskIndex} test relies on). Linked states are
 * compiled with a private copy of their subtree as their only child, so the tree is a plain tree:
 * an active path is always the parent chain of its last state, and "is {@code a} on the path that
 * ends at {@code leaf}" is the O(1) test {@link #isAncestorOrSelf}.
 *
 * <p>Immutable: the compiler derives every fact the runtimes need (its {@code RuntimeFactsPass}),
 * and the constructor only freezes what the compiler built. The tables are private arrays, read
 * one element at a time through accessors of the same name ({@code stateParent(s)},
 * {@code task(k)}, {@code taskCount()}; see {@link TreeTables}), which C2 inlines: no code can
 * write them, and the runtimes' hot loops pay nothing for it (measured, issue 22). The few methods
 * that return a whole table ({@link #statePaths}, ...) return a new copy and allocate. A compiled
 * tree is independent of any world: per-agent data lives in slots the runtime maps to SoA columns.
 * THREADING: immutable after construction; safe to share.
 */
public final class CompiledStateTree extends TreeTables {
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

    // ---- states (their tables: TreeTables) -----------------------------------------------------
    public final int stateCount;
    /** Number of {@link #stateTicking(int)} states among the always-awake ones: the runtime's groups of always-awake agents. */
    public final int awakeGroupCount;

    // ---- transitions --------------------------------------------------------------------------
    public final int transitionCount;
    /** The event payload fields the transitions declare, and which each transition needs. */
    public final PayloadSchema payloads;
    /** Whether any transition has a priority other than normal, or a task may request transitions (rule O2): the runtimes' scan must rank what it finds. */
    public final boolean hasPriorities;
    /**
     * Whether a task of the tree may request transitions (its type declares
     * {@code NodeType.Builder.requestsTransitions}): the runtimes keep each agent's pending request
     * (rules O1-O4).
     */
    public final boolean requestsTransitions;
    /** Whether each transition is gated: a delay or a variance above 0. */
    private final boolean[] transitionGated;
    private final boolean[] statePlainLeaf;

    // ---- nodes --------------------------------------------------------------------------------
    /** Tasks {@code 0 .. globalTaskCount-1} are the global tasks, ahead of the root's ({@link #taskState(int)} INVALID). */
    public final int globalTaskCount;
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
    /**
     * Deepest condition nesting anywhere in the tree, including conditions held by tasks: a runtime
     * must provide at least this many scratch arrays ({@link dev.crowdtree.statetree.node.NodeContext#ensureScratch}).
     */
    public final int maxConditionDepth;

    // ---- parameters and slots -----------------------------------------------------------------
    /** The value names of each {@code enum} parameter (its slot holds an index), null for other types. */
    private final String[][] paramEnumValues;
    public final int floatSlots;
    public final int intSlots;
    public final int boolSlots;

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
        super(b);
        TreeFacts f = b.facts;
        name = b.name;
        source = b.source;
        stateCount = b.stateName.size();
        transitionCount = b.transitionSource.size();
        hasPriorities = f.hasPriorities;
        requestsTransitions = b.requestsTransitions;
        transitionGated = f.transitionGated;
        statePlainLeaf = f.statePlainLeaf;
        globalTaskCount = b.globalTaskCount;
        scanRules = new ScanRules(Freeze.bytes(b.stateComposite), b.rootFirst, f.hasComposites);
        unreal = new UnrealRules(b.unrealRules, f.linkedAncestor, f.noTaskOnPath, f.anyNoTaskPath);
        history = new HistoryStates(Freeze.bytes(b.stateHistory), f.historyIndex, f.historyStates);
        tickPeriods = new TickPeriods(Freeze.bytes(b.statePeriodLog), f.periodPathLog, f.anyPeriod);
        stateParameters = new StateParameters(b);
        paramEnumValues = b.paramEnumValues.toArray(new String[0][]);
        floatSlots = b.slotNames.get(ValueType.FLOAT.ordinal()).size();
        intSlots = b.slotNames.get(ValueType.INT.ordinal()).size();
        boolSlots = b.slotNames.get(ValueType.BOOL.ordinal()).size();
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
        maxConditionDepth = b.maxConditionDepth;
        awakeGroupCount = stateAwakeGroupsBegin(stateCount);
    }

    /**
     * The gate time of gated transition {@code t} for an agent whose gate is armed at {@code tick}:
     * {@code max(0, delay + variance * (2u - 1))} with u in [0, 1) from the agent's counter-based
     * stream {@code GATE_STREAM_BASE + transitionGateKey(t)} (docs/SEMANTICS.md, deviation Q-A1). The one definition of
     * the gate rule: both runtimes and the benchmark's peers call it.
     */
    public float gateDelay(int t, long seed, int agentId, long tick) {
        float u = CounterRng.uniform(seed, agentId, tick, GATE_STREAM_BASE + transitionGateKey(t));
        return Math.max(0f, transitionDelay(t) + transitionDelayVariance(t) * (2f * u - 1f));
    }

    /** Whether transition {@code t} is gated (a delay or a variance): the one definition of "gated". */
    public boolean isGated(int t) {
        return transitionGated[t];
    }

    /**
     * Whether a move from leaf {@code from} to leaf {@code to} exits the one's tasks, enters the
     * other's and does nothing else: two plain leaves (no history, parameters, required event,
     * completion "all" or linked state involved; not under unreal-5.8, as the compiler decided per
     * state) under the same parent. The batched runtime applies such a move, whatever transition or
     * composite made it, without comparing the two paths.
     */
    public boolean isSiblingLeafMove(int from, int to) {
        return from != to && statePlainLeaf[from] && statePlainLeaf[to] && stateParent(from) == stateParent(to);
    }

    /**
     * For a {@code completion: all} state {@code s}: whether the agent at {@code row} (bool slot
     * arrays {@code bools}) has finished every counted task of {@code s} (false without one).
     */
    public boolean allCountedDone(int s, byte[][] bools, int row) {
        boolean any = false;
        for (int k = stateTasksBegin(s), end = k + stateTasksNum(s); k < end; k++) {
            if (taskConsidered(k)) {
                if (bools[taskDoneSlot(k)][row] == 0) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** Whether {@code a} is {@code s} or one of its ancestors (O(1), from the DFS ranges). */
    public boolean isAncestorOrSelf(int a, int s) {
        return a <= s && s < stateSubtreeEnd(a);
    }

    /** The ancestor of {@code s} at {@code depth} (0 = root); {@code depth <= stateDepth(s)}. */
    public int ancestorAt(int s, int depth) {
        return pathStates(statePathBegin(s) + depth);
    }

    /** Whether state {@code s} has children. */
    public boolean hasChildren(int s) {
        return stateSubtreeEnd(s) > s + 1;
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
            if (statePath(s).equals(path)) {
                return s;
            }
        }
        return -1;
    }

    /** The parameter named {@code name}, or -1. */
    public int paramIndex(String name) {
        for (int p = 0; p < paramCount(); p++) {
            if (paramName(p).equals(name)) {
                return p;
            }
        }
        return -1;
    }

    /**
     * {@link #paramIndex} for a runtime's {@code setParameter}: the same error in both runtimes when
     * the tree has no such parameter, naming the ones it has.
     */
    public int requireParam(String name) {
        int p = paramIndex(name);
        if (p < 0) {
            throw new IllegalArgumentException("tree '" + this.name + "' has no parameter '" + name + "'"
                    + stateParameters.hostNote(name, statePaths()) + "; its parameters are " + paramNames());
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
                    + (paramEntity(p) ? "entity" : paramType(p).assetName()) + ", not an enum: give a number");
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
        Vocabulary.Target special = Vocabulary.Target.ofType(transitionType(t));
        return special != null ? special.keyword() : statePath(transitionTarget(t));
    }

    /** The states' paths, by id: a new list (allocates; not for a tick). */
    public List<String> statePaths() {
        return List.of(copy(this::statePath, stateCount));
    }

    /** The tree's parameters' names, by index: a new list (allocates; not for a tick). */
    public List<String> paramNames() {
        return List.of(copy(this::paramName, paramCount()));
    }

    /** The tasks' display names, by index: a new list (allocates; not for a tick). */
    public List<String> taskNames() {
        return List.of(copy(this::taskName, taskCount()));
    }

    /** The names of the slots of {@code type}, by slot: a new list (allocates; not for a tick). */
    public List<String> slotNames(ValueType type) {
        return type == ValueType.FLOAT ? List.of(copy(this::floatSlotNames, floatSlots))
                : type == ValueType.INT ? List.of(copy(this::intSlotNames, intSlots))
                : List.of(copy(this::boolSlotNames, boolSlots));
    }

    private static String[] copy(java.util.function.IntFunction<String> at, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = at.apply(i);
        }
        return out;
    }

    @Override
    public String toString() {
        return "CompiledStateTree[" + name + ", " + stateCount + " states, " + transitionCount + " transitions, "
                + taskCount() + " tasks, " + evaluatorCount() + " evaluators]";
    }
}
