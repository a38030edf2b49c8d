package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.Payload;

/**
 * An event for the next tick, offered from any thread ({@link StateTreeSystem#externalEvents()}).
 * Ordered by (agent, tag, payload), so the events of a tick are applied in one canonical order
 * whatever order the threads raced in.
 *
 * @param agentId the target agent
 * @param tag     the event tag
 * @param payload the payload, or null for none
 */
public record ExternalEvent(int agentId, String tag, Payload payload) implements Comparable<ExternalEvent> {
    /** An event with a number payload (the field {@code value}) when {@code hasPayload}. */
    public ExternalEvent(int agentId, String tag, float payload, boolean hasPayload) {
        this(agentId, tag, hasPayload ? Payload.number(payload) : null);
    }

    @Override
    public int compareTo(ExternalEvent o) {
        int c = Integer.compare(agentId, o.agentId);
        if (c == 0) {
            c = tag.compareTo(o.tag);
        }
        if (c == 0 && payload != o.payload) {
            c = payload == null ? -1 : o.payload == null ? 1 : payload.compareTo(o.payload);
        }
        return c;
    }
}
