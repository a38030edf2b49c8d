package dev.crowdtree.statetree.definition;

import dev.crowdtree.statetree.compiled.Vocabulary.Composite;
import dev.crowdtree.statetree.compiled.Vocabulary.History;
import dev.crowdtree.statetree.compiled.Vocabulary.Priority;
import dev.crowdtree.statetree.compiled.Vocabulary.Selection;
import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.compiled.Vocabulary.TransitionScan;
import dev.crowdtree.statetree.compiled.Vocabulary.Trigger;

import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link TreeDef} in Java; the same model as the JSON asset format.
 *
 * <pre>{@code
 * TreeDef def = StateTreeBuilder.tree("Guard")
 *     .param("threat", "float", 0.0)
 *     .root(state("Root")
 *         .child(state("Idle").task(node("delay").with("duration", 2.0))
 *             .transition(on("onStateCompleted").to("Patrol")))
 *         .child(state("Patrol").task(node("run"))
 *             .transition(on("onTick").to("Idle")
 *                 .when(node("compare").with("param", "threat").with("op", ">").with("value", 0.5)))))
 *     .build();
 * }</pre>
 */
public final class StateTreeBuilder {
    private final String name;
    private String source = "<builder>";
    private final List<ParameterDef> parameters = new ArrayList<>();
    private final List<NodeDef> evaluators = new ArrayList<>();
    private final List<StateDef> subtrees = new ArrayList<>();
    private final List<NodeDef> globalTasks = new ArrayList<>();
    private StateDef root;
    private String transitionScan;
    private String rules;
    private final List<String> hostEvents = new java.util.ArrayList<>();

    private StateTreeBuilder(String name) {
        this.name = name;
    }

    public static StateTreeBuilder tree(String name) {
        return new StateTreeBuilder(name);
    }

    public static State state(String name) {
        return new State(name);
    }

    public static Node node(String type) {
        return new Node(type);
    }

    /**
     * A required event to enter on tag {@code tag}, for {@link State#requiredEvent(RequiredEvent)}
     * (the asset's {@code "requiredEvent"}; docs/SEMANTICS.md, rules V1-V6).
     */
    public static RequiredEvent requiredEvent(String tag) {
        return new RequiredEvent(tag);
    }

    /** A transition with the given trigger ({@code onTick}, {@code onStateCompleted}, ...). */
    public static Transition on(String trigger) {
        return new Transition(trigger);
    }

    /** A transition with the given trigger, named by its constant ({@code on(Trigger.ON_TICK)}). */
    public static Transition on(Trigger trigger) {
        return new Transition(trigger.assetName());
    }

    /** Label used in compile errors (default {@code <builder>}). */
    public StateTreeBuilder source(String label) {
        this.source = label;
        return this;
    }

    /** A parameter: type {@code bool}, {@code int} or {@code float}; default Boolean or Number. */
    public StateTreeBuilder param(String paramName, String type, Object defaultValue) {
        parameters.add(new ParameterDef(paramName, type, normalize(defaultValue)));
        return this;
    }

    public StateTreeBuilder evaluator(Node evaluator) {
        evaluators.add(evaluator.build());
        return this;
    }

    /**
     * A global task (the asset's {@code globalTasks}): entered in declared order when the tree
     * starts, before the root state is selected, ticked every tick before the state tasks, exited
     * when the tree finishes (docs/SEMANTICS.md, rules G1-G5).
     */
    public StateTreeBuilder globalTask(Node task) {
        globalTasks.add(task.build());
        return this;
    }

    /**
     * The order of the transition scan ({@code "transitionScan"}): {@code leafFirst} (the default) or
     * {@code rootFirst} (docs/SEMANTICS.md, rules H1-H2).
     */
    public StateTreeBuilder transitionScan(String order) {
        this.transitionScan = order;
        return this;
    }

    /**
     * The rule set ({@code "rules"}): {@code seed} (the default) or {@code unreal-5.8}, which follows
     * Unreal 5.8 where the two differ (docs/SEMANTICS.md section 20, rules U1-U8).
     */
    public StateTreeBuilder rules(String ruleSet) {
        this.rules = ruleSet;
        return this;
    }

    /** The transition scan goes root to leaf, so the highest level wins ({@code "transitionScan": "rootFirst"}). */
    public StateTreeBuilder rootFirst() {
        return transitionScan(TransitionScan.ROOT_FIRST.assetName());
    }

    public StateTreeBuilder root(State state) {
        this.root = state.build();
        return this;
    }

    /** A subtree a {@code linked} state can point at; its type is set to {@code subtree}. */
    public StateTreeBuilder subtree(State state) {
        subtrees.add(state.type(StateType.SUBTREE.assetName()).build());
        return this;
    }

    /**
     * The event tags the host program sends the agents ({@code "hostEvents"}), which warning W5 takes
     * as sent (docs/SEMANTICS.md section 16).
     */
    public StateTreeBuilder hostEvents(String... tags) {
        hostEvents.addAll(java.util.Arrays.asList(tags));
        return this;
    }

    public TreeDef build() {
        return new TreeDef(source, name, parameters, evaluators, root, subtrees, globalTasks, transitionScan, rules,
                hostEvents);
    }

    /** {@code fields} (a new map when null) with payload field {@code name} of {@code type} added: a {@code payloadFields} map. */
    private static Map<String, String> withField(Map<String, String> fields, String name, ValueType type) {
        Map<String, String> out = fields == null ? new LinkedHashMap<>() : fields;
        out.put(name, type.assetName());
        return out;
    }

    static Object normalize(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return ((Float) v).doubleValue();
        }
        return v;
    }

    /** A state under construction. */
    public static final class State {
        private final String name;
        private String type;
        private String selection;
        private Object weight;
        private String completion;
        private Boolean enabled;
        private String composite;
        private String history;
        private RequiredEventDef requiredEvent;
        private Object tickPeriod;
        private final List<Map<String, Object>> considerations = new ArrayList<>();
        private String linkedSubtree;
        private final Map<String, Object> linkedParameters = new LinkedHashMap<>();
        private final List<ParameterDef> parameters = new ArrayList<>();
        private final List<NodeDef> enterConditions = new ArrayList<>();
        private final List<NodeDef> tasks = new ArrayList<>();
        private final List<TransitionDef> transitions = new ArrayList<>();
        private final List<StateDef> children = new ArrayList<>();

        private State(String name) {
            this.name = name;
        }

        /** {@code state}, {@code group}, {@code linked} or {@code subtree}. */
        public State type(String t) {
            this.type = t;
            return this;
        }

        public State group() {
            return type(StateType.GROUP.assetName());
        }

        /** Selection behaviour {@code tryEnterState}. */
        public State tryEnter() {
            this.selection = Selection.TRY_ENTER_STATE.assetName();
            return this;
        }

        public State selection(String s) {
            this.selection = s;
            return this;
        }

        /**
         * A behavior tree's composite ({@code "composite"}): {@code sequence} or {@code selector}, on a
         * state with children (docs/SEMANTICS.md, rules K1-K6).
         */
        public State composite(String kind) {
            this.composite = kind;
            return this;
        }

        /** A {@code sequence}: its children run in order while they succeed (rules K2, K4). */
        public State sequence() {
            return composite(Composite.SEQUENCE.assetName());
        }

        /** A {@code selector}: its children are tried in order until one succeeds (rules K2, K5). */
        public State selector() {
            return composite(Composite.SELECTOR.assetName());
        }

        /**
         * A hierarchical state machine's history state ({@code "history"}): {@code shallow} or
         * {@code deep}, on a state with children (docs/SEMANTICS.md, rules Y1-Y7): selected again,
         * it resumes the child (shallow) or the whole path (deep) that was active when it was left.
         */
        public State history(String kind) {
            this.history = kind;
            return this;
        }

        /** {@code "history": "shallow"}: selected again, it resumes the child it was left in (rule Y3). */
        public State shallowHistory() {
            return history(History.SHALLOW.assetName());
        }

        /** {@code "history": "deep"}: selected again, it resumes the whole path it was left in (rule Y4). */
        public State deepHistory() {
            return history(History.DEEP.assetName());
        }

        /** Makes this a {@code linked} state pointing at {@code subtreeName}. */
        public State linked(String subtreeName) {
            this.type = StateType.LINKED.assetName();
            this.linkedSubtree = subtreeName;
            return this;
        }

        /** A value for a parameter of the linked subtree (a constant or a {@link Binding}). */
        public State linkedParam(String paramName, Object value) {
            linkedParameters.put(paramName, normalize(value));
            return this;
        }

        /**
         * A parameter this state declares, with its default: a subtree's parameter (the linked states
         * give it values), or on any other state a state parameter (docs/SEMANTICS.md, rules X1-X6).
         */
        public State param(String paramName, String paramType, Object defaultValue) {
            parameters.add(new ParameterDef(paramName, paramType, normalize(defaultValue)));
            return this;
        }

        /**
         * A state parameter whose {@code value} (a literal, a {@link Binding} or a property function)
         * is evaluated each time the state is entered (docs/SEMANTICS.md, rules X1, X3).
         */
        public State paramValue(String paramName, String paramType, Object value) {
            parameters.add(new ParameterDef(paramName, paramType, null, null, Node.convert(value)));
            return this;
        }

        /**
         * The state's tick period ({@code "tickPeriod"}, Unreal 5.6's tick rate): 1, 2, 4, ..., 64; while
         * the state is active the agent ticks with it, or with its LOD period if that is larger
         * (docs/SEMANTICS.md, rules Z1-Z5).
         */
        public State tickPeriod(int period) {
            this.tickPeriod = (long) period;
            return this;
        }

        public State enterCondition(Node condition) {
            enterConditions.add(condition.build());
            return this;
        }

        public State task(Node task) {
            tasks.add(task.build());
            return this;
        }

        public State transition(Transition t) {
            transitions.add(t.build());
            return this;
        }

        public State child(State child) {
            children.add(child.build());
            return this;
        }

        /** This state's weight in its parent's utility selection (default 1). */
        public State weight(double w) {
            this.weight = w;
            return this;
        }

        /**
         * A consideration of this state's utility: {@code input} (a number or a {@link Binding}) mapped
         * from {@code [min, max]} to [0, 1] through {@code curve} ({@code linear}, {@code inverse},
         * {@code quadratic}, {@code step}).
         */
        public State consideration(Object input, double min, double max, String curve) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("input", input);
            k.put("min", min);
            k.put("max", max);
            k.put("curve", curve);
            considerations.add(k);
            return this;
        }

        /** {@code any} (default: the first task that completes completes the state) or {@code all}. */
        public State completion(String mode) {
            this.completion = mode;
            return this;
        }

        /**
         * The asset's {@code enabled} key (Unreal 5.3): {@code false} disables the state and its subtree;
         * they are validated but cannot be selected (docs/SEMANTICS.md, rules N1-N5).
         */
        public State enabled(boolean value) {
            this.enabled = value;
            return this;
        }

        /**
         * The state can be selected only while the agent's window holds an event matching {@code event}
         * (the asset's {@code "requiredEvent"}, Unreal 5.5; docs/SEMANTICS.md, rules V1-V6).
         */
        public State requiredEvent(RequiredEvent event) {
            this.requiredEvent = event.build();
            return this;
        }

        /** A required event on tag {@code tag}, without payload fields, consumed when the state is selected. */
        public State requiredEvent(String tag) {
            return requiredEvent(new RequiredEvent(tag));
        }

        public StateDef build() {
            return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions,
                    tasks, transitions, children, weight, considerations, completion, enabled, composite, history, requiredEvent,
                    tickPeriod);
        }
    }

    /** A required event to enter under construction: {@code {"tag": ..., "payloadFields": {...}, "consumeEvent": ...}}. */
    public static final class RequiredEvent {
        private final String tag;
        private Map<String, String> payloadFields;
        private Boolean consumeEvent;

        private RequiredEvent(String tag) {
            this.tag = tag;
        }

        /**
         * The event must carry payload field {@code name} of {@code type} (an int is accepted for a
         * float); the state's enter conditions and tasks may bind it with {@link Binding#event}.
         */
        public RequiredEvent payloadField(String name, ValueType type) {
            payloadFields = withField(payloadFields, name, type);
            return this;
        }

        /** {@code false} leaves the event in the window when the transition that selected the state fires. */
        public RequiredEvent consumeEvent(boolean consume) {
            this.consumeEvent = consume;
            return this;
        }

        public RequiredEventDef build() {
            return new RequiredEventDef(tag, payloadFields == null ? null : new LinkedHashMap<>(payloadFields),
                    consumeEvent);
        }
    }

    /** A task, condition or evaluator under construction. */
    public static final class Node {
        private final String type;
        private String name;
        private final Map<String, Object> properties = new LinkedHashMap<>();

        private Node(String type) {
            this.type = type;
        }

        public Node named(String n) {
            this.name = n;
            return this;
        }

        /** A property: a constant (Number, Boolean, String), a {@link Binding}, a {@link Node} or a list. */
        public Node with(String property, Object value) {
            properties.put(property, convert(value));
            return this;
        }

        /** Unreal's {@code bShouldStateChangeOnReselect} for tasks. */
        public Node reselect(boolean value) {
            return with("reselect", value);
        }

        /**
         * The {@code enabled} key of a task, global task or evaluator (Unreal 5.3): {@code false}
         * disables it; it is validated but never entered, ticked or exited (docs/SEMANTICS.md, N1-N5).
         */
        public Node enabled(boolean value) {
            return with("enabled", value);
        }

        static Object convert(Object value) {
            if (value instanceof Node) {
                return ((Node) value).build();
            }
            if (value instanceof List) {
                List<Object> out = new ArrayList<>();
                for (Object o : (List<?>) value) {
                    out.add(convert(o));
                }
                return out;
            }
            return normalize(value);
        }

        public NodeDef build() {
            return new NodeDef(type, name, properties);
        }
    }

    /** A transition under construction. */
    public static final class Transition {
        private final String trigger;
        private String event;
        private String to;
        private final List<NodeDef> conditions = new ArrayList<>();
        private Object delay;
        private Object delayVariance;
        private String priority;
        private Boolean consumeEvent;
        private Map<String, String> payloadFields;
        private Boolean enabled;
        private Boolean reactivateTarget;

        private Transition(String trigger) {
            this.trigger = trigger;
        }

        /** The event tag for {@code onEvent}. */
        public Transition event(String tag) {
            this.event = tag;
            return this;
        }

        /** Target: a path, a unique state name, {@code @next}, {@code @succeeded}, {@code @failed}, {@code @none}. */
        public Transition to(String target) {
            this.to = target;
            return this;
        }

        public Transition when(Node condition) {
            conditions.add(condition.build());
            return this;
        }

        /** A gated transition: {@code delay} seconds, plus or minus {@code variance} seconds. */
        public Transition delay(double seconds, double variance) {
            this.delay = seconds;
            this.delayVariance = variance;
            return this;
        }

        /** {@code low}, {@code normal} (the default), {@code medium}, {@code high} or {@code critical}. */
        public Transition priority(String level) {
            this.priority = level;
            return this;
        }

        public Transition priority(Priority level) {
            return priority(level.assetName());
        }

        /** onEvent only: {@code false} leaves the event for the rest of this tick's rounds. */
        public Transition consumeEvent(boolean consume) {
            this.consumeEvent = consume;
            return this;
        }

        /**
         * onEvent only: the event must carry payload field {@code name} of {@code type} (an int is
         * accepted for a float); the conditions may then bind it with {@link Binding#event}.
         */
        public Transition payloadField(String name, ValueType type) {
            payloadFields = withField(payloadFields, name, type);
            return this;
        }

        /** The asset's {@code enabled} key (Unreal 5.3): {@code false} disables the transition; it never fires. */
        public Transition enabled(boolean value) {
            this.enabled = value;
            return this;
        }

        /**
         * The asset's {@code reactivateTarget} key (rule U11): {@code true} exits and enters the target
         * and the states below it as changed, even those that stay active.
         */
        public Transition reactivateTarget(boolean value) {
            this.reactivateTarget = value;
            return this;
        }

        public TransitionDef build() {
            return new TransitionDef(trigger, event, to, conditions, delay, delayVariance, priority, consumeEvent,
                    payloadFields == null ? null : new LinkedHashMap<>(payloadFields), enabled, reactivateTarget);
        }
    }
}
