package dev.crowdtree.statetree.exec;

/**
 * The inputs of one call of the {@link Engine} (a tick, a start, a stop) that every chunk reads: the
 * tick number, the step, the host dt and the dt the running timers were derived with, and the
 * observers' switches (phase timing, tracing and its filter, why lines, watched agents, recording).
 * The chunk kernels hand it to {@link ChunkRunner}, whose {@link ChunkBinding#bind} copies what the
 * phases read; nothing in a chunk reads these values anywhere else.
 *
 * <p>Allocation: none; one instance per runtime, rewritten in place. THREADING: written by the
 * simulation thread before the executor runs a phase ({@link #set}, {@link #observe}; {@link #timerDt}
 * also between the timer rebase and the tick of a step with a new dt), read by the workers during it.
 */
final class TickFrame {
    /** The tick number of the call (the host's). */
    long tick;
    /** The runtime's step: for a tick, the step it runs (1, 2, ...); for a start or stop, the last step run. */
    int step;
    /** The host dt of the last tick (a start or stop does not change it). */
    float dt;
    /** The host dt the due steps of running timers were derived with. */
    float timerDt;

    /** Per-sub-phase timing ({@link PhaseTimes}). */
    boolean timing;
    /** Lines are wanted for some rows: a trace sink is set, or agents are watched. */
    boolean tracing;
    /** The trace sink wants why lines ({@code setExplain} while tracing). */
    boolean explainSink;
    /** The why-line bookkeeping is on: {@link #explainSink}, or agents watched. */
    boolean explain;
    /** The watched agents' bits by agent id ({@link Recorder#watchBits}), or null when none is watched. */
    long[] watchBits;
    /** The chunks count for the {@link Recorder}. */
    boolean recording;
    /** With {@link #recording}: every row's occupancy, not only what the transitions changed. */
    boolean countingAll;
    /** The one agent traced, -1 for all, {@link ChunkBinding#NO_AGENT} when no sink is set. */
    int traceAgent = ChunkBinding.NO_AGENT;

    /** The call's tick, step and dts. */
    void set(long tickNumber, int stepNumber, float hostDt, float timersDt) {
        tick = tickNumber;
        step = stepNumber;
        dt = hostDt;
        timerDt = timersDt;
    }

    /** The observers' switches as they are now (after {@link Observers#beginTick} for a tick). */
    void observe(Observers o, boolean timingOn) {
        timing = timingOn;
        watchBits = o.watchBits();
        tracing = o.tracing() || watchBits != null;
        explainSink = o.explaining();
        explain = explainSink || watchBits != null;
        recording = o.recording();
        countingAll = o.countingAll;
        traceAgent = o.tracing() ? o.traceAgent : ChunkBinding.NO_AGENT;
    }
}
