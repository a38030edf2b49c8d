package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one write path into a {@link CompiledStateTree}: the compiler's assembly pass adds slots,
 * parameters, evaluators, then states in id order (DFS pre-order), each state followed by its state
 * parameters, tasks, enter conditions, linked parameters and transitions; then the compiler's fact pass reads
 * it back (the read methods below) and sets what it derives into {@link #facts}; {@link #build} checks the 16-bit
 * limits and that the facts are there, and freezes everything into the tree's arrays. Per-state ranges ({@code stateTasksBegin/Num}, ...) are
 * derived here from that order, so a caller never computes an index into the flat arrays.
 *
 * <p>Nothing of the builder's state is visible outside this package; a builder is obtained from
 * {@link CompiledStateTree#builder} and used once. THREADING: confined to one thread.
 *
 * @hidden
 */
public final class CompiledTreeBuilder {
    final String name;
    final String source;

    // states, in id order
    final List<String> stateName = new ArrayList<>();
    final List<String> statePath = new ArrayList<>();
    final List<Short> stateParent = new ArrayList<>();
    final List<Byte> stateDepth = new ArrayList<>();
    final List<Short> stateSubtreeEnd = new ArrayList<>();
    final List<Byte> stateType = new ArrayList<>();
    final List<Byte> stateSelection = new ArrayList<>();
    final List<Integer> stateTasksBegin = new ArrayList<>();
    final List<Integer> stateEnterConditionsBegin = new ArrayList<>();
    final List<Integer> stateEnterConditionsNum = new ArrayList<>();
    final List<Integer> stateLinkedParamsBegin = new ArrayList<>();
    final List<Integer> stateTransitionsBegin = new ArrayList<>();
    final List<Float> stateWeight = new ArrayList<>();
    final List<Integer> stateConsiderationsBegin = new ArrayList<>();

    final List<ValueInput> considerationInput = new ArrayList<>();
    final List<Float> considerationMin = new ArrayList<>();
    final List<Float> considerationMax = new ArrayList<>();
    final List<Byte> considerationCurve = new ArrayList<>();
    final List<Float> considerationThreshold = new ArrayList<>();

    // state parameters (rules X1-X6) and tick periods (Z1-Z5)
    final List<Integer> stateParamsBegin = new ArrayList<>();
    final List<Short> stateParamState = new ArrayList<>();
    final List<String> stateParamName = new ArrayList<>();
    final List<ValueType> stateParamType = new ArrayList<>();
    final List<Integer> stateParamSlot = new ArrayList<>();
    final List<Integer> stateParamGenerationSlot = new ArrayList<>();
    final List<ValueInput> stateParamValue = new ArrayList<>();
    final List<Byte> statePeriodLog = new ArrayList<>();

    final List<ValueType> linkedParamType = new ArrayList<>();
    final List<Integer> linkedParamSlot = new ArrayList<>();
    final List<ValueInput> linkedParamValue = new ArrayList<>();

    final List<Short> transitionSource = new ArrayList<>();
    final List<Byte> transitionTrigger = new ArrayList<>();
    final List<Integer> transitionEvent = new ArrayList<>();
    final List<Byte> transitionType = new ArrayList<>();
    final List<Short> transitionTarget = new ArrayList<>();
    final List<Integer> transitionConditionsBegin = new ArrayList<>();
    final List<Integer> transitionConditionsNum = new ArrayList<>();
    final List<Float> transitionDelay = new ArrayList<>();
    final List<Float> transitionDelayVariance = new ArrayList<>();
    final List<Byte> transitionPriority = new ArrayList<>();
    /** Each transition's index in its state's {@code transitions} as declared (disabled ones included). */
    final List<Byte> transitionDeclaredIndex = new ArrayList<>();
    final List<Boolean> transitionConsumesEvent = new ArrayList<>();
    final List<Boolean> transitionReactivates = new ArrayList<>();

    final List<Condition> conditions = new ArrayList<>();
    final List<Task> tasks = new ArrayList<>();
    final List<Short> taskState = new ArrayList<>();
    final List<String> taskName = new ArrayList<>();
    final List<Boolean> taskReselect = new ArrayList<>();
    final List<Boolean> taskConsidered = new ArrayList<>();
    final List<Integer> taskDoneSlot = new ArrayList<>();
    final List<Boolean> stateCompletionAll = new ArrayList<>();
    final List<Boolean> stateEnabled = new ArrayList<>();
    final List<Byte> stateComposite = new ArrayList<>();
    final List<Byte> stateHistory = new ArrayList<>();
    /** Per state, the index of its required event among those below, or -1 (rules V1-V6). */
    final List<Integer> stateRequired = new ArrayList<>();
    final List<Integer> requiredTag = new ArrayList<>();
    final List<Boolean> requiredConsume = new ArrayList<>();
    final List<int[]> requiredPayloadFields = new ArrayList<>();
    final List<byte[]> requiredPayloadTypes = new ArrayList<>();
    final List<int[]> requiredSlots = new ArrayList<>();
    /** The transition scan goes root to leaf ({@code "transitionScan": "rootFirst"}). */
    boolean rootFirst;
    /** The tree follows Unreal 5.8's rules ({@code "rules": "unreal-5.8"}). */
    boolean unrealRules;
    final List<Evaluator> evaluators = new ArrayList<>();

    final List<String> paramName = new ArrayList<>();
    final List<ValueType> paramType = new ArrayList<>();
    final List<Double> paramDefault = new ArrayList<>();
    final List<Integer> paramSlot = new ArrayList<>();
    final List<String[]> paramEnumValues = new ArrayList<>();
    final List<Boolean> paramEntity = new ArrayList<>();
    final List<Integer> paramGenerationSlot = new ArrayList<>();
    /** Slot names per {@link ValueType} ordinal. */
    final List<List<String>> slotNames = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    final List<HostColumn> hostColumns = new ArrayList<>();
    final List<External<?>> externals = new ArrayList<>();
    final Map<String, String> hostColumnUsers = new LinkedHashMap<>();
    final Map<String, String> externalUsers = new LinkedHashMap<>();
    final Set<String> nodeTypes = new LinkedHashSet<>();
    final List<CompileWarning> warnings = new ArrayList<>();
    final LinkedHashMap<String, Integer> tags = new LinkedHashMap<>();
    final LinkedHashMap<String, Integer> payloadFields = new LinkedHashMap<>();
    final List<int[]> transitionPayloadFields = new ArrayList<>();
    final List<byte[]> transitionPayloadTypes = new ArrayList<>();
    int maxConditionDepth = 1;
    /** The global tasks: the first tasks, added before any state. */
    int globalTaskCount;
    boolean globalTasksTick;
    /** Shared by the tree's property functions: their divisions by zero. */
    final java.util.concurrent.atomic.LongAdder divisionsByZero = new java.util.concurrent.atomic.LongAdder();
    private boolean built;
    /** What the compiler's fact pass derived (see the setters below). */
    final TreeFacts facts = new TreeFacts();
    /** Whether a task type of the tree declares transition requests (rules O1-O4). */
    boolean requestsTransitions;

    CompiledTreeBuilder(String name, String source) {
        this.name = name;
        this.source = source;
    }

    // ---- slots, tags, parameters, evaluators ---------------------------------------------------

    /** Adds a per-agent slot of {@code type} named {@code slotName} and returns its index. */
    public int addSlot(ValueType type, String slotName) {
        List<String> names = slotNames.get(type.ordinal());
        names.add(slotName);
        return names.size() - 1;
    }

    /** Number of slots of {@code type} so far. */
    public int slotCount(ValueType type) {
        return slotNames.get(type.ordinal()).size();
    }

    /** The id of an event tag, assigned in order of first use. */
    /** The id of event payload field {@code name} (declared by some transition's payloadFields), assigning one. */
    public int payloadFieldId(String name) {
        return payloadFields.computeIfAbsent(name, t -> payloadFields.size());
    }

    /** The id of payload field {@code name}, or -1 when no transition declares it. */
    public int knownPayloadField(String name) {
        return payloadFields.getOrDefault(name, -1);
    }

    public int tagId(String tag) {
        return tags.computeIfAbsent(tag, t -> tags.size());
    }

    /** A tree parameter, stored in slot {@code slot} of its type. */
    public void addParameter(String paramName, ValueType type, double defaultValue, int slot) {
        addParameter(paramName, type, defaultValue, slot, null, -1);
    }

    /**
     * A tree parameter that may be an {@code enum} (an int slot holding the index of one of
     * {@code enumValues}) or an {@code entity} (an int slot holding an agent id, -1 for none, and
     * the int slot {@code generationSlot} holding that agent's generation; -1 for other types).
     */
    public void addParameter(String paramName, ValueType type, double defaultValue, int slot, String[] enumValues,
                             int generationSlot) {
        boolean entity = generationSlot >= 0;
        paramGenerationSlot.add(generationSlot);
        this.paramName.add(paramName);
        paramType.add(type);
        paramDefault.add(defaultValue);
        paramSlot.add(slot);
        paramEnumValues.add(enumValues == null ? null : enumValues.clone());
        paramEntity.add(entity);
    }

    public void addEvaluator(Evaluator evaluator) {
        evaluators.add(evaluator);
    }

    /**
     * The next host column the nodes declared (its handle is its position), and the node that first
     * declared it, in words (for messages; may be null).
     */
    public void addHostColumn(HostColumn column, String usedBy) {
        hostColumns.add(column);
        hostColumnUsers.put(column.name(), usedBy == null ? "a node" : usedBy);
    }

    /** An authoring warning about the tree (for {@link CompiledStateTree#warnings}). */
    public void addWarning(CompileWarning warning) {
        warnings.add(warning);
    }

    /** A node type the tree uses (for {@link CompiledStateTree#nodeTypes}). */
    public void addNodeType(String typeName) {
        nodeTypes.add(typeName);
    }

    /**
     * The next host object the nodes need (its {@link External#index} is its position), and the node
     * that first declared it, in words (may be null).
     */
    public void addExternal(External<?> external, String usedBy) {
        externalUsers.put(external.name(), usedBy == null ? "a node" : usedBy);
        if (external.index() != externals.size()) {
            throw new IllegalArgumentException("external " + external + " has index " + external.index()
                    + ", expected " + externals.size());
        }
        externals.add(external);
    }

    /** The counter the tree's property functions add their divisions by zero to. */
    public java.util.concurrent.atomic.LongAdder divisionsByZero() {
        return divisionsByZero;
    }

    /** Records a condition nesting depth seen anywhere (also inside task properties), for scratch sizing. */
    public void noteConditionDepth(int depth) {
        maxConditionDepth = Math.max(maxConditionDepth, depth);
    }

    // ---- states and what belongs to them -------------------------------------------------------

    /**
     * Adds the next state (ids are given in order: 0, 1, ...); the tasks, enter conditions, linked
     * parameters and transitions added until the next {@code addState} belong to it.
     */
    public int addState(String stateName, String path, int parent, int depth, int subtreeEnd,
                        Vocabulary.StateType type, Vocabulary.Selection selection) {
        int id = this.stateName.size();
        this.stateName.add(stateName);
        statePath.add(path);
        stateParent.add((short) parent);
        stateDepth.add((byte) depth);
        stateSubtreeEnd.add((short) subtreeEnd);
        stateType.add(type.code());
        stateSelection.add(selection.code());
        stateTasksBegin.add(tasks.size());
        stateEnterConditionsBegin.add(conditions.size());
        stateEnterConditionsNum.add(0);
        stateLinkedParamsBegin.add(linkedParamType.size());
        stateTransitionsBegin.add(transitionSource.size());
        stateWeight.add(1f);
        stateCompletionAll.add(false);
        stateEnabled.add(true);
        stateComposite.add(ScanRules.NONE);
        stateHistory.add(HistoryStates.NONE);
        stateRequired.add(-1);
        stateConsiderationsBegin.add(considerationInput.size());
        stateParamsBegin.add(stateParamName.size());
        statePeriodLog.add((byte) -1);
        return id;
    }

    /** The current state's weight in its parent's utility selection (default 1). */
    public void setWeight(float weight) {
        stateWeight.set(current(), weight);
    }

    /**
     * A consideration of the current state's utility: {@code input} mapped from {@code [min, max]}
     * to [0, 1] (clamped), then through {@code curve} ({@code threshold} for {@link Vocabulary.Curve#STEP}).
     */
    public void addConsideration(ValueInput input, float min, float max, Vocabulary.Curve curve, float threshold) {
        current();
        considerationInput.add(input);
        considerationMin.add(min);
        considerationMax.add(max);
        considerationCurve.add(curve.code());
        considerationThreshold.add(threshold);
    }

    /**
     * Adds the next global task (docs/SEMANTICS.md, rules G1-G5): before any state, so the global
     * tasks are tasks {@code 0 .. globalTaskCount-1}, ahead of the root's (they act as its ancestors).
     * Their state is {@link CompiledStateTree#INVALID}.
     */
    public void addGlobalTask(Task task, String displayName, boolean considered) {
        if (!stateName.isEmpty()) {
            throw new IllegalStateException("global tasks come before the first state");
        }
        tasks.add(task);
        taskState.add(CompiledStateTree.INVALID);
        taskName.add(displayName);
        taskReselect.add(true);
        taskConsidered.add(considered);
        taskDoneSlot.add(-1);
        globalTaskCount++;
        globalTasksTick |= task.ticks();
    }

    /** Adds a task of the current state (tasks are in DFS order: a state's after its ancestors'). */
    public void addTask(Task task, String displayName, boolean reselect) {
        addTask(task, displayName, reselect, true);
    }

    /** A task; {@code considered} false makes it a background task whose completion never completes its state. */
    public void addTask(Task task, String displayName, boolean reselect, boolean considered) {
        addTask(task, displayName, reselect, considered, -1);
    }

    /** A task of a {@code completion: all} state, with the bool slot of its runtime-owned "finished" flag. */
    public void addTask(Task task, String displayName, boolean reselect, boolean considered, int doneSlot) {
        tasks.add(task);
        taskState.add((short) current());
        taskName.add(displayName);
        taskReselect.add(reselect);
        taskConsidered.add(considered);
        taskDoneSlot.add(doneSlot);
    }

    /** The current state succeeds when all its counted tasks have succeeded ({@code "completion": "all"}). */
    public void setCompletionAll() {
        stateCompletionAll.set(current(), true);
    }

    /** The current state is disabled ({@code "enabled": false}, or inside a disabled state): it can never be selected. */
    public void setDisabled() {
        stateEnabled.set(current(), false);
    }

    /** The current state is a composite (docs/SEMANTICS.md, rules K1-K6). */
    public void setComposite(Vocabulary.Composite composite) {
        stateComposite.set(current(), composite.code());
    }

    /** The current state is a history state (docs/SEMANTICS.md, rules Y1-Y7). */
    public void setHistory(Vocabulary.History kind) {
        stateHistory.set(current(), kind.code());
    }

    /**
     * The current state can be selected only with an event tagged {@code tag} (or below it) in the
     * agent's window that carries {@code fields} (names registered with {@link #payloadFieldId}); the
     * event is consumed when the transition that selected the state fires if {@code consume}; while
     * the state is active its declared fields are kept in {@code slots} (one per field, in order, of
     * the field's type). docs/SEMANTICS.md, rules V1-V6.
     */
    public void setRequiredEvent(int tag, boolean consume, Map<String, ValueType> fields, int[] slots) {
        stateRequired.set(current(), requiredTag.size());
        requiredTag.add(tag);
        requiredConsume.add(consume);
        requiredPayloadFields.add(fieldIds(fields));
        requiredPayloadTypes.add(slotTypes(fields));
        requiredSlots.add(slots.clone());
    }

    /** The ids of {@code fields}' names ({@link #payloadFieldId}), in order. */
    private int[] fieldIds(Map<String, ValueType> fields) {
        return fields.keySet().stream().mapToInt(this::payloadFieldId).toArray();
    }

    /** The slot types of {@code fields}' types ({@link PayloadSchema#slotType}), in order. */
    private static byte[] slotTypes(Map<String, ValueType> fields) {
        byte[] types = new byte[fields.size()];
        int k = 0;
        for (ValueType t : fields.values()) {
            types[k++] = PayloadSchema.slotType(t);
        }
        return types;
    }

    /** The tree follows Unreal 5.8's rules (docs/SEMANTICS.md section 20, rules U1-U8); by default the seeds'. */
    public void setUnrealRules() {
        unrealRules = true;
    }

    /** The transition scan goes root to leaf (docs/SEMANTICS.md, rules H1-H2); by default leaf to root. */
    public void setRootFirst() {
        rootFirst = true;
    }

    /** Sets the enter conditions of the current state (ANDed, in order). */
    public void setEnterConditions(List<Condition> enterConditions) {
        int s = current();
        stateEnterConditionsBegin.set(s, conditions.size());
        stateEnterConditionsNum.set(s, enterConditions.size());
        conditions.addAll(enterConditions);
    }

    /**
     * A state parameter of the current state (docs/SEMANTICS.md, rules X1-X6): its name, type, slot
     * (and generation slot for an entity, else -1), and the value it is set to when the state is entered.
     */
    public void addStateParameter(String paramName, ValueType type, int slot, int generationSlot, ValueInput value) {
        stateParamState.add((short) current());
        stateParamName.add(paramName);
        stateParamType.add(type);
        stateParamSlot.add(slot);
        stateParamGenerationSlot.add(generationSlot);
        stateParamValue.add(value);
    }

    /** The current state's tick period, as its log2 (docs/SEMANTICS.md, rules Z1-Z5). */
    public void setTickPeriodLog(int log) {
        statePeriodLog.set(current(), (byte) log);
    }

    /** A parameter value the current (linked) state copies into its subtree copy's slot on enter. */
    public void addLinkedParameter(ValueType type, int slot, ValueInput value) {
        linkedParamType.add(type);
        linkedParamSlot.add(slot);
        linkedParamValue.add(value);
    }

    /**
     * Adds a transition of the current state.
     *
     * @param trigger    a {@link Vocabulary.Trigger} flag
     * @param event      the event tag id for {@code onEvent}, else -1
     * @param type       a transition type ({@link CompiledStateTree#GOTO}, ...)
     * @param target     the target state for {@link CompiledStateTree#GOTO}, else -1
     * @param guards     the transition's conditions (ANDed, in order)
     * @param delay      gate delay in seconds (0: not gated)
     * @param variance   gate delay variance in seconds
     * @param priority   its priority in the leaf-to-root scan
     * @param consume    onEvent: whether firing removes the event (else it stays for this tick's rounds)
     * @param reactivate whether the target and the states below it are exited and entered as changed
     *                   even where they stay active (rule U11)
     * @param payload    onEvent: the payload fields an event must carry (names registered with
     *                   {@link #payloadFieldId}), with their types; empty for none
     */
    public void addTransition(Vocabulary.Trigger trigger, int event, byte type, int target, List<Condition> guards,
                              float delay, float variance, Vocabulary.Priority priority, boolean consume,
                              boolean reactivate, Map<String, ValueType> payload, int declaredIndex) {
        transitionDeclaredIndex.add((byte) declaredIndex);
        transitionPayloadFields.add(fieldIds(payload));
        transitionPayloadTypes.add(slotTypes(payload));
        transitionSource.add((short) current());
        transitionTrigger.add(trigger.flag());
        transitionEvent.add(event);
        transitionType.add(type);
        transitionTarget.add((short) target);
        transitionConditionsBegin.add(conditions.size());
        transitionConditionsNum.add(guards.size());
        conditions.addAll(guards);
        transitionDelay.add(delay);
        transitionDelayVariance.add(variance);
        transitionPriority.add(priority.code());
        transitionConsumesEvent.add(consume);
        transitionReactivates.add(reactivate);
    }

    public int taskCount() {
        return tasks.size();
    }

    public int conditionCount() {
        return conditions.size();
    }

    public int transitionCount() {
        return transitionSource.size();
    }

    /** Whether the tasks, conditions and transitions fit the compiled tree's 16-bit indices. */
    public boolean fitsIndices() {
        return tasks.size() <= Short.MAX_VALUE && conditions.size() <= Short.MAX_VALUE
                && transitionSource.size() <= Short.MAX_VALUE && linkedParamType.size() <= Short.MAX_VALUE
                && stateParamName.size() <= Short.MAX_VALUE;
    }

    /** Freezes the tree; the builder cannot be used afterwards. */
    public CompiledStateTree build() {
        if (built) {
            throw new IllegalStateException("this builder has already built its tree");
        }
        if (!fitsIndices() || stateName.size() > CompiledStateTree.MAX_STATES) {
            throw new IllegalStateException("the tree does not fit 16-bit indices");
        }
        String missing = facts.missing();
        if (missing != null) {
            throw new IllegalStateException("the compiler's fact pass has not run (" + missing + " not set)");
        }
        built = true;
        return new CompiledStateTree(this);
    }

    // ---- what the compiler's fact pass reads (RuntimeFactsPass) --------------------------------

    public int stateCount() {
        return stateName.size();
    }

    public int stateParent(int s) {
        return stateParent.get(s);
    }

    public byte stateType(int s) {
        return stateType.get(s);
    }

    public int stateTasksBegin(int s) {
        return stateTasksBegin.get(s);
    }

    public int stateTasksNum(int s) {
        return (s + 1 < stateTasksBegin.size() ? stateTasksBegin.get(s + 1) : tasks.size()) - stateTasksBegin.get(s);
    }

    public int stateTransitionsBegin(int s) {
        return stateTransitionsBegin.get(s);
    }

    public int stateTransitionsNum(int s) {
        return (s + 1 < stateTransitionsBegin.size() ? stateTransitionsBegin.get(s + 1) : transitionSource.size())
                - stateTransitionsBegin.get(s);
    }

    /** The state's composite ({@link ScanRules#NONE}, ...). */
    public byte stateComposite(int s) {
        return stateComposite.get(s);
    }

    /** The state's history ({@link HistoryStates#NONE}, ...). */
    public byte stateHistory(int s) {
        return stateHistory.get(s);
    }

    /** log2 of the state's declared tick period, -1 without one. */
    public byte statePeriodLog(int s) {
        return statePeriodLog.get(s);
    }

    public byte transitionTrigger(int t) {
        return transitionTrigger.get(t);
    }

    /** Whether state {@code s} has no children. */
    public boolean stateIsLeaf(int s) {
        return stateSubtreeEnd.get(s) == s + 1;
    }

    /** Whether entering state {@code s} does more than enter its tasks: parameters, a required event, completion "all". */
    public boolean stateEnterHasExtras(int s) {
        int paramsEnd = s + 1 < stateParamsBegin.size() ? stateParamsBegin.get(s + 1) : stateParamName.size();
        return paramsEnd > stateParamsBegin.get(s) || stateRequired.get(s) >= 0 || stateCompletionAll.get(s);
    }

    public byte transitionPriority(int t) {
        return transitionPriority.get(t);
    }

    public float transitionDelay(int t) {
        return transitionDelay.get(t);
    }

    public float transitionDelayVariance(int t) {
        return transitionDelayVariance.get(t);
    }

    public Task task(int k) {
        return tasks.get(k);
    }

    public Condition condition(int i) {
        return conditions.get(i);
    }

    public List<Evaluator> evaluators() {
        return java.util.Collections.unmodifiableList(evaluators);
    }

    /** The event tags, by id. */
    public List<String> tagNames() {
        return List.copyOf(tags.keySet());
    }

    /** Whether a global task ticks. */
    public boolean globalTasksTick() {
        return globalTasksTick;
    }

    public boolean unrealRules() {
        return unrealRules;
    }

    /** Where the compiler's fact pass writes what it derives; {@link #build} refuses a tree without them. */
    /** A task of the tree may request transitions (its type declares {@code requestsTransitions}). */
    public void setRequestsTransitions() {
        requestsTransitions = true;
    }

    public boolean requestsTransitions() {
        return requestsTransitions;
    }

    public TreeFacts facts() {
        return facts;
    }

    private int current() {
        if (stateName.isEmpty()) {
            throw new IllegalStateException("add a state first");
        }
        return stateName.size() - 1;
    }
}
