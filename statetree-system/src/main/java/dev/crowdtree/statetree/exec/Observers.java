package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.util.Objects;

/**
 * What the host of a {@link StateTreeSystem} watches besides the simulation: the trace (all agents,
 * or one), its {@code why} lines, and the population counters and watched agents ({@link Recorder}). The
 * {@link Engine} copies its switches into each call's {@link TickFrame}, which the chunks read when they
 * bind ({@link ChunkBinding}); the engine counts a tick when it ends.
 *
 * <p>THREADING: written by the simulation thread between ticks, read by the workers during one.
 */
final class Observers {
    private final CompiledStateTree tree;
    TraceSink trace;
    /** The one agent traced, or -1 for all. */
    int traceAgent = -1;
    boolean explain;
    Recorder recorder;
    /** The tick running counts for {@link #recorder} (it was on when the tick began). */
    boolean recordingTick;
    /**
     * Whether the occupancy must be counted afresh (every row) in the next tick: something other
     * than a tick changed which agents run where (a start, a stop, a snapshot restored, recording
     * just turned on). Otherwise the chunks count only what their transitions changed.
     */
    boolean occupancyDirty = true;
    /** The tick running counts every row's occupancy ({@link #occupancyDirty} when it began). */
    boolean countingAll;

    Observers(CompiledStateTree tree) {
        this.tree = tree;
    }

    static {
        // Loads the Recorder class now, not in the middle of a steady tick: a run without recording
        // still loaded it lazily after about a thousand ticks (when compiled code met it), reading
        // 33 KB from the jar on the simulation thread (the compare harness, sleepy and flat rows).
        Objects.requireNonNull(Recorder.class);
    }

    void setRecording(boolean on) {
        recorder = on ? new Recorder(tree) : null;
        occupancyDirty = true;
    }

    /** A tick begins (tickAll); else something else changes the population ({@link #occupancyDirty}). */
    void beginTick() {
        recordingTick = recorder != null;
        countingAll = recordingTick && occupancyDirty;
    }

    boolean tracing() {
        return trace != null;
    }

    /** Whether transitions are explained (tracing, and {@code setExplain}). */
    boolean explaining() {
        return explain && trace != null;
    }

    /** Whether agents are watched ({@link Recorder#watch}): their lines are made for the recorder's rings. */
    boolean watching() {
        return recorder != null && recorder.watchedCount() > 0;
    }

    /** The watched agents' bits by agent id ({@link Recorder#watchBits}), or null when none is watched. */
    long[] watchBits() {
        return watching() ? recorder.watchBits : null;
    }

    /** Traces only agent {@code agent} (-1: every agent) to {@code sink} (null: no tracing). */
    void setTrace(TraceSink sink, int agent) {
        trace = sink;
        traceAgent = agent;
    }

    /**
     * After a phase: the chunks' trace lines to the sink, sorted by agent (only when tracing: see
     * {@link EventRouter#merge}), and the watched agents' lines, in chunk order, into their rings.
     */
    void deliver(ChunkOutput[] outputs, int chunks) {
        if (trace != null) {
            EventRouter.deliverTrace(outputs, chunks, trace, traceAgent, explain);
        }
        if (watching()) {
            recorder.keep(outputs, chunks);
        }
    }

    /** Whether the chunks count for the {@link Recorder} in this tick. */
    boolean recording() {
        return recorder != null && recordingTick;
    }

    /** The end of tick {@code tick}: the chunks' counts summed in chunk order, and the totals' growth. */
    void endTick(long tick, ChunkOutput[] outputs, int chunks, EventRouter events) {
        if (!recordingTick) {
            return;
        }
        recordingTick = false;
        recorder.beginTick();
        recorder.add(outputs, chunks, countingAll);
        occupancyDirty = false;
        recorder.endTick(tick, events.failures.total(), events.overflowEvents, events.rejectedTotal());
    }

    /**
     * The value of parameter {@code param} in slot arrays {@code floats}, {@code ints}, {@code bools}
     * at {@code row}, as {@link StateTreeRuntime#parameter} gives it.
     *
     * @throws IllegalArgumentException for a parameter index out of range, naming the parameters
     */
    static double parameter(CompiledStateTree tree, int param, float[][] floats, int[][] ints, byte[][] bools, int row) {
        if (param < 0 || param >= tree.paramCount()) {
            throw new IllegalArgumentException("no parameter " + param + " in tree '" + tree.name + "'; valid are 0.."
                    + (tree.paramCount() - 1) + " " + tree.paramNames().toString());
        }
        int slot = tree.paramSlot(param);
        switch (tree.paramType(param)) {
            case FLOAT:
                return floats[slot][row];
            case INT:
                return ints[slot][row];
            default:
                return bools[slot][row] != 0 ? 1 : 0;
        }
    }
}
