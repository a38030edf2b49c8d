package dev.crowdtree.core.world;

import dev.crowdtree.core.storage.SoaTable;

/**
 * Fills the columns of a freshly spawned row. Called on the simulation thread while commands are
 * applied; the row starts zeroed. {@code arg} is the value given to {@link CommandBuffer#spawn}, so
 * one initializer object can serve many spawns without a capturing lambda per spawn.
 */
@FunctionalInterface
public interface SpawnInitializer {
    SpawnInitializer NONE = (table, row, agentId, arg) -> { };

    void initialize(SoaTable table, int row, int agentId, long arg);
}
