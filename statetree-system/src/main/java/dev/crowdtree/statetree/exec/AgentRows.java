package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;

/**
 * Agent ids to rows of the runtime's table: the world knows every agent's table and row, and an agent
 * of another table has no row here. THREADING: the simulation thread (the world's id maps change only
 * at its syncs). Allocation: none, but for the exception's text.
 */
final class AgentRows {
    private final World world;
    private final SoaTable table;

    AgentRows(World world, SoaTable table) {
        this.world = world;
        this.table = table;
    }

    /** The row of agent {@code agentId} in the table, or -1. */
    int rowOf(int agentId) {
        return world.tableOf(agentId) == table ? world.rowOf(agentId) : -1;
    }

    /** The row of agent {@code agentId}; throws when it is not in the table. */
    int requireRow(int agentId) {
        int row = rowOf(agentId);
        if (row < 0) {
            throw new IllegalArgumentException("no agent " + agentId + " in table '" + table.name() + "' of "
                    + table.size() + " agents (despawned ids are not valid)");
        }
        return row;
    }
}
