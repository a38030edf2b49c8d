package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ParamRef;
import dev.crowdtree.statetree.node.PropertySpec;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.crowdtree.statetree.compiler.Compilation.quote;

/**
 * Node construction: finds a node's type in the registry (by category), checks its properties
 * against the type's schema (unknown fields, one-of groups, required fields, ranges), resolves
 * bindings through {@link Bindings}, compiles nested conditions, and calls the type's factory with
 * the per-agent field slots the layout pass gave it.
 */
final class NodeFactory {
    /** Keys every task has besides its type's properties (read by {@link StatePass}). */
    static final List<String> TASK_KEYS = List.of("reselect", "considerForCompletion", EnabledFlags.KEY);
    /** Keys every evaluator has besides its type's properties (read by {@link DeclarationPass}). */
    static final List<String> EVALUATOR_KEYS = List.of(EnabledFlags.KEY);

    private final Compilation c;
    private final Bindings bindings;
    /** Resolves state properties (set once the transition pass exists). */
    private TransitionPass states;

    NodeFactory(Compilation c, Bindings bindings) {
        this.c = c;
        this.bindings = bindings;
    }

    /** Where state properties ({@code PropertySpec.Kind.STATE}) resolve. */
    void resolveStatesWith(TransitionPass pass) {
        this.states = pass;
    }

    /** The conditions of a list ({@code enterConditions}, a transition's {@code conditions}) that compiled. */
    List<Condition> compileConditionList(List<NodeDef> defs, Scope scope, String path, String field) {
        List<Condition> out = new ArrayList<>();
        for (int i = 0; i < defs.size(); i++) {
            Condition cond = compileCondition(defs.get(i), scope, path, field + "[" + i + "]", 1);
            if (cond != null) {
                out.add(cond);
            }
        }
        return out;
    }

    Condition compileCondition(Object raw, Scope scope, String path, String field, int nesting) {
        if (nesting > StateTreeCompiler.MAX_CONDITION_NESTING) {
            c.error(path, field, "conditions nested deeper than " + StateTreeCompiler.MAX_CONDITION_NESTING);
            return null;
        }
        NodeDef nd;
        if (raw instanceof NodeDef) {
            nd = (NodeDef) raw;
        } else if (raw instanceof Map) {
            nd = NodeDef.fromMap((Map<?, ?>) raw);
        } else {
            c.error(path, field, "expected a condition object, got " + Values.describe(raw));
            return null;
        }
        NodeType type = nodeType(nd, NodeType.Category.CONDITION, path, field);
        if (type == null) {
            return null;
        }
        if (!type.fields().isEmpty()) {
            c.error(path, field, "condition type '" + type.name() + "' declares per-agent fields; conditions must be pure");
            return null;
        }
        String name = nd.name() != null ? nd.name() : type.name();
        Condition cond = (Condition) createNode(nd, type, name, scope, Map.of(), path, field, nesting);
        if (cond != null) {
            c.out.noteConditionDepth(cond.depth());
        }
        return cond;
    }

    NodeType nodeType(NodeDef nd, NodeType.Category category, String path, String field) {
        if (nd.type() == null) {
            Object raw = nd.properties().get("type");
            c.error(path, field + ".type", (raw == null ? "missing 'type'" : "'type' must be a string, got "
                    + Values.describe(raw)) + "; valid " + category.word() + " types are " + typeNames(category));
            return null;
        }
        NodeType type = c.registry.get(nd.type());
        if (type == null) {
            c.error(path, field + ".type", "unknown " + category.word() + " type " + quote(nd.type())
                    + "; valid " + category.word() + " types are " + typeNames(category)
                    + c.didYouMean(nd.type(), typeNames(category)));
            return null;
        }
        if (type.category() != category) {
            c.error(path, field + ".type", "'" + nd.type() + "' is a " + type.category().word() + " type, not a "
                    + category.word() + " type; valid " + category.word() + " types are " + typeNames(category));
            return null;
        }
        return type;
    }

    String typeNames(NodeType.Category category) {
        List<String> names = new ArrayList<>();
        for (NodeType t : c.registry.types().values()) {
            if (t.category() == category) {
                names.add(t.name());
            }
        }
        return String.join(", ", names);
    }

    Node createNode(NodeDef nd, NodeType type, String name, Scope scope, Map<String, Integer> fieldSlots,
                    String path, String field, int nesting) {
        int before = c.errorCount();
        Map<String, Object> props = nd.properties();
        Object rawName = props.get("name");
        if (rawName != null) {
            c.error(path, field + ".name", "'name' must be a string, got " + Values.describe(rawName));
        }
        if (nd.name() != null && nd.name().isBlank()) {
            c.error(path, field + ".name", "'name' must not be empty");
        }
        for (String key : props.keySet()) {
            if (key.equals("name") || key.equals("type")) {
                continue;
            }
            if (TASK_KEYS.contains(key) && type.category() == NodeType.Category.TASK
                    || EVALUATOR_KEYS.contains(key) && type.category() == NodeType.Category.EVALUATOR) {
                continue;
            }
            if (!type.properties().containsKey(key)) {
                List<String> valid = new ArrayList<>(type.properties().keySet());
                valid.add("name");
                if (type.category() == NodeType.Category.TASK) {
                    valid.addAll(TASK_KEYS);
                } else if (type.category() == NodeType.Category.EVALUATOR) {
                    valid.addAll(EVALUATOR_KEYS);
                }
                c.error(path, field + "." + key, "unknown field '" + key + "' for " + type.category().word()
                        + " type '" + type.name() + "'; valid fields are " + valid + c.didYouMean(key, valid));
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
                c.error(path, field, type.category().word() + " '" + type.name() + "' needs exactly one of "
                        + group + (given == 0 ? "" : ", not several"));
            }
        }
        Map<String, Object> values = new HashMap<>();
        Map<String, ValueType> sent = WarningPass.sendsToItself(type) ? new LinkedHashMap<>() : null;
        for (PropertySpec spec : type.properties().values()) {
            Object raw = props.get(spec.name());
            String f = field + "." + spec.name();
            if (raw == null) {
                if (spec.required()) {
                    c.error(path, f, "missing required field '" + spec.name() + "' (" + spec.expected() + ")");
                } else if (spec.defaultValue() != null) {
                    Object d = spec.defaultValue();
                    values.put(spec.name(), spec.kind() == PropertySpec.Kind.INPUT
                            ? ValueInput.constant(spec.valueType() == null ? ValueType.FLOAT : spec.valueType(),
                            d instanceof Boolean ? ((Boolean) d ? 1 : 0) : ((Number) d).doubleValue()) : d);
                }
                continue;
            }
            Object v = resolveProperty(type, spec, raw, props, scope, path, f, nesting, sent);
            if (v != null) {
                values.put(spec.name(), v);
            }
        }
        if (c.errorCount() != before) {
            return null;
        }
        if (sent != null) {
            c.sentEvents.add(new Model.SentEvent(path, field, (String) props.get("tag"), sent));
        }
        Map<String, Integer> columns = hostColumns(type, path, field);
        Map<String, External<?>> externals = externals(type, path, field);
        c.nodeTypes.add(type.name());
        if (type.requestsTransitions()) {
            c.out.setRequestsTransitions();
        }
        if (columns == null || externals == null) {
            return null;
        }
        try {
            return type.create(new NodeConfig(type.name(), name, c.stream++, values, fieldSlots, type.timer(),
                    type.timerField(), columns, externals));
        } catch (RuntimeException e) {
            // A node's factory refuses a configuration with an IllegalArgumentException saying why; say
            // it in words, without the exception's class name.
            String why = e.getMessage() == null || e.getMessage().isBlank() ? "no reason given" : e.getMessage();
            c.error(path, field, type.category().word() + " type '" + type.name() + "' rejected its configuration: "
                    + (e instanceof IllegalArgumentException ? why : "it failed (" + why + "), a bug in the node type"));
            return null;
        }
    }

    Object resolveProperty(NodeType nodeType, PropertySpec spec, Object raw, Map<String, Object> props, Scope scope, String path,
                           String f, int nesting, Map<String, ValueType> sent) {
        switch (spec.kind()) {
            case CONSTANT: {
                if (spec.valueType() == null && !(raw instanceof Number)) {
                    c.error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                    return null;
                }
                ValueType t = spec.valueType() == null ? Bindings.numericType(raw) : spec.valueType();
                Double d = bindings.literal(raw, t, spec.min(), spec.max(), path, f);
                return d == null ? null : t == ValueType.BOOL ? (Object) (d != 0) : d;
            }
            case INPUT: {
                Param enumParam = raw instanceof String ? enumParam(nodeType, spec, props, scope) : null;
                if (enumParam != null) {
                    return enumValue(enumParam, (String) raw, path, f);
                }
                ValueType t = spec.valueType();
                if (spec.typeFrom() != null) {
                    Param p = bindings.paramOf(props.get(spec.typeFrom()), scope);
                    if (p == null) {
                        return null; // reported on the parameter property
                    }
                    t = p.type();
                }
                return bindings.input(raw, t, spec.min(), spec.max(), scope, path, f);
            }
            case STRING:
            case CHOICE:
                if (!(raw instanceof String)) {
                    c.error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                    return null;
                }
                if (spec.kind() == PropertySpec.Kind.CHOICE && !spec.choices().contains(raw)) {
                    c.error(path, f, "expected " + spec.expected() + ", got " + quote((String) raw));
                    return null;
                }
                return raw;
            case TAG:
                if (!(raw instanceof String) || ((String) raw).isEmpty()) {
                    c.error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                    return null;
                }
                c.nodeTags.add((String) raw);
                return c.out.tagId((String) raw);
            case STATE: {
                if (!(raw instanceof String) || ((String) raw).isEmpty()) {
                    c.error(path, f, "expected " + spec.expected() + ", got " + Values.describe(raw));
                    return null;
                }
                if (scope.state() == null || states == null) {
                    c.error(path, f, "a state property is valid only on a task of a state (not a global task or an "
                            + "evaluator)");
                    return null;
                }
                int state = states.resolveState(scope.state(), (String) raw, f);
                if (state >= 0) {
                    scope.state().requestTargets.add(state); // reachable by a request (warning W2)
                }
                return state < 0 ? null : (Object) state;
            }
            case PARAM: {
                if (!(raw instanceof String)) {
                    c.error(path, f, "expected the name of a parameter, got " + Values.describe(raw));
                    return null;
                }
                Param p = bindings.lookupParam((String) raw, scope);
                if (p == null) {
                    List<String> names = bindings.paramNames(scope);
                    c.error(path, f, "unknown parameter '" + raw + "'; parameters in scope are " + names
                            + c.didYouMean((String) raw, names));
                    return null;
                }
                if (spec.valueType() != null && !spec.valueType().accepts(p.type())) {
                    c.error(path, f, "parameter '" + raw + "' is " + p.type().assetName() + "; expected "
                            + spec.valueType().assetName());
                    return null;
                }
                return new ParamRef(p.name(), p.type(), p.slot().index(), p.enumValues(), p.generationSlot());
            }
            case PAYLOAD:
                return bindings.payload(raw, scope, path, f, sent);
            case CONDITION:
                return compileCondition(raw, scope, path, f, nesting + 1);
            default: {
                if (!(raw instanceof List)) {
                    c.error(path, f, "expected a list of condition objects, got " + Values.describe(raw));
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

    /**
     * Registers the host columns of {@code type} in the tree's list (one entry per name, the wider
     * access wins) and returns their handles; null after reporting a column whose element type
     * differs from another node type's.
     */
    private Map<String, Integer> hostColumns(NodeType type, String path, String field) {
        Map<String, Integer> handles = new HashMap<>();
        for (HostColumn col : type.columns().values()) {
            HostColumn known = c.hostColumns.get(col.name());
            if (known != null && known.type() != col.type()) {
                c.error(path, field + ".type", "node type '" + type.name() + "' declares host column '" + col.name()
                        + "' as " + col.type().word() + " but node type '" + c.hostColumnOwner.get(col.name())
                        + "' declares it as " + known.type().word() + "; one tree reads one column with one type");
                return null;
            }
            if (known == null) {
                c.hostColumnHandle.put(col.name(), c.hostColumns.size());
                c.hostColumnOwner.put(col.name(), type.name());
                c.hostColumnUser.put(col.name(), who(type, path, field));
            }
            c.hostColumns.put(col.name(), known == null ? col : known.merge(col));
            handles.put(col.name(), c.hostColumnHandle.get(col.name()));
        }
        return handles;
    }

    /** A node in words, for "needed by" messages: {@code task 'moveTo' (tasks[0] of state 'Root/Go')}. */
    static String who(NodeType type, String path, String field) {
        String where = path == null ? field : field + " of state '" + path + "'";
        return type.category().word() + " '" + type.name() + "' (" + where + ")";
    }

    /** Like {@link #hostColumns}, for the host objects of {@code type}. */
    private Map<String, External<?>> externals(NodeType type, String path, String field) {
        Map<String, External<?>> handles = new HashMap<>();
        for (Map.Entry<String, Class<?>> e : type.externals().entrySet()) {
            External<?> known = c.externals.get(e.getKey());
            if (known != null && known.type() != e.getValue()) {
                c.error(path, field + ".type", "node type '" + type.name() + "' needs external '" + e.getKey()
                        + "' of type " + e.getValue().getName() + " but node type '" + c.externalOwner.get(e.getKey())
                        + "' needs it as " + known.type().getName());
                return null;
            }
            if (known == null) {
                known = new External<>(e.getKey(), e.getValue(), c.externals.size());
                c.externals.put(e.getKey(), known);
                c.externalOwner.put(e.getKey(), type.name());
                c.externalUser.put(e.getKey(), who(type, path, field));
            }
            handles.put(e.getKey(), known);
        }
        return handles;
    }

    /**
     * The enum parameter a value name given to an input refers to: the one named by the property the
     * input is typed like, else by the node's first parameter property; null if none is an enum.
     */
    private Param enumParam(NodeType nodeType, PropertySpec spec, Map<String, Object> props, Scope scope) {
        Param p = spec.typeFrom() != null ? bindings.paramOf(props.get(spec.typeFrom()), scope) : null;
        for (PropertySpec other : nodeType.properties().values()) {
            if (p == null && other.kind() == PropertySpec.Kind.PARAM) {
                p = bindings.paramOf(props.get(other.name()), scope);
            }
        }
        return p != null && p.enumValues() != null ? p : null;
    }

    /** Value {@code name} of enum parameter {@code p}, as its index. */
    private ValueInput enumValue(Param p, String name, String path, String f) {
        int index = p.enumIndex(name);
        if (index < 0) {
            c.error(path, f, "enum parameter '" + p.name() + "' has no value " + quote(name) + "; its values are "
                    + java.util.Arrays.toString(p.enumValues()) + c.didYouMean(name, List.of(p.enumValues())));
            return null;
        }
        return ValueInput.constant(ValueType.INT, index);
    }
}
