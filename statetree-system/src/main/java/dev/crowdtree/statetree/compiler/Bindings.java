package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiler.Model.EvalInfo;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.Slot;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.node.PayloadInput;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.crowdtree.statetree.compiler.Compilation.fmt;

/**
 * Values and bindings: checks literals against a value type and range, and resolves
 * {@code {"param"|"eval"|"task": ...}} bindings to slots under the scope rules of {@link Scope}
 * (parameters of the state and its ancestors, a subtree copy's among them, then the tree's;
 * evaluators listed earlier; tasks of the state and its ancestors). Every failure is reported on the
 * compilation and returns null.
 */
final class Bindings {
    private final Compilation c;

    Bindings(Compilation c) {
        this.c = c;
    }

    Double optionalSeconds(Object raw, String path, String field) {
        if (raw == null) {
            return 0.0;
        }
        return literal(raw, ValueType.FLOAT, 0, 1e9, path, field);
    }

    static ValueType numericType(Object raw) {
        return raw instanceof Double ? ValueType.FLOAT : ValueType.INT;
    }

    Param paramOf(Object raw, Scope scope) {
        return raw instanceof String ? lookupParam((String) raw, scope) : null;
    }

    /**
     * The parameter {@code name} in scope, nearest first (rule X2): those the scope's state declares
     * (its state parameters, or a subtree copy's root's), then each ancestor's, then the tree's.
     */
    Param lookupParam(String name, Scope scope) {
        for (StateNode s = scope.paramState(); s != null; s = s.parent) {
            Param p = s.params.get(name);
            if (p != null) {
                return p;
            }
        }
        return c.params.get(name);
    }

    /** The names of the parameters in scope, nearest first, each once. */
    List<String> paramNames(Scope scope) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (StateNode s = scope.paramState(); s != null; s = s.parent) {
            names.addAll(s.params.keySet());
        }
        names.addAll(c.params.keySet());
        return new ArrayList<>(names);
    }

    /** A literal or binding of {@code type} (null: any number). */
    ValueInput input(Object raw, ValueType type, double min, double max, Scope scope, String path, String f) {
        return input(raw, type, false, min, max, scope, path, f);
    }

    /** As above; with {@code type} null and {@code anyBinding}, a binding of any type (bool included). */
    private ValueInput input(Object raw, ValueType type, boolean anyBinding, double min, double max, Scope scope,
                             String path, String f) {
        if (raw instanceof Map && ((Map<?, ?>) raw).containsKey("fn")) {
            ValueInput v = function((Map<?, ?>) raw, scope, path, f, 1);
            if (v == null) {
                return null;
            }
            boolean ok = type == null || type.accepts(v.type());
            if (!ok) {
                c.error(path, f, "function " + v + " gives " + v.type().assetName() + " but this field needs "
                        + type.assetName());
                return null;
            }
            return v;
        }
        Binding b = asBinding(raw);
        if (b == null && raw instanceof Map) {
            c.error(path, f, "expected a value or a binding with exactly one of \"param\", \"eval\", \"task\", "
                    + "\"event\" naming a string, got " + Values.describe(raw));
            return null;
        }
        if (b == null) {
            ValueType t = type == null ? numericType(raw) : type;
            if (type == null && !(raw instanceof Number)) {
                c.error(path, f, "expected a number, got " + Values.describe(raw));
                return null;
            }
            Double d = literal(raw, t, min, max, path, f);
            return d == null ? null : ValueInput.constant(t, d);
        }
        if (b.kind() == Binding.Kind.EVENT) {
            return eventField(b.ref(), type, anyBinding, scope, path, f);
        }
        Slot slot = null;
        String desc = b.kind().key() + ":" + b.ref();
        switch (b.kind()) {
            case PARAM: {
                Param p = lookupParam(b.ref(), scope);
                if (p == null) {
                    List<String> names = paramNames(scope);
                    c.error(path, f, "binding to unknown parameter '" + b.ref() + "'; parameters in scope are "
                            + names + c.didYouMean(b.ref(), names));
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
        boolean ok = type == null ? anyBinding || slot.type() != ValueType.BOOL : type.accepts(slot.type());
        if (!ok) {
            c.error(path, f, "binding " + b + " is " + slot.type().assetName() + " but this field needs "
                    + (type == null ? "a number" : type.assetName()));
            return null;
        }
        return ValueInput.slot(slot.type(), slot.index(), desc);
    }

    /**
     * {@code {"event": field}}: only in the conditions of an onEvent transition that declares the
     * field in its {@code payloadFields} (the event being tried, rule E2), and in the enter
     * conditions (the event being tried, rule V2) and task inputs (the event the state was entered
     * with, kept in slots, rule V5) of a state whose required event declares it.
     */
    private ValueInput eventField(String field, ValueType type, boolean anyType, Scope scope, String path, String f) {
        if (scope.eventFields() == null) {
            c.error(path, f, "binding {\"event\": \"" + field + "\"} is out of scope: " + scope.what()
                    + " cannot read an event payload (only the conditions of an onEvent transition can, "
                    + "for the fields it declares in payloadFields, and the enter conditions and tasks of a state, "
                    + "for the fields its requiredEvent declares)");
            return null;
        }
        ValueType declared = scope.eventFields().get(field);
        if (declared == null) {
            String owner = scope.what().startsWith("transition") ? "transition" : "state's requiredEvent";
            c.error(path, f, "binding {\"event\": \"" + field + "\"}: the " + owner + " does not declare payload field '"
                    + field + "'; add it to " + (owner.equals("transition") ? "" : "requiredEvent.")
                    + "payloadFields (declared: " + scope.eventFields().keySet() + ")"
                    + c.didYouMean(field, scope.eventFields().keySet()));
            return null;
        }
        boolean ok = type == null ? anyType || declared != ValueType.BOOL : type.accepts(declared);
        if (!ok) {
            c.error(path, f, "payload field '" + field + "' is " + declared.assetName() + " but this field needs "
                    + (type == null ? "a number" : type.assetName()));
            return null;
        }
        if (scope.eventSlots() != null) {
            // a task of a state with a required event: the payload kept since the state was entered (rule V5)
            Slot slot = scope.eventSlots().get(field);
            return ValueInput.slot(slot.type(), slot.index(), "event:" + field);
        }
        return ValueInput.eventField(declared, c.out.payloadFieldId(field), field);
    }

    /**
     * An event payload property: a number (or numeric binding or function), sent as the float field
     * {@code value}, or an object of named fields, each a literal, binding or function (a map with
     * exactly one binding key is a binding, so those names cannot be fields). Fields no transition
     * declares are checked and then left out. Null after reporting. {@code sent}, when not null,
     * receives the name and type of every field, the left-out ones included (for warning W3).
     */
    PayloadInput payload(Object raw, Scope scope, String path, String f, Map<String, ValueType> sent) {
        boolean object = raw instanceof Map && asBinding(raw) == null && !((Map<?, ?>) raw).containsKey("fn");
        if (!object) {
            ValueInput v = input(raw, ValueType.FLOAT, -Float.MAX_VALUE, Float.MAX_VALUE, scope, path, f);
            if (v == null) {
                return null;
            }
            if (sent != null) {
                sent.put(Payload.VALUE, ValueType.FLOAT);
            }
            int id = c.out.knownPayloadField(Payload.VALUE);
            return id < 0 ? new PayloadInput(new int[0], new ValueInput[0], new ValueType[0], v.toString())
                    : new PayloadInput(new int[] {id}, new ValueInput[] {v}, new ValueType[] {ValueType.FLOAT}, v.toString());
        }
        List<Integer> ids = new ArrayList<>();
        List<ValueInput> values = new ArrayList<>();
        List<ValueType> types = new ArrayList<>();
        StringBuilder d = new StringBuilder("{");
        boolean ok = true;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) raw).entrySet()) {
            String name = String.valueOf(e.getKey());
            String ff = f + "." + name;
            if (name.isEmpty() || Payload.RESERVED.contains(name)) {
                c.error(path, ff, "payload field name '" + name + "' is not allowed (not empty, and not one of "
                        + Payload.RESERVED + ", which introduce bindings)");
                ok = false;
                continue;
            }
            Object v = e.getValue();
            if (!(v instanceof Boolean || v instanceof Number || v instanceof Map || v instanceof Binding)) {
                c.error(path, ff, "expected a boolean, a number, a binding or a property function, got "
                        + Values.describe(v));
                ok = false;
                continue;
            }
            ValueInput in = v instanceof Boolean ? ValueInput.constant(ValueType.BOOL, (Boolean) v ? 1 : 0)
                    : input(v, null, true, -Float.MAX_VALUE, Float.MAX_VALUE, scope, path, ff);
            if (in == null) {
                ok = false;
                continue;
            }
            d.append(d.length() == 1 ? "" : ", ").append(name).append(": ").append(in);
            if (sent != null) {
                sent.put(name, in.type());
            }
            int id = c.out.knownPayloadField(name);
            if (id >= 0) {
                ids.add(id);
                values.add(in);
                types.add(in.type());
            }
        }
        if (!ok) {
            return null;
        }
        int[] fields = new int[ids.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = ids.get(i);
        }
        return new PayloadInput(fields, values.toArray(new ValueInput[0]), types.toArray(new ValueType[0]),
                d.append('}').toString());
    }

    /** Deepest nesting of property functions. */
    static final int MAX_FUNCTION_NESTING = 16;

    /**
     * A property function {@code {"fn": name, "args": [...]}}: each argument a number, a binding or
     * another function (numbers only: a bool argument is an error); null after reporting.
     */
    private ValueInput function(Map<?, ?> m, Scope scope, String path, String f, int nesting) {
        if (nesting > MAX_FUNCTION_NESTING) {
            c.error(path, f, "property functions nested deeper than " + MAX_FUNCTION_NESTING);
            return null;
        }
        for (Object key : m.keySet()) {
            if (!"fn".equals(key) && !"args".equals(key)) {
                c.error(path, f + "." + key, "unknown key '" + key + "' in a property function; valid keys are fn, args"
                        + c.didYouMean(String.valueOf(key), "fn, args"));
                return null;
            }
        }
        Object name = m.get("fn");
        if (!(name instanceof String) || !ValueInput.FUNCTIONS.contains(name)) {
            c.error(path, f + ".fn", "unknown property function " + (name instanceof String ? "'" + name + "'"
                    : Values.describe(name)) + "; valid ones are " + String.join(", ", ValueInput.FUNCTIONS)
                    + (name instanceof String ? c.didYouMean((String) name, ValueInput.FUNCTIONS) : ""));
            return null;
        }
        Object raw = m.get("args");
        if (!(raw instanceof List)) {
            c.error(path, f + ".args", "expected a list of arguments (numbers, bindings or functions), got "
                    + Values.describe(raw));
            return null;
        }
        List<?> list = (List<?>) raw;
        int n = list.size();
        String arity = switch ((String) name) {
            case "sub", "div" -> n == 2 ? null : "exactly 2";
            case "abs", "neg" -> n == 1 ? null : "exactly 1";
            case "clamp" -> n == 3 ? null : "exactly 3 (value, min, max)";
            default -> n >= 2 ? null : "2 or more";
        };
        if (arity != null) {
            c.error(path, f + ".args", "'" + name + "' takes " + arity + " arguments, got " + n);
            return null;
        }
        ValueInput[] args = new ValueInput[n];
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            Object a = list.get(i);
            String af = f + ".args[" + i + "]";
            if (a instanceof Boolean) {
                c.error(path, af, "property functions take numbers, got " + Values.describe(a));
                ok = false;
            } else if (a instanceof Map && ((Map<?, ?>) a).containsKey("fn")) {
                args[i] = function((Map<?, ?>) a, scope, path, af, nesting + 1);
                ok &= args[i] != null;
            } else {
                args[i] = input(a, null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, scope, path, af);
                ok &= args[i] != null;
            }
        }
        return ok ? ValueInput.function((String) name, args, c.out.divisionsByZero()) : null;
    }

    Slot evalOutput(String ref, Scope scope, String path, String f) {
        int dot = ref.lastIndexOf('.');
        if (dot <= 0 || dot == ref.length() - 1) {
            c.error(path, f, "evaluator binding '" + ref + "' must be written <evaluator>.<output>");
            return null;
        }
        String ev = ref.substring(0, dot);
        String out = ref.substring(dot + 1);
        for (int i = 0; i < c.evalInfos.size(); i++) {
            EvalInfo e = c.evalInfos.get(i);
            if (e.name().equals(ev)) {
                if (i >= scope.evaluatorLimit()) {
                    c.error(path, f, "evaluator '" + ev + "' is out of scope for " + scope.what()
                            + " (an evaluator may only bind to evaluators listed before it)");
                    return null;
                }
                if (e.disabled() && !scope.disabledSite()) {
                    c.error(path, f, disabledOutput("evaluator '" + ev + "'"));
                    return null;
                }
                Slot s = e.outputs().get(out);
                if (s == null) {
                    c.error(path, f, "evaluator '" + ev + "' has no output '" + out + "'; its outputs are "
                            + e.outputs().keySet() + c.didYouMean(out, e.outputs().keySet()));
                }
                return s;
            }
        }
        List<String> names = new ArrayList<>();
        for (EvalInfo e : c.evalInfos) {
            names.add(e.name());
        }
        c.error(path, f, "unknown evaluator '" + ev + "'; evaluators are " + names + c.didYouMean(ev, names));
        return null;
    }

    /**
     * The slot of task output {@code ref} ({@code [<state path>:|@global:]<task>.<output>}) as seen
     * from {@code scope}: the tasks of its state (the first {@code ownTaskLimit}) and of its
     * ancestors, leaf to root, then the global tasks (rule G4: they act as an ancestor of the root).
     * A scope without a state is a global task's: only the first {@code ownTaskLimit} global tasks
     * are visible. Null after reporting.
     */
    Slot taskOutput(String ref, Scope scope, String path, String f) {
        if (!scope.tasks()) {
            c.error(path, f, "binding {\"task\": \"" + ref + "\"} is out of scope: " + scope.what()
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
            c.error(path, f, "task binding '" + ref + "' must be written <task>.<output> or <state path>:<task>.<output>");
            return null;
        }
        String task = rest.substring(0, dot);
        String out = rest.substring(dot + 1);
        boolean global = Vocabulary.GLOBAL_SCOPE.equals(qualifier);
        List<String> visibleNames = new ArrayList<>();
        for (StateNode s = global ? null : scope.state(); s != null; s = s.parent) {
            if (qualifier != null && !s.path.equals(qualifier) && !s.path.endsWith("/" + qualifier)
                    && !s.name.equals(qualifier)) {
                continue;
            }
            int limit = s == scope.state() ? scope.ownTaskLimit() : s.tasks.size();
            for (int k = 0; k < limit; k++) {
                TaskInfo ti = s.tasks.get(k);
                visibleNames.add(ti.displayName);
                if (ti.displayName.equals(task)) {
                    if (ti.disabled && !scope.disabledSite()) {
                        c.error(path, f, disabledOutput("task '" + task + "' of state '" + s.path + "'"));
                        return null;
                    }
                    Slot slot = ti.outputs.containsKey(out) ? ti.fieldSlots.get(out) : null;
                    if (slot == null) {
                        c.error(path, f, "task '" + task + "' of state '" + s.path + "' has no output '" + out
                                + "'; its outputs are " + ti.outputs.keySet() + c.didYouMean(out, ti.outputs.keySet()));
                    }
                    return slot;
                }
            }
        }
        if (qualifier == null || global) {
            // the global tasks are above the root: searched after every state (rule G4)
            for (int k = 0; k < c.globalTasks.size(); k++) {
                TaskInfo ti = c.globalTasks.get(k);
                if (scope.state() != null || k < scope.ownTaskLimit()) {
                    visibleNames.add(ti.displayName);
                }
                if (!ti.displayName.equals(task)) {
                    continue;
                }
                if (scope.state() == null && k >= scope.ownTaskLimit()) {
                    c.error(path, f, "global task '" + task + "' (" + GlobalTaskPass.KEY + "[" + ti.index + "]) is "
                            + "listed after this one; a global task may bind only to the global tasks listed before it");
                    return null;
                }
                if (ti.disabled && !scope.disabledSite()) {
                    c.error(path, f, disabledOutput("global task '" + task + "'"));
                    return null;
                }
                Slot slot = ti.outputs.containsKey(out) ? ti.fieldSlots.get(out) : null;
                if (slot == null) {
                    c.error(path, f, "global task '" + task + "' has no output '" + out + "'; its outputs are "
                            + ti.outputs.keySet() + c.didYouMean(out, ti.outputs.keySet()));
                }
                return slot;
            }
        }
        String visible = scope.state() == null ? "the global tasks listed before this one"
                : (scope.what().equals("task inputs") ? "earlier tasks of this state, " : "tasks of this state, ")
                + "the tasks of its ancestor states" + (c.globalTasks.isEmpty() ? "" : " and the global tasks");
        c.error(path, f, "no " + (global ? "global task '" + task + "'" : "task '" + task + "'"
                + (qualifier == null ? "" : " in state '" + qualifier + "'")) + " is in scope for " + scope.what()
                + " (visible: " + visible + ")" + c.didYouMean(task, visibleNames));
        return null;
    }

    /** Rule N5: an enabled place binds the output of a disabled node. */
    private static String disabledOutput(String node) {
        return node + " is disabled (\"enabled\": false): a disabled node never runs and has no outputs; "
                + "enable it, or bind something else here";
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
            c.error(path, f, "expected a boolean, got " + Values.describe(raw));
            return null;
        }
        if (!(raw instanceof Number)) {
            c.error(path, f, "expected " + (type == ValueType.INT ? "an integer" : "a number") + ", got " + Values.describe(raw));
            return null;
        }
        double d = ((Number) raw).doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            c.error(path, f, "expected a finite number, got " + raw);
            return null;
        }
        if (type == ValueType.INT) {
            if (d != Math.rint(d)) {
                c.error(path, f, "expected an integer, got " + raw);
                return null;
            }
            min = Math.max(min, Integer.MIN_VALUE);
            max = Math.min(max, Integer.MAX_VALUE);
        } else {
            min = Math.max(min, -Float.MAX_VALUE);
            max = Math.min(max, Float.MAX_VALUE);
        }
        if (d < min || d > max) {
            c.error(path, f, "value " + raw + " is out of range; valid range is " + fmt(min) + ".." + fmt(max));
            return null;
        }
        return d;
    }
}
