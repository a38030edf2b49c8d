package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.ThreatBlocks;

import java.util.Arrays;

/**
 * Everything the crowd's kernels share: the agent table's movement and perception columns, the
 * spatial hash grid, the threats and the smart objects (Dominion entities of the world, with flat
 * copies for the kernels; see {@link Threats}, {@link SmartObjects}) and the per-chunk claim buffers.
 *
 * <p>Data flow per tick (see {@link CrowdSim#tick()}): the grid phase writes each agent's cell and
 * a snapshot of its position, and the grid is sorted in parallel phases; the StateTree phase
 * reads the grid, the snapshot, the threats and last tick's danger flags, and writes desired
 * velocities and claim requests; the movement phase reads the snapshot for separation and writes
 * positions, velocities and danger flags; the sync point resolves claims. No phase reads what
 * another chunk writes in the same phase, so results do not depend on the number of workers.
 */
public final class CrowdData implements CrowdWorld {

    final CrowdConfig config;
    public final World world;
    public final SoaTable table;
    public final FloatColumn x, y, vx, vy, desiredVx, desiredVy, snapX, snapY;
    public final IntColumn cell;
    /** 1 when the agent's active state was inside Danger at the end of the last tick. */
    public final ByteColumn danger;
    public final IntColumn claimObject;
    public final ByteColumn claimState;
    public final IntColumn claimEpoch;
    /**
     * With LOD on: each agent's LOD band + 1 (0: none yet), written by the grid phase; null when
     * LOD is off. An agent whose band has a period above 1 keeps its desired velocity between its
     * StateTree steps (the movement phase does not clear it; perception clears it at each step).
     */
    ByteColumn lodBand;
    /** With LOD on: 1 for the bands whose period is 1, by band + 1 (index 0: no band yet). */
    byte[] clearsEveryTick;
    public final Threats threats;
    public final SmartObjects objects;

    public final float worldSize;
    public final float cellSize;
    /** {@code 1 / cellSize}, used by {@link #cellOf} when {@link #cellSizeIsPowerOfTwo}. */
    private final float inverseCellSize;
    private final boolean cellSizeIsPowerOfTwo;
    public final int side;
    /** Grid: rows of cell c are {@code cellRows[cellStart[c] .. cellStart[c+1])}. */
    int[] cellStart;
    int[] cellRows = new int[0];
    /** Per cell: {@link CrowdWorld#cellPanic}, written by {@link #computePanic}. */
    private final CellPanic cellPanic;
    final GridSort gridSort;

    /** Region mode: releases of objects other regions own, in chunk order, since {@link Region} took them. */
    int[] foreignReleases = new int[16];
    int foreignReleaseCount;

    /** Per-chunk claim requests (agent, object, epoch) and releases (object). */
    private ClaimBuffer[] claims = new ClaimBuffer[0];

    CrowdData(CrowdConfig config, World world) {
        this.config = config;
        this.world = world;
        this.table = world.createTable("agents");
        x = table.addFloat(X);
        y = table.addFloat(Y);
        vx = table.addFloat(VX);
        vy = table.addFloat(VY);
        desiredVx = table.addFloat(DESIRED_VX);
        desiredVy = table.addFloat(DESIRED_VY);
        snapX = table.addFloat(SNAP_X);
        snapY = table.addFloat(SNAP_Y);
        cell = table.addInt(CELL);
        danger = table.addByte(DANGER);
        claimObject = table.addInt(CLAIM_OBJECT);
        claimState = table.addByte(CLAIM_STATE);
        claimEpoch = table.addInt(CLAIM_EPOCH);
        threats = new Threats(world, config.predators(), config.fires(), config.worldSize(), config.seed());
        objects = new SmartObjects(world, config.smartObjects(), config.slotsPerObject(), config.worldSize(), config.seed());
        worldSize = config.worldSize();
        cellSize = config.cellSize();
        cellSizeIsPowerOfTwo = isPowerOfTwo(cellSize);
        inverseCellSize = 1f / cellSize;
        side = config.cellsPerSide();
        cellStart = new int[side * side + 1];
        cellPanic = new CellPanic(this, side * side);
        gridSort = new GridSort(side);
    }

    /** The grid cell of a position (clamped to the world). */
    public int cellOf(float px, float py) {
        float fx;
        float fy;
        if (cellSizeIsPowerOfTwo) { // the same bits as the division, at a third of its cost
            fx = px * inverseCellSize;
            fy = py * inverseCellSize;
        } else {
            fx = px / cellSize;
            fy = py / cellSize;
        }
        int cx = Math.max(0, Math.min(side - 1, (int) fx));
        int cy = Math.max(0, Math.min(side - 1, (int) fy));
        return cy * side + cx;
    }

    /**
     * Whether {@code size} is a power of two (4 m, the default, is), so that multiplying by
     * {@code 1 / size} (exact then) rounds exactly as dividing by {@code size} does: both give the
     * correctly rounded value of the same real quotient.
     */
    static boolean isPowerOfTwo(float size) {
        return size > 0f && Float.isFinite(size) && (Float.floatToRawIntBits(size) & 0x007F_FFFF) == 0
                && Math.getExponent(size) >= Float.MIN_EXPONENT && Math.getExponent(1f / size) >= Float.MIN_EXPONENT;
    }

    /** The LOD band column (band + 1 per row), or null when LOD is off. */
    public ByteColumn lodBand() {
        return lodBand;
    }

    @Override
    public int[] cellStart() {
        return cellStart;
    }

    @Override
    public int[] cellRows() {
        return cellRows;
    }

    @Override
    public float[] cellPanic() {
        return cellPanic.values();
    }

    /**
     * After the grid is complete and before the StateTree phase: {@link #cellPanic} ({@link
     * CellPanic}), when the grid covers the whole world ({@code wholeGrid}; a region sorts only its
     * window of cells, and leaves the panic to the perception). Simulation thread.
     */
    void computePanic(boolean wholeGrid) {
        cellPanic.compute(wholeGrid);
    }

    /** Before the grid phase: sizes the sort's per-chunk buffers. Simulation thread. */
    void prepareGrid() {
        int n = table.size();
        if (cellRows.length < n) {
            cellRows = new int[table.capacity()];
        }
        gridSort.prepare(n, world.chunkSize(), world.workers());
    }

    /** The grid phase's per-chunk part of the sort, after the chunk's cells were written. Kernel of that chunk. */
    void countGridChunk(int chunk, int begin, int end) {
        gridSort.countChunk(chunk, cell.data(), begin, end);
    }

    /**
     * Sorts the rows by the cells the grid phase wrote (counting sort, stable: rows ascend within a
     * cell), chunk-parallel on the world's workers ({@link GridSort}). Simulation thread.
     */
    void sortGrid() {
        gridSort.finish(world.executor(), cell.data(), cellStart, cellRows);
    }

    /**
     * The ids {@code 0 .. agents-1} in the order the grid sorts the agents they start as ({@link #sortGrid}:
     * by cell, ids ascending within a cell), each agent's start position being
     * {@link #startX}/{@link #startY} of (seed, id): placed in this order, the rows are already in grid
     * order. The cells are computed on the workers; the result is {@link #cellRows}, the counts use
     * {@link #cellStart} and the ids' cells the {@link #cell} column's array (reserve the table
     * first, else they take an array of their own), all overwritten by the first grid phase.
     * Simulation thread, before any agent is spawned.
     */
    int[] idsByCell(ChunkExecutor executor, int agents, long seed) {
        if (cellRows.length < agents) {
            cellRows = new int[Math.max(agents, table.capacity())];
        }
        final int[] cells = cell.data().length >= agents ? cell.data() : new int[agents];
        executor.run(c -> {
            for (int id = c.begin(), e = c.end(); id < e; id++) {
                cells[id] = cellOf(startX(seed, id), startY(seed, id));
            }
        }, agents, 1 << 16);
        GridSort.sortSequential(cells, agents, cellStart, cellRows);
        return cellRows;
    }

    /** The x coordinate agent {@code id} starts at in a world of seed {@code seed}. */
    float startX(long seed, int id) {
        return CounterRng.range(0, worldSize, seed, id, 0, 11, 0);
    }

    /** The y coordinate agent {@code id} starts at. */
    float startY(long seed, int id) {
        return CounterRng.range(0, worldSize, seed, id, 0, 11, 1);
    }

    /** Whether the grid's order ({@link #sortGrid}) is the rows' order already (nothing for a reorder to move). */
    boolean gridRowsAreInOrder() {
        final int[] rows = cellRows;
        for (int k = 0, n = table.size(); k < n; k++) {
            if (rows[k] != k) {
                return false;
            }
        }
        return true;
    }

    /** After the table was reordered by {@link #cellRows}: row k is now the k-th agent in grid order. */
    void gridRowsAreNowInOrder() {
        gridSort.identity(world.executor(), cellRows, table.size());
    }

    /** The claim buffer of the chunk holding {@code row} (chunks are fixed row ranges). */
    private ClaimBuffer claimsOfRow(int row) {
        return claims[row / world.chunkSize()];
    }

    // ---- CrowdWorld: what the crowd's node types read beyond columns -------------------------
    // THREADING: called by kernels on the workers. The threats and smart objects are Dominion
    // entities, but these read only the flat copies (Threats.packed, SmartObjects.x/y/used) that the
    // simulation thread refreshes from the components at its sync points (Threats.update in the
    // threat phase, resolveClaims after the movement phase, a region's inbox between ticks), never
    // during a parallel phase; requestClaim and releaseClaim write the claiming chunk's own buffer.

    @Override
    public float worldSize() {
        return worldSize;
    }

    @Override
    public float[] packedThreats() {
        return threats.packed();
    }

    @Override
    public int activeThreats() {
        return threats.activeCount();
    }

    @Override
    public ThreatBlocks threatBlocks() {
        return threats.blocks();
    }

    @Override
    public boolean lodOn() {
        return lodBand != null;
    }

    @Override
    public int findFreeObject(float px, float py, float radius) {
        return objects.findFree(px, py, radius);
    }

    @Override
    public float objectX(int object) {
        return objects.x[object];
    }

    @Override
    public float objectY(int object) {
        return objects.y[object];
    }

    @Override
    public void requestClaim(int row, int agentId, int object, int claimEpoch) {
        claimsOfRow(row).request(agentId, object, claimEpoch);
    }

    @Override
    public void releaseClaim(int row, int object) {
        claimsOfRow(row).release(object);
    }

    void ensureClaimBuffers(int chunks) {
        if (claims.length < chunks) {
            ClaimBuffer[] next = Arrays.copyOf(claims, Math.max(chunks, claims.length * 2));
            for (int i = claims.length; i < next.length; i++) {
                next[i] = new ClaimBuffer();
            }
            claims = next;
        }
    }

    /**
     * The sync point of the smart objects: every chunk's releases, then every chunk's requests, in
     * chunk order. A request still counts only if the agent has not left its claim since (same
     * epoch); granted when its object has a free slot. Returns the number of granted requests.
     */
    int resolveClaims() {
        int granted = 0;
        for (ClaimBuffer b : claims) {
            for (int i = 0; i < b.releases; i++) {
                int o = b.released[i];
                if (objects.owns(o)) {
                    objects.release(o);
                } else {
                    // region mode: another region owns the object; its Region sends the release there
                    if (foreignReleaseCount == foreignReleases.length) {
                        foreignReleases = Arrays.copyOf(foreignReleases, foreignReleaseCount * 2);
                    }
                    foreignReleases[foreignReleaseCount++] = o;
                }
            }
        }
        byte[] state = claimState.data();
        int[] epoch = claimEpoch.data();
        for (ClaimBuffer b : claims) {
            for (int i = 0; i < b.requests; i++) {
                int r = world.rowOf(b.agent[i]);
                if (r < 0) {
                    continue;
                }
                if (state[r] != CLAIM_PENDING || epoch[r] != b.epoch[i]) {
                    continue; // the agent gave up before the claim was resolved
                }
                if (objects.tryClaim(b.object[i])) {
                    state[r] = CLAIM_GRANTED;
                    granted++;
                } else {
                    state[r] = CLAIM_REJECTED;
                }
            }
            b.clear();
        }
        return granted;
    }

    /** Hash of the simulation state beyond the table: threats and smart objects. */
    long extraHash() {
        return threats.contentHash() * 31 + objects.contentHash();
    }

    /** Claim requests and releases recorded by one chunk. THREADING: one worker at a time. */
    public static final class ClaimBuffer {
        int[] agent = new int[16];
        int[] object = new int[16];
        int[] epoch = new int[16];
        int requests;
        int[] released = new int[16];
        int releases;

        /** Agent {@code agentId} asks for a slot of {@code objectId}; {@code claimEpoch} is its current claim epoch. */
        public void request(int agentId, int objectId, int claimEpoch) {
            if (requests == agent.length) {
                agent = Arrays.copyOf(agent, requests * 2);
                object = Arrays.copyOf(object, requests * 2);
                epoch = Arrays.copyOf(epoch, requests * 2);
            }
            agent[requests] = agentId;
            object[requests] = objectId;
            epoch[requests] = claimEpoch;
            requests++;
        }

        /** A granted slot of {@code objectId} is given back. */
        public void release(int objectId) {
            if (releases == released.length) {
                released = Arrays.copyOf(released, releases * 2);
            }
            released[releases++] = objectId;
        }

        void clear() {
            requests = 0;
            releases = 0;
        }
    }
}
