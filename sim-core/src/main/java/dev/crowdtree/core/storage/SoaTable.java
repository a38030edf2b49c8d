package dev.crowdtree.core.storage;

import dev.crowdtree.core.util.Checks;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A struct-of-arrays table: typed primitive columns with dense rows {@code 0 .. size-1}.
 *
 * <p>Every row carries the owning agent's id (an {@code int} column named
 * {@value #AGENT_ID_COLUMN}). Removing a row moves the last row into the hole (swap-remove), so rows
 * stay dense; whoever maps agents to rows (the {@code World}) hears of every move through a
 * {@link RowListener} and reads the moved row's agent id. No per-row objects: an agent costs its
 * columns only. Columns may be added at any time on the simulation thread; a
 * new column starts zeroed for the existing rows.
 *
 * <p>Capacity doubles on demand up to {@code maxCapacity}; asking for more fails with an
 * {@link IllegalArgumentException} that names the table, the request and the limit.
 *
 * <p>THREADING: structural operations ({@link #add}, {@link #remove}, adding columns, growing) are
 * for the simulation thread at a sync point only. Kernels of a parallel phase read and write column
 * elements of the rows of their own chunk.
 */
public final class SoaTable {
    /** Name of the built-in column holding each row's agent id. */
    public static final String AGENT_ID_COLUMN = "agentId";
    /** Largest capacity any table accepts. */
    public static final int MAX_CAPACITY = 1 << 30;

    private final String name;
    private final int maxCapacity;
    private final Map<String, Column> columnsByName = new LinkedHashMap<>();
    private final List<Column> columns = new ArrayList<>();
    private final IntColumn agentIds;
    private RowListener[] listeners = new RowListener[0];
    private int size;
    /**
     * Rows at or above this one have held nothing since their arrays were allocated, so they are
     * still zero: {@link #add} clears a row only below it (a row a removal or a restore left data
     * in). Appending a million agents then costs no per-column clearing.
     */
    private int dirtyEnd;
    private int capacity;
    /**
     * One spare array per element type for {@link #reorder}, the type's slot found by a linear search
     * of {@link #spareTypes} (a map would allocate a node per put); all of length {@link #capacity}.
     */
    private Class<?>[] spareTypes = new Class<?>[0];
    private Object[] spares = new Object[0];
    /** The column being reordered and its target array (between begin and end of its reorder). */
    private Column gathering;
    private Object gatherDst;

    /**
     * @param name            table name, used in diagnostics
     * @param initialCapacity rows allocated up front, 0..maxCapacity
     * @param maxCapacity     the most rows the table may ever hold, 1..{@value #MAX_CAPACITY}
     */
    public SoaTable(String name, int initialCapacity, int maxCapacity) {
        this.name = Checks.notBlank("table name", name);
        this.maxCapacity = Checks.inRange("maxCapacity", maxCapacity, 1, MAX_CAPACITY);
        this.capacity = Checks.inRange("initialCapacity", initialCapacity, 0, maxCapacity);
        this.agentIds = addInt(AGENT_ID_COLUMN);
    }

    public String name() {
        return name;
    }

    /** Number of live rows. */
    public int size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    public int maxCapacity() {
        return maxCapacity;
    }

    /** The columns in the order they were added, the built-in agent id column first. */
    public List<Column> columns() {
        return Collections.unmodifiableList(columns);
    }

    /** The column named {@code columnName}, or null. */
    public Column column(String columnName) {
        return columnsByName.get(columnName);
    }

    /** The built-in column of agent ids per row. */
    public IntColumn agentIds() {
        return agentIds;
    }

    /** The agent id stored in {@code row}. */
    public int agentAt(int row) {
        return agentIds.data()[row];
    }

    public FloatColumn addFloat(String columnName) {
        return register(new FloatColumn(columnName, capacity));
    }

    public IntColumn addInt(String columnName) {
        return register(new IntColumn(columnName, capacity));
    }

    public LongColumn addLong(String columnName) {
        return register(new LongColumn(columnName, capacity));
    }

    public ShortColumn addShort(String columnName) {
        return register(new ShortColumn(columnName, capacity));
    }

    public ByteColumn addByte(String columnName) {
        return register(new ByteColumn(columnName, capacity));
    }

    public <T> ObjectColumn<T> addObject(String columnName) {
        return register(new ObjectColumn<>(columnName, capacity));
    }

    private <C extends Column> C register(C column) {
        Checks.notBlank("column name", column.name());
        if (columnsByName.containsKey(column.name())) {
            throw new IllegalArgumentException("table '" + name + "' already has a column named '"
                    + column.name() + "'; column names must be unique within a table");
        }
        columnsByName.put(column.name(), column);
        columns.add(column);
        return column;
    }

    /**
     * Something that keeps per-row state derived from this table's columns (a runtime's schedule, an
     * index) and must hear when rows change owner or content through structural operations.
     */
    @FunctionalInterface
    public interface RowListener {
        /**
         * Rows {@code [from, to)} were added, removed, overwritten by a moved row, or permuted. Called
         * on the simulation thread at the end of the structural operation; a row below
         * {@link #size()} holds its (new) agent's id in {@link #agentIds()}.
         */
        void rowsChanged(int from, int to);
    }

    /** Registers {@code l} for every later structural change ({@link #add}, {@link #remove}, {@link #reorder}). */
    public void addRowListener(RowListener l) {
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = l;
    }

    private void fire(int from, int to) {
        for (RowListener l : listeners) {
            l.rowsChanged(from, to);
        }
    }

    /**
     * Makes room for at least {@code rows} rows.
     *
     * @throws IllegalArgumentException when {@code rows} exceeds {@code maxCapacity}
     */
    public void ensureCapacity(int rows) {
        int next = capacityFor(rows);
        if (next == capacity) {
            return;
        }
        for (int c = 0; c < columns.size(); c++) {
            resizeColumn(c, next);
        }
        grewTo(next);
    }

    /**
     * The capacity {@link #ensureCapacity} grows to for {@code rows} rows (the current one when they fit).
     *
     * @throws IllegalArgumentException when {@code rows} exceeds {@code maxCapacity}
     */
    public int capacityFor(int rows) {
        if (rows <= capacity) {
            return capacity;
        }
        if (rows > maxCapacity) {
            throw new IllegalArgumentException("table '" + name + "' capacity overflow: " + rows
                    + " rows requested; valid range is 0.." + maxCapacity
                    + " (raise maxCapacity / World.Builder.maxAgents)");
        }
        return (int) Math.min(maxCapacity, Math.max(16L, Math.max(rows, 2L * capacity)));
    }

    /**
     * One column of a growth to {@code next} rows ({@link #capacityFor}); the columns may be resized
     * on different threads at once (each touches only its own array), then {@link #grewTo} ends it on
     * the simulation thread. Nothing else may touch the table in between.
     */
    public void resizeColumn(int column, int next) {
        columns.get(column).resize(next);
    }

    /** Ends a growth to {@code next} rows after every column was {@link #resizeColumn resized}. */
    public void grewTo(int next) {
        Arrays.fill(spares, null); // of the old length
        capacity = next;
    }

    /**
     * Appends a zeroed row owned by {@code agentId}.
     *
     * @return the new row
     */
    public int add(int agentId) {
        ensureCapacity(size + 1);
        int row = size++;
        clearDirty(row, row + 1);
        agentIds.data()[row] = agentId;
        fire(row, row + 1);
        return row;
    }

    /**
     * Appends {@code n} zeroed rows at once, the k-th owned by agent {@code idBase + ids[k]}; the
     * listeners hear of them in one call.
     *
     * @return the first new row
     */
    public int addRows(int[] ids, int n, int idBase) {
        ensureCapacity(size + n);
        final int first = size;
        clearDirty(first, first + n);
        final int[] agents = agentIds.data();
        for (int k = 0; k < n; k++) {
            agents[first + k] = idBase + ids[k];
        }
        size = first + n;
        fire(first, first + n);
        return first;
    }

    /** Zeroes the rows of {@code [from, to)} that still hold a removed row's data (those below {@code dirtyEnd}). */
    private void clearDirty(int from, int to) {
        for (int row = from, end = Math.min(dirtyEnd, to); row < end; row++) {
            for (int i = 0, c = columns.size(); i < c; i++) {
                columns.get(i).clear(row);
            }
        }
    }

    /**
     * Removes {@code row} by moving the last row into it.
     *
     * @return the agent id that now occupies {@code row}, or -1 if the removed row was the last
     */
    public int remove(int row) {
        if (row < 0 || row >= size) {
            throw new IllegalArgumentException("row " + row + " is not a live row of table '" + name
                    + "'; valid rows are 0.." + (size - 1));
        }
        dirtyEnd = Math.max(dirtyEnd, size); // the last row keeps its data until it is cleared
        int last = --size;
        int moved = -1;
        if (row != last) {
            for (int i = 0, n = columns.size(); i < n; i++) {
                columns.get(i).move(last, row);
            }
            moved = agentIds.data()[row];
        }
        fire(row, row + 1);
        if (last != row) {
            fire(last, last + 1);
        }
        return moved;
    }

    /**
     * Reorders the live rows: new row {@code i} takes old row {@code order[i]}, for every column. {@code order} must be a permutation of {@code 0 .. size-1} (not checked). Used to keep
     * rows spatially coherent (sort by grid cell), so chunk kernels touch nearby memory.
     * Allocation: none after the first call. The table keeps one spare array per element type, not
     * one per column: each column is gathered into the spare of its type, whose place its old array
     * then takes (with 21 float columns, the spares cost one float column instead of 21).
     */
    public void reorder(int[] order) {
        for (int c = 0; c < columns.size(); c++) {
            reorderColumn(c, order);
        }
        finishReorder(order);
    }

    /** Number of columns, including the built-in agent id column. */
    public int columnCount() {
        return columns.size();
    }

    /** One column of {@link #reorder}: {@link #beginReorderColumn}, all rows, {@link #endReorderColumn}. Simulation thread. */
    public void reorderColumn(int column, int[] order) {
        beginReorderColumn(column);
        reorderColumnRows(order, 0, size);
        endReorderColumn();
    }

    /**
     * Starts reordering column {@code column} (one column at a time): its rows are gathered into the
     * spare array of its type by {@link #reorderColumnRows}, which {@link #endReorderColumn} then
     * swaps in. Simulation thread.
     */
    public void beginReorderColumn(int column) {
        if (gathering != null) {
            throw new IllegalStateException("table '" + name + "': column '" + gathering.name()
                    + "' is being reordered; call endReorderColumn first");
        }
        Column c = columns.get(column);
        Object src = c.array();
        Class<?> type = src.getClass();
        int slot = spareSlot(type);
        Object dst = spares[slot];
        spares[slot] = null;
        int length = Array.getLength(src);
        if (dst == null || Array.getLength(dst) != length) {
            dst = Array.newInstance(type.getComponentType(), length);
        }
        gathering = c;
        gatherDst = dst;
    }

    /**
     * New row {@code i} of the column being reordered takes old row {@code order[i]}, for {@code i}
     * in {@code [from, to)}. THREADING: distinct ranges may be gathered by different threads at once,
     * between {@link #beginReorderColumn} and {@link #endReorderColumn}; nothing else may touch the
     * table meanwhile.
     */
    public void reorderColumnRows(int[] order, int from, int to) {
        gathering.gatherRange(gathering.array(), gatherDst, order, from, to);
    }

    /**
     * Ends the column's reorder: the gathered array becomes the column's, and its old array the
     * spare of its type. Rows at or above the live rows are not gathered; rows at or above the rows
     * ever written are zero in every array ({@link #add} clears the others), so the spare may go to
     * any column of its type. Simulation thread.
     */
    public void endReorderColumn() {
        Object old = gathering.swapArray(gatherDst);
        if (old instanceof Object[] refs) {
            Arrays.fill(refs, null); // the spare must not keep references alive
        }
        spares[spareSlot(old.getClass())] = old;
        gathering = null;
        gatherDst = null;
    }

    /** The slot of {@code arrayType} in {@link #spares}, added on first use. */
    private int spareSlot(Class<?> arrayType) {
        for (int i = 0; i < spareTypes.length; i++) {
            if (spareTypes[i] == arrayType) {
                return i;
            }
        }
        spareTypes = Arrays.copyOf(spareTypes, spareTypes.length + 1);
        spares = Arrays.copyOf(spares, spares.length + 1);
        spareTypes[spareTypes.length - 1] = arrayType;
        return spareTypes.length - 1;
    }

    /**
     * Declares that rows below {@code end} may hold data although they are not live (a host that
     * writes scratch rows past {@link #size()}, e.g. a region's halo), so that {@link #add} clears
     * them when they become live. Simulation thread.
     */
    public void markRowsWritten(int end) {
        dirtyEnd = Math.max(dirtyEnd, Math.min(end, capacity));
    }

    /** The second half of {@link #reorder}: tells the listeners that every row changed. Simulation thread. */
    public void finishReorder(int[] order) {
        fire(0, size);
    }

    /**
     * After {@link TableSnapshot#applyTo} wrote the columns: the table has {@code rows} rows (it had
     * {@code old}), and every listener hears that all of them changed.
     */
    void restoreRows(int rows, int old) {
        dirtyEnd = Math.max(dirtyEnd, Math.max(rows, old));
        size = rows;
        fire(0, Math.max(rows, old));
    }

    /** Number of chunks of {@code chunkSize} rows that cover the live rows. */
    public int chunkCount(int chunkSize) {
        return (size + chunkSize - 1) / chunkSize;
    }

    /** A hash of every primitive column's live values, in column order; equal worlds hash equal. */
    public long contentHash() {
        long h = size;
        for (Column c : columns) {
            h = Column.mixHash(h, c.contentHash(size));
        }
        return h;
    }

    /**
     * A hash of the table's content by agent, independent of the order of the rows and, summed
     * over tables ({@code World.contentHashByAgent}), of which table holds an agent: per row, the
     * agent id and every column's value are mixed into one 64-bit hash, and the rows' hashes are
     * added. Equal for equal sets of (agent, values); a different value almost surely differs.
     */
    public long contentHashByAgent() {
        final int[] ids = agentIds().data();
        long sum = 0;
        for (int r = 0; r < size; r++) {
            long h = Column.mixHash(0x9E3779B97F4A7C15L, ids[r]);
            for (Column c : columns) {
                h = Column.mixHash(h, c.rowBits(r));
            }
            sum += finish(h);
        }
        return sum;
    }

    /**
     * One row's term of {@link #contentHashByAgent}, from the agent id and its columns' bits in
     * {@link #columns()} order: for an agent held outside any table (migrating between regions).
     */
    public static long rowHash(int agentId, long[] bits) {
        long h = Column.mixHash(0x9E3779B97F4A7C15L, agentId);
        for (long b : bits) {
            h = Column.mixHash(h, b);
        }
        return finish(h);
    }

    /** A final avalanche (the finalizer of SplitMix64), so that added row hashes do not cancel. */
    private static long finish(long h) {
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        return h ^ (h >>> 31);
    }

    @Override
    public String toString() {
        return "SoaTable[" + name + ", rows=" + size + ", columns=" + columnsByName.keySet() + "]";
    }
}
