package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.storage.SoaTable;

/**
 * The runtime's chunks of {@link #rows} rows and what each keeps: its persistent
 * {@link ChunkSchedule} and its {@link ChunkOutput} of the last phase, by chunk index. Both arrays
 * are replaced when the table grows ({@link #ensure}), so holders read them here, never keep them.
 *
 * <p>Allocation: only in {@link #ensure}, when the table grew. THREADING: the arrays are replaced by
 * the simulation thread between phases; during a phase, a chunk's kernel writes only its own schedule
 * and output (and a host kernel flags the schedules of its rows, {@link HostRequests}).
 */
final class Chunks {
    /**
     * Rows per chunk of this runtime's phases: the world's chunk, or four of them (at most 16,384) when
     * the world's have 1,024 or more: a chunk's tick touches a few dozen cold cache lines whatever
     * happens in it, so fewer, larger chunks make sleepy ticks cheaper; results do not depend on it.
     */
    final int rows;
    private final SoaTable table;
    ChunkSchedule[] schedules = new ChunkSchedule[0];
    ChunkOutput[] outputs = new ChunkOutput[0];

    Chunks(SoaTable table, int worldChunkRows) {
        this.table = table;
        int wc = worldChunkRows;
        this.rows = wc < 1024 ? wc : Math.max(wc, Math.min(ChunkSchedule.MAX_ROWS / 2, wc * 4));
    }

    /** The chunks the table has now. */
    int count() {
        return table.chunkCount(rows);
    }

    /** A schedule and a cleared output for every chunk of the table (simulation thread, before a phase). */
    void ensure(int groups, int payloadWidth, int mismatchKeys, Recorder recording, ChunkExecutor executor) {
        int chunks = count();
        outputs = ChunkOutput.ensure(outputs, chunks, payloadWidth, mismatchKeys);
        schedules = ChunkSchedule.ensure(schedules, chunks, rows, groups, executor);
        ChunkOutput.clear(outputs, chunks, recording);
    }

    /** The schedule of {@code row}'s chunk, or null when it does not exist yet (it will be built). */
    ChunkSchedule scheduleOf(int row) {
        int c = row / rows;
        ChunkSchedule[] ss = schedules;
        return c < ss.length ? ss[c] : null;
    }

    /** Rows {@code [from, to)} moved or changed owner: their chunks' schedules are rebuilt before the next tick. */
    void rowsChanged(int from, int to) {
        int cs = rows;
        for (int c = from / cs, last = Math.min(schedules.length - 1, (to - 1) / cs); c <= last; c++) {
            schedules[c].dirty = true;
        }
    }

    /** Every schedule is rebuilt before the next tick (a new dt, a snapshot restored). */
    void allDirty() {
        for (ChunkSchedule s : schedules) {
            s.dirty = true;
        }
    }
}
