package dev.crowdtree.core.world;

import dev.crowdtree.core.storage.SoaTable;

import java.util.Arrays;

/**
 * Structural changes recorded during a phase and applied later, in order, on the simulation thread
 * by {@link World#sync()}. Each chunk has its own buffer and the simulation thread has one; at the
 * sync point the simulation thread's buffer is applied first, then the chunk buffers in chunk
 * order, so the outcome does not depend on the number of workers.
 *
 * <p>A despawn names the agent's current incarnation (id and generation); if that incarnation is
 * already gone when the command is applied (two chunks despawned the same agent), the command is
 * skipped and counted in {@link World#skippedCommands()}.
 *
 * <p>Allocation: none once the buffer has grown to its high-water mark (a buffer left mostly
 * unused for 16 syncs after a burst shrinks, see {@link #clear()}). THREADING: a buffer is
 * written by one thread at a time (the worker running its chunk, or the simulation thread).
 */
public final class CommandBuffer {
    static final byte SPAWN = 1;
    static final byte DESPAWN = 2;

    private final World world;
    byte[] ops = new byte[16];
    int[] ints = new int[16];
    long[] longs = new long[16];
    Object[] tables = new Object[16];
    Object[] inits = new Object[16];
    int size;

    CommandBuffer(World world) {
        this.world = world;
    }

    /** Records the spawn of one agent into {@code table}; {@code init} fills its row with {@code arg}. */
    public void spawn(SoaTable table, SpawnInitializer init, long arg) {
        int i = next();
        ops[i] = SPAWN;
        tables[i] = table;
        inits[i] = init;
        longs[i] = arg;
    }

    /** Records the despawn of the current incarnation of agent {@code agentId}. */
    public void despawn(int agentId) {
        int generation = world.generationOf(agentId);
        int i = next();
        ops[i] = DESPAWN;
        ints[i] = agentId;
        longs[i] = generation;
    }

    /** Number of recorded commands not yet applied. */
    public int size() {
        return size;
    }

    private int next() {
        if (size == ops.length) {
            resize(size * 2);
        }
        return size++;
    }

    void clear() {
        Arrays.fill(tables, 0, Math.min(size, tables.length), null);
        Arrays.fill(inits, 0, Math.min(size, inits.length), null);
        // A burst (spawning a whole population in one sync) must not pin its buffers (~21 bytes per
        // command) for good: a buffer that just applied more than 65,536 commands shrinks at once,
        // and one left mostly unused for 16 syncs after growing shrinks then. Steady use keeps its
        // high-water mark and allocates nothing.
        if (size > 65_536) {
            resize(4096);
            quietSyncs = 0;
        } else if (ops.length > 4096 && size < ops.length / 8) {
            if (++quietSyncs >= 16) {
                resize(Math.max(16, ops.length / 8));
                quietSyncs = 0;
            }
        } else {
            quietSyncs = 0;
        }
        size = 0;
    }

    private int quietSyncs;

    private void resize(int n) {
        ops = Arrays.copyOf(ops, n);
        ints = Arrays.copyOf(ints, n);
        longs = Arrays.copyOf(longs, n);
        tables = Arrays.copyOf(tables, n);
        inits = Arrays.copyOf(inits, n);
    }
}
