package dev.crowdtree.statetree.node;

import java.util.Map;

/**
 * A node's validated, resolved configuration, handed to its type's factory by the compiler.
 * Absent optional properties hold their declared defaults.
 */
public final class NodeConfig {
    private final String type;
    private final String name;
    private final int stream;
    private final Map<String, Object> values;
    private final Map<String, Integer> fieldSlots;
    private final TimerKind timer;
    private final String timerField;
    private final Map<String, Integer> columns;
    private final Map<String, External<?>> externals;

    /**
     * Compiler use.
     *
     * @hidden
     */
    public NodeConfig(String type, String name, int stream, Map<String, Object> values, Map<String, Integer> fieldSlots) {
        this(type, name, stream, values, fieldSlots, TimerKind.NONE, null);
    }

    /**
     * Compiler use: {@code timerField} names the float field of the type's timer (null when none).
     *
     * @hidden
     */
    public NodeConfig(String type, String name, int stream, Map<String, Object> values, Map<String, Integer> fieldSlots,
                      TimerKind timer, String timerField) {
        this(type, name, stream, values, fieldSlots, timer, timerField, Map.of(), Map.of());
    }

    /**
     * Compiler use: {@code columns} maps the type's host columns to the tree's column handles,
     * {@code externals} its externals to the tree's handles.
     *
     * @hidden
     */
    public NodeConfig(String type, String name, int stream, Map<String, Object> values, Map<String, Integer> fieldSlots,
                      TimerKind timer, String timerField, Map<String, Integer> columns,
                      Map<String, External<?>> externals) {
        this.columns = columns;
        this.externals = externals;
        this.type = type;
        this.name = name;
        this.stream = stream;
        this.values = values;
        this.fieldSlots = fieldSlots;
        this.timer = timer;
        this.timerField = timerField;
    }

    /** The kind of timer the node's type declares. */
    public TimerKind timer() {
        return timer;
    }

    /** The float slot of the timer (runtime-owned), or -1. */
    int timerValueSlot() {
        return timerField == null ? -1 : field(timerField);
    }

    /** The int slot of the timer (runtime-owned), or -1. */
    int timerDueSlot() {
        return timerField == null ? -1 : field(timerField + TimerKind.DUE_SUFFIX);
    }

    public String type() {
        return type;
    }

    /** Display name: the authored name or the type name. */
    public String name() {
        return name;
    }

    /** A random stream id unique to this node within its tree. */
    public int stream() {
        return stream;
    }

    /** Whether the property was given or has a default. */
    public boolean has(String property) {
        return values.get(property) != null;
    }

    private Object get(String property) {
        Object v = values.get(property);
        if (v == null) {
            throw new IllegalStateException("node '" + name + "' (" + type + ") has no value for '" + property + "'");
        }
        return v;
    }

    public double number(String property) {
        Object v = get(property);
        return v instanceof Boolean ? ((Boolean) v ? 1 : 0) : ((Number) v).doubleValue();
    }

    public float floatValue(String property) {
        return (float) number(property);
    }

    public int intValue(String property) {
        return (int) number(property);
    }

    public boolean bool(String property) {
        Object v = get(property);
        return v instanceof Boolean ? (Boolean) v : ((Number) v).doubleValue() != 0;
    }

    public String string(String property) {
        return (String) get(property);
    }

    public ValueInput input(String property) {
        return (ValueInput) get(property);
    }

    /** A payload property ({@link NodeType.Builder#payload}). */
    public PayloadInput payload(String property) {
        return (PayloadInput) get(property);
    }

    public ParamRef param(String property) {
        return (ParamRef) get(property);
    }

    /** A state property's state index ({@link NodeType.Builder#state}), for {@link NodeContext#requestTransition}. */
    public int state(String property) {
        return (Integer) get(property);
    }

    /** An event tag's interned id. */
    public int tag(String property) {
        return (Integer) get(property);
    }

    public Condition condition(String property) {
        return (Condition) get(property);
    }

    public Condition[] conditions(String property) {
        return (Condition[]) get(property);
    }

    /** The slot assigned to a declared field (index into the slot arrays of its type). */
    public int field(String fieldName) {
        Integer s = fieldSlots.get(fieldName);
        if (s == null) {
            throw new IllegalStateException("node '" + name + "' (" + type + ") declares no field '" + fieldName + "'");
        }
        return s;
    }

    /** The handle of a host column the type declared ({@link NodeType.Builder#reads}/{@code writes}). */
    public int column(String columnName) {
        Integer h = columns.get(columnName);
        if (h == null) {
            throw new IllegalStateException("node '" + name + "' (" + type + ") declares no host column '"
                    + columnName + "'");
        }
        return h;
    }

    /** The handle of a host object the type declared ({@link NodeType.Builder#external}). */
    @SuppressWarnings("unchecked")
    public <T> External<T> external(String externalName, Class<T> expected) {
        External<?> e = externals.get(externalName);
        if (e == null || e.type() != expected) {
            throw new IllegalStateException("node '" + name + "' (" + type + ") declares no external '"
                    + externalName + "' of type " + expected.getName());
        }
        return (External<T>) e;
    }
}
