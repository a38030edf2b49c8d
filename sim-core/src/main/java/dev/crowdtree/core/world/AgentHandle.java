package dev.crowdtree.core.world;

import dev.crowdtree.core.storage.SoaTable;
import dev.dominion.ecs.api.Entity;

/**
 * A view of one incarnation of an agent: its stable id (the key of its random streams and event
 * addresses) and generation (ids are reused after despawn; generations tell incarnations apart).
 * Where it lives ({@link #table()}, {@link #row()}) is looked up in the world each time, so a view
 * stays right while rows move; once this incarnation is despawned, {@link #isLive()} is false and
 * the lookups return null / -1. It is also the component of the agent's Dominion entity.
 *
 * <p>Views are created on demand ({@link World#agent}); hot paths use the allocation-free
 * {@link World#rowOf} instead. THREADING: like the world's lookups, valid until the next sync point.
 */
public final class AgentHandle {
    private final World world;
    private final int id;
    private final int generation;

    AgentHandle(World world, int id, int generation) {
        this.world = world;
        this.id = id;
        this.generation = generation;
    }

    public int id() {
        return id;
    }

    public int generation() {
        return generation;
    }

    /** Whether this incarnation is still alive. */
    public boolean isLive() {
        return world.isLive(id) && world.generationOf(id) == generation;
    }

    /** The table holding the agent, or null once this incarnation is gone. */
    public SoaTable table() {
        return isLive() ? world.tableOf(id) : null;
    }

    /** The agent's row, or -1 once this incarnation is gone. Valid until the next sync point. */
    public int row() {
        return isLive() ? world.rowOf(id) : -1;
    }

    /** The agent's Dominion entity (created on first use), or null once this incarnation is gone. */
    public Entity entity() {
        return isLive() ? world.entity(id) : null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AgentHandle)) {
            return false;
        }
        AgentHandle h = (AgentHandle) o;
        return h.world == world && h.id == id && h.generation == generation;
    }

    @Override
    public int hashCode() {
        return id * 31 + generation;
    }

    @Override
    public String toString() {
        return "agent " + id + "#" + generation + (isLive() ? " @ " + table().name() + "[" + row() + "]" : " (despawned)");
    }
}
