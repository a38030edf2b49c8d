package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiler.Model.EvalInfo;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.Slot;
import dev.crowdtree.statetree.compiler.Model.SubtreeCopy;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.FieldSpec;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.crowdtree.statetree.compiler.Compilation.quote;

/**
 * Pass 1, declarations: the tree's parameters (each gets a slot), its evaluators (each built, with
 * slots for its fields; an evaluator's inputs see parameters and earlier evaluators), and the
 * top-level subtrees with the names authored in them (so that a target naming a state inside a
 * subtree gets a precise error later). Subtree parameters are declared per copy, by the expansion
 * pass, and state parameters by the slot layout pass, with the checks of {@link #compileParameters}.
 */
final class DeclarationPass {
    private final Compilation c;
    private final Bindings bindings;
    private final NodeFactory nodes;

    DeclarationPass(Compilation c, Bindings bindings, NodeFactory nodes) {
        this.c = c;
        this.bindings = bindings;
        this.nodes = nodes;
    }

    void run() {
        compileParameters(c.def.parameters(), c.params, null, "parameters");
        compileEvaluators();
        collectSubtrees();
    }

    /** Gives a parameter a slot of {@code type}: a new slot of the tree, or a place in a state's block (rule X6). */
    interface SlotSource {
        Slot take(ValueType type, String slotName);
    }

    /** The tree's parameters ({@code inst} null) or a subtree copy's: new slots, no {@code value} (rule X1). */
    void compileParameters(List<ParameterDef> defs, Map<String, Param> into, SubtreeCopy inst, String field) {
        String statePath = inst == null ? null : inst.root == null ? null : inst.root.path;
        String prefix = (inst == null ? "" : inst.subtree + "@" + statePath + ".") + "param.";
        compileParameters(defs, into, statePath, field, prefix, c::newSlot, inst == null ? TREE_VALUE : SUBTREE_VALUE);
    }

    private static final String TREE_VALUE = "'value' is only valid on a state's parameters; a tree parameter starts "
            + "with its 'default' and is set by the host or by setParameter tasks";
    private static final String SUBTREE_VALUE = "a subtree's parameters get their values from the linking state's "
            + "linkedParameters (their 'default' when not given); 'value' is only valid on other states' parameters";

    /**
     * Checks parameter declarations and puts them into {@code into} with slots from {@code slots}.
     * {@code noValue} is the error for a {@code value} (null: a state's parameters, which may have
     * one instead of a {@code default}, rule X1; it is kept for {@link StatePass} to compile).
     */
    void compileParameters(List<ParameterDef> defs, Map<String, Param> into, String statePath, String field,
                           String slotPrefix, SlotSource slots, String noValue) {
        for (int i = 0; i < defs.size(); i++) {
            ParameterDef p = defs.get(i);
            String where = field + "[" + i + "]";
            if (p == null) {
                c.error(statePath, where, "expected a parameter object");
                continue;
            }
            if (p.name() == null || p.name().isBlank()) {
                c.error(statePath, where, "a parameter needs a non-empty name");
                continue;
            }
            where = field + "." + p.name();
            if (into.containsKey(p.name())) {
                c.error(statePath, where, "duplicate parameter '" + p.name() + "'");
                continue;
            }
            String slotName = slotPrefix + p.name();
            if (p.values() != null && !ENUM.equals(p.type())) {
                c.error(statePath, where + ".values", "'values' is only valid with \"type\": \"enum\"");
            }
            Object value = p.value();
            if (value != null && noValue != null) {
                c.error(statePath, where + ".value", noValue);
                value = null;
            } else if (value != null && p.defaultValue() != null) {
                c.error(statePath, where + ".value", "give 'default' or 'value', not both: a state parameter gets its "
                        + "'value' each time its state is entered, or its 'default' when it has no 'value'");
            }
            if (ENUM.equals(p.type()) || ENTITY.equals(p.type())) {
                into.put(p.name(), typedParameter(p, statePath, where, slotName, slots).withValue(value));
                continue;
            }
            ValueType t = ValueType.parse(p.type());
            if (t == null) {
                c.error(statePath, where + ".type", "unknown parameter type " + quote(p.type())
                        + "; valid types are bool, int, float, enum, entity" + c.didYouMean(p.type(), "bool, int, float, enum, entity"));
                continue;
            }
            double dflt = 0;
            if (p.defaultValue() != null) {
                Double d = bindings.literal(p.defaultValue(), t, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                        statePath, where + ".default");
                // A bad default is reported above; the parameter still exists, so that its uses are
                // not also reported as "unknown parameter".
                if (d != null) {
                    dflt = d;
                }
            }
            into.put(p.name(), new Param(p.name(), t, dflt, slots.take(t, slotName)).withValue(value));
        }
    }

    static final String ENUM = "enum";
    static final String ENTITY = "entity";

    /**
     * An {@code enum} parameter (an int slot holding the index of one of its {@code values}; the
     * default is a value name, else the first) or an {@code entity} one (an int slot holding an agent
     * id, -1 for none, the default). Errors are reported; the parameter exists anyway, so that its
     * uses are not also reported as unknown.
     */
    private Param typedParameter(ParameterDef p, String statePath, String where, String slotName, SlotSource slots) {
        Model.Slot slot = slots.take(ValueType.INT, slotName);
        if (ENTITY.equals(p.type())) {
            double dflt = -1;
            if (p.defaultValue() != null) {
                Double d = bindings.literal(p.defaultValue(), ValueType.INT, -1, Integer.MAX_VALUE, statePath,
                        where + ".default");
                dflt = d == null ? -1 : d;
            }
            Model.Slot generation = slots.take(ValueType.INT, slotName + "#generation");
            return new Param(p.name(), ValueType.INT, dflt, slot, null, true, generation.index());
        }
        java.util.List<String> names = new java.util.ArrayList<>();
        if (p.values() == null || p.values().isEmpty()) {
            c.error(statePath, where + ".values", "an enum parameter needs \"values\": a non-empty list of value names");
        } else {
            for (int i = 0; i < p.values().size(); i++) {
                Object v = p.values().get(i);
                if (!(v instanceof String) || ((String) v).isBlank() || names.contains(v)) {
                    c.error(statePath, where + ".values[" + i + "]", "expected a unique, non-empty value name, got "
                            + dev.crowdtree.statetree.definition.Values.describe(v));
                } else {
                    names.add((String) v);
                }
            }
        }
        Param param = new Param(p.name(), ValueType.INT, 0, slot, names.toArray(new String[0]), false);
        if (p.defaultValue() != null) {
            int index = p.defaultValue() instanceof String ? param.enumIndex((String) p.defaultValue()) : -1;
            if (index < 0) {
                c.error(statePath, where + ".default", "expected one of the values " + names + ", got "
                        + dev.crowdtree.statetree.definition.Values.describe(p.defaultValue())
                        + (p.defaultValue() instanceof String ? c.didYouMean((String) p.defaultValue(), names) : ""));
            } else {
                param = new Param(p.name(), ValueType.INT, index, slot, param.enumValues(), false);
            }
        }
        return param;
    }

    void compileEvaluators() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < c.def.evaluators().size(); i++) {
            NodeDef nd = c.def.evaluators().get(i);
            String where = "evaluators[" + i + "]";
            if (nd == null) {
                c.error(null, where, "expected an evaluator object");
                continue;
            }
            NodeType type = nodes.nodeType(nd, NodeType.Category.EVALUATOR, null, where);
            if (type == null) {
                continue;
            }
            String name = nd.name() != null ? nd.name() : type.name();
            if (!names.add(name)) {
                c.error(null, where + ".name", "duplicate evaluator name '" + name
                        + "'; give each evaluator a unique 'name'");
                continue;
            }
            Map<String, Integer> fieldSlots = new LinkedHashMap<>();
            Map<String, Slot> outputs = new LinkedHashMap<>();
            for (FieldSpec f : type.fields()) {
                Slot s = c.newSlot(f.type(), "eval." + name + "." + f.name());
                fieldSlots.put(f.name(), s.index());
                if (f.output()) {
                    outputs.put(f.name(), s);
                }
            }
            Object enabled = nd.properties().get(EnabledFlags.KEY);
            EnabledFlags.check(c, enabled, null, where + "." + EnabledFlags.KEY);
            boolean disabled = EnabledFlags.isDisabled(enabled);
            Scope scope = new Scope(null, false, 0, c.evalInfos.size(), "evaluator inputs").disabledIf(disabled);
            Node n = nodes.createNode(nd, type, name, scope, fieldSlots, null, where, 0);
            c.evalInfos.add(new EvalInfo(name, outputs, disabled));
            if (n != null) {
                c.out.addEvaluator((Evaluator) n);
            }
        }
    }

    void collectSubtrees() {
        for (int i = 0; i < c.def.subtrees().size(); i++) {
            StateDef s = c.def.subtrees().get(i);
            String where = "subtrees[" + i + "]";
            if (s == null || s.name() == null || s.name().isBlank()) {
                c.error(null, where, "a subtree needs a non-empty 'name'");
                continue;
            }
            if (!Vocabulary.StateType.SUBTREE.assetName().equals(s.type())
                    && !Vocabulary.StateType.LINKED.assetName().equals(s.type())) {
                // (a linked one: its root runs the subtree it links below it, as a linked asset whose root links)
                c.error(s.name(), "type", "states in 'subtrees' must have \"type\": \"subtree\" (or \"linked\", "
                        + "a subtree whose root links another), got " + quote(s.type()));
            }
            if (c.subtrees.putIfAbsent(s.name(), s) != null) {
                c.error(null, where + ".name", "duplicate subtree name '" + s.name() + "'");
            }
            collectNames(s, "subtree " + s.name(), 0);
        }
        if (c.def.root() != null) {
            collectNames(c.def.root(), "tree", 0);
        }
    }

    void collectNames(StateDef s, String owner, int depth) {
        if (s == null || depth > 64) {
            return;
        }
        if (s.name() != null) {
            c.authoredNames.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(owner);
        }
        for (StateDef c : s.children()) {
            collectNames(c, owner, depth + 1);
        }
    }
}
