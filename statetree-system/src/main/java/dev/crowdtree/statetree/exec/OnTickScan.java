package dev.crowdtree.statetree.exec;

/**
 * Round one of TriggerTransitions for an onTick transition over its state's slice of the
 * always-awake agents, once its conditions' results are in (see {@link TransitionScan}). The loops
 * over the slice have no branch that depends on an agent: which agents pass is unpredictable (a
 * gated transition's condition holds for a quarter of its agents, in no order), and a mispredicted
 * branch per agent cost several times the work. They gather the few agents that need a decision
 * into a list, which is then walked with branches.
 *
 * <p>Allocation: none. THREADING: confined to its worker.
 */
final class OnTickScan {
    private final ChunkBinding st;
    private final Decisions dec;
    private final Gates gates;
    private final TransitionScan scan;
    /** The positions (or rows) that need a decision. */
    private int[] cand = new int[0];

    OnTickScan(ChunkBinding st, Decisions dec, Gates gates, TransitionScan scan) {
        this.st = st;
        this.dec = dec;
        this.gates = gates;
        this.scan = scan;
    }

    void ensureCapacity(int n) {
        cand = new int[n];
    }

    /** Room for the positions of one slice of the always-awake agents, for {@link #ungated}. */
    int[] passed() {
        return cand;
    }

    /**
     * Ungated onTick transition {@code tr} over its slice of {@code aOrder}, the positions of the
     * agents that passed its conditions in {@code passed[0..m)} (see
     * {@link dev.crowdtree.statetree.node.Condition#select}): each undecided one is decided. (Few
     * pass in a tick; a call per agent inside the conditions' loop would keep it from being compiled
     * as a tight loop.)
     */
    void ungated(int tr, int priority, int[] aOrder, int[] passed, int m) {
        final int b = st.base;
        final Decisions dec = this.dec;
        for (int j = 0; j < m; j++) {
            int r = aOrder[passed[j]];
            if (dec.open(r - b, priority)) {
                scan.decide(r, tr, true, false);
            }
        }
    }

    /**
     * {@link #gated} in a tree with priorities: the agents that hold this gate or pass are gathered
     * as there, then each one still open to the transition at {@code priority} ({@link Decisions#open})
     * is decided as the per-agent scan would: a held gate whose condition no longer holds is
     * cancelled, a closed one is found at its priority, an open one fires (rule P1). A row this
     * transition cannot outrank keeps its gate (rule P3).
     */
    void gatedRanked(int tr, int priority, int[] aOrder, int aLo, int aHi, boolean[] ok) {
        final ChunkBinding c = st;
        final int m = gather(tr, aOrder, aLo, aHi, ok);
        final int[] cand = this.cand;
        final int b = c.base;
        final Decisions dec = this.dec;
        for (int j = 0; j < m; j++) {
            int i = cand[j];
            int r = aOrder[i];
            if (dec.open(r - b, priority)) {
                scan.decide(r, tr, ok[i], true);
            }
        }
    }

    /**
     * Gathers in {@link #cand} the positions {@code i} in {@code aLo..aHi-1} whose agent holds
     * transition {@code tr}'s gate or passes ({@code ok[i]}), without a branch per agent; returns
     * how many.
     */
    private int gather(int tr, int[] aOrder, int aLo, int aHi, boolean[] ok) {
        final ChunkBinding c = st;
        final int[] cand = this.cand;
        final short mine = gates.mine(tr);
        final short[] gt = c.gate;
        if (aHi - aLo > c.rows >> 3) {
            gates.stream();
        }
        int m = 0;
        for (int i = aLo; i < aHi; i++) {
            cand[m] = i;
            // (gate == mine) as 0 or 1 without a branch: 0 - 1 is the only difference with the sign bit set
            int holds = (int) ((((gt[aOrder[i]] ^ mine) & 0xFFFFL) - 1) >>> 63);
            m += holds | (ok[i] ? 1 : 0);
        }
        return m;
    }

    /**
     * Gated onTick transition {@code tr} over {@code aOrder[aLo..aHi)}, its conditions' results in
     * {@code ok}: a branch-free loop gathers the positions whose agent holds this gate or passes
     * (unpredictable, so a branch per agent would mispredict for many of them); then per agent, a
     * held gate whose condition no longer holds is cancelled, one still closed blocks the rest of
     * the scan (Q-A5), and the others are decided.
     */
    void gated(int tr, int[] aOrder, int aLo, int aHi, boolean[] ok) {
        final ChunkBinding c = st;
        final int[] cand = this.cand;
        final short mine = gates.mine(tr);
        final short[] gt = c.gate;
        final int m = gather(tr, aOrder, aLo, aHi, ok);
        final int b = c.base;
        final int ep = dec.epoch;
        final int[] stamp = dec.decStamp;
        final int[] gdue = c.gateDue;
        final int now = c.step;
        // Second pass, without a branch for the common case: an agent waiting at its closed gate (it
        // holds it, the condition still holds, the delay has not run out; a due step of 0 opens at
        // once) is decided for this step (Q-A5: it blocks the rest of the scan). The other undecided
        // ones keep their place in cand.
        int n = 0;
        for (int j = 0; j < m; j++) {
            int i = cand[j];
            int r = aOrder[i];
            int l = r - b;
            int holds = (int) ((((gt[r] ^ mine) & 0xFFFFL) - 1) >>> 63);
            int blocked = holds & (ok[i] ? 1 : 0) & ((now - gdue[r]) >>> 31);
            int before = stamp[l];
            int undecided = (int) ((((before ^ ep) & 0xFFFF_FFFFL) - 1) >>> 63) ^ 1;
            stamp[l] = before + ((ep - before) & -blocked);
            cand[n] = i; // n <= j: cand[j] was read
            n += undecided & (blocked ^ 1);
        }
        for (int j = 0; j < n; j++) {
            int i = cand[j];
            int r = aOrder[i];
            if (gt[r] == mine && !ok[i]) {
                c.clearGate(r); // cancelled: the condition no longer holds
                continue;
            }
            scan.decide(r, tr, true, true);
        }
    }
}
