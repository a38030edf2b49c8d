package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.LongColumn;
import dev.crowdtree.core.storage.ShortColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The per-agent instance data of one tree in one table: the execution state columns and the
 * compiler's slots (parameters, evaluator outputs, task fields and timers), all SoA columns of the
 * agents' table, named {@code st.<tree>.*}. This is the whole truth about every agent's tree
 * instance: the runtime's per-chunk schedules are derived from it and can be rebuilt from it at any
 * time (after rows move, for example).
 *
 * <p>The fields the runtime reads and writes for one agent at a time (when it wakes, when it
 * transitions) are packed into one {@code long} per agent, {@link #exec}, so that an agent the
 * runtime visits alone costs one cache line rather than one per field; {@link ExecWord} is its codec and says
 * the layout (the last active state, the failed task, the run and last tick statuses, the gate bit, the tick period
 * byte, the low bits of the state-change count). A zeroed
 * row is a fresh, not-started instance. Separate columns: {@code gate} = gated transition + 1 (0:
 * none; read by the dense onTick loops), {@code gateDue} = the step at which the pending gate opens
 * (0: already open, {@link #NEVER}: never) with {@code gateValue} the gate time it was computed
 * from, and {@code changes}, the state-change count above its low 16 bits (written once per 65,536
 * changes, so a transition costs no extra cache line for it; {@link #stateChangeCount}), and, in a
 * tree whose states declare tick periods, {@code lodPeriod}, the LOD period the host asked for
 * (section 19: the period in effect is then the larger of it and the active path's). A timer's
 * int slot holds its due step (0: stopped,
 * {@link #NEVER}: never runs out) and, for a SECONDS timer, its float slot the remaining time at the
 * last step it was counted from (see {@code ChunkTimers}). A tree with history states has one short
 * column per history state, {@code history#<memory index>}: the state it remembers (rule Y2).
 *
 * <p>THREADING: column arrays are replaced when the table grows; {@link #refresh()} re-reads them on
 * the simulation thread before every phase, and kernels use the arrays read then.
 */
final class InstanceData {
    /** A due step that never comes. */
    static final int NEVER = Integer.MAX_VALUE;

    final CompiledStateTree tree;
    final SoaTable table;

    final LongColumn execCol;
    final ShortColumn gateCol;
    final FloatColumn gateValueCol;
    final IntColumn gateDueCol;
    final IntColumn changesCol;
    /** Depth + 1 of the state whose task made the last tick status a completion (0: none). */
    final ByteColumn doneCol;
    /**
     * Trees whose states declare tick periods only (else null): log2 of the LOD period the host asked
     * for, which the period in effect combines with the active path's (docs/SEMANTICS.md, rule Z2).
     */
    final ByteColumn lodCol;
    /**
     * Trees whose tasks may request transitions only (else null): the pending request per row, its
     * target state + 1 (0: none) and its priority (rules O1-O4).
     */
    final ShortColumn requestCol;
    final ByteColumn requestPriorityCol;
    /** The depth + 1 of the state whose task made the pending request (0: a global task's). */
    final ByteColumn requestSourceCol;
    private final FloatColumn[] floatCols;
    private final IntColumn[] intCols;
    private final ByteColumn[] boolCols;
    /** The history states' memories, one column per history state (docs/SEMANTICS.md rule Y2); none without history. */
    private final ShortColumn[] historyCols;

    // arrays as of the last refresh()
    long[] exec;
    short[] gate;
    float[] gateValue;
    int[] gateDue;
    int[] changes; // the state-change count >>> 16
    byte[] done; // depth + 1 of the completed state (section 4: completion is scoped to it)
    byte[] lod; // the host's LOD period, log2 (rule Z2); null without state tick periods
    short[] request; // the pending transition request's state + 1 (rule O1); null without requests
    byte[] requestPriority;
    byte[] requestSource;
    int[] ids;
    final float[][] floats;
    final int[][] ints;
    final byte[][] bools;
    /** Per history state (by memory index), per row: the state it remembers, {@code HistoryStates.NO_MEMORY} for none. */
    final short[][] history;

    InstanceData(SoaTable table, CompiledStateTree tree) {
        this.table = table;
        this.tree = tree;
        String p = "st." + tree.name + ".";
        execCol = table.addLong(p + "exec");
        gateCol = table.addShort(p + "gate");
        gateValueCol = table.addFloat(p + "gateValue");
        gateDueCol = table.addInt(p + "gateDue");
        changesCol = table.addInt(p + "changes");
        doneCol = table.addByte(p + "completedDepth");
        lodCol = tree.tickPeriods.any ? table.addByte(p + "lodPeriod") : null;
        requestCol = tree.requestsTransitions ? table.addShort(p + "request") : null;
        requestPriorityCol = tree.requestsTransitions ? table.addByte(p + "requestPriority") : null;
        requestSourceCol = tree.requestsTransitions ? table.addByte(p + "requestSource") : null;
        floatCols = new FloatColumn[tree.floatSlots];
        intCols = new IntColumn[tree.intSlots];
        boolCols = new ByteColumn[tree.boolSlots];
        for (int i = 0; i < floatCols.length; i++) {
            floatCols[i] = table.addFloat(p + tree.floatSlotNames(i) + "#" + i);
        }
        for (int i = 0; i < intCols.length; i++) {
            intCols[i] = table.addInt(p + tree.intSlotNames(i) + "#" + i);
        }
        for (int i = 0; i < boolCols.length; i++) {
            boolCols[i] = table.addByte(p + tree.boolSlotNames(i) + "#" + i);
        }
        historyCols = new ShortColumn[tree.history.count()];
        for (int h = 0; h < historyCols.length; h++) {
            historyCols[h] = table.addShort(p + "history#" + h);
        }
        history = new short[historyCols.length][];
        floats = new float[floatCols.length][];
        ints = new int[intCols.length][];
        bools = new byte[boolCols.length][];
        refresh();
    }

    /** Re-reads every column array (the table may have grown). Simulation thread. */
    void refresh() {
        exec = execCol.data();
        gate = gateCol.data();
        gateValue = gateValueCol.data();
        gateDue = gateDueCol.data();
        changes = changesCol.data();
        done = doneCol.data();
        lod = lodCol == null ? null : lodCol.data();
        request = requestCol == null ? null : requestCol.data();
        requestPriority = requestPriorityCol == null ? null : requestPriorityCol.data();
        requestSource = requestSourceCol == null ? null : requestSourceCol.data();
        ids = table.agentIds().data();
        for (int i = 0; i < floatCols.length; i++) {
            floats[i] = floatCols[i].data();
        }
        for (int i = 0; i < intCols.length; i++) {
            ints[i] = intCols[i].data();
        }
        for (int i = 0; i < boolCols.length; i++) {
            bools[i] = boolCols[i].data();
        }
        for (int h = 0; h < historyCols.length; h++) {
            history[h] = historyCols[h].data();
        }
    }

    /** Writes a parameter-typed value into a slot, reading the column itself (valid even before a refresh). */
    void writeSlot(ValueType type, int slot, int row, double v) {
        switch (type) {
            case FLOAT:
                floatCols[slot].data()[row] = (float) v;
                break;
            case INT:
                intCols[slot].data()[row] = (int) v;
                break;
            default:
                boolCols[slot].data()[row] = (byte) (v != 0 ? 1 : 0);
        }
    }

    // ---- readers and writers of the packed execution state for the simulation thread ----

    /** Last active state of {@code row}, or -1. */
    int stateOfRow(int row) {
        return ExecWord.state(execCol.data()[row]) - 1;
    }

    byte runOfRow(int row) {
        return ExecWord.run(execCol.data()[row]);
    }

    byte lodOfRow(int row) {
        return ExecWord.lod(execCol.data()[row]);
    }

    void setLodOfRow(int row, byte v) {
        long[] e = execCol.data();
        e[row] = ExecWord.withLod(e[row], v);
    }

    /** The state-change count of {@code row}: the {@code changes} column holds the bits above the 16 in {@link #exec}. */
    /** Counts running rows per active last state into {@code counts} (length >= stateCount). */
    void countActiveStates(int[] counts) {
        Arrays.fill(counts, 0, tree.stateCount, 0);
        long[] ex = execCol.data();
        for (int r = 0, n = table.size(); r < n; r++) {
            long e = ex[r];
            if (ExecWord.run(e) == dev.crowdtree.statetree.node.RunStatus.RUNNING) {
                counts[ExecWord.state(e) - 1]++;
            }
        }
    }

    int stateChangeCount(int row) {
        return (changesCol.data()[row] << 16) | ExecWord.changesLow(execCol.data()[row]);
    }


    /** Bytes per agent of every column this object added. */
    int bytesPerAgent() {
        int b = 8 + 2 + 4 + 4 + 4 + 1 + (lodCol == null ? 0 : 1) + (requestCol == null ? 0 : 4);
        return b + 4 * floatCols.length + 4 * intCols.length + boolCols.length + 2 * historyCols.length;
    }

    /** Every column this object added to the table. */
    List<Column> columns() {
        List<Column> cols = new ArrayList<>(List.of(execCol, gateCol, gateValueCol, gateDueCol, changesCol, doneCol));
        if (lodCol != null) {
            cols.add(lodCol);
        }
        if (requestCol != null) {
            cols.add(requestCol);
            cols.add(requestPriorityCol);
            cols.add(requestSourceCol);
        }
        cols.addAll(Arrays.asList(floatCols));
        cols.addAll(Arrays.asList(intCols));
        cols.addAll(Arrays.asList(boolCols));
        cols.addAll(Arrays.asList(historyCols));
        return cols;
    }
}
