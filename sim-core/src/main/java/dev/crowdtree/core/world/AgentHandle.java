package dev.crowdtree.core.world;

import dev.crowdtree.core.storage.RowRef;
import dev.dominion.ecs.api.Entity;

/**
 * The Dominion component that ties an agent's entity to its SoA row. {@link #id()} is the agent's
 * stable id (the key of its random streams and event addresses); ids are reused after despawn, and
 * {@link #generation()} tells the incarnations apart. The row ({@link #row()}) is valid until the
 * next sync point.
 */
public final class AgentHandle extends RowRef {
    private final int id;
    private final int generation;
    Entity entity;

    AgentHandle(int id, int generation) {
        this.id = id;
        this.generation = generation;
    }

    public int id() {
        return id;
    }

    public int generation() {
        return generation;
    }

    /** The agent's Dominion entity, for cold components; structural changes on the simulation thread only. */
    public Entity entity() {
        return entity;
    }

    @Override
    public String toString() {
        return "agent " + id + "#" + generation + (table() == null ? " (despawned)" : " @ " + table().name() + "[" + row() + "]");
    }
}
