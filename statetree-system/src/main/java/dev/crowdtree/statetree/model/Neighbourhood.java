package dev.crowdtree.statetree.model;

import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.statetree.node.HostColumn;

import java.util.Arrays;
import java.util.List;

/**
 * The agents a host system may read besides its own rows: every agent's position and the model's
 * shared columns ({@link ModelDefinition.Builder#shared}) as of the start of the tick, in a uniform
 * grid of cells at least {@link #reach()} wide, so that the agents within the reach of a point are
 * found in the 3 x 3 cells around it. In a run split into regions it also holds the neighbouring
 * regions' agents within the reach of the region's border (the halo), after the own ones. The grid
 * wraps around: an agent outside the world's bounds is still found, at the cost of sharing a cell
 * with agents a grid's width away.
 *
 * <p>Entries: entry {@code e < ownCount()} is the own agent in row {@code e}; the halo's follow.
 * {@link #agents()}, {@link #xs()}, {@link #ys()} and the shared columns' arrays are indexed by entry.
 * {@link #near} lists the entries within a radius of a point, in cell order, then entry order: a
 * deterministic order that does not depend on the number of workers.
 *
 * <p>Built on the simulation thread before the first system of each tick (a copy of the columns and
 * a counting sort by cell, O(agents + cells)); read-only during the tick, safe from every worker.
 * Allocation: none once the arrays have grown to the population.
 */
public final class Neighbourhood {
    /** Most grid cells: wider cells than the reach when the world is large for it. */
    static final int MAX_CELLS = 1 << 22;
    /** Cells per expected agent at most: a sparse world gets cells wider than the reach, so a build costs its agents, not its area. */
    static final int CELLS_PER_AGENT = 2;

    private final String xName;
    private final String yName;
    private final float width;
    private final float height;
    private final float reach;
    private final float cellSize;
    /** {@code 1 / cellSize}: a multiplication where {@link #line} would divide. */
    private final float inverseCell;
    private final int cellsX;
    private final int cellsY;
    private final List<String> sharedNames;
    private final HostColumn.Type[] sharedTypes;
    private final Object[] shared;
    private final int[] cellStart;
    private int[] agents = new int[0];
    private float[] xs = new float[0];
    private float[] ys = new float[0];
    private int[] cell = new int[0];
    private int[] order = new int[0];
    private int own;
    private int size;
    private int halo;

    /**
     * A neighbourhood over a world {@code width} x {@code height} whose reads reach {@code reach}, for
     * about {@code expectedAgents} agents (its cells are at least {@code reach} wide, and at most
     * {@value #CELLS_PER_AGENT} per expected agent and {@value #MAX_CELLS} in all).
     */
    Neighbourhood(String x, String y, float width, float height, float reach, int expectedAgents, List<String> sharedNames,
                  List<HostColumn.Type> sharedTypes) {
        this.xName = x;
        this.yName = y;
        this.width = width;
        this.height = height;
        this.reach = reach;
        double limit = Math.min(MAX_CELLS, Math.max(1024, (double) CELLS_PER_AGENT * expectedAgents));
        double cs = reach;
        while ((Math.ceil(width / cs) * Math.ceil(height / cs)) > limit) {
            cs *= 1.25;
        }
        this.cellSize = (float) cs;
        this.inverseCell = (float) (1 / cs);
        this.cellsX = Math.max(1, (int) Math.ceil(width / cs));
        this.cellsY = Math.max(1, (int) Math.ceil(height / cs));
        this.cellStart = new int[cellsX * cellsY + 1];
        this.sharedNames = List.copyOf(sharedNames);
        this.sharedTypes = sharedTypes.toArray(new HostColumn.Type[0]);
        this.shared = new Object[this.sharedTypes.length];
        for (int i = 0; i < shared.length; i++) {
            shared[i] = this.sharedTypes[i].newArray(0);
        }
    }

    /** How far an agent's reads reach, in the position columns' unit. */
    public float reach() {
        return reach;
    }

    /** Entries: the own agents, then the halo's. */
    public int size() {
        return size;
    }

    /** Own agents: entries {@code 0 .. ownCount()-1}, entry = row. */
    public int ownCount() {
        return own;
    }

    /** Agent id per entry. */
    public int[] agents() {
        return agents;
    }

    /** X per entry, as of the start of the tick. */
    public float[] xs() {
        return xs;
    }

    /** Y per entry, as of the start of the tick. */
    public float[] ys() {
        return ys;
    }

    /** Shared float column {@code name} per entry. */
    public float[] sharedFloats(String name) {
        return (float[]) shared[sharedIndex(name, HostColumn.Type.FLOAT)];
    }

    /** Shared int column {@code name} per entry. */
    public int[] sharedInts(String name) {
        return (int[]) shared[sharedIndex(name, HostColumn.Type.INT)];
    }

    /** Shared byte column {@code name} per entry. */
    public byte[] sharedBytes(String name) {
        return (byte[]) shared[sharedIndex(name, HostColumn.Type.BYTE)];
    }

    /**
     * Writes into {@code out} the entries whose position lies within {@code radius} of
     * ({@code x}, {@code y}) (the point's own entry included when it is one), at most
     * {@code out.length}; returns how many it wrote.
     *
     * @throws IllegalArgumentException when {@code radius} exceeds the reach (a region's halo would
     *                                  not hold every agent within it)
     */
    public int near(float x, float y, float radius, int[] out) {
        if (!(radius <= reach)) {
            throw new IllegalArgumentException("radius " + radius + " is beyond the model's reach " + reach
                    + "; declare a larger reach (ModelDefinition.Builder.reach)");
        }
        // the unwrapped cell columns and rows the square around the point covers; each once
        int cx0 = line(x - radius);
        int cx1 = line(x + radius);
        int cy0 = line(y - radius);
        int cy1 = line(y + radius);
        if (cx1 - cx0 >= cellsX) {
            cx0 = 0;
            cx1 = cellsX - 1;
        }
        if (cy1 - cy0 >= cellsY) {
            cy0 = 0;
            cy1 = cellsY - 1;
        }
        float r2 = radius * radius;
        final float[] px = xs;
        final float[] py = ys;
        final int[] ord = order;
        int n = 0;
        for (int cy = cy0; cy <= cy1; cy++) {
            int row = (cy >= 0 && cy < cellsY ? cy : Math.floorMod(cy, cellsY)) * cellsX;
            for (int cx = cx0; cx <= cx1; cx++) {
                int c = row + (cx >= 0 && cx < cellsX ? cx : Math.floorMod(cx, cellsX));
                for (int k = cellStart[c], end = cellStart[c + 1]; k < end; k++) {
                    int e = ord[k];
                    float dx = px[e] - x;
                    float dy = py[e] - y;
                    if (dx * dx + dy * dy <= r2) {
                        if (n == out.length) {
                            return n;
                        }
                        out[n++] = e;
                    }
                }
            }
        }
        return n;
    }

    /**
     * The unwrapped cell line of a coordinate: {@code floor(v / cellSize)}, which may lie outside the
     * world (0 for NaN). Cells wrap around the grid ({@link #cellX}, {@link #cellY}): an agent outside
     * the world's bounds shares a cell with agents a grid's width away, which the distance check of
     * {@link #near} tells apart, instead of piling up with every other outsider in an edge cell.
     */
    private int line(float v) {
        float q = v * inverseCell;
        if (q >= 0 && q < 1 << 24) {
            return (int) q; // the common case: inside the world, or not far beyond it
        }
        q = (float) Math.floor(q);
        return q != q ? 0 : (int) Math.max(Integer.MIN_VALUE / 2, Math.min(Integer.MAX_VALUE / 2, q));
    }

    int cellX(float x) {
        return Math.floorMod(line(x), cellsX);
    }

    int cellY(float y) {
        return Math.floorMod(line(y), cellsY);
    }

    private int sharedIndex(String name, HostColumn.Type type) {
        int i = sharedNames.indexOf(name);
        if (i < 0 || sharedTypes[i] != type) {
            throw new IllegalArgumentException("no shared " + type.word() + " column '" + name + "'; the model shares "
                    + sharedNames + " (ModelDefinition.Builder.shared)");
        }
        return i;
    }

    // ---- building (the model world and regions) ---------------------------------------------------

    /** The shared columns' names, in declaration order. */
    List<String> sharedNames() {
        return sharedNames;
    }

    /** Forgets the halo; {@link #addHalo} adds the next tick's. */
    void clearHalo() {
        halo = 0;
    }

    /** Halo entries added since {@link #clearHalo}. */
    int haloCount() {
        return halo;
    }

    /**
     * Adds a neighbouring region's agent; {@code sharedBits[i]} is the raw bits of shared column
     * {@code i} (a float's {@code floatToRawIntBits}, an int, a byte).
     */
    void addHalo(int agent, float x, float y, long[] sharedBits) {
        int e = own + halo;
        ensure(e + 1);
        agents[e] = agent;
        xs[e] = x;
        ys[e] = y;
        for (int i = 0; i < shared.length; i++) {
            setBits(i, e, sharedBits[i]);
        }
        halo++;
    }

    /**
     * The table's rows as entries {@code 0 .. rows-1}, moving the halo after them, then the grid.
     * Simulation thread, between ticks.
     */
    void build(SoaTable table) {
        int rows = table.size();
        if (rows != own && halo > 0) { // keep the halo, which sits after the own entries
            int from = own;
            ensure(rows + halo);
            System.arraycopy(agents, from, agents, rows, halo);
            System.arraycopy(xs, from, xs, rows, halo);
            System.arraycopy(ys, from, ys, rows, halo);
            for (Object a : shared) {
                System.arraycopy(a, from, a, rows, halo);
            }
        }
        own = rows;
        size = rows + halo;
        ensure(size);
        System.arraycopy(table.agentIds().data(), 0, agents, 0, rows);
        System.arraycopy(((dev.crowdtree.core.storage.FloatColumn) table.column(xName)).data(), 0, xs, 0, rows);
        System.arraycopy(((dev.crowdtree.core.storage.FloatColumn) table.column(yName)).data(), 0, ys, 0, rows);
        for (int i = 0; i < shared.length; i++) {
            Column c = table.column(sharedNames.get(i));
            System.arraycopy(c.array(), 0, shared[i], 0, rows);
        }
        sort();
    }

    /** Raw bits of shared column {@code i} at entry {@code e} (the region's halo writer). */
    long bits(int i, int e) {
        switch (sharedTypes[i]) {
            case FLOAT:
                return Float.floatToRawIntBits(((float[]) shared[i])[e]);
            case INT:
                return ((int[]) shared[i])[e];
            default:
                return ((byte[]) shared[i])[e];
        }
    }

    /** Bytes of shared column {@code i} on the wire. */
    int width(int i) {
        return sharedTypes[i] == HostColumn.Type.BYTE ? 1 : 4;
    }

    private void setBits(int i, int e, long bits) {
        switch (sharedTypes[i]) {
            case FLOAT:
                ((float[]) shared[i])[e] = Float.intBitsToFloat((int) bits);
                break;
            case INT:
                ((int[]) shared[i])[e] = (int) bits;
                break;
            default:
                ((byte[]) shared[i])[e] = (byte) bits;
        }
    }

    private void sort() {
        int cells = cellsX * cellsY;
        Arrays.fill(cellStart, 0);
        for (int e = 0; e < size; e++) {
            int c = cellY(ys[e]) * cellsX + cellX(xs[e]);
            cell[e] = c;
            cellStart[c + 1]++;
        }
        for (int c = 0; c < cells; c++) {
            cellStart[c + 1] += cellStart[c];
        }
        // a stable placement: within a cell, entries keep their order
        for (int e = 0; e < size; e++) {
            order[cellStart[cell[e]]++] = e;
        }
        for (int c = cells; c > 0; c--) {
            cellStart[c] = cellStart[c - 1];
        }
        cellStart[0] = 0;
    }

    private void ensure(int n) {
        if (agents.length >= n) {
            return;
        }
        int cap = Math.max(n, agents.length + (agents.length >> 1) + 16);
        agents = Arrays.copyOf(agents, cap);
        xs = Arrays.copyOf(xs, cap);
        ys = Arrays.copyOf(ys, cap);
        cell = Arrays.copyOf(cell, cap);
        order = Arrays.copyOf(order, cap);
        for (int i = 0; i < shared.length; i++) {
            Object grown = sharedTypes[i].newArray(cap);
            System.arraycopy(shared[i], 0, grown, 0, Math.min(java.lang.reflect.Array.getLength(shared[i]), cap));
            shared[i] = grown;
        }
    }

    float width() {
        return width;
    }

    float height() {
        return height;
    }
}
