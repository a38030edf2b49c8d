package dev.crowdtree.demo.nodes;

/**
 * What the crowd's node types need from the simulation beyond table columns, bound on the runtime
 * as the external {@value #EXTERNAL} (the simulation's data implements it). Kernels fetch it once
 * per batch with {@code ctx.external(...)}; every method is cheap and allocation-free.
 *
 * <p>The column names the nodes declare are the constants below; the simulation creates its table
 * with them.
 *
 * <p>THREADING: kernels call these on worker threads during the parallel phases. The simulation
 * keeps its threats and smart objects as Dominion entities, but workers never touch Dominion (its
 * structural changes and queries are not thread-safe, and its queries allocate):
 * {@link #packedThreats}, {@link #findFreeObject}, {@link #objectX} and {@link #objectY} read flat
 * arrays that the simulation thread refreshes from the entities' components at its sync points (the
 * threat update before the parallel phases, the resolution of claims after them). Within a phase
 * they hold still, so every worker sees the same values whatever the number of workers.
 */
public interface CrowdWorld {
    /** The name the crowd is bound under. */
    String EXTERNAL = "crowd";

    /** Host columns: position, velocity, desired velocity (written by the movement tasks). */
    String X = "x", Y = "y", VX = "vx", VY = "vy", DESIRED_VX = "desiredVx", DESIRED_VY = "desiredVy";
    /** Host columns: the position snapshot and grid cell written by the grid phase. */
    String SNAP_X = "snapX", SNAP_Y = "snapY", CELL = "cell";
    /** Host column: 1 when the agent was in danger at the end of the last tick. */
    String DANGER = "danger";
    /** Host columns of a smart-object claim: the object, the {@code CLAIM_*} state, the claim epoch. */
    String CLAIM_OBJECT = "claimObject", CLAIM_STATE = "claimState", CLAIM_EPOCH = "claimEpoch";

    /** Claim states ({@link #CLAIM_STATE} column). */
    byte CLAIM_NONE = 0, CLAIM_PENDING = 1, CLAIM_GRANTED = 2, CLAIM_REJECTED = 3;
    /** Threat kinds in {@link #packedThreats}. */
    byte PREDATOR = 0, FIRE = 1;
    /** Distance within which a predator touches (hits) an agent. */
    float TOUCH_RADIUS = 2.5f;

    /** Side of the square world. */
    float worldSize();

    /** The active threats in index order, 4 floats each: x, y, radius, kind; {@link #activeThreats} of them. */
    float[] packedThreats();

    int activeThreats();

    /** The active threats' per-block candidate lists, for perception (built with the packed threats). */
    ThreatBlocks threatBlocks();

    /** Grid: the rows of cell c are {@code cellRows()[cellStart()[c] .. cellStart()[c + 1])}. */
    int[] cellStart();

    int[] cellRows();

    /** How many of a cell's first rows {@link #cellPanic} looks at. */
    int PANIC_MATES = 16;

    /**
     * Per cell: {@link #panicOf} as of the start of the StateTree phase, computed once per tick
     * after the grid is sorted; or null when the simulation leaves it to the perception (a sparse
     * grid, where scanning the cells of the agents costs less than a pass over every cell).
     */
    float[] cellPanic();

    /**
     * The share of cell {@code cell}'s first {@value #PANIC_MATES} rows ({@link #cellRows} order)
     * whose {@code danger} flag is set (0 for an empty cell).
     */
    static float panicOf(int cell, int[] cellStart, int[] cellRows, byte[] danger) {
        int begin = cellStart[cell];
        int end = Math.min(cellStart[cell + 1], begin + PANIC_MATES);
        int scared = 0;
        for (int k = begin; k < end; k++) {
            scared += danger[cellRows[k]];
        }
        return end > begin ? (float) scared / (end - begin) : 0f;
    }

    /** Whether LOD tick periods are on (perception then clears the desired velocity at each step). */
    boolean lodOn();

    /** The nearest smart object within {@code radius} with a free slot, or -1. */
    int findFreeObject(float x, float y, float radius);

    float objectX(int object);

    float objectY(int object);

    /** Agent {@code agentId} at {@code row} asks for a slot of {@code object}, resolved at the sync point. */
    void requestClaim(int row, int agentId, int object, int claimEpoch);

    /** The agent at {@code row} gives a granted slot of {@code object} back. */
    void releaseClaim(int row, int object);

    /**
     * A crowd with nothing in it (no threats, no objects, every agent alone in one cell): binds the
     * crowd's node types where no simulation runs, e.g. to trace a tree.
     */
    static CrowdWorld empty(float worldSize) {
        return new CrowdWorld() {
            private final int[] oneCell = {0, 0};
            private final ThreatBlocks noThreats = ThreatBlocks.none(worldSize);
            @Override
            public float[] cellPanic() {
                return null;
            }

            @Override
            public ThreatBlocks threatBlocks() {
                return noThreats;
            }

            @Override
            public float worldSize() {
                return worldSize;
            }

            @Override
            public float[] packedThreats() {
                return new float[0];
            }

            @Override
            public int activeThreats() {
                return 0;
            }

            @Override
            public int[] cellStart() {
                return oneCell;
            }

            @Override
            public int[] cellRows() {
                return new int[0];
            }

            @Override
            public boolean lodOn() {
                return false;
            }

            @Override
            public int findFreeObject(float x, float y, float radius) {
                return -1;
            }

            @Override
            public float objectX(int object) {
                throw new IndexOutOfBoundsException(object);
            }

            @Override
            public float objectY(int object) {
                throw new IndexOutOfBoundsException(object);
            }

            @Override
            public void requestClaim(int row, int agentId, int object, int claimEpoch) {
                throw new IndexOutOfBoundsException(object);
            }

            @Override
            public void releaseClaim(int row, int object) {
                throw new IndexOutOfBoundsException(object);
            }
        };
    }
}
