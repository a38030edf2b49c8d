package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.ParameterValues;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.ValueType;

import java.util.Arrays;

import static dev.crowdtree.statetree.exec.StateTreeRuntime.ALL;
import static dev.crowdtree.statetree.exec.StateTreeRuntime.MAX_TICK_PERIOD;

/**
 * What the host sets between ticks, per agent: tree parameters (their defaults at spawn, values from
 * {@link StateTreeSystem#setParameter}, which wake a sleeping agent, docs/SEMANTICS.md section 11)
 * and tick periods ({@link StateTreeSystem#setTickPeriod}: at once for a tree that is not running,
 * else pending until the step both periods share, section 12). Each request for a row is recorded
 * once, in the list of the row's world chunk, and flags the row in its chunk's schedule; the tick's
 * schedule phase drains the lists of the world chunks its chunk covers.
 *
 * <p>THREADING: the simulation thread; {@link #setTickPeriodOfRow} also from the kernel owning the
 * row's world chunk in a phase run on the table.
 */
final class HostRequests {
    private final World world;
    private final AgentRows rows;
    /** The chunks' schedules, which a request flags. */
    private final Chunks chunks;
    private final SoaTable table;
    private final CompiledStateTree tree;
    private final InstanceData data;
    /** Requests (parameters set, periods asked for) per world chunk: a host kernel records into its own. */
    private RequestList[] requestLists = new RequestList[0];

    HostRequests(World world, AgentRows rows, InstanceData data, Chunks chunks) {
        this.world = world;
        this.rows = rows;
        this.chunks = chunks;
        this.table = data.table;
        this.tree = data.tree;
        this.data = data;
    }

    /** Makes a request list for every world chunk of the table (simulation thread, before phases). */
    void ensureLists() {
        int worldChunks = table.chunkCount(world.chunkSize());
        if (requestLists.length < worldChunks) {
            RequestList[] next = Arrays.copyOf(requestLists, Math.max(worldChunks, requestLists.length * 2));
            for (int i = requestLists.length; i < next.length; i++) {
                next[i] = new RequestList();
            }
            requestLists = next;
        }
    }

    /** Sets the parameter defaults of {@code row} (a freshly spawned, zeroed row). */
    void initializeRow(int row) {
        for (int i = 0; i < tree.paramCount(); i++) {
            data.writeSlot(tree.paramType(i), tree.paramSlot(i), row, tree.paramDefault(i));
        }
    }

    /** {@link StateTreeRuntime#setParameter}: writes the value and wakes the agent(s) at the next step. */
    void setParameter(int agent, String name, double value) {
        int p = ParameterValues.require(tree, name, value);
        int genSlot = tree.paramGenerationSlot(p);
        int generation = genSlot < 0 ? 0 : world.isLive((int) value) ? world.generationOf((int) value) : -1;
        if (agent == ALL) {
            for (int r = 0; r < table.size(); r++) {
                data.writeSlot(tree.paramType(p), tree.paramSlot(p), r, value);
                if (genSlot >= 0) {
                    data.writeSlot(ValueType.INT, genSlot, r, generation); // an entity is a handle (issue 11)
                }
            }
            for (ChunkSchedule s : chunks.schedules) {
                s.wakeAll = true;
            }
        } else {
            int row = rows.requireRow(agent);
            data.writeSlot(tree.paramType(p), tree.paramSlot(p), row, value);
            if (genSlot >= 0) {
                data.writeSlot(ValueType.INT, genSlot, row, generation);
            }
            request(row, ChunkSchedule.WAKE);
        }
    }

    /** {@link StateTreeRuntime#setTickPeriod}. */
    void setTickPeriod(int agent, int period) {
        int log = periodLog(period, agent);
        if (agent == ALL) {
            for (int r = 0; r < table.size(); r++) {
                requestPeriod(r, log);
            }
        } else {
            requestPeriod(rows.requireRow(agent), log);
        }
    }

    /** {@link StateTreeSystem#setTickPeriodOfRow}. */
    void setTickPeriodOfRow(int row, int period) {
        requestPeriod(row, periodLog(period, -1));
    }

    private static int periodLog(int period, int agent) {
        if (period < 1 || period > MAX_TICK_PERIOD || Integer.bitCount(period) != 1) {
            throw new IllegalArgumentException("tick period " + period + (agent >= 0 ? " for agent " + agent : "")
                    + " is not valid; valid periods are 1, 2, 4, 8, 16, 32, " + MAX_TICK_PERIOD);
        }
        return Integer.numberOfTrailingZeros(period);
    }

    /**
     * Records period {@code 1 << log} for {@code row}: at once for a tree that is not running, else
     * pending. In a tree with state tick periods it is the agent's LOD period, and the period asked
     * for is the larger of it and its active path's (rule Z2).
     */
    private void requestPeriod(int row, int log) {
        byte lod = data.lodOfRow(row);
        if (data.lodCol != null) {
            data.lodCol.data()[row] = (byte) log;
        }
        if (data.runOfRow(row) != RunStatus.RUNNING) {
            data.setLodOfRow(row, PeriodByte.of(log));
            return;
        }
        int target = data.lodCol == null ? log : tree.tickPeriods.targetLog(log, data.stateOfRow(row));
        byte next = PeriodByte.aiming(PeriodByte.log(lod), target);
        if (next == lod) {
            return;
        }
        data.setLodOfRow(row, next);
        request(row, 0);
    }

    /**
     * Records a request for {@code row} (with {@code flag} set in its schedule, e.g. a wake-up) in
     * the list of the row's world chunk, once per row until drained. Skipped when the row's chunk
     * has no schedule yet: it will be built from the columns anyway.
     * THREADING: the simulation thread, or the kernel owning the row's world chunk.
     */
    private void request(int row, int flag) {
        ChunkSchedule s = chunks.scheduleOf(row);
        int wc = row / world.chunkSize();
        RequestList[] lists = requestLists;
        if (s == null || wc >= lists.length) {
            return;
        }
        int l = row - s.index * chunks.rows;
        if ((s.flagsOf(l) & ChunkSchedule.REQUESTED) == 0) {
            s.addFlags(l, ChunkSchedule.REQUESTED);
            lists[wc].add(row);
        }
        if (flag != 0) {
            s.addFlags(l, flag);
        }
    }

    /** Forgets every recorded request (a snapshot was restored; the schedules are rebuilt). */
    void clearLists() {
        for (RequestList l : requestLists) {
            l.size = 0;
        }
    }

    /** The requests recorded for world chunk {@code c} (runner use). */
    RequestList requestList(int c) {
        return c < requestLists.length ? requestLists[c] : null;
    }

    /** A growable list of rows. THREADING: written by one thread at a time (see {@link #request}). */
    static final class RequestList {
        int[] rows = new int[16];
        int size;

        void add(int row) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
            }
            rows[size++] = row;
        }
    }
}
