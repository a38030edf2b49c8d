package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;

/**
 * The agents' gates (docs/SEMANTICS.md section 4; rule U4 under {@code "rules": "unreal-5.8"}):
 * one pending gated transition per agent, in the chunk's columns {@code gate} (its gate key + 1,
 * {@link #mine}),
 * {@code gateValue} (the delay drawn) and {@code gateDue} (the step it opens, 0 for at once), with
 * {@link ExecWord#GATE_BIT} in the execution word. An agent whose gate waits on an event or
 * completion transition is looked at every step (the sticky list); one on an onTick transition is
 * always awake anyway.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class Gates {
    private final ChunkBinding st;
    private final Decisions dec;
    private final CompiledStateTree t;
    private final ChunkTimers timers;
    private int streamed;

    Gates(ChunkBinding state, Decisions dec, ChunkTimers timers) {
        this.st = state;
        this.dec = dec;
        this.t = state.t;
        this.timers = timers;
    }

    /** Whether row {@code r}'s gate is armed and still closed. */
    boolean waiting(int r) {
        int due = st.gateDue[r];
        return due != 0 && st.step < due;
    }

    /**
     * Seed rules: row {@code r}'s gate holds transition {@code tr} (its gate: the declared
     * transition's, {@link #mine}), armed now unless it already was.
     */
    void hold(int r, int tr) {
        if (st.gate[r] != mine(tr)) {
            set(r, tr, delay(r, tr));
        }
    }

    /**
     * The {@code gate} column's value for a row whose gate transition {@code tr} holds: its gate
     * key + 1 (the compiled transitions of one declared transition share it,
     * {@code CompiledStateTree.transitionGateKey}).
     */
    short mine(int tr) {
        return (short) (t.transitionGateKey(tr) + 1);
    }

    /**
     * Rule U4: arms gated transition {@code tr} for row {@code r} (no other gate is pending) with its
     * delay, and returns true; false, arming nothing, when the delay drawn is 0 (it fires now).
     */
    boolean arm(int r, int tr) {
        float g = delay(r, tr);
        if (!(g > 0f)) {
            return false;
        }
        set(r, tr, g);
        return true;
    }

    /** Clears row {@code r}'s gate if transition {@code tr} holds it. */
    void cancel(int r, int tr) {
        if (st.gate[r] == mine(tr)) {
            st.clearGate(r);
        }
    }

    /** The gate delay of transition {@code tr} for row {@code r} in this tick (section 4). */
    private float delay(int r, int tr) {
        final ChunkBinding c = st;
        return t.gateDelay(tr, c.seed, c.ids[r], c.tick);
    }

    /** Row {@code r}'s gate now holds transition {@code tr} with delay {@code g}, due at the step it runs out. */
    private void set(int r, int tr, float g) {
        final ChunkBinding c = st;
        c.gate[r] = mine(tr);
        c.exec[r] |= ExecWord.GATE_BIT;
        c.gateValue[r] = g;
        c.gateDue[r] = g > 0f ? timers.dueStep(timers.lastPart(r, c.step), g, c.period) : 0;
        if (t.transitionTrigger(tr) != TRIGGER_TICK) {
            c.cs.addSticky(r - c.base);
        }
    }

    /**
     * Reads the chunk's gate columns front to back. The always-awake order is grouped by state but
     * not by row, so a gated onTick transition's loop reads gates in scattered order; when it covers
     * a good part of the chunk, streaming the columns in first (which the hardware prefetcher does at
     * full bandwidth) turns its misses into cache hits. Once per chunk and tick.
     */
    void stream() {
        final ChunkBinding c = st;
        if (streamed == dec.epoch) {
            return;
        }
        streamed = dec.epoch;
        final short[] g = c.gate;
        final int[] due = c.gateDue;
        long acc = 0;
        for (int r = c.base, end = c.base + c.rows; r < end; r += 16) {
            acc += g[r] + due[r];
        }
        c.sink += acc;
    }
}
