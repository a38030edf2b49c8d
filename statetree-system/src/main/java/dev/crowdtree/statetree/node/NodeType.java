package dev.crowdtree.statetree.node;


import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A node type: its name as used in assets, its category, the schema of its properties, the
 * per-agent fields it needs and a factory that builds the configured node. The compiler validates
 * every authored property against the schema and assigns the fields to SoA slots before calling the
 * factory, so a factory never sees bad input.
 *
 * <pre>{@code
 * NodeType delay = NodeType.task("delay")
 *     .input("duration", ValueType.FLOAT, p -> p.required().min(0))
 *     .input("randomDeviation", ValueType.FLOAT, p -> p.byDefault(0.0).min(0))
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
    private final boolean canSucceed;
    private final boolean canFail;
    private final boolean requestsTransitions;

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
        this.canSucceed = b.canSucceed;
        this.requestsTransitions = b.requestsTransitions;
        this.canFail = b.canFail;
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

    /**
     * Whether a task of this type may complete its state with success (true unless the type says
     * otherwise with {@link Builder#completes}).
     */
    public boolean canSucceed() {
        return canSucceed;
    }

    /**
     * Whether a task of this type may complete its state with failure (true unless the type says
     * otherwise with {@link Builder#completes}).
     */
    public boolean requestsTransitions() {
        return requestsTransitions;
    }

    public boolean canFail() {
        return canFail;
    }

    /** Builds the node; the compiler calls this with a fully validated configuration. */
    public Node create(NodeConfig config) {
        return factory.apply(config);
    }

    private static IllegalArgumentException misuse(String type, String property, String what) {
        return new IllegalArgumentException("node type '" + type + "': property '" + property + "' " + what);
    }

    /** Fluent schema builder. */
    public static final class Builder {
        private static final Consumer<Property> AS_IS = p -> { };
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
        private boolean canSucceed = true;
        private boolean canFail = true;
        private boolean requestsTransitions;

        private Builder(String name, Category category) {
            this.name = Objects.requireNonNull(name);
            this.category = category;
        }

        private Builder add(PropertySpec p) {
            if (properties.containsKey(p.name()) || p.name().equals("type") || p.name().equals("name")
                    || (category == Category.TASK && (p.name().equals("reselect")
                    || p.name().equals("considerForCompletion")))) {
                throw misuse(name, p.name(), "is declared twice or reserved");
            }
            properties.put(p.name(), p);
            return this;
        }

        private Builder add(String n, PropertySpec.Kind kind, ValueType type, List<String> choices, String typeFrom,
                            Consumer<Property> how) {
            Property p = new Property(name, n, kind, type, choices, typeFrom);
            how.accept(p);
            return add(p.spec());
        }

        private ValueType typed(String n, ValueType type) {
            if (type == null) {
                throw misuse(name, n, "has no value type (for any number use numberConstant or numberInput)");
            }
            return type;
        }

        /** An optional {@link #constant(String, ValueType, Consumer)} without default or range. */
        public Builder constant(String n, ValueType type) {
            return constant(n, type, AS_IS);
        }

        /**
         * A literal value of {@code type}, configured by {@code how} (required, default, range).
         *
         * @throws IllegalArgumentException if {@code type} is null (see {@link #numberConstant}), the
         *                                  name is taken, or {@code how} misconfigures it (see {@link Property})
         */
        public Builder constant(String n, ValueType type, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.CONSTANT, typed(n, type), List.of(), null, how);
        }

        /** An optional {@link #numberConstant(String, Consumer)} without default or range. */
        public Builder numberConstant(String n) {
            return numberConstant(n, AS_IS);
        }

        /** A literal number, int or float as written; otherwise as {@link #constant(String, ValueType, Consumer)}. */
        public Builder numberConstant(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.CONSTANT, null, List.of(), null, how);
        }

        /** An optional {@link #input(String, ValueType, Consumer)} without default or range. */
        public Builder input(String n, ValueType type) {
            return input(n, type, AS_IS);
        }

        /**
         * A literal or binding of {@code type} (read with {@link NodeConfig#input}), configured by
         * {@code how}; a range limits literals only.
         *
         * @throws IllegalArgumentException if {@code type} is null (see {@link #numberInput}), the name
         *                                  is taken, or {@code how} misconfigures it (see {@link Property})
         */
        public Builder input(String n, ValueType type, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.INPUT, typed(n, type), List.of(), null, how);
        }

        /** An optional {@link #numberInput(String, Consumer)} without default or range. */
        public Builder numberInput(String n) {
            return numberInput(n, AS_IS);
        }

        /** A literal or binding of any number, int or float; otherwise as {@link #input(String, ValueType, Consumer)}. */
        public Builder numberInput(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.INPUT, null, List.of(), null, how);
        }

        /** An optional {@link #inputLike(String, String, Consumer)} without range. */
        public Builder inputLike(String n, String paramProperty) {
            return inputLike(n, paramProperty, AS_IS);
        }

        /**
         * A literal or binding of the type of the parameter named by property {@code paramProperty}
         * (a {@link #param}); it takes no default, since its type is known only per tree.
         */
        public Builder inputLike(String n, String paramProperty, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.INPUT, null, List.of(), Objects.requireNonNull(paramProperty), how);
        }

        /** An optional {@link #string(String, Consumer)} without default. */
        public Builder string(String n) {
            return string(n, AS_IS);
        }

        /** A literal string (read with {@link NodeConfig#string}); a default must be a String. */
        public Builder string(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.STRING, null, List.of(), null, how);
        }

        /** An optional {@link #choice(String, List, Consumer)} without default. */
        public Builder choice(String n, List<String> choices) {
            return choice(n, choices, AS_IS);
        }

        /**
         * One of the strings {@code choices} (read with {@link NodeConfig#string}); a default must be
         * one of them.
         *
         * @throws IllegalArgumentException if {@code choices} is empty, the name is taken, or {@code how}
         *                                  misconfigures it (see {@link Property})
         */
        public Builder choice(String n, List<String> choices, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.CHOICE, null, List.copyOf(choices), null, how);
        }

        /** An optional {@link #tag(String, Consumer)}. */
        public Builder tag(String n) {
            return tag(n, AS_IS);
        }

        /** An event tag (read with {@link NodeConfig#tag}); it takes no default. */
        public Builder tag(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.TAG, null, List.of(), null, how);
        }

        /** An optional {@link #param(String, Consumer)}. */
        public Builder param(String n) {
            return param(n, AS_IS);
        }

        /** The name of a parameter (read with {@link NodeConfig#param}); it takes no default. */
        public Builder param(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.PARAM, null, List.of(), null, how);
        }

        /** An optional {@link #payload(String, Consumer)}. */
        public Builder payload(String n) {
            return payload(n, AS_IS);
        }

        /** An event payload (read with {@link NodeConfig#payload}); it takes no default. */
        public Builder payload(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.PAYLOAD, null, List.of(), null, how);
        }

        /** An optional {@link #condition(String, Consumer)}. */
        public Builder condition(String n) {
            return condition(n, AS_IS);
        }

        /** A nested condition (read with {@link NodeConfig#condition}); it takes no default. */
        public Builder condition(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.CONDITION, null, List.of(), null, how);
        }

        /** An optional {@link #conditions(String, Consumer)}. */
        public Builder conditions(String n) {
            return conditions(n, AS_IS);
        }

        /** A list of nested conditions (read with {@link NodeConfig#conditions}); it takes no default. */
        public Builder conditions(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.CONDITIONS, null, List.of(), null, how);
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

        /**
         * What a task of this type can end its state with (tasks only; without this call, both):
         * {@code completes(true, false)} for a task that only ever succeeds (a timeout),
         * {@code completes(false, false)} for one that never completes its state (it runs until a
         * transition leaves it). Only the compiler's authoring warnings read it (docs/SEMANTICS.md,
         * warning W1: a completion transition no task can trigger); the runtimes do not enforce
         * it. Leave it out when unsure: a type that may do both never causes a false warning.
         */
        /**
         * A task of this type may call {@link NodeContext#requestTransition} (tasks only): a tree
         * with one keeps each agent's pending request (docs/SEMANTICS.md, rules O1-O4).
         */
        public Builder requestsTransitions() {
            if (category != Category.TASK) {
                throw new IllegalArgumentException("node type '" + name + "': only tasks request transitions");
            }
            this.requestsTransitions = true;
            return this;
        }

        /** An optional {@link #state(String, Consumer)}. */
        public Builder state(String n) {
            return state(n, AS_IS);
        }

        /**
         * A state of the tree: a state path, a name unique in the tree, or a relative target such as
         * {@code @parent} (read with {@link NodeConfig#state}, a state index); it takes no default.
         */
        public Builder state(String n, Consumer<Property> how) {
            return add(n, PropertySpec.Kind.STATE, null, List.of(), null, how);
        }

        public Builder completes(boolean canSucceed, boolean canFail) {
            if (category != Category.TASK) {
                throw new IllegalArgumentException("node type '" + name + "': only tasks complete states");
            }
            this.canSucceed = canSucceed;
            this.canFail = canFail;
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

    /**
     * How one property declared on a {@link Builder} is configured, e.g.
     * {@code .constant("n", ValueType.INT, p -> p.required().range(1, 100))} or
     * {@code .tag("tag", NodeType.Property::required)}. Without any call a property is optional, has no
     * default and, if a number, no range; every method returns this property. A range limits the
     * literals an asset may write (and the default), not what a binding or a function gives.
     *
     * <p>The builder checks the configuration as the property is declared and throws an
     * {@link IllegalArgumentException} naming the node type and the property when the property is
     * required and has a default; its min is above its max; it has a range but is not a number (a bool,
     * string, choice, tag, parameter, payload or condition); a choice has no values; or its default is
     * of the wrong kind (not a Boolean for a bool, a number for an int or float, a String for a string
     * or choice; any default of a tag, parameter, payload, condition or input typed like a parameter),
     * not integral for an int, outside the range, or not one of a choice's values.
     */
    public static final class Property {
        private final String type;
        private final String name;
        private final PropertySpec.Kind kind;
        private final ValueType valueType;
        private final List<String> choices;
        private final String typeFrom;
        private boolean required;
        private boolean hasDefault;
        private Object defaultValue;
        private boolean ranged;
        private double min = Double.NEGATIVE_INFINITY;
        private double max = Double.POSITIVE_INFINITY;

        private Property(String type, String name, PropertySpec.Kind kind, ValueType valueType, List<String> choices,
                         String typeFrom) {
            this.type = type;
            this.name = name;
            this.kind = kind;
            this.valueType = valueType;
            this.choices = choices;
            this.typeFrom = typeFrom;
        }

        /** The property must be given in every node of this type (it then has no default). */
        public Property required() {
            required = true;
            return this;
        }

        /**
         * The value an absent property takes: a Boolean for a bool; an Integer, Long, Float or Double
         * for a number (kept as a Long for an int, a Double for a float, and as written, Long or
         * Double, for any number); a String for a string or a choice.
         */
        public Property byDefault(Object value) {
            hasDefault = true;
            defaultValue = value;
            return this;
        }

        /** The smallest literal a number accepts (inclusive). */
        public Property min(double value) {
            ranged = true;
            min = value;
            return this;
        }

        /** The largest literal a number accepts (inclusive). */
        public Property max(double value) {
            ranged = true;
            max = value;
            return this;
        }

        /** Both {@link #min} and {@link #max}. */
        public Property range(double min, double max) {
            return min(min).max(max);
        }

        private PropertySpec spec() {
            boolean valued = kind == PropertySpec.Kind.CONSTANT || kind == PropertySpec.Kind.INPUT;
            if (ranged && (!valued || valueType == ValueType.BOOL)) {
                throw fail("has a range but is not a number");
            }
            if (!(min <= max)) {
                throw fail("has min " + min + " above max " + max);
            }
            if (kind == PropertySpec.Kind.CHOICE && choices.isEmpty()) {
                throw fail("has no choices");
            }
            if (required && hasDefault) {
                throw fail("is required and has a default");
            }
            Object def = hasDefault ? checkedDefault(valued) : null;
            return new PropertySpec(name, kind, valueType, required, def, valued ? min : 0, valued ? max : 0,
                    choices, typeFrom);
        }

        private Object checkedDefault(boolean valued) {
            Object v = defaultValue;
            String given = "default " + v + (v == null ? "" : " (" + v.getClass().getSimpleName() + ")");
            if (kind == PropertySpec.Kind.STRING || kind == PropertySpec.Kind.CHOICE) {
                if (!(v instanceof String)) {
                    throw fail("has " + given + ", not a string");
                }
                if (kind == PropertySpec.Kind.CHOICE && !choices.contains(v)) {
                    throw fail("has " + given + ", not one of " + choices);
                }
                return v;
            }
            if (!valued || typeFrom != null) {
                throw fail("takes no default, has " + given);
            }
            if (valueType == ValueType.BOOL) {
                if (!(v instanceof Boolean)) {
                    throw fail("has " + given + ", not a Boolean");
                }
                return v;
            }
            boolean integral = v instanceof Integer || v instanceof Long;
            if (!integral && !(v instanceof Float || v instanceof Double)) {
                throw fail("has " + given + ", not a number");
            }
            double d = ((Number) v).doubleValue();
            if (valueType == ValueType.INT && (d != Math.rint(d) || d < Integer.MIN_VALUE || d > Integer.MAX_VALUE)) {
                throw fail("has " + given + ", not an integer");
            }
            if (!(d >= min && d <= max)) {
                throw fail("has " + given + " outside its range " + min + ".." + max);
            }
            if (valueType == ValueType.FLOAT || (valueType == null && !integral)) {
                return d;
            }
            return integral ? ((Number) v).longValue() : (long) d;
        }

        private IllegalArgumentException fail(String what) {
            return misuse(type, name, what);
        }
    }
}
