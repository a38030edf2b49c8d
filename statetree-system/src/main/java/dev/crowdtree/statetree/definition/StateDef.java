package dev.crowdtree.statetree.definition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A state as authored. {@code type} is {@code state} (default), {@code group}, {@code linked} or
 * {@code subtree}; {@code selection} is {@code trySelectChildrenInOrder} (default) or
 * {@code tryEnterState}. A {@code linked} state names its subtree in {@code linkedSubtree} and may
 * give values (constants or bindings) for the subtree's parameters in {@code linkedParameters}; a
 * {@code subtree} declares those parameters in {@code parameters}. Any other state may declare
 * {@code parameters} too: state parameters, with a default or a {@code value} evaluated when the
 * state is entered (docs/SEMANTICS.md section 19, rules X1-X6). A child of a state whose selection
 * uses utility may give a {@code weight} (a number) and {@code considerations} (objects with
 * {@code input}, {@code min}, {@code max}, {@code curve}, {@code threshold}). {@code completion} is
 * {@code any} (default) or {@code all}. {@code enabled} is Unreal 5.3's flag: {@code Boolean.FALSE}
 * disables the state and its subtree (docs/SEMANTICS.md, rules N1-N5); the compiler checks that it
 * is a boolean. {@code composite} is {@code sequence} or {@code selector} (a behavior tree's
 * composite: docs/SEMANTICS.md, rules K1-K6), on a state with children only. {@code history} is
 * {@code shallow} or {@code deep} (a hierarchical state machine's history state: docs/SEMANTICS.md,
 * rules Y1-Y7), on a state with children only. {@code requiredEvent} is Unreal 5.5's Required Event
 * to Enter (docs/SEMANTICS.md, rules V1-V6). {@code tickPeriod} is Unreal 5.6's tick rate of a
 * state: 1, 2, 4, ..., 64 (an integer; the compiler checks), the period the agent ticks with while
 * the state is active (docs/SEMANTICS.md section 19, rules Z1-Z5). Null fields mean "absent".
 */
public record StateDef(String name, String type, String selection, String linkedSubtree,
                       Map<String, Object> linkedParameters, List<ParameterDef> parameters,
                       List<NodeDef> enterConditions, List<NodeDef> tasks,
                       List<TransitionDef> transitions, List<StateDef> children,
                       Object weight, List<Map<String, Object>> considerations, String completion,
                       Object enabled, String composite, String history, RequiredEventDef requiredEvent,
                       Object tickPeriod) {
    /** A state without history, a required event or a tick period of its own. */
    public StateDef(String name, String type, String selection, String linkedSubtree,
                    Map<String, Object> linkedParameters, List<ParameterDef> parameters,
                    List<NodeDef> enterConditions, List<NodeDef> tasks,
                    List<TransitionDef> transitions, List<StateDef> children,
                    Object weight, List<Map<String, Object>> considerations, String completion,
                    Object enabled, String composite) {
        this(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks, transitions,
                children, weight, considerations, completion, enabled, composite, null, null, null);
    }

    /** An enabled state that is not a composite. */
    public StateDef(String name, String type, String selection, String linkedSubtree,
                    Map<String, Object> linkedParameters, List<ParameterDef> parameters,
                    List<NodeDef> enterConditions, List<NodeDef> tasks,
                    List<TransitionDef> transitions, List<StateDef> children,
                    Object weight, List<Map<String, Object>> considerations, String completion) {
        this(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks, transitions,
                children, weight, considerations, completion, null, null);
    }

    /** A state with the default completion ({@code any}). */
    public StateDef(String name, String type, String selection, String linkedSubtree,
                    Map<String, Object> linkedParameters, List<ParameterDef> parameters,
                    List<NodeDef> enterConditions, List<NodeDef> tasks,
                    List<TransitionDef> transitions, List<StateDef> children,
                    Object weight, List<Map<String, Object>> considerations) {
        this(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks, transitions,
                children, weight, considerations, null);
    }

    /** A state without utility. */
    public StateDef(String name, String type, String selection, String linkedSubtree,
                    Map<String, Object> linkedParameters, List<ParameterDef> parameters,
                    List<NodeDef> enterConditions, List<NodeDef> tasks,
                    List<TransitionDef> transitions, List<StateDef> children) {
        this(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks, transitions,
                children, null, null);
    }

    /** This state with {@code newTransitions} instead of its transitions (every other field kept). */
    public StateDef withTransitions(List<TransitionDef> newTransitions) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks,
                newTransitions, children, weight, considerations, completion, enabled, composite, history,
                requiredEvent, tickPeriod);
    }

    /** This state with {@code newHistory} ({@code shallow}, {@code deep}, null: none) as its history (every other field kept). */
    public StateDef withHistory(String newHistory) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks,
                transitions, children, weight, considerations, completion, enabled, composite, newHistory, requiredEvent,
                tickPeriod);
    }

    /** This state with {@code newTasks} instead of its tasks (every other field kept). */
    public StateDef withTasks(List<NodeDef> newTasks) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions,
                newTasks, transitions, children, weight, considerations, completion, enabled, composite, history,
                requiredEvent, tickPeriod);
    }

    /** This state with {@code newChildren} instead of its children (every other field kept). */
    public StateDef withChildren(List<StateDef> newChildren) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks,
                transitions, newChildren, weight, considerations, completion, enabled, composite, history,
                requiredEvent, tickPeriod);
    }

    /** This state with {@code event} as its required event to enter (null: none; every other field kept). */
    public StateDef withRequiredEvent(RequiredEventDef event) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks,
                transitions, children, weight, considerations, completion, enabled, composite, history, event, tickPeriod);
    }

    /** This state with {@code newTickPeriod} (null: none) as its tick period (every other field kept). */
    public StateDef withTickPeriod(Object newTickPeriod) {
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, parameters, enterConditions, tasks,
                transitions, children, weight, considerations, completion, enabled, composite, history, requiredEvent,
                newTickPeriod);
    }

    public StateDef {
        // Insertion order is kept (Map.copyOf would not): errors and written assets follow the file.
        linkedParameters = linkedParameters == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(linkedParameters));
        parameters = parameters == null ? List.of() : List.copyOf(parameters);
        enterConditions = enterConditions == null ? List.of() : List.copyOf(enterConditions);
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        transitions = transitions == null ? List.of() : List.copyOf(transitions);
        children = children == null ? List.of() : List.copyOf(children);
        considerations = considerations == null ? List.of() : List.copyOf(considerations);
    }
}
