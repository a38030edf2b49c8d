package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.FieldSpec;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ParamRef;
import dev.crowdtree.statetree.node.PropertySpec;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compiles an authored {@link TreeDef} into a {@link CompiledStateTree}, or reports every error it
 * finds at once in a {@link StateTreeCompileException}.
 *
 * <p>What it does, in order: checks parameters and evaluators; expands the state hierarchy,
 * inlining a private copy of the subtree under every {@code linked} state (cycles of linked states
 * are errors); numbers states in depth-first pre-order; assigns per-agent slots (parameters,
 * evaluator fields, subtree-copy parameters, then task fields as a union per depth, since only one
 * state per depth is active); builds tasks, conditions and transitions with their bindings resolved
 * under Unreal's scope rules (checklist A16): enter conditions see parameters and evaluators;
 * transition conditions also see the tasks of their state and its ancestors; task inputs see
 * parameters, evaluators, earlier tasks of their state and the tasks of ancestor states; evaluator
 * inputs see parameters and earlier evaluators.
 *
 * <p>Whatever the input, the only exception it throws is {@link StateTreeCompileException}.
 * THREADING: a compiler instance may be used from several threads; each call is independent.
 */
public final class StateTreeCompiler {
    private static final String TOO_MANY_NODES = "too many conditions, tasks or transitions for 16-bit indices";

    /** Deepest nesting of conditions inside conditions. */
    public static final int MAX_CONDITION_NESTING = 32;

    private final NodeRegistry registry;

    public StateTreeCompiler(NodeRegistry registry) {
        this.registry = registry.copy();
    }

    /** A compiler that knows the built-in node types. */
    public static StateTreeCompiler withBuiltins() {
        return new StateTreeCompiler(BuiltinNodes.registry());
    }

    public NodeRegistry registry() {
        return registry.copy();
    }

    /** Compiles {@code def}, or throws with every error found. */
    public CompiledStateTree compile(TreeDef def) throws StateTreeCompileException {
        Run run = new Run(def, registry);
        CompiledStateTree result = null;
        try {
            result = run.compile();
        } catch (StackOverflowError | RuntimeException e) {
            // A safety net only: every known kind of bad input is reported as a specific error.
            run.error(null, null, "internal compiler error (" + e + "); please report this asset");
        }
        if (!run.errors.isEmpty() || result == null) {
            if (run.errors.isEmpty()) {
                run.error(null, null, "the tree could not be compiled");
            }
            throw new StateTreeCompileException(new ArrayList<>(run.errors));
        }
        return result;
    }

    // ============================================================================================

    /** A value slot. */
    private record Slot(ValueType type, int index) {
    }

    /** A parameter of the tree or of a subtree copy. */
    private record Param(String name, ValueType type, double defaultValue, Slot slot) {
    }

    /** A compiled evaluator and its outputs. */
    private record EvalInfo(String name, Map<String, Slot> outputs) {
    }

    /** One copy of a subtree under a linked state. */
    private static final class Instance {
        final String subtree;
        final Instance outer;
        final Map<String, Param> params = new LinkedHashMap<>();
        StateNode root;

        Instance(String subtree, Instance outer) {
            this.subtree = subtree;
            this.outer = outer;
        }
    }

    /** A task as laid out: its display name, type and field offsets within its state's block. */
    private static final class TaskInfo {
        final NodeDef def;
        final int index;
        final NodeType type;
        String displayName;
        final Map<String, int[]> fieldOffsets = new LinkedHashMap<>(); // name -> {typeOrdinal, offset}
        final Map<String, Slot> fieldSlots = new LinkedHashMap<>();
        final Map<String, ValueType> outputs = new LinkedHashMap<>();

        TaskInfo(NodeDef def, int index, NodeType type) {
            this.def = def;
            this.index = index;
            this.type = type;
        }
    }

    /** An expanded state. */
    private static final class StateNode {
        final StateDef def;
        final String name;
        final String path;
        final StateNode parent;
        final int depth;
        final Instance instance;
        final List<StateNode> children = new ArrayList<>();
        byte type;
        byte selection;
        int id;
        int subtreeEnd;
        final List<TaskInfo> tasks = new ArrayList<>();

        StateNode(StateDef def, String name, StateNode parent, Instance instance) {
            this.def = def;
            this.name = name;
            this.parent = parent;
            this.depth = parent == null ? 0 : parent.depth + 1;
            this.path = parent == null ? name : parent.path + "/" + name;
            this.instance = instance;
        }
    }

    /** What a binding may refer to at a given place. */
    private static final class Scope {
        final StateNode state;
        final boolean tasks;
        final int ownTaskLimit;
        final int evaluatorLimit;
        final String what;

        Scope(StateNode state, boolean tasks, int ownTaskLimit, int evaluatorLimit, String what) {
            this.state = state;
            this.tasks = tasks;
            this.ownTaskLimit = ownTaskLimit;
            this.evaluatorLimit = evaluatorLimit;
            this.what = what;
        }
    }

    private static final class Run {
        final TreeDef def;
        final NodeRegistry registry;
        final String source;
        final Set<CompileError> errors = new LinkedHashSet<>();

        final Map<String, Param> params = new LinkedHashMap<>();
        final List<EvalInfo> evalInfos = new ArrayList<>();
        final List<Evaluator> evaluators = new ArrayList<>();
        final Map<String, StateDef> subtrees = new LinkedHashMap<>();
        final Map<String, List<String>> authoredNames = new HashMap<>(); // name -> where (tree or subtree)
        final List<List<String>> slotNames = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        final LinkedHashMap<String, Integer> tags = new LinkedHashMap<>();
        final List<StateNode> order = new ArrayList<>();
        /** States by name, in DFS order, for resolving targets without scanning every state per transition. */
        final Map<String, List<StateNode>> statesByName = new HashMap<>();
        final Map<String, StateNode> statesByPath = new HashMap<>();
        int stream = 1;
        int expanded;
        boolean tooManyStates;
        /** A probe run checks one unlinked subtree and must not probe others in turn. */
        boolean probe;
        /** Deepest condition compiled anywhere (also inside task properties), for scratch sizing. */
        int maxConditionDepth = 1;

        // outputs
        final List<Condition> conditions = new ArrayList<>();
        final List<Task> tasks = new ArrayList<>();
        final List<Short> taskState = new ArrayList<>();
        final List<String> taskNames = new ArrayList<>();
        final List<Boolean> taskReselect = new ArrayList<>();

        Run(TreeDef def, NodeRegistry registry) {
            this.def = def;
            this.registry = registry;
            this.source = def == null || def.source() == null ? "<tree>" : def.source();
        }

        void error(String statePath, String field, String message) {
            errors.add(new CompileError(source, statePath, field, message));
        }

        Slot newSlot(ValueType type, String name) {
            List<String> names = slotNames.get(type.ordinal());
            names.add(name);
            return new Slot(type, names.size() - 1);
        }

        int tagId(String tag) {
            return tags.computeIfAbsent(tag, t -> tags.size());
        }

        CompiledStateTree compile() {
            if (def == null) {
                error(null, null, "no tree given");
                return null;
            }
            if (def.name() == null || def.name().isBlank()) {
                error(null, "name", "the tree needs a non-empty 'name'");
            }
            compileParameters(def.parameters(), params, null, "parameters");
            compileEvaluators();
            collectSubtrees();
            if (def.root() == null) {
                error(null, "root", "the tree needs a 'root' state");
                return null;
            }
            StateNode root = expand(def.root(), null, null, new ArrayList<>(), "root");
            if (root == null || tooManyStates) {
                return null;
            }
            number(root);
            layoutTasks();
            Parts parts = new Parts(order.size());
            for (StateNode s : order) {
                compileState(s, parts);
                if (tasks.size() > Short.MAX_VALUE || conditions.size() > Short.MAX_VALUE
                        || parts.transitionSource.size() > Short.MAX_VALUE) {
                    // The tree cannot be built; compiling the remaining states would only cost time.
                    error(null, null, TOO_MANY_NODES);
                    break;
                }
            }
            validateUnlinkedSubtrees();
            if (!errors.isEmpty()) {
                return null;
            }
            return parts.build(this);
        }

        // ---- parameters and evaluators ---------------------------------------------------------

        void compileParameters(List<ParameterDef> defs, Map<String, Param> into, Instance inst, String field) {
            for (int i = 0; i < defs.size(); i++) {
                ParameterDef p = defs.get(i);
                String where = field + "[" + i + "]";
                String statePath = inst == null ? null : inst.root == null ? null : inst.root.path;
                if (p == null) {
                    error(statePath, where, "expected a parameter object");
                    continue;
                }
                if (p.name() == null || p.name().isBlank()) {
                    error(statePath, where, "a parameter needs a non-empty name");
                    continue;
                }
                where = field + "." + p.name();
                if (into.containsKey(p.name())) {
                    error(statePath, where, "duplicate parameter '" + p.name() + "'");
                    continue;
                }
                ValueType t = ValueType.parse(p.type());
                if (t == null) {
                    error(statePath, where + ".type", "unknown parameter type " + quote(p.type())
                            + "; valid types are bool, int, float");
                    continue;
                }
                double dflt = 0;
                if (p.defaultValue() != null) {
                    Double d = literal(p.defaultValue(), t, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                            statePath, where + ".default");
                    // A bad default is reported above; the parameter still exists, so that its uses are
                    // not also reported as "unknown parameter".
                    if (d != null) {
                        dflt = d;
                    }
                }
                String slotName = (inst == null ? "" : inst.subtree + "@" + statePath + ".") + "param." + p.name();
                into.put(p.name(), new Param(p.name(), t, dflt, newSlot(t, slotName)));
            }
        }

        void compileEvaluators() {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < def.evaluators().size(); i++) {
                NodeDef nd = def.evaluators().get(i);
                String where = "evaluators[" + i + "]";
                if (nd == null) {
                    error(null, where, "expected an evaluator object");
                    continue;
                }
                NodeType type = nodeType(nd, NodeType.Category.EVALUATOR, null, where);
                if (type == null) {
                    continue;
                }
                String name = nd.name() != null ? nd.name() : type.name();
                if (!names.add(name)) {
                    error(null, where + ".name", "duplicate evaluator name '" + name
                            + "'; give each evaluator a unique 'name'");
                    continue;
                }
                Map<String, Integer> fieldSlots = new LinkedHashMap<>();
                Map<String, Slot> outputs = new LinkedHashMap<>();
                for (FieldSpec f : type.fields()) {
                    Slot s = newSlot(f.type(), "eval." + name + "." + f.name());
                    fieldSlots.put(f.name(), s.index());
                    if (f.output()) {
                        outputs.put(f.name(), s);
                    }
                }
                Scope scope = new Scope(null, false, 0, evalInfos.size(), "evaluator inputs");
                Node n = createNode(nd, type, name, scope, fieldSlots, null, where, 0);
                evalInfos.add(new EvalInfo(name, outputs));
                if (n != null) {
                    evaluators.add((Evaluator) n);
                }
            }
        }

        void collectSubtrees() {
            for (int i = 0; i < def.subtrees().size(); i++) {
                StateDef s = def.subtrees().get(i);
                String where = "subtrees[" + i + "]";
                if (s == null || s.name() == null || s.name().isBlank()) {
                    error(null, where, "a subtree needs a non-empty 'name'");
                    continue;
                }
                if (!"subtree".equals(s.type())) {
                    error(s.name(), "type", "states in 'subtrees' must have \"type\": \"subtree\", got "
                            + quote(s.type()));
                }
                if (subtrees.putIfAbsent(s.name(), s) != null) {
                    error(null, where + ".name", "duplicate subtree name '" + s.name() + "'");
                }
                collectNames(s, "subtree " + s.name(), 0);
            }
            if (def.root() != null) {
                collectNames(def.root(), "tree", 0);
            }
        }

        void collectNames(StateDef s, String owner, int depth) {
            if (s == null || depth > 64) {
                return;
            }
            if (s.name() != null) {
                authoredNames.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(owner);
            }
            for (StateDef c : s.children()) {
                collectNames(c, owner, depth + 1);
            }
        }

        // ---- expansion -------------------------------------------------------------------------

        StateNode expand(StateDef d, StateNode parent, Instance inst, List<String> linkStack, String where) {
            String parentPath = parent == null ? null : parent.path;
            if (d == null) {
                error(parentPath, where, "expected a state object");
                return null;
            }
            if (d.name() == null || d.name().isBlank()) {
                error(parentPath, where + ".name", "a state needs a non-empty 'name'");
                return null;
            }
            if (d.name().contains("/") || d.name().contains(":") || d.name().startsWith("@")) {
                error(parentPath, where + ".name", "state name " + quote(d.name())
                        + " may not contain '/' or ':' or start with '@'");
                return null;
            }
            if (++expanded > CompiledStateTree.MAX_STATES) {
                if (!tooManyStates) {
                    error(null, null, "the tree has more than " + CompiledStateTree.MAX_STATES
                            + " states after inlining linked subtrees (16-bit indices)");
                }
                tooManyStates = true;
                return null;
            }
            StateNode n = new StateNode(d, d.name(), parent, inst);
            if (n.depth >= CompiledStateTree.MAX_DEPTH) {
                // Reported where the offending state is declared, like every other per-child error.
                error(parentPath, where, "state '" + d.name() + "' makes the path deeper than "
                        + CompiledStateTree.MAX_DEPTH + " states (Unreal's MaxStates): " + n.path
                        + "; flatten the hierarchy");
                return null;
            }
            boolean isInstanceRoot = inst != null && inst.root == null;
            if (isInstanceRoot) {
                inst.root = n;
            }
            n.type = stateType(d.type(), n, isInstanceRoot);
            n.selection = selection(d.selection(), n);
            if (n.type != CompiledStateTree.LINKED) {
                if (d.linkedSubtree() != null) {
                    error(n.path, "linkedSubtree", "only states of type 'linked' may name a linkedSubtree");
                }
                if (!d.linkedParameters().isEmpty()) {
                    error(n.path, "linkedParameters", "only states of type 'linked' may give linkedParameters");
                }
            }
            if (!d.parameters().isEmpty() && !isInstanceRoot) {
                error(n.path, "parameters", "only subtrees (in the top-level 'subtrees' list) declare parameters");
            }
            if (isInstanceRoot) {
                compileParameters(d.parameters(), inst.params, inst, "parameters");
            }
            if (n.type == CompiledStateTree.GROUP && !d.tasks().isEmpty()) {
                error(n.path, "tasks", "a group state cannot have tasks (" + d.tasks().size()
                        + " given); use type 'state' or move the tasks to a child");
            }
            if (n.type == CompiledStateTree.LINKED) {
                if (!d.children().isEmpty()) {
                    error(n.path, "children", "a linked state cannot have children; its subtree is its content");
                }
                String target = d.linkedSubtree();
                StateDef sub = target == null ? null : subtrees.get(target);
                if (target == null) {
                    error(n.path, "linkedSubtree", "a linked state must name a subtree in 'linkedSubtree'; "
                            + "available subtrees: " + subtrees.keySet());
                } else if (sub == null) {
                    error(n.path, "linkedSubtree", "unknown subtree '" + target + "'; available subtrees: "
                            + subtrees.keySet() + " (a linked state must point at a state of type 'subtree'"
                            + " in the top-level 'subtrees' list)");
                } else if (linkStack.contains(target)) {
                    List<String> cycle = new ArrayList<>(linkStack.subList(linkStack.indexOf(target), linkStack.size()));
                    cycle.add(target);
                    error(n.path, "linkedSubtree", "cycle of linked states: " + String.join(" -> ", cycle));
                } else {
                    List<String> stack = new ArrayList<>(linkStack);
                    stack.add(target);
                    Instance child = new Instance(target, inst);
                    StateNode c = expand(sub, n, child, stack, "linkedSubtree");
                    if (c != null) {
                        n.children.add(c);
                    }
                }
            } else {
                Set<String> names = new HashSet<>();
                for (int i = 0; i < d.children().size(); i++) {
                    StateDef cd = d.children().get(i);
                    if (cd != null && cd.name() != null && !names.add(cd.name())) {
                        error(n.path, "children[" + i + "]", "duplicate child name '" + cd.name()
                                + "'; sibling states need unique names");
                        continue;
                    }
                    StateNode c = expand(cd, n, inst, linkStack, "children[" + i + "]");
                    if (c != null) {
                        n.children.add(c);
                    }
                    if (tooManyStates) {
                        break;
                    }
                }
            }
            return n;
        }

        byte stateType(String t, StateNode n, boolean isInstanceRoot) {
            if (t == null || t.equals("state")) {
                return CompiledStateTree.STATE;
            }
            switch (t) {
                case "group":
                    return CompiledStateTree.GROUP;
                case "linked":
                    return CompiledStateTree.LINKED;
                case "subtree":
                    if (!isInstanceRoot) {
                        error(n.path, "type", "a state of type 'subtree' belongs in the top-level 'subtrees' "
                                + "list and is reached through a 'linked' state");
                    }
                    return CompiledStateTree.SUBTREE;
                default:
                    error(n.path, "type", "unknown state type " + quote(t)
                            + "; valid types are state, group, linked, subtree");
                    return CompiledStateTree.STATE;
            }
        }

        byte selection(String s, StateNode n) {
            if (s == null || s.equals("trySelectChildrenInOrder")) {
                return CompiledStateTree.SELECT_CHILDREN_IN_ORDER;
            }
            if (s.equals("tryEnterState")) {
                return CompiledStateTree.TRY_ENTER;
            }
            error(n.path, "selection", "unknown selection " + quote(s)
                    + "; valid values are trySelectChildrenInOrder, tryEnterState");
            return CompiledStateTree.SELECT_CHILDREN_IN_ORDER;
        }

        void number(StateNode n) {
            n.id = order.size();
            order.add(n);
            statesByName.computeIfAbsent(n.name, k -> new ArrayList<>()).add(n);
            statesByPath.putIfAbsent(n.path, n);
            for (StateNode c : n.children) {
                number(c);
            }
            n.subtreeEnd = order.size();
        }

        // ---- task layout: fields as a union per depth ------------------------------------------

        void layoutTasks() {
            int[][] perDepth = new int[CompiledStateTree.MAX_DEPTH][3];
            for (StateNode s : order) {
                int[] used = new int[3];
                Map<String, Integer> nameCount = new HashMap<>();
                for (NodeDef nd : s.def.tasks()) {
                    if (nd != null) {
                        nameCount.merge(nd.name() != null ? nd.name() : String.valueOf(nd.type()), 1, Integer::sum);
                    }
                }
                for (int i = 0; i < s.def.tasks().size(); i++) {
                    NodeDef nd = s.def.tasks().get(i);
                    if (nd == null) {
                        error(s.path, "tasks[" + i + "]", "expected a task object");
                        continue;
                    }
                    NodeType type = nodeType(nd, NodeType.Category.TASK, s.path, "tasks[" + i + "]");
                    if (type == null) {
                        continue;
                    }
                    TaskInfo ti = new TaskInfo(nd, i, type);
                    String base = nd.name() != null ? nd.name() : type.name();
                    ti.displayName = nameCount.getOrDefault(base, 0) > 1 ? base + "#" + i : base;
                    for (FieldSpec f : type.fields()) {
                        int k = f.type().ordinal();
                        ti.fieldOffsets.put(f.name(), new int[] {k, used[k]++});
                        if (f.output()) {
                            ti.outputs.put(f.name(), f.type());
                        }
                    }
                    s.tasks.add(ti);
                }
                for (int k = 0; k < 3; k++) {
                    perDepth[s.depth][k] = Math.max(perDepth[s.depth][k], used[k]);
                }
            }
            // Depth blocks follow the global slots; slots of depth d are shared by all states at d.
            int[][] base = new int[CompiledStateTree.MAX_DEPTH][3];
            for (int k = 0; k < 3; k++) {
                ValueType vt = ValueType.values()[k];
                for (int d = 0; d < CompiledStateTree.MAX_DEPTH; d++) {
                    base[d][k] = slotNames.get(k).size();
                    for (int j = 0; j < perDepth[d][k]; j++) {
                        newSlot(vt, "task.depth" + d + "." + vt.assetName() + j);
                    }
                }
            }
            for (StateNode s : order) {
                for (TaskInfo ti : s.tasks) {
                    for (Map.Entry<String, int[]> e : ti.fieldOffsets.entrySet()) {
                        int k = e.getValue()[0];
                        ti.fieldSlots.put(e.getKey(), new Slot(ValueType.values()[k], base[s.depth][k] + e.getValue()[1]));
                    }
                }
            }
        }

        // ---- per-state compilation -------------------------------------------------------------

        void compileState(StateNode s, Parts p) {
            int id = s.id;
            p.stateName[id] = s.name;
            p.statePath[id] = s.path;
            p.stateParent[id] = (short) (s.parent == null ? -1 : s.parent.id);
            p.stateDepth[id] = (byte) s.depth;
            p.stateSubtreeEnd[id] = (short) s.subtreeEnd;
            p.stateType[id] = s.type;
            p.stateSelection[id] = s.selection;

            // tasks (DFS order: this state's tasks come after all ancestors' tasks)
            p.stateTasksBegin[id] = (short) tasks.size();
            for (int k = 0; k < s.tasks.size(); k++) {
                TaskInfo ti = s.tasks.get(k);
                String where = "tasks[" + ti.index + "]";
                Map<String, Integer> slots = new LinkedHashMap<>();
                ti.fieldSlots.forEach((f, slot) -> slots.put(f, slot.index()));
                Scope scope = new Scope(s, true, k, evalInfos.size(), "task inputs");
                Node n = createNode(ti.def, ti.type, ti.displayName, scope, slots, s.path, where, 0);
                Boolean reselect = Boolean.TRUE;
                Object r = ti.def.properties().get("reselect");
                if (r != null) {
                    if (r instanceof Boolean) {
                        reselect = (Boolean) r;
                    } else {
                        error(s.path, where + ".reselect", "expected a boolean, got " + Values.describe(r));
                    }
                }
                if (n != null) {
                    tasks.add((Task) n);
                    taskState.add((short) id);
                    taskNames.add(ti.displayName);
                    taskReselect.add(reselect);
                }
            }
            p.stateTasksNum[id] = (short) (tasks.size() - p.stateTasksBegin[id]);

            // enter conditions
            p.stateEnterConditionsBegin[id] = (short) conditions.size();
            Scope enterScope = new Scope(s, false, 0, evalInfos.size(), "enter conditions");
            compileConditionList(s.def.enterConditions(), enterScope, s.path, "enterConditions");
            p.stateEnterConditionsNum[id] = (short) (conditions.size() - p.stateEnterConditionsBegin[id]);

            // linked parameters
            p.stateLinkedParamsBegin[id] = (short) p.linkedParamType.size();
            if (s.type == CompiledStateTree.LINKED && !s.children.isEmpty()) {
                compileLinkedParameters(s, p);
            }
            p.stateLinkedParamsNum[id] = (short) (p.linkedParamType.size() - p.stateLinkedParamsBegin[id]);

            // transitions
            p.stateTransitionsBegin[id] = (short) p.transitionSource.size();
            List<TransitionDef> ts = s.def.transitions();
            if (ts.size() > 255) {
                error(s.path, "transitions", "a state may have at most 255 transitions, got " + ts.size());
            }
            for (int i = 0; i < ts.size() && i < 255; i++) {
                compileTransition(s, ts.get(i), "transitions[" + i + "]", p);
            }
            p.stateTransitionsNum[id] = (short) (p.transitionSource.size() - p.stateTransitionsBegin[id]);
        }

        void compileLinkedParameters(StateNode s, Parts p) {
            StateNode sub = s.children.get(0);
            Instance inst = sub.instance;
            for (String key : s.def.linkedParameters().keySet()) {
                if (!inst.params.containsKey(key)) {
                    error(s.path, "linkedParameters." + key, "subtree '" + inst.subtree + "' has no parameter '"
                            + key + "'; its parameters are " + inst.params.keySet());
                }
            }
            // Values see the tasks of the linked state's ancestors, not its own (entered after the copy).
            Scope scope = new Scope(s, true, 0, evalInfos.size(), "linked parameters");
            for (Param param : inst.params.values()) {
                Object raw = s.def.linkedParameters().get(param.name());
                ValueInput v = raw == null ? ValueInput.constant(param.type(), param.defaultValue())
                        : input(raw, param.type(), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, scope,
                        s.path, "linkedParameters." + param.name());
                if (v != null) {
                    p.linkedParamType.add(param.type());
                    p.linkedParamSlot.add(param.slot().index());
                    p.linkedParamValue.add(v);
                }
            }
        }

        /**
         * Checks and adds one transition. Trigger, event, target, delays and conditions are checked
         * independently, so one bad field does not hide the errors of the others; the transition is
         * added only when all of them are valid.
         */
        void compileTransition(StateNode s, TransitionDef t, String where, Parts p) {
            if (t == null) {
                error(s.path, where, "expected a transition object");
                return;
            }
            boolean ok = true;
            byte trigger = 0;
            String trig = t.trigger();
            if (trig == null) {
                error(s.path, where + ".trigger", "a transition needs a 'trigger': onStateCompleted, "
                        + "onStateSucceeded, onStateFailed, onTick or onEvent");
                ok = false;
            } else {
                switch (trig) {
                    case "onStateCompleted":
                        trigger = CompiledStateTree.TRIGGER_COMPLETED;
                        break;
                    case "onStateSucceeded":
                        trigger = CompiledStateTree.TRIGGER_SUCCEEDED;
                        break;
                    case "onStateFailed":
                        trigger = CompiledStateTree.TRIGGER_FAILED;
                        break;
                    case "onTick":
                        trigger = CompiledStateTree.TRIGGER_TICK;
                        break;
                    case "onEvent":
                        trigger = CompiledStateTree.TRIGGER_EVENT;
                        break;
                    default:
                        error(s.path, where + ".trigger", "unknown trigger " + quote(trig) + "; valid triggers are "
                                + "onStateCompleted, onStateSucceeded, onStateFailed, onTick, onEvent");
                        ok = false;
                }
            }
            int event = -1;
            if (trigger == CompiledStateTree.TRIGGER_EVENT) {
                if (t.event() == null || t.event().isEmpty()) {
                    error(s.path, where + ".event", "an onEvent transition needs an 'event' tag");
                    ok = false;
                } else {
                    event = tagId(t.event());
                }
            } else if (t.event() != null && trig != null && ok) {
                error(s.path, where + ".event", "'event' is only valid with trigger onEvent (trigger is " + trig + ")");
            }
            byte type = CompiledStateTree.GOTO;
            int target = -1;
            String to = t.to();
            if (to == null) {
                error(s.path, where + ".to", "a transition needs a target 'to': a state path, a unique state "
                        + "name, @next, @succeeded, @failed or @none");
                ok = false;
            } else {
                switch (to) {
                    case "@none":
                        type = CompiledStateTree.NOT_SET;
                        break;
                    case "@succeeded":
                        type = CompiledStateTree.TO_SUCCEEDED;
                        break;
                    case "@failed":
                        type = CompiledStateTree.TO_FAILED;
                        break;
                    case "@next":
                        if (s.parent == null || s.parent.children.indexOf(s) == s.parent.children.size() - 1) {
                            error(s.path, where + ".to", "@next: state '" + s.name + "' has no next sibling");
                            ok = false;
                        } else {
                            target = s.parent.children.get(s.parent.children.indexOf(s) + 1).id;
                        }
                        break;
                    default:
                        if (to.startsWith("@")) {
                            error(s.path, where + ".to", "unknown target " + quote(to)
                                    + "; valid special targets are @next, @succeeded, @failed, @none");
                            ok = false;
                        } else {
                            target = resolveTarget(s, to, where + ".to");
                            ok &= target >= 0;
                        }
                }
            }
            Double delay = optionalSeconds(t.delay(), s.path, where + ".delay");
            Double variance = optionalSeconds(t.delayVariance(), s.path, where + ".delayVariance");
            ok &= delay != null && variance != null;
            int condBegin = conditions.size();
            int errorsBefore = errors.size();
            Scope scope = new Scope(s, true, s.tasks.size(), evalInfos.size(), "transition conditions");
            compileConditionList(t.conditions(), scope, s.path, where + ".conditions");
            if (!ok || errors.size() != errorsBefore) {
                return; // errors reported; the whole compilation fails, nothing is emitted
            }
            p.transitionSource.add((short) s.id);
            p.transitionTrigger.add(trigger);
            p.transitionEvent.add(event);
            p.transitionType.add(type);
            p.transitionTarget.add((short) target);
            p.transitionConditionsBegin.add((short) condBegin);
            p.transitionConditionsNum.add((short) (conditions.size() - condBegin));
            p.transitionDelay.add(delay.floatValue());
            p.transitionDelayVariance.add(variance.floatValue());
        }

        Double optionalSeconds(Object raw, String path, String field) {
            if (raw == null) {
                return 0.0;
            }
            return literal(raw, ValueType.FLOAT, 0, 1e9, path, field);
        }

        /** Resolves a target path or name as seen from state {@code s}; -1 after reporting an error. */
        int resolveTarget(StateNode s, String to, String field) {
            List<StateNode> candidates = new ArrayList<>();
            if (to.contains("/")) {
                // Inside a subtree copy, a path starting with the subtree root's name is relative to the copy.
                if (s.instance != null && to.startsWith(s.instance.root.name + "/")) {
                    String full = s.instance.root.path + to.substring(s.instance.root.name.length());
                    findByPath(full, candidates);
                } else {
                    findByPath(to, candidates);
                }
                if (candidates.isEmpty()) {
                    error(s.path, field, "unknown target state path '" + to + "'" + suggest(to));
                    return -1;
                }
            } else {
                List<StateNode> named = statesByName.getOrDefault(to, List.of());
                for (StateNode n : named) {
                    if (n.instance == s.instance) {
                        candidates.add(n);
                    }
                }
                if (candidates.isEmpty() && s.instance != null) {
                    for (StateNode n : named) {
                        if (n.instance == null) {
                            candidates.add(n);
                        }
                    }
                }
                if (candidates.isEmpty()) {
                    List<String> owners = authoredNames.get(to);
                    if (owners != null) {
                        error(s.path, field, "state '" + to + "' is inside " + owners.get(0)
                                + "; states of a subtree are reached only through a linked state");
                    } else {
                        error(s.path, field, "unknown target state '" + to + "'" + suggest(to));
                    }
                    return -1;
                }
                if (candidates.size() > 1) {
                    List<String> paths = new ArrayList<>();
                    for (StateNode c : candidates) {
                        paths.add(c.path);
                    }
                    error(s.path, field, "ambiguous target '" + to + "': " + paths + "; use a full path");
                    return -1;
                }
            }
            StateNode target = candidates.get(0);
            if (target.instance != null && target.instance != s.instance && !isWithin(s, target.instance)) {
                error(s.path, field, "state '" + target.path + "' is inside subtree '" + target.instance.subtree
                        + "'; states of a subtree are reached only through its linked state");
                return -1;
            }
            return target.id;
        }

        static boolean isWithin(StateNode s, Instance inst) {
            for (Instance i = s.instance; i != null; i = i.outer) {
                if (i == inst) {
                    return true;
                }
            }
            return false;
        }

        void findByPath(String path, List<StateNode> out) {
            StateNode n = statesByPath.get(path);
            if (n != null) {
                out.add(n); // paths are unique: duplicate sibling names are not expanded
            }
        }

        String suggest(String to) {
            String last = to.contains("/") ? to.substring(to.lastIndexOf('/') + 1) : to;
            TreeSet<String> similar = new TreeSet<>();
            for (StateNode n : order) {
                if (n.name.equalsIgnoreCase(last) || n.path.endsWith("/" + last)) {
                    similar.add(n.path);
                }
            }
            return similar.isEmpty() ? "" : "; did you mean " + similar + "?";
        }

        void validateUnlinkedSubtrees() {
            Set<String> linked = new HashSet<>();
            for (StateNode n : order) {
                if (n.instance != null) {
                    linked.add(n.instance.subtree);
                }
            }
            for (Map.Entry<String, StateDef> e : subtrees.entrySet()) {
                if (!probe && !linked.contains(e.getKey()) && !tooManyStates) {
                    // Check it as if it were linked once, so its errors are reported too; discard the result.
                    Run check = new Run(new TreeDef(source, def.name(), def.parameters(), def.evaluators(),
                            new StateDef(def.root() == null ? "Root" : def.root().name(), "state", null, null, null,
                                    null, null, null, null, List.of(new StateDef(e.getKey() + "Link", "linked", null,
                                    e.getKey(), null, null, null, null, null, null))), def.subtrees()), registry);
                    check.probe = true;
                    check.compile();
                    for (CompileError err : check.errors) {
                        String link = "/" + e.getKey() + "Link/";
                        int at = err.statePath() == null ? -1 : err.statePath().indexOf(link);
                        if (err.statePath() == null || at >= 0) {
                            errors.add(err.statePath() == null ? err : new CompileError(err.source(),
                                    "subtree " + err.statePath().substring(at + link.length()),
                                    err.field(), err.message()));
                        }
                    }
                }
            }
        }

        // ---- nodes -----------------------------------------------------------------------------

        void compileConditionList(List<NodeDef> defs, Scope scope, String path, String field) {
            for (int i = 0; i < defs.size(); i++) {
                Condition c = compileCondition(defs.get(i), scope, path, field + "[" + i + "]", 1);
                if (c != null) {
                    conditions.add(c);
                }
            }
        }

        Condition compileCondition(Object raw, Scope scope, String path, String field, int nesting) {
            if (nesting > MAX_CONDITION_NESTING) {
                error(path, field, "conditions nested deeper than " + MAX_CONDITION_NESTING);
                return null;
            }
            NodeDef nd;
            if (raw instanceof NodeDef) {
                nd = (NodeDef) raw;
            } else if (raw instanceof Map) {
                nd = NodeDef.fromMap((Map<?, ?>) raw);
            } else {
                error(path, field, "expected a condition object, got " + Values.describe(raw));
                return null;
            }
            NodeType type = nodeType(nd, NodeType.Category.CONDITION, path, field);
            if (type == null) {
                return null;
            }
            if (!type.fields().isEmpty()) {
                error(path, field, "condition type '" + type.name() + "' declares per-agent fields; conditions must be pure");
                return null;
            }
            String name = nd.name() != null ? nd.name() : type.name();
            Condition c = (Condition) createNode(nd, type, name, scope, Map.of(), path, field, nesting);
            if (c != null) {
                maxConditionDepth = Math.max(maxConditionDepth, c.depth());
            }
            return c;
        }

        NodeType nodeType(NodeDef nd, NodeType.Category category, String path, String field) {
            if (nd.type() == null) {
                Object raw = nd.properties().get("type");
                error(path, field + ".type", (raw == null ? "missing 'type'" : "'type' must be a string, got "
                        + Values.describe(raw)) + "; valid " + category.word() + " types are " + typeNames(category));
                return null;
            }
            NodeType type = registry.get(nd.type());
            if (type == null) {
                error(path, field + ".type", "unknown " + category.word() + " type " + quote(nd.type())
                        + "; valid " + category.word() + " types are " + typeNames(category));
                return null;
            }
            if (type.category() != category) {
                error(path, field + ".type", "'" + nd.type() + "' is a " + type.category().word() + " type, not a "
                        + category.word() + " type; valid " + category.word() + " types are " + typeNames(category));
                return null;
            }
            return type;
        }

        String typeNames(NodeType.Category category) {
            List<String> names = new ArrayList<>();
            for (NodeType t : registry.types().values()) {
                if (t.category() == category) {
                    names.add(t.name());
                }
            }
            return String.join(", ", names);
        }

        Node createNode(NodeDef nd, NodeType type, String name, Scope scope, Map<String, Integer> fieldSlots,
                        String path, String field, int nesting) {
            int before = errors.size();
            Map<String, Object> props = nd.properties();
            Object rawName = props.get("name");
            if (rawName != null) {
                error(path, field + ".name", "'name' must be a string, got " + Values.describe(rawName));
            }
            if (nd.name() != null && nd.name().isBlank()) {
                error(path, field + ".name", "'name' must not be empty");
            }
            for (String key : props.keySet()) {
                if (key.equals("name") || key.equals("type")) {
                    continue;
                }
                if (key.equals("reselect") && type.category() == NodeType.Category.TASK) {
                    continue;
                }
                if (!type.properties().containsKey(key)) {
                    List<String> valid = new ArrayList<>(type.properties().keySet());
                    valid.add("name");
                    if (type.category() == NodeType.Category.TASK) {
                        valid.add("reselect");
                    }
                    error(path, field + "." + key, "unknown field '" + key + "' for " + type.category().word()
                            + " type '" + type.name() + "'; valid fields are " + valid);
                }
            }
            for (List<String> group : type.oneOf()) {
                int given = 0;
                for (String g : group) {
                    if (props.containsKey(g)) {
                        given++;
                    }
                }
                if (given != 1) {
                    error(path, field, type.category().word() + " '" + type.name() + "' needs exactly one of "
                            + group + (given == 0 ? "" : ", not several"));
                }
            }
            Map<String, Object> values = new HashMap<>();
            for (PropertySpec spec : type.properties().values()) {
                Object raw = props.get(spec.name());
                String f = field + "." + spec.name();
                if (raw == null) {
                    if (spec.required()) {
                        error(path, f, "missing required field '" + spec.name() + "' (" + spec.expected() + ")");
                    } else if (spec.defaultValue() != null) {
                        values.put(spec.name(), spec.kind() == PropertySpec.Kind.INPUT
                                ? ValueInput.constant(spec.valueType() == null ? ValueType.FLOAT : spec.valueType(),
                                ((Number) spec.defaultValue()).doubleValue()) : spec.defaultValue());
                    }
                    continue;
                }
                Object v = resolveProperty(spec, raw, props, scope, path, f, nesting);
                if (v != null) {
                    values.put(spec.name(), v);
                }
            }
            if (errors.size() != before) {
                return null;
            }
            try {
                return type.create(new NodeConfig(type.name(), name, stream++, values, fieldSlots, type.timer(), type.timerField()));
            } catch (RuntimeException e) {
                error(path, field, type.category().word() + " type '" + type.name() + "' rejected its configuration: " + e);
                return null;
            }
        }

        Object resolveProperty(PropertySpec spec, Object raw, Map<String, Object> props, Scope scope, String path,
                               String f, int nesting) {
            switch (spec.kind()) {
                case CONSTANT: {
                    if (spec.valueType() == null && !(raw instanceof Number)) {
                        error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                        return null;
                    }
                    ValueType t = spec.valueType() == null ? numericType(raw) : spec.valueType();
                    Double d = literal(raw, t, spec.min(), spec.max(), path, f);
                    return d == null ? null : t == ValueType.BOOL ? (Object) (d != 0) : d;
                }
                case INPUT: {
                    ValueType t = spec.valueType();
                    if (spec.typeFrom() != null) {
                        Param p = paramOf(props.get(spec.typeFrom()), scope);
                        if (p == null) {
                            return null; // reported on the parameter property
                        }
                        t = p.type();
                    }
                    return input(raw, t, spec.min(), spec.max(), scope, path, f);
                }
                case STRING:
                case CHOICE:
                    if (!(raw instanceof String)) {
                        error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                        return null;
                    }
                    if (spec.kind() == PropertySpec.Kind.CHOICE && !spec.choices().contains(raw)) {
                        error(path, f, "expected " + spec.expected() + ", got " + quote((String) raw));
                        return null;
                    }
                    return raw;
                case TAG:
                    if (!(raw instanceof String) || ((String) raw).isEmpty()) {
                        error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                        return null;
                    }
                    return tagId((String) raw);
                case PARAM: {
                    if (!(raw instanceof String)) {
                        error(path, f, "expected the name of a parameter, got " + Values.describe(raw));
                        return null;
                    }
                    Param p = lookupParam((String) raw, scope);
                    if (p == null) {
                        error(path, f, "unknown parameter '" + raw + "'; parameters in scope are " + paramNames(scope));
                        return null;
                    }
                    if (spec.valueType() != null && !spec.valueType().accepts(p.type())) {
                        error(path, f, "parameter '" + raw + "' is " + p.type().assetName() + "; expected "
                                + spec.valueType().assetName());
                        return null;
                    }
                    return new ParamRef(p.name(), p.type(), p.slot().index());
                }
                case CONDITION: {
                    Condition c = compileCondition(raw, scope, path, f, nesting + 1);
                    return c;
                }
                default: {
                    if (!(raw instanceof List)) {
                        error(path, f, "expected a list of condition objects, got " + Values.describe(raw));
                        return null;
                    }
                    List<?> list = (List<?>) raw;
                    Condition[] out = new Condition[list.size()];
                    boolean ok = true;
                    for (int i = 0; i < list.size(); i++) {
                        out[i] = compileCondition(list.get(i), scope, path, f + "[" + i + "]", nesting + 1);
                        ok &= out[i] != null;
                    }
                    return ok ? out : null;
                }
            }
        }

        static ValueType numericType(Object raw) {
            return raw instanceof Double ? ValueType.FLOAT : ValueType.INT;
        }

        Param paramOf(Object raw, Scope scope) {
            return raw instanceof String ? lookupParam((String) raw, scope) : null;
        }

        Param lookupParam(String name, Scope scope) {
            for (Instance i = scope.state == null ? null : scope.state.instance; i != null; i = i.outer) {
                Param p = i.params.get(name);
                if (p != null) {
                    return p;
                }
            }
            return params.get(name);
        }

        List<String> paramNames(Scope scope) {
            List<String> names = new ArrayList<>();
            for (Instance i = scope.state == null ? null : scope.state.instance; i != null; i = i.outer) {
                names.addAll(i.params.keySet());
            }
            names.addAll(params.keySet());
            return names;
        }

        /** A literal or binding of {@code type} (null: any number). */
        ValueInput input(Object raw, ValueType type, double min, double max, Scope scope, String path, String f) {
            Binding b = asBinding(raw);
            if (b == null && raw instanceof Map) {
                error(path, f, "expected a value or a binding with exactly one of \"param\", \"eval\", \"task\" "
                        + "naming a string, got " + Values.describe(raw));
                return null;
            }
            if (b == null) {
                ValueType t = type == null ? numericType(raw) : type;
                if (type == null && !(raw instanceof Number)) {
                    error(path, f, "expected a number, got " + Values.describe(raw));
                    return null;
                }
                Double d = literal(raw, t, min, max, path, f);
                return d == null ? null : ValueInput.constant(t, d);
            }
            Slot slot = null;
            String desc = b.kind().key() + ":" + b.ref();
            switch (b.kind()) {
                case PARAM: {
                    Param p = lookupParam(b.ref(), scope);
                    if (p == null) {
                        error(path, f, "binding to unknown parameter '" + b.ref() + "'; parameters in scope are "
                                + paramNames(scope));
                        return null;
                    }
                    slot = p.slot();
                    break;
                }
                case EVAL:
                    slot = evalOutput(b.ref(), scope, path, f);
                    break;
                default:
                    slot = taskOutput(b.ref(), scope, path, f);
            }
            if (slot == null) {
                return null;
            }
            boolean ok = type == null ? slot.type() != ValueType.BOOL : type.accepts(slot.type());
            if (!ok) {
                error(path, f, "binding " + b + " is " + slot.type().assetName() + " but this field needs "
                        + (type == null ? "a number" : type.assetName()));
                return null;
            }
            return ValueInput.slot(slot.type(), slot.index(), desc);
        }

        Slot evalOutput(String ref, Scope scope, String path, String f) {
            int dot = ref.lastIndexOf('.');
            if (dot <= 0 || dot == ref.length() - 1) {
                error(path, f, "evaluator binding '" + ref + "' must be written <evaluator>.<output>");
                return null;
            }
            String ev = ref.substring(0, dot);
            String out = ref.substring(dot + 1);
            for (int i = 0; i < evalInfos.size(); i++) {
                EvalInfo e = evalInfos.get(i);
                if (e.name().equals(ev)) {
                    if (i >= scope.evaluatorLimit) {
                        error(path, f, "evaluator '" + ev + "' is out of scope for " + scope.what
                                + " (an evaluator may only bind to evaluators listed before it)");
                        return null;
                    }
                    Slot s = e.outputs().get(out);
                    if (s == null) {
                        error(path, f, "evaluator '" + ev + "' has no output '" + out + "'; its outputs are "
                                + e.outputs().keySet());
                    }
                    return s;
                }
            }
            List<String> names = new ArrayList<>();
            for (EvalInfo e : evalInfos) {
                names.add(e.name());
            }
            error(path, f, "unknown evaluator '" + ev + "'; evaluators are " + names);
            return null;
        }

        Slot taskOutput(String ref, Scope scope, String path, String f) {
            if (!scope.tasks || scope.state == null) {
                error(path, f, "binding {\"task\": \"" + ref + "\"} is out of scope: " + scope.what
                        + " can bind to parameters and evaluators only");
                return null;
            }
            String qualifier = null;
            String rest = ref;
            int colon = ref.lastIndexOf(':');
            if (colon >= 0) {
                qualifier = ref.substring(0, colon);
                rest = ref.substring(colon + 1);
            }
            int dot = rest.lastIndexOf('.');
            if (dot <= 0 || dot == rest.length() - 1) {
                error(path, f, "task binding '" + ref + "' must be written <task>.<output> or <state path>:<task>.<output>");
                return null;
            }
            String task = rest.substring(0, dot);
            String out = rest.substring(dot + 1);
            for (StateNode s = scope.state; s != null; s = s.parent) {
                if (qualifier != null && !s.path.equals(qualifier) && !s.path.endsWith("/" + qualifier)
                        && !s.name.equals(qualifier)) {
                    continue;
                }
                int limit = s == scope.state ? scope.ownTaskLimit : s.tasks.size();
                for (int k = 0; k < limit; k++) {
                    TaskInfo ti = s.tasks.get(k);
                    if (ti.displayName.equals(task)) {
                        Slot slot = ti.outputs.containsKey(out) ? ti.fieldSlots.get(out) : null;
                        if (slot == null) {
                            error(path, f, "task '" + task + "' of state '" + s.path + "' has no output '" + out
                                    + "'; its outputs are " + ti.outputs.keySet());
                        }
                        return slot;
                    }
                }
            }
            error(path, f, "no task '" + task + "'" + (qualifier == null ? "" : " in state '" + qualifier + "'")
                    + " is in scope for " + scope.what + " (visible: "
                    + (scope.what.equals("task inputs") ? "earlier tasks of this state and " : "tasks of this state and ")
                    + "the tasks of its ancestor states)");
            return null;
        }

        static Binding asBinding(Object raw) {
            if (raw instanceof Binding) {
                return (Binding) raw;
            }
            if (raw instanceof Map && ((Map<?, ?>) raw).size() == 1) {
                Map.Entry<?, ?> e = ((Map<?, ?>) raw).entrySet().iterator().next();
                if (e.getValue() instanceof String) {
                    for (Binding.Kind k : Binding.Kind.values()) {
                        if (k.key().equals(e.getKey())) {
                            return new Binding(k, (String) e.getValue());
                        }
                    }
                }
            }
            return null;
        }

        /** Checks a literal of {@code type} and returns it as a double (bool: 0/1), or null after an error. */
        Double literal(Object raw, ValueType type, double min, double max, String path, String f) {
            if (type == ValueType.BOOL) {
                if (raw instanceof Boolean) {
                    return (Boolean) raw ? 1.0 : 0.0;
                }
                error(path, f, "expected a boolean, got " + Values.describe(raw));
                return null;
            }
            if (!(raw instanceof Number)) {
                error(path, f, "expected " + (type == ValueType.INT ? "an integer" : "a number") + ", got " + Values.describe(raw));
                return null;
            }
            double d = ((Number) raw).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                error(path, f, "expected a finite number, got " + raw);
                return null;
            }
            if (type == ValueType.INT) {
                if (d != Math.rint(d)) {
                    error(path, f, "expected an integer, got " + raw);
                    return null;
                }
                min = Math.max(min, Integer.MIN_VALUE);
                max = Math.min(max, Integer.MAX_VALUE);
            } else {
                min = Math.max(min, -Float.MAX_VALUE);
                max = Math.min(max, Float.MAX_VALUE);
            }
            if (d < min || d > max) {
                error(path, f, "value " + raw + " is out of range; valid range is " + fmt(min) + ".." + fmt(max));
                return null;
            }
            return d;
        }
    }

    static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }

    static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }


    /** Growable outputs of a compilation. */
    private static final class Parts {
        final String[] stateName;
        final String[] statePath;
        final short[] stateParent;
        final byte[] stateDepth;
        final short[] stateSubtreeEnd;
        final byte[] stateType;
        final byte[] stateSelection;
        final short[] stateEnterConditionsBegin;
        final short[] stateEnterConditionsNum;
        final short[] stateTransitionsBegin;
        final short[] stateTransitionsNum;
        final short[] stateTasksBegin;
        final short[] stateTasksNum;
        final short[] stateLinkedParamsBegin;
        final short[] stateLinkedParamsNum;
        final List<ValueType> linkedParamType = new ArrayList<>();
        final List<Integer> linkedParamSlot = new ArrayList<>();
        final List<ValueInput> linkedParamValue = new ArrayList<>();
        final List<Short> transitionSource = new ArrayList<>();
        final List<Byte> transitionTrigger = new ArrayList<>();
        final List<Integer> transitionEvent = new ArrayList<>();
        final List<Byte> transitionType = new ArrayList<>();
        final List<Short> transitionTarget = new ArrayList<>();
        final List<Short> transitionConditionsBegin = new ArrayList<>();
        final List<Short> transitionConditionsNum = new ArrayList<>();
        final List<Float> transitionDelay = new ArrayList<>();
        final List<Float> transitionDelayVariance = new ArrayList<>();

        Parts(int n) {
            stateName = new String[n];
            statePath = new String[n];
            stateParent = new short[n];
            stateDepth = new byte[n];
            stateSubtreeEnd = new short[n];
            stateType = new byte[n];
            stateSelection = new byte[n];
            stateEnterConditionsBegin = new short[n];
            stateEnterConditionsNum = new short[n];
            stateTransitionsBegin = new short[n];
            stateTransitionsNum = new short[n];
            stateTasksBegin = new short[n];
            stateTasksNum = new short[n];
            stateLinkedParamsBegin = new short[n];
            stateLinkedParamsNum = new short[n];
        }

        CompiledStateTree build(Run run) {
            if (run.conditions.size() > Short.MAX_VALUE || run.tasks.size() > Short.MAX_VALUE
                    || transitionSource.size() > Short.MAX_VALUE) {
                run.error(null, null, TOO_MANY_NODES);
                return null;
            }
            CompiledStateTree.Parts p = new CompiledStateTree.Parts();
            p.name = run.def.name();
            p.source = run.source;
            p.stateName = stateName;
            p.statePath = statePath;
            p.stateParent = stateParent;
            p.stateDepth = stateDepth;
            p.stateSubtreeEnd = stateSubtreeEnd;
            p.stateType = stateType;
            p.stateSelection = stateSelection;
            p.stateEnterConditionsBegin = stateEnterConditionsBegin;
            p.stateEnterConditionsNum = stateEnterConditionsNum;
            p.stateTransitionsBegin = stateTransitionsBegin;
            p.stateTransitionsNum = stateTransitionsNum;
            p.stateTasksBegin = stateTasksBegin;
            p.stateTasksNum = stateTasksNum;
            p.stateLinkedParamsBegin = stateLinkedParamsBegin;
            p.stateLinkedParamsNum = stateLinkedParamsNum;
            p.linkedParamType = linkedParamType.toArray(new ValueType[0]);
            p.linkedParamSlot = linkedParamSlot.stream().mapToInt(Integer::intValue).toArray();
            p.linkedParamValue = linkedParamValue.toArray(new ValueInput[0]);
            int nt = transitionSource.size();
            p.transitionSource = new short[nt];
            p.transitionTrigger = new byte[nt];
            p.transitionEvent = new int[nt];
            p.transitionType = new byte[nt];
            p.transitionTarget = new short[nt];
            p.transitionConditionsBegin = new short[nt];
            p.transitionConditionsNum = new short[nt];
            p.transitionDelay = new float[nt];
            p.transitionDelayVariance = new float[nt];
            for (int i = 0; i < nt; i++) {
                p.transitionSource[i] = transitionSource.get(i);
                p.transitionTrigger[i] = transitionTrigger.get(i);
                p.transitionEvent[i] = transitionEvent.get(i);
                p.transitionType[i] = transitionType.get(i);
                p.transitionTarget[i] = transitionTarget.get(i);
                p.transitionConditionsBegin[i] = transitionConditionsBegin.get(i);
                p.transitionConditionsNum[i] = transitionConditionsNum.get(i);
                p.transitionDelay[i] = transitionDelay.get(i);
                p.transitionDelayVariance[i] = transitionDelayVariance.get(i);
            }
            p.conditions = run.conditions.toArray(new Condition[0]);
            p.tasks = run.tasks.toArray(new Task[0]);
            int nk = run.tasks.size();
            p.taskState = new short[nk];
            p.taskName = new String[nk];
            p.taskReselect = new boolean[nk];
            for (int i = 0; i < nk; i++) {
                p.taskState[i] = run.taskState.get(i);
                p.taskName[i] = run.taskNames.get(i);
                p.taskReselect[i] = run.taskReselect.get(i);
            }
            p.evaluators = run.evaluators.toArray(new Evaluator[0]);
            int np = run.params.size();
            p.paramName = new String[np];
            p.paramType = new ValueType[np];
            p.paramDefault = new double[np];
            p.paramSlot = new int[np];
            int i = 0;
            for (Param prm : run.params.values()) {
                p.paramName[i] = prm.name();
                p.paramType[i] = prm.type();
                p.paramDefault[i] = prm.defaultValue();
                p.paramSlot[i] = prm.slot().index();
                i++;
            }
            p.floatSlotNames = run.slotNames.get(ValueType.FLOAT.ordinal()).toArray(new String[0]);
            p.intSlotNames = run.slotNames.get(ValueType.INT.ordinal()).toArray(new String[0]);
            p.boolSlotNames = run.slotNames.get(ValueType.BOOL.ordinal()).toArray(new String[0]);
            p.tagNames = run.tags.keySet().toArray(new String[0]);
            p.maxConditionDepth = run.maxConditionDepth;
            return new CompiledStateTree(p);
        }
    }
}
