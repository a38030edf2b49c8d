package dev.crowdtree.statetree.definition;

/**
 * A state's required event to enter, as authored (Unreal 5.5's Required Event to Enter; the asset's
 * {@code "requiredEvent": {"tag": ..., "payloadFields": {...}, "consumeEvent": ...}}): the state can be
 * selected only while the agent's window of events holds an event with tag {@code tag} (or a tag
 * below it) that carries the declared {@code payloadFields} (field name to {@code "bool"},
 * {@code "int"} or {@code "float"}; null = none), and its enter conditions and tasks may read that
 * event's payload with {@code {"event": name}}. {@code consumeEvent} (null = true): whether the
 * event is removed from the window when the transition that selected the state fires. Values are
 * kept raw; the compiler checks them (docs/SEMANTICS.md, rules V1-V6).
 */
public record RequiredEventDef(String tag, Object payloadFields, Object consumeEvent) {
    /** A required event without payload fields that is consumed (the default). */
    public RequiredEventDef(String tag) {
        this(tag, null, null);
    }
}
