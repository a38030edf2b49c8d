package dev.crowdtree.statetree.node;


import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A node type: its name as used in assets, its category, the schema of its properties, the
 * per-agent fields it needs and a factory that builds the configured node. The compiler validates
 * every authored property against the schema and assigns the fields to SoA slots before calling the
 * factory, so a factory never sees bad input.
 *
 * <pre>{@code
 * NodeType delay = NodeType.task("delay")
 *     .input("duration", ValueType.FLOAT, true, null, 0, Double.POSITIVE_INFINITY)
 *     .timer("remaining", TimerKind.SECONDS)
 *     .factory(DelayTask::new)
 *     .build();
 * }</pre>
 */
public final class NodeType {
    /** What kind of node a type builds. */
    public enum Category {
        TASK("task"), CONDITION("condition"), EVALUATOR("evaluator");

        private final String word;

        Category(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    private final String name;
    private final Category category;
    private final Map<String, PropertySpec> properties;
    private final List<FieldSpec> fields;
    private final List<List<String>> oneOf;
    private final TimerKind timer;
    private final String timerField;
    private final Map<String, HostColumn> columns;
    private final Map<String, Class<?>> externals;
    private final Function<NodeConfig, ? extends Node> factory;

    private NodeType(Builder b) {
        this.name = b.name;
        this.category = b.category;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(b.properties));
        this.fields = List.copyOf(b.fields);
        this.oneOf = List.copyOf(b.oneOf);
        this.timer = b.timer;
        this.timerField = b.timerField;
        this.columns = Collections.unmodifiableMap(new LinkedHashMap<>(b.columns));
        this.externals = Collections.unmodifiableMap(new LinkedHashMap<>(b.externals));
        this.factory = Objects.requireNonNull(b.factory, "factory of node type " + b.name);
    }

    public static Builder task(String name) {
        return new Builder(name, Category.TASK);
    }

    public static Builder condition(String name) {
        return new Builder(name, Category.CONDITION);
    }

    public static Builder evaluator(String name) {
        return new Builder(name, Category.EVALUATOR);
    }

    public String name() {
        return name;
    }

    public Category category() {
        return category;
    }

    public Map<String, PropertySpec> properties() {
        return properties;
    }

    public List<FieldSpec> fields() {
        return fields;
    }

    /** Groups of properties of which exactly one must be given. */
    public List<List<String>> oneOf() {
        return oneOf;
    }

    /** The kind of the task's runtime-owned timer, {@link TimerKind#NONE} when it declares none. */
    public TimerKind timer() {
        return timer;
    }

    /** The name of the timer's float field, or null. */
    public String timerField() {
        return timerField;
    }

    /** The host table columns the type's kernels read or write, by name. */
    public Map<String, HostColumn> columns() {
        return columns;
    }

    /** The host objects the type needs, by name. */
    public Map<String, Class<?>> externals() {
        return externals;
    }

    /** Builds the node; the compiler calls this with a fully validated configuration. */
    public Node create(NodeConfig config) {
        return factory.apply(config);
    }

    /** Fluent schema builder. */
    public static final class Builder {
        private final String name;
        private final Category category;
        private final Map<String, PropertySpec> properties = new LinkedHashMap<>();
        private final List<FieldSpec> fields = new ArrayList<>();
        private final List<List<String>> oneOf = new ArrayList<>();
        private TimerKind timer = TimerKind.NONE;
        private String timerField;
        private final Map<String, HostColumn> columns = new LinkedHashMap<>();
        private final Map<String, Class<?>> externals = new LinkedHashMap<>();
        private Function<NodeConfig, ? extends Node> factory;

        private Builder(String name, Category category) {
            this.name = Objects.requireNonNull(name);
            this.category = category;
        }

        private Builder add(PropertySpec p) {
            if (properties.containsKey(p.name()) || p.name().equals("type") || p.name().equals("name")
                    || (category == Category.TASK && (p.name().equals("reselect")
                    || p.name().equals("considerForCompletion")))) {
                throw new IllegalArgumentException("node type '" + name + "': property '" + p.name()
                        + "' is declared twice or reserved");
            }
            properties.put(p.name(), p);
            return this;
        }

        private static PropertySpec spec(String n, PropertySpec.Kind k, ValueType t, boolean req, Object def,
                                         double min, double max, List<String> choices, String typeFrom) {
            return new PropertySpec(n, k, t, req, def, min, max, choices, typeFrom);
        }

        /** A literal value of {@code type} ({@code null}: any number) within {@code min..max}. */
        public Builder constant(String n, ValueType type, boolean required, Object def, double min, double max) {
            return add(spec(n, PropertySpec.Kind.CONSTANT, type, required, def, min, max, List.of(), null));
        }

        /** A literal or binding of {@code type} ({@code null}: any number); literals must be within {@code min..max}. */
        public Builder input(String n, ValueType type, boolean required, Object def, double min, double max) {
            return add(spec(n, PropertySpec.Kind.INPUT, type, required, def, min, max, List.of(), null));
        }

        /** A literal or binding of the type of the parameter named by property {@code paramProperty}. */
        public Builder inputTypedLike(String n, String paramProperty, boolean required) {
            return add(spec(n, PropertySpec.Kind.INPUT, null, required, null, Double.NEGATIVE_INFINITY,
                    Double.POSITIVE_INFINITY, List.of(), paramProperty));
        }

        public Builder string(String n, boolean required, String def) {
            return add(spec(n, PropertySpec.Kind.STRING, null, required, def, 0, 0, List.of(), null));
        }

        public Builder choice(String n, boolean required, String def, String... choices) {
            return add(spec(n, PropertySpec.Kind.CHOICE, null, required, def, 0, 0, List.of(choices), null));
        }

        public Builder tag(String n, boolean required) {
            return add(spec(n, PropertySpec.Kind.TAG, null, required, null, 0, 0, List.of(), null));
        }

        public Builder param(String n, boolean required) {
            return add(spec(n, PropertySpec.Kind.PARAM, null, required, null, 0, 0, List.of(), null));
        }

        /** An event payload property (read with {@link NodeConfig#payload}). */
        public Builder payload(String n, boolean required) {
            return add(spec(n, PropertySpec.Kind.PAYLOAD, null, required, null, 0, 0, List.of(), null));
        }

        public Builder condition(String n, boolean required) {
            return add(spec(n, PropertySpec.Kind.CONDITION, null, required, null, 0, 0, List.of(), null));
        }

        public Builder conditions(String n, boolean required) {
            return add(spec(n, PropertySpec.Kind.CONDITIONS, null, required, null, 0, 0, List.of(), null));
        }

        /** Exactly one of these properties must be given. */
        public Builder oneOf(String... names) {
            oneOf.add(List.of(names));
            return this;
        }

        /** A private per-agent field. */
        public Builder field(String n, ValueType type) {
            fields.add(new FieldSpec(n, type, false));
            return this;
        }

        /** A per-agent field that other nodes can bind to as {@code <node name>.<n>}. */
        public Builder output(String n, ValueType type) {
            fields.add(new FieldSpec(n, type, true));
            return this;
        }

        /**
         * A timer owned by the runtime (tasks only, at most one): the task starts it with
         * {@link NodeContext#startTimer} or {@link NodeContext#startTickTimer} and is called back
         * through {@link Task#onTimer} when it runs out. Its per-agent data takes two fields, a float
         * named {@code n} and an int named {@code n + "$due"}, whose meaning belongs to the runtime.
         * A task with a timer and no tick lets its agent sleep until the timer runs out.
         */
        public Builder timer(String n, TimerKind kind) {
            if (category != Category.TASK) {
                throw new IllegalArgumentException("node type '" + name + "': only tasks have timers");
            }
            if (kind == TimerKind.NONE || timer != TimerKind.NONE) {
                throw new IllegalArgumentException("node type '" + name + "': a task has at most one timer, of kind SECONDS or TICKS");
            }
            timer = kind;
            timerField = n;
            fields.add(new FieldSpec(n, ValueType.FLOAT, false));
            fields.add(new FieldSpec(n + TimerKind.DUE_SUFFIX, ValueType.INT, false));
            return this;
        }

        /**
         * A column of the host's agent table the kernels read ({@link NodeConfig#column} gives its
         * handle, {@link NodeContext#hostFloats} etc. its array). A runtime cannot be created on a
         * table without it.
         */
        public Builder reads(String column, HostColumn.Type type) {
            return column(new HostColumn(column, type, HostColumn.Access.READ));
        }

        /** A column of the host's agent table the kernels write (and may read); see {@link #reads}. */
        public Builder writes(String column, HostColumn.Type type) {
            return column(new HostColumn(column, type, HostColumn.Access.WRITE));
        }

        private Builder column(HostColumn c) {
            HostColumn old = columns.get(c.name());
            if (old != null && old.type() != c.type()) {
                throw new IllegalArgumentException("node type '" + name + "': host column '" + c.name()
                        + "' declared as " + old.type().word() + " and as " + c.type().word());
            }
            columns.put(c.name(), old == null ? c : old.merge(c));
            return this;
        }

        /**
         * A host object the kernels need, bound on the runtime under {@code externalName}
         * ({@link NodeConfig#external} gives its handle, {@link NodeContext#external} the object).
         */
        public Builder external(String externalName, Class<?> type) {
            Class<?> old = externals.putIfAbsent(externalName, Objects.requireNonNull(type));
            if (old != null && old != type) {
                throw new IllegalArgumentException("node type '" + name + "': external '" + externalName
                        + "' declared as " + old.getName() + " and as " + type.getName());
            }
            return this;
        }

        public Builder factory(Function<NodeConfig, ? extends Node> f) {
            this.factory = f;
            return this;
        }

        public NodeType build() {
            return new NodeType(this);
        }
    }
}
