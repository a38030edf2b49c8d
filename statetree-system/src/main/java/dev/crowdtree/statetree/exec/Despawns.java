package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;

/**
 * Despawning (docs/SEMANTICS.md section 7): the runtime hears every despawn from the world while the
 * agent still has its row, and stops the agent's tree first, so its tasks' ExitState runs (a claimed
 * resource is given back, not leaked).
 */
final class Despawns {
    private final Engine engine;
    private final World world;
    private final SoaTable table;
    private final boolean ownsWorld;
    /** The tick a {@link #despawn} call gives its stop (-1: a host's despawn, stopped at the last tick). */
    private long tick = -1;

    Despawns(Engine engine, boolean ownsWorld) {
        this.engine = engine;
        this.world = engine.world;
        this.table = engine.table;
        this.ownsWorld = ownsWorld;
        world.addDespawnListener(this::despawning);
    }

    private void despawning(SoaTable t, int row, int agentId) {
        if (t == table) {
            engine.stop(agentId, tick >= 0 ? tick : engine.tick);
        }
    }

    /** {@link StateTreeRuntime#despawn}. */
    void despawn(int agent, long atTick) {
        if (!ownsWorld) {
            throw new IllegalStateException("this runtime runs in a host's world: despawn agent " + agent
                    + " with world.commands().despawn(...); its tree stops at the next sync");
        }
        engine.rows.requireRow(agent);
        world.commands().despawn(agent);
        tick = atTick;
        try {
            world.sync();
        } finally {
            tick = -1;
        }
    }
}
