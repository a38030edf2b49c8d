package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.SubtreeCopy;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pass 4, states and their nodes: for each state in id order, adds it to the output with its tick
 * period and its own parameters' values (rules Z1, X1-X3), its tasks (built with the slots of pass
 * 3; a task's inputs see parameters, evaluators, earlier tasks of its state and the tasks of its
 * ancestors, and the payload its required event was entered with), its required event and enter
 * conditions (parameters, evaluators and the event being tried),
 * the parameter values a linked state copies into its subtree copy, and its transitions (through
 * {@link TransitionPass}). Stops early when the tree outgrows 16-bit indices.
 */
final class StatePass {
    static final String TOO_MANY_NODES = "too many conditions, tasks or transitions for 16-bit indices";
    /** Most transitions one state may have. */
    static final int MAX_TRANSITIONS_PER_STATE = 255;

    private final Compilation c;
    private final Bindings bindings;
    private final NodeFactory nodes;
    private final TransitionPass transitions;

    StatePass(Compilation c, Bindings bindings, NodeFactory nodes, TransitionPass transitions) {
        this.c = c;
        this.bindings = bindings;
        this.nodes = nodes;
        this.transitions = transitions;
    }

    void run() {
        for (StateNode s : c.order) {
            compileState(s);
            if (!c.out.fitsIndices()) {
                // The tree cannot be built; compiling the remaining states would only cost time.
                c.error(null, null, TOO_MANY_NODES);
                break;
            }
        }
    }

    private void compileState(StateNode s) {
        c.out.addState(s.name, s.path, s.parent == null ? -1 : s.parent.id, s.depth, s.subtreeEnd, s.type,
                s.selection);
        if (s.completionAll) {
            c.out.setCompletionAll();
        }
        if (s.disabled) {
            c.out.setDisabled(); // rule N2 (only placeholders are disabled in the tree that is built)
        }
        if (s.composite != null) {
            c.out.setComposite(s.composite);
        }
        if (s.history != null) {
            c.out.setHistory(s.history);
        }
        if (s.requiredEvent != null && s.requiredEvent.tag() != null) {
            int[] slots = s.requiredEvent.fields().keySet().stream().mapToInt(f -> s.requiredEvent.slots().get(f).index())
                    .toArray();
            c.out.setRequiredEvent(c.out.tagId(s.requiredEvent.tag()), s.requiredEvent.consume(),
                    s.requiredEvent.fields(), slots);
        }
        if (s.periodLog >= 0) {
            c.out.setTickPeriodLog(s.periodLog); // rule Z1
        }
        compileUtility(s);
        if (s.stateParams) {
            compileStateParameters(s);
        }

        // tasks (DFS order: this state's tasks come after all ancestors' tasks)
        for (int k = 0; k < s.tasks.size(); k++) {
            TaskInfo ti = s.tasks.get(k);
            String where = "tasks[" + ti.index + "]";
            Map<String, Integer> slots = new LinkedHashMap<>();
            ti.fieldSlots.forEach((f, slot) -> slots.put(f, slot.index()));
            Scope scope = new Scope(s, true, k, c.evalInfos.size(), "task inputs").disabledIf(ti.disabled)
                    .withEventSlots(s.requiredEvent); // rule V5: the payload of the event that entered the state
            EnabledFlags.check(c, ti.def.properties().get(EnabledFlags.KEY), s.path, where + "." + EnabledFlags.KEY);
            Node n = nodes.createNode(ti.def, ti.type, ti.displayName, scope, slots, s.path, where, 0);
            boolean reselect = flag(ti.def.properties().get("reselect"), s.path, where + ".reselect");
            boolean considered = flag(ti.def.properties().get("considerForCompletion"), s.path,
                    where + ".considerForCompletion");
            if (n != null) {
                c.out.addTask((Task) n, ti.displayName, reselect, considered, ti.doneSlot);
            }
        }

        Scope enterScope = new Scope(s, false, 0, c.evalInfos.size(), "enter conditions",
                s.requiredEvent == null ? null : s.requiredEvent.fields()); // rule V2: the event being tried
        c.out.setEnterConditions(nodes.compileConditionList(s.def.enterConditions(), enterScope, s.path,
                "enterConditions"));

        if (s.type == StateType.LINKED && !s.children.isEmpty()) {
            compileLinkedParameters(s);
        }

        List<TransitionDef> ts = s.def.transitions();
        if (ts.size() > MAX_TRANSITIONS_PER_STATE) {
            c.error(s.path, "transitions", "a state may have at most " + MAX_TRANSITIONS_PER_STATE
                    + " transitions, got " + ts.size());
        }
        for (int i = 0; i < ts.size() && i < MAX_TRANSITIONS_PER_STATE; i++) {
            if (c.pruned && ts.get(i) != null && EnabledFlags.isDisabled(ts.get(i).enabled())) {
                continue; // rule N4: left out of the tree that runs (a placeholder keeps the index)
            }
            transitions.compile(s, ts.get(i), i);
        }
    }

    /** A task's boolean key (default true), or true after reporting a value that is not a boolean. */
    private boolean flag(Object raw, String path, String field) {
        if (raw == null || raw instanceof Boolean && (Boolean) raw) {
            return true;
        }
        if (raw instanceof Boolean) {
            return false;
        }
        c.error(path, field, "expected a boolean, got " + Values.describe(raw));
        return true;
    }

    private static final String UTILITY_PARENTS = "a child of a state whose selection uses utility "
            + "(trySelectChildrenWithHighestUtility, trySelectChildrenAtRandomWeightedByUtility)";
    private static final List<String> CONSIDERATION_KEYS = List.of("input", "min", "max", "curve",
            "threshold");

    /** The state's weight and considerations, when its parent selects by utility (SEMANTICS.md section 5). */
    private void compileUtility(StateNode s) {
        Object weight = s.def.weight();
        List<Map<String, Object>> ks = s.def.considerations();
        if (s.parent == null || !s.parent.selection.usesUtility()) {
            if (weight != null) {
                c.error(s.path, "weight", "'weight' is only valid on " + UTILITY_PARENTS);
            }
            if (!ks.isEmpty()) {
                c.error(s.path, "considerations", "'considerations' are only valid on " + UTILITY_PARENTS);
            }
            return;
        }
        if (weight != null) {
            Double w = bindings.literal(weight, ValueType.FLOAT, 0, Double.POSITIVE_INFINITY, s.path, "weight");
            if (w != null) {
                c.out.setWeight(w.floatValue());
            }
        }
        // Computed when the parent is being selected: they see parameters and evaluators, like enter
        // conditions, but not the state's own parameters (rule X2: they are set only once it is tried).
        Scope scope = new Scope(s, false, 0, c.evalInfos.size(), "utility considerations").outer();
        for (int i = 0; i < ks.size(); i++) {
            Map<String, Object> k = ks.get(i);
            String where = "considerations[" + i + "]";
            boolean ok = true;
            for (String key : k.keySet()) {
                if (!CONSIDERATION_KEYS.contains(key)) {
                    c.error(s.path, where + "." + key, "unknown field '" + key + "' in a consideration; valid fields are "
                            + CONSIDERATION_KEYS + c.didYouMean(key, CONSIDERATION_KEYS));
                    ok = false;
                }
            }
            ValueInput input = null;
            Double min = null;
            Double max = null;
            for (String required : CONSIDERATION_KEYS.subList(0, 3)) {
                if (!k.containsKey(required)) {
                    c.error(s.path, where, "a consideration needs '" + required + "'");
                    ok = false;
                }
            }
            if (k.containsKey("input")) {
                input = bindings.input(k.get("input"), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, scope,
                        s.path, where + ".input");
            }
            if (k.containsKey("min")) {
                min = bindings.literal(k.get("min"), ValueType.FLOAT, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                        s.path, where + ".min");
            }
            if (k.containsKey("max")) {
                max = bindings.literal(k.get("max"), ValueType.FLOAT, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                        s.path, where + ".max");
            }
            if (min != null && max != null && min >= max) {
                c.error(s.path, where, "'min' (" + Compilation.fmt(min) + ") must be below 'max' ("
                        + Compilation.fmt(max) + ")");
                ok = false;
            }
            Vocabulary.Curve curve = Vocabulary.Curve.LINEAR;
            if (k.containsKey("curve")) {
                Object raw = k.get("curve");
                curve = raw instanceof String ? Vocabulary.Curve.parse((String) raw) : null;
                if (curve == null) {
                    c.error(s.path, where + ".curve", "unknown curve " + (raw instanceof String ? Compilation.quote((String) raw)
                            : Values.describe(raw)) + "; valid curves are " + Vocabulary.Curve.validNames()
                            + (raw instanceof String ? c.didYouMean((String) raw, Vocabulary.Curve.validNames()) : ""));
                    ok = false;
                }
            }
            Double threshold = 0.5;
            if (k.containsKey("threshold")) {
                threshold = bindings.literal(k.get("threshold"), ValueType.FLOAT, 0, 1, s.path, where + ".threshold");
            }
            if (ok && input != null && min != null && max != null && threshold != null) {
                c.out.addConsideration(input, min.floatValue(), max.floatValue(), curve, threshold.floatValue());
            }
        }
    }

    /**
     * A state's own parameters (rules X1, X3): what each is set to when the state is entered, its
     * {@code value} or its default. A value sees what the state's parent sees (rule X2: not the
     * state's own parameters) and the tasks of the state's ancestors, as linkedParameters do; an enum
     * parameter's value is one of its value names or a binding to an enum parameter with the same values.
     */
    private void compileStateParameters(StateNode s) {
        Scope scope = new Scope(s, true, 0, c.evalInfos.size(), "state parameter values").outer();
        for (Param p : s.params.values()) {
            String f = "parameters." + p.name() + ".value";
            ValueInput v;
            if (p.value() == null) {
                v = ValueInput.constant(p.type(), p.defaultValue());
            } else if (p.enumValues() != null) {
                v = enumValue(p, scope, s.path, f);
            } else {
                v = bindings.input(p.value(), p.type(), p.entity() ? -1 : Double.NEGATIVE_INFINITY,
                        Double.POSITIVE_INFINITY, scope, s.path, f);
            }
            if (v != null) {
                c.out.addStateParameter(p.name(), p.type(), p.slot().index(), p.generationSlot(), v);
            }
        }
    }

    /** The value of enum state parameter {@code p}: a value name, or an enum parameter with the same values. */
    private ValueInput enumValue(Param p, Scope scope, String path, String f) {
        Object raw = p.value();
        if (raw instanceof String && p.enumIndex((String) raw) >= 0) {
            return ValueInput.constant(ValueType.INT, p.enumIndex((String) raw));
        }
        Binding b = Bindings.asBinding(raw);
        Param q = b != null && b.kind() == Binding.Kind.PARAM ? bindings.lookupParam(b.ref(), scope) : null;
        if (q != null && java.util.Arrays.equals(q.enumValues(), p.enumValues())) {
            return ValueInput.slot(ValueType.INT, q.slot().index(), b.kind().key() + ":" + b.ref());
        }
        List<String> names = List.of(p.enumValues());
        c.error(path, f, "expected one of the values " + names + " or a binding {\"param\": ...} to an enum "
                + "parameter in scope with the same values, got " + Values.describe(raw)
                + (raw instanceof String ? c.didYouMean((String) raw, names) : ""));
        return null;
    }

    private void compileLinkedParameters(StateNode s) {
        StateNode sub = s.children.get(0);
        SubtreeCopy inst = sub.copy;
        for (String key : s.def.linkedParameters().keySet()) {
            if (!inst.params.containsKey(key)) {
                c.error(s.path, "linkedParameters." + key, "subtree '" + inst.subtree + "' has no parameter '"
                        + key + "'; its parameters are " + inst.params.keySet() + c.didYouMean(key, inst.params.keySet()));
            }
        }
        // Values see the tasks of the linked state's ancestors, not its own (entered after the copy).
        Scope scope = new Scope(s, true, 0, c.evalInfos.size(), "linked parameters");
        for (Param param : inst.params.values()) {
            Object raw = s.def.linkedParameters().get(param.name());
            ValueInput v = raw == null ? ValueInput.constant(param.type(), param.defaultValue())
                    : bindings.input(raw, param.type(), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, scope,
                    s.path, "linkedParameters." + param.name());
            if (v != null) {
                c.out.addLinkedParameter(param.type(), param.slot().index(), v);
            }
        }
    }
}
