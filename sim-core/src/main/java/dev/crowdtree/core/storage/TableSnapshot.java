package dev.crowdtree.core.storage;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy of a {@link SoaTable}'s live rows, column by column, by name and type: every primitive
 * column (the agent ids included) with its values of rows {@code 0 .. rows-1}; object columns by
 * name only (they restore as null). {@link #write} serializes a table, {@link #read} parses one
 * into memory, {@link #checkFits} verifies that a table has the same columns (names and types, in
 * any order) and room for the rows, and only then {@link #applyTo} overwrites the table: rows,
 * every column's values and the row count, telling the table's row listeners that every row
 * changed.
 *
 * <p>Layout: table name (UTF), rows (int32), column count (int32), per column: name (UTF), type
 * (one of {@code float int long short byte object}, UTF) and, for a primitive column, its
 * {@code rows} values big-endian.
 */
public final class TableSnapshot {
    private final String name;
    private final int rows;
    private final List<String> columnNames = new ArrayList<>();
    private final List<String> columnTypes = new ArrayList<>();
    private final List<Object> columnData = new ArrayList<>();

    private TableSnapshot(String name, int rows) {
        this.name = name;
        this.rows = rows;
    }

    /** Writes the live rows of {@code table}. */
    public static void write(SoaTable table, DataOutput out) throws IOException {
        int n = table.size();
        out.writeUTF(table.name());
        out.writeInt(n);
        out.writeInt(table.columnCount());
        for (Column c : table.columns()) {
            String type = c instanceof ObjectColumn ? "object" : c.typeName();
            out.writeUTF(c.name());
            out.writeUTF(type);
            if (c instanceof ObjectColumn) {
                continue;
            }
            if (width(type) < 0) {
                throw new IllegalStateException("column '" + c.name() + "' has type " + type
                        + ", which snapshots do not know");
            }
            writeArray(out, c.array(), type, n);
        }
    }

    /**
     * Writes the first {@code n} elements of {@code array} (a column type's array: float, int, long,
     * short or byte, named by {@code type}) big-endian, through a small buffer: an array of a million
     * elements is neither copied whole first nor written one element per call.
     */
    public static void writeArray(DataOutput out, Object array, String type, int n) throws IOException {
        final int w = width(type);
        if (w < 0) {
            throw new IllegalArgumentException("type " + type + " is not a column type snapshots know");
        }
        final int step = COPY_BYTES / w;
        ByteBuffer b = ByteBuffer.allocate(Math.min(n, step) * w);
        for (int from = 0; from < n; from += step) {
            int len = Math.min(step, n - from);
            b.clear();
            switch (type) {
                case "float" -> b.asFloatBuffer().put((float[]) array, from, len);
                case "int" -> b.asIntBuffer().put((int[]) array, from, len);
                case "long" -> b.asLongBuffer().put((long[]) array, from, len);
                case "short" -> b.asShortBuffer().put((short[]) array, from, len);
                default -> b.put((byte[]) array, from, len); // "byte": the only width left
            }
            out.write(b.array(), 0, len * w);
        }
    }

    /**
     * Reads {@code n} elements written by {@link #writeArray} into a new array of the column type
     * {@code type} (float, int, long, short or byte).
     */
    public static Object readArray(DataInput in, String type, int n) throws IOException {
        final int w = width(type);
        if (w < 0) {
            throw new IllegalArgumentException("type " + type + " is not a column type snapshots know");
        }
        if ((long) n * w > Integer.MAX_VALUE - 8) {
            throw new SnapshotException("the snapshot holds an array of " + n + " " + type + " values, more than one "
                    + "array can hold");
        }
        byte[] raw = new byte[n * w];
        in.readFully(raw);
        ByteBuffer b = ByteBuffer.wrap(raw);
        Object a;
        switch (type) {
            case "float" -> b.asFloatBuffer().get((float[]) (a = new float[n]));
            case "int" -> b.asIntBuffer().get((int[]) (a = new int[n]));
            case "long" -> b.asLongBuffer().get((long[]) (a = new long[n]));
            case "short" -> b.asShortBuffer().get((short[]) (a = new short[n]));
            default -> a = raw; // "byte": the only width left
        }
        return a;
    }

    /** Bytes {@link #write} copies a column through at a time. */
    private static final int COPY_BYTES = 1 << 16;

    /**
     * The bytes one value of a column of type {@code type} takes in a snapshot ({@code float},
     * {@code int}: 4, {@code long}: 8, {@code short}: 2, {@code byte}: 1), or -1 for another type.
     */
    public static int width(String type) {
        return switch (type) {
            case "float", "int" -> 4;
            case "long" -> 8;
            case "short" -> 2;
            case "byte" -> 1;
            default -> -1;
        };
    }

    /**
     * Parses a table written by {@link #write}.
     *
     * @throws SnapshotException when the data is malformed
     */
    public static TableSnapshot read(DataInput in) throws IOException {
        TableSnapshot s = new TableSnapshot(in.readUTF(), in.readInt());
        int columns = in.readInt();
        if (s.rows < 0 || s.rows > SoaTable.MAX_CAPACITY || columns < 1 || columns > 1_000_000) {
            throw new SnapshotException("the snapshot's table '" + s.name + "' is malformed");
        }
        for (int i = 0; i < columns; i++) {
            String cname = in.readUTF();
            String type = in.readUTF();
            s.columnNames.add(cname);
            s.columnTypes.add(type);
            if (type.equals("object")) {
                s.columnData.add(null);
                continue;
            }
            if (width(type) < 0) {
                throw new SnapshotException("the snapshot's column '" + cname + "' has unknown type '" + type + "'");
            }
            s.columnData.add(readArray(in, type, s.rows));
        }
        if (!SoaTable.AGENT_ID_COLUMN.equals(s.columnNames.get(0)) || !"int".equals(s.columnTypes.get(0))) {
            throw new SnapshotException("the snapshot's table '" + s.name + "' has no agent id column");
        }
        return s;
    }

    /** The table's name. */
    public String name() {
        return name;
    }

    /** Number of rows. */
    public int rows() {
        return rows;
    }

    /**
     * The data of column {@code name} as read (a {@code float[]}, {@code int[]}, {@code long[]},
     * {@code short[]} or {@code byte[]} of {@link #rows()} values; the snapshot's own array, do not
     * modify), or null when the snapshot has no such column or it holds objects: for checking the
     * values before they are applied.
     */
    public Object column(String name) {
        int i = columnNames.indexOf(name);
        return i < 0 ? null : columnData.get(i);
    }

    /** The agent id of every row (the snapshot's own array; do not modify). */
    public int[] agentIds() {
        return (int[]) columnData.get(0);
    }

    /**
     * Verifies that {@link #applyTo} can overwrite {@code table}: same name, the same columns by
     * name and type (in any order), and room for the rows.
     *
     * @throws SnapshotException naming the first difference
     */
    public void checkFits(SoaTable table) throws SnapshotException {
        if (!table.name().equals(name)) {
            throw new SnapshotException("snapshot of table '" + name + "', this is table '" + table.name() + "'");
        }
        for (int i = 0; i < columnNames.size(); i++) {
            Column c = table.column(columnNames.get(i));
            String type = c == null ? null : c instanceof ObjectColumn ? "object" : c.typeName();
            if (!columnTypes.get(i).equals(type)) {
                throw new SnapshotException("the snapshot's column '" + columnNames.get(i) + "' (" + columnTypes.get(i)
                        + ") is " + (c == null ? "missing from" : "of type " + type + " in") + " table '" + table.name()
                        + "'");
            }
        }
        if (table.columnCount() != columnNames.size()) {
            for (Column c : table.columns()) {
                if (!columnNames.contains(c.name())) {
                    throw new SnapshotException("table '" + table.name() + "' has column '" + c.name()
                            + "', which the snapshot does not");
                }
            }
        }
        if (rows > table.maxCapacity()) {
            throw new SnapshotException("the snapshot has " + rows + " rows; table '" + table.name() + "' holds at most "
                    + table.maxCapacity());
        }
    }

    /**
     * Overwrites {@code table} (checked with {@link #checkFits} first) with the snapshot's rows;
     * rows beyond them are cleared. Simulation thread, at a sync point.
     */
    public void applyTo(SoaTable table) {
        table.ensureCapacity(rows);
        int old = table.size();
        for (int i = 0; i < columnNames.size(); i++) {
            Column c = table.column(columnNames.get(i));
            Object data = columnData.get(i);
            for (int r = rows; r < old; r++) {
                c.clear(r);
            }
            if (data == null) {
                for (int r = 0; r < rows; r++) {
                    c.clear(r);
                }
            } else {
                System.arraycopy(data, 0, c.array(), 0, rows);
            }
        }
        table.restoreRows(rows, old);
    }
}
