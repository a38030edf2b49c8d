package dev.crowdtree.statetree.node;

/**
 * Where nodes send events. Implemented by each runtime; tasks reach it through
 * {@link NodeContext#sendEvent(int, int, EventPayload)}. The payload (null: none) is copied before
 * the call returns.
 *
 * @hidden
 */
public interface EventOutbox {
    /** An event for the agent in {@code row} itself, visible per the runtime's event windows. */
    void sendToSelf(int row, int tag, EventPayload payload);

    /** An event for another agent, delivered at the start of the next tick. */
    void sendToAgent(int agentId, int tag, EventPayload payload);

    /** The generation of the agent with id {@code agentId} now (-1: there is none). */
    int generationOf(int agentId);
}
