package dev.crowdtree.statetree.definition;

import java.util.List;

/**
 * A transition as authored. {@code trigger} is one of {@code onStateCompleted},
 * {@code onStateSucceeded}, {@code onStateFailed}, {@code onTick}, {@code onEvent}; {@code to} is a
 * state path, a unique state name, or {@code @next}, {@code @succeeded}, {@code @failed},
 * {@code @none}. {@code delay} and {@code delayVariance} are seconds (null = 0). {@code priority} is
 * {@code low}, {@code normal}, {@code medium}, {@code high} or {@code critical} (null = normal).
 * {@code consumeEvent} (onEvent only; null = true): whether firing removes the event.
 * {@code payloadFields} (onEvent only; null = none): a map from payload field name to its type
 * ({@code "bool"}, {@code "int"}, {@code "float"}), which the conditions may bind with
 * {@code {"event": name}}. {@code enabled} (null = true): {@code Boolean.FALSE} disables the
 * transition (docs/SEMANTICS.md, rules N1-N5). {@code reactivateTarget} (a state target only; null =
 * false): {@code Boolean.TRUE} exits and enters the target and the states below it as changed even
 * where they stay active (rule U11, Unreal's {@code ReactivateTargetState} {@code ForceChanged}).
 */
public record TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                            Object delay, Object delayVariance, String priority, Object consumeEvent,
                            Object payloadFields, Object enabled, Object reactivateTarget) {
    public TransitionDef {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    /** A transition that does not say {@code reactivateTarget}. */
    public TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                         Object delay, Object delayVariance, String priority, Object consumeEvent,
                         Object payloadFields, Object enabled) {
        this(trigger, event, to, conditions, delay, delayVariance, priority, consumeEvent, payloadFields, enabled, null);
    }

    /** An enabled transition (no {@code enabled} key). */
    public TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                         Object delay, Object delayVariance, String priority, Object consumeEvent,
                         Object payloadFields) {
        this(trigger, event, to, conditions, delay, delayVariance, priority, consumeEvent, payloadFields, null);
    }

    /** A transition that declares no payload fields. */
    public TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                         Object delay, Object delayVariance, String priority, Object consumeEvent) {
        this(trigger, event, to, conditions, delay, delayVariance, priority, consumeEvent, null);
    }

    /** A transition that consumes the event it fires on (the default). */
    public TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                         Object delay, Object delayVariance, String priority) {
        this(trigger, event, to, conditions, delay, delayVariance, priority, null);
    }

    /** A transition of normal priority. */
    public TransitionDef(String trigger, String event, String to, List<NodeDef> conditions,
                         Object delay, Object delayVariance) {
        this(trigger, event, to, conditions, delay, delayVariance, null);
    }
}
