package dev.crowdtree.statetree.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * What one chunk produces in a phase for after the barrier: events its agents sent to other agents,
 * events its agents keep for their own next tick, and trace lines. Indexed by chunk, merged in chunk
 * order, so the result does not depend on which worker ran the chunk.
 *
 * <p>THREADING: written by the worker running the chunk, read by the simulation thread after the
 * barrier.
 */
final class ChunkOutput {
    final EventBuffer toOthers;
    final EventBuffer carried;
    /** Trace lines and their agent ids; used only while tracing. */
    final List<String> traceLines = new ArrayList<>();
    final IntList traceAgents = new IntList();
    /** Per trace line: 1 for a {@code why} line (for the sink only when explaining), else 0. */
    final IntList traceWhy = new IntList();
    /** Node failures in the chunk (rule R1), in order of occurrence; allocated only when there are some. */
    final List<NodeFailure> failures = new ArrayList<>();
    /** Events dropped because a row's list or one of these buffers was full (counted, never silent). */
    long overflow;
    /** Agents awake in the chunk's last tick (took part and ran more than evaluators). */
    int awake;
    /** Payload mismatches counted in the chunk (rule E5), by {@link PayloadMismatchKeys} key. */
    final long[] payloadMismatches;
    /** With recording on ({@link Recorder}): the chunk's occupancy per state, transitions fired per transition. */
    long[] occupancy = new long[0], fired = new long[0];
    /** With recording on: the chunk's enter lines per state, events arrived per tag id. */
    long[] entered = new long[0], arrived = new long[0];
    /** With recording on: the first agents ({@link Recorder#NAMED}) per transition fired, state entered, tag arrived. */
    int[] firedIds = new int[0], enteredIds = new int[0], arrivedIds = new int[0];
    long compositeRules, restarts, requests;

    /**
     * {@code outputs}, grown (doubling) to at least {@code chunks} entries, for a tree whose events
     * carry {@code payloadWidth} payload slots and which has {@code mismatchKeys} payload mismatch keys.
     */
    static ChunkOutput[] ensure(ChunkOutput[] outputs, int chunks, int payloadWidth, int mismatchKeys) {
        if (outputs.length >= chunks) {
            return outputs;
        }
        ChunkOutput[] next = java.util.Arrays.copyOf(outputs, Math.max(chunks, outputs.length * 2));
        for (int i = outputs.length; i < next.length; i++) {
            next[i] = new ChunkOutput(payloadWidth, mismatchKeys);
        }
        return next;
    }

    ChunkOutput(int payloadWidth, int mismatchKeys) {
        toOthers = new EventBuffer(payloadWidth);
        carried = new EventBuffer(payloadWidth);
        payloadMismatches = new long[mismatchKeys];
    }

    /** Clears the outputs of {@code chunks} chunks for a phase, with room for {@code recorder}'s counters (null: not counting). */
    static void clear(ChunkOutput[] outputs, int chunks, Recorder recorder) {
        for (int c = 0; c < chunks; c++) {
            if (recorder != null) {
                outputs[c].ensureCounters(recorder);
            }
            outputs[c].clear();
        }
    }

    /** Makes room for the counters of {@code recorder}'s tree: its states, transitions and event tags. */
    void ensureCounters(Recorder r) {
        if (occupancy.length != r.occupancy.length || fired.length != r.fired.length || arrived.length != r.arrived.length) {
            occupancy = new long[r.occupancy.length];
            fired = new long[r.fired.length];
            entered = new long[r.entered.length];
            arrived = new long[r.arrived.length];
            firedIds = new int[r.firedIds.length];
            enteredIds = new int[r.enteredIds.length];
            arrivedIds = new int[r.arrivedIds.length];
        }
    }

    void clear() {
        java.util.Arrays.fill(occupancy, 0);
        java.util.Arrays.fill(fired, 0);
        java.util.Arrays.fill(entered, 0);
        java.util.Arrays.fill(arrived, 0);
        compositeRules = 0;
        restarts = 0;
        requests = 0;
        awake = 0;
        overflow = 0;
        java.util.Arrays.fill(payloadMismatches, 0);
        toOthers.clear();
        carried.clear();
        traceLines.clear();
        failures.clear();
        traceAgents.clear();
        traceWhy.clear();
    }

    /** A minimal growable int list. */
    static final class IntList {
        int[] data = new int[16];
        int size;

        void add(int v) {
            if (size == data.length) {
                data = java.util.Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        void clear() {
            size = 0;
        }
    }
}
