package dev.crowdtree.core.world;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.storage.TableSnapshot;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A copy of a {@link World} whose agents all live in one table: the clock's tick, the agent ids
 * (the next fresh id, every id's generation, the free list in its LIFO order, the count of skipped
 * despawn commands) and the table ({@link TableSnapshot}). Restoring gives the same ids, rows and
 * generations, so later spawns and despawns go exactly as they would have. Not included: Dominion
 * entities (cold data; created again on demand), the command buffers (a snapshot is taken at a sync
 * point, with none pending), the real-time accumulator of the clock.
 *
 * <p>Layout: clock tick (int64), next id (int32), generations (count, values), free ids (count,
 * values), skipped commands (int64), the table. A world with sparse ids ({@link World.Builder#sparseIds})
 * writes its next id as {@code ~nextId} (a negative number), then the generation of each row's agent
 * in row order (count = rows) and no free ids: its size follows its agents, not the largest id.
 */
public final class WorldSnapshot {
    private long tick;
    private int nextId;
    /** Generations per row (a world with sparse ids), not per id. */
    private boolean sparse;
    private int[] generations;
    private int[] freeIds;
    private long skipped;
    private TableSnapshot table;

    private WorldSnapshot() {
    }

    /**
     * Writes {@code world}, whose agents must all be in {@code table}.
     *
     * @throws IllegalStateException when another table has agents or commands are pending
     */
    public static void write(World world, SoaTable table, DataOutput out) throws IOException {
        for (SoaTable t : world.tables()) {
            if (t != table && t.size() > 0) {
                throw new IllegalStateException("a snapshot covers one table; table '" + t.name() + "' has agents too");
            }
        }
        if (world.commands().size() > 0) {
            throw new IllegalStateException("take a snapshot at a sync point: " + world.commands().size()
                    + " commands are pending");
        }
        long[] counters = world.idCounters();
        out.writeLong(world.clock().tick());
        out.writeInt(world.sparseIds() ? ~(int) counters[0] : (int) counters[0]);
        writeInts(out, world.generations(table));
        writeInts(out, world.freeIds());
        out.writeLong(counters[2]);
        TableSnapshot.write(table, out);
    }

    /** The length, then the ints big-endian ({@link TableSnapshot#writeArray}: not one call per int). */
    private static void writeInts(DataOutput out, int[] a) throws IOException {
        out.writeInt(a.length);
        TableSnapshot.writeArray(out, a, "int", a.length);
    }

    private static int[] readInts(DataInput in, int max) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new SnapshotException("the snapshot's agent ids are malformed");
        }
        return (int[]) TableSnapshot.readArray(in, "int", n);
    }

    /**
     * Parses a world written by {@link #write} and checks that its ids are consistent.
     *
     * @throws SnapshotException when it is malformed
     */
    public static WorldSnapshot read(DataInput in) throws IOException {
        WorldSnapshot s = new WorldSnapshot();
        s.tick = in.readLong();
        int next = in.readInt();
        s.sparse = next < 0;
        s.nextId = nextIdOf(next);
        if (s.tick < 0 || s.nextId > SoaTable.MAX_CAPACITY) {
            throw new SnapshotException("the snapshot's agent ids are malformed");
        }
        s.generations = readInts(in, s.nextId);
        s.freeIds = readInts(in, s.nextId);
        s.skipped = in.readLong();
        s.table = TableSnapshot.read(in);
        if (!(s.sparse ? s.generations.length == s.table.rows() && s.freeIds.length == 0
                : s.generations.length == s.nextId) || !distinctBelow(s.table.agentIds(), s.table.rows(), s.freeIds, s.nextId)) {
            throw new SnapshotException("the snapshot's agent ids are inconsistent");
        }
        return s;
    }

    /** The next id from the header's word, which a world with sparse ids writes as {@code ~nextId}. */
    private static int nextIdOf(int word) {
        return word < 0 ? ~word : word;
    }

    /**
     * Whether the table's ids and the free ids are distinct and in {@code [0, next)}: an id below
     * the next fresh one is live, free, or (in a world that places agents, {@link World#place})
     * elsewhere. Sorts a copy, so that the check costs the agents', not the largest id's, memory.
     */
    private static boolean distinctBelow(int[] ids, int rows, int[] free, int next) {
        if ((long) rows + free.length > next) {
            return false;
        }
        int[] all = Arrays.copyOf(ids, rows + free.length);
        System.arraycopy(free, 0, all, rows, free.length);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            if (all[i] < 0 || all[i] >= next || (i > 0 && all[i] == all[i - 1])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The number of agents in the world written by {@link #write} that {@code in} starts with,
     * read from its header, the columns' values skipped (to check it against what a caller would build
     * for it before building anything). The values of every row must be there, so the count is bounded
     * by the snapshot's size: {@code in} is a stream over bytes in memory
     * ({@link dev.crowdtree.core.storage.SnapshotReader#peekSection}), which skips exactly.
     *
     * @throws SnapshotException when the header is malformed or the table's values end early
     */
    public static int peekRows(DataInputStream in) throws IOException {
        in.readLong(); // tick
        int nextId = nextIdOf(in.readInt());
        for (int list = 0; list < 2; list++) { // generations, free ids
            int n = in.readInt();
            if (n < 0 || n > nextId || in.skipBytes(4 * n) != 4 * n) {
                throw new SnapshotException("the snapshot's agent ids are malformed");
            }
        }
        in.readLong(); // ids skipped
        in.readUTF(); // the table's name
        int rows = in.readInt();
        if (rows < 0 || rows > SoaTable.MAX_CAPACITY) {
            throw new SnapshotException("the snapshot's table is malformed");
        }
        // the rows' values must be there: a number in the header does not make a caller build a world
        int columns = in.readInt();
        long bytes = 0;
        for (int i = 0; i < columns && columns <= 1_000_000; i++) {
            in.readUTF();
            String type = in.readUTF();
            int width = Math.max(0, TableSnapshot.width(type)); // an unknown type: refused when the table is read
            long n = (long) rows * width;
            bytes += n;
            if (in.skip(n) != n) {
                throw new SnapshotException(String.format(java.util.Locale.ROOT, "the snapshot's table claims %,d rows, "
                        + "but its section ends within column %d (%,d bytes of values read); a table holds every row's "
                        + "values", rows, i, bytes - n));
            }
        }
        if (columns < 1 || columns > 1_000_000) {
            throw new SnapshotException("the snapshot's table is malformed");
        }
        return rows;
    }

    /** The clock's tick. */
    public long tick() {
        return tick;
    }

    /** The table. */
    public TableSnapshot table() {
        return table;
    }

    /**
     * Verifies that {@link #applyTo} can restore into {@code world} and {@code table}.
     *
     * @throws SnapshotException naming the first problem
     */
    public void checkFits(World world, SoaTable table) throws SnapshotException {
        if (sparse != world.sparseIds()) {
            throw new SnapshotException("the snapshot's agent ids are " + (sparse ? "sparse (a region's)" : "dense")
                    + " and this world's are " + (world.sparseIds() ? "sparse" : "dense")
                    + " (World.Builder.sparseIds): restore it into a world built like the one that wrote it");
        }
        if (!sparse && nextId > IdIndex.MAX_DENSE_IDS) {
            throw new SnapshotException("the snapshot's ids go up to " + nextId + ", beyond the " + IdIndex.MAX_DENSE_IDS
                    + " a dense id index holds");
        }
        this.table.checkFits(table);
        for (SoaTable t : world.tables()) {
            if (t != table && t.size() > 0) {
                throw new SnapshotException("cannot restore into a world whose table '" + t.name() + "' has agents");
            }
        }
        if (table.size() > 0 && world.tableOf(table.agentAt(0)) != table) {
            throw new SnapshotException("table '" + table.name() + "' is not a table of this world");
        }
        if (this.table.rows() > world.maxAgents()) {
            throw new SnapshotException("the snapshot has " + this.table.rows() + " agents; this world holds at most "
                    + world.maxAgents());
        }
        if (world.commands().size() > 0) {
            throw new SnapshotException("cannot restore while " + world.commands().size() + " commands are pending");
        }
    }

    /** Overwrites {@code world} and {@code table} (checked with {@link #checkFits} first). Simulation thread. */
    public void applyTo(World world, SoaTable table) {
        world.restoreIds(nextId, generations, freeIds, skipped, table, this.table.agentIds(), this.table.rows());
        this.table.applyTo(table);
        world.clock().restoreTick(tick);
    }
}
