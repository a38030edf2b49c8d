package dev.crowdtree.core.world;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A world's Dominion side: its instance, the entities the world created in it (the host's sparse
 * entities through {@link World#createEntity}, and the agents' cold-data entities by agent id), and
 * the JVM-wide pool of idle instances that closed worlds hand back, emptied.
 *
 * <p>THREADING: the simulation thread of the world only, outside phases (Dominion's structural
 * changes are not thread-safe); the pool itself is a concurrent queue, because worlds (a cluster
 * member's regions) are created and closed on several threads.
 */
final class WorldEntities {
    /**
     * Dominion instances of closed worlds, emptied, ready for reuse. Still needed: Dominion 0.9.0
     * registers a logging level in a fixed static array of 1024 entries on every
     * {@code Dominion.create()} and never frees it, even on {@code close()}, so a JVM can create at
     * most 1023 instances (the 1024th create throws). Every world has one, and a JVM builds far more
     * worlds than that: each region of a split crowd is a world, a cluster member restores regions
     * from checkpoints, a sweep runs many crowds, a test JVM builds thousands. Reuse bounds the
     * number created by the number of worlds open at the same time.
     */
    private static final ConcurrentLinkedQueue<Dominion> IDLE = new ConcurrentLinkedQueue<>();
    private static final String NAME = "crowdtree";

    final Dominion dominion;
    /** Cold-data entities of agents, by agent id: created on first use, dropped when the agent leaves. */
    private final Map<Integer, Entity> agents = new HashMap<>();
    /** The other entities created through the world (by identity): deleted at close. */
    private final Set<Entity> others = Collections.newSetFromMap(new IdentityHashMap<>());

    WorldEntities() {
        Dominion idle = IDLE.poll();
        this.dominion = idle != null ? idle : create();
    }

    /**
     * A new instance, quiet. Dominion 0.9.0 reads its configuration only from system properties,
     * and at its default INFO level it prints a banner and a configuration panel to standard output
     * for every instance: that would land in the middle of the command line's output (the summary
     * and world hash that users and tests read). So we set the documented properties to WARNING and
     * no banner, unless the user already set them (then theirs stand).
     */
    private static Dominion create() {
        for (String key : new String[] {"dominion.logging-level", "dominion." + NAME + ".logging-level"}) {
            if (System.getProperty(key) == null) {
                System.setProperty(key, "WARNING");
            }
        }
        if (System.getProperty("dominion.show-banner") == null) {
            System.setProperty("dominion.show-banner", "false");
        }
        return Dominion.create(NAME);
    }

    /** The cold-data entity of agent {@code id} (incarnation {@code generation}), created on first use. */
    Entity agent(World world, int id, int generation) {
        Entity e = agents.get(id);
        if (e == null) {
            e = dominion.createEntity(new AgentHandle(world, id, generation));
            agents.put(id, e);
        }
        return e;
    }

    /** Agent {@code id} left the world: its cold-data entity (if any) goes. */
    void dropAgent(int id) {
        Entity e = agents.remove(id);
        if (e != null) {
            dominion.deleteEntity(e);
        }
    }

    /** Every agent's cold-data entity goes (the agents were replaced, e.g. by a snapshot). */
    void dropAgents() {
        for (Entity e : agents.values()) {
            dominion.deleteEntity(e);
        }
        agents.clear();
    }

    Entity create(Object... components) {
        Entity e = dominion.createEntity(components);
        others.add(e);
        return e;
    }

    boolean delete(Entity e) {
        return others.remove(e) && dominion.deleteEntity(e);
    }

    /** Deletes every entity the world created and hands the emptied instance back to the pool. */
    void close() {
        dropAgents();
        List<Entity> all = new ArrayList<>(others);
        others.clear();
        for (Entity e : all) {
            dominion.deleteEntity(e);
        }
        IDLE.offer(dominion);
    }
}
