package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.RunStatus;

import java.util.Arrays;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;
import static dev.crowdtree.statetree.exec.ExtraAgents.PERIODS;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_DUE;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_EVENT;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_FIRED;
import static dev.crowdtree.statetree.exec.InstanceData.NEVER;

/**
 * Which agents a chunk's step touches, and keeping its {@link ChunkSchedule} right
 * (docs/SEMANTICS.md section 11, sleeping agents, and section 12, tick periods). Before the step:
 * the extra agents X (due in the timer wheel, with events, sticky, with requests) per period, the
 * always-awake order split by period, X sorted and sliced by state. After it: every agent looked at
 * is re-filed (its awake group, its wake-up step in the wheel, its stickiness, a period switch),
 * and a dirty schedule is rebuilt from the columns.
 *
 * <p>THREADING: confined to its worker.
 */
final class SchedulePhase {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final Decisions dec;
    private final CompiledStateTree t;
    private final InstanceData d;
    private final ChunkEvents events;
    private final ChunkTimers timers;
    private final EventRouter router;
    private final HostRequests requests;

    /**
     * What {@link #splitByPeriod} produces for {@link ChunkRunner#tickChunk}, in chunks with agents
     * of several periods: the always-awake agents taking part in this step by (period, group) in
     * {@link #lodOrder}, each period's group starts in {@link #lodBegin}; and the running agents
     * taking part per period in {@link #evalRows} (their counts in {@link #evalCount}), for the
     * EVERY_TICK evaluators (also {@link #allRunningRows}'s target in chunks without periods).
     */
    int[] lodOrder = new int[0];
    final int[][] lodBegin;
    final int[][] evalRows = new int[PERIODS][0];
    final int[] evalCount = new int[PERIODS];
    // Own scratch: the step's due rows from the wheel, each row's group for a rebuild, the counting
    // sort's histogram and output.
    private int[] popped = new int[0];
    private int[] groupOf = new int[0];
    private final int[] histogram;
    private int[] sorted = new int[0];

    SchedulePhase(ChunkBinding state, ExtraAgents extra, Decisions dec, ChunkEvents events, ChunkTimers timers,
                  EventRouter router, HostRequests requests) {
        this.st = state;
        this.extra = extra;
        this.dec = dec;
        this.t = state.t;
        this.d = state.d;
        this.events = events;
        this.timers = timers;
        this.router = router;
        this.requests = requests;
        this.lodBegin = new int[PERIODS][state.groups + 1];
        this.histogram = new int[state.t.stateCount + 1];
    }

    void ensureCapacity(int n) {
        for (int p = 0; p < PERIODS; p++) {
            evalRows[p] = new int[n];
        }
        lodOrder = new int[n];
        popped = new int[n + 1]; // ChunkSchedule.advance writes one past its last row
        groupOf = new int[n];
        sorted = new int[n];
    }

    /**
     * Step 1: requests, due agents, events, sticky agents and wake-all into X (per period), and
     * events into the per-row lists. Events for agents that do not take part in this step wait: they
     * are carried to the next tick.
     */
    void collect(EventBuffer evs, int evBegin, int evEnd) {
        final ChunkBinding c = st;
        final ChunkSchedule s = c.cs;
        final int b = c.base;
        final long[] exec = c.exec;
        final EventRouter router = this.router;
        drainRequests();
        int np = s.advance(c.step, popped, 0);
        for (int i = 0; i < np; i++) {
            extra.add(popped[i], X_DUE);
        }
        if (evEnd > evBegin) {
            long acc = 0;
            for (int i = evBegin; i < evEnd; i++) {
                acc += exec[router.eventRow(i)]; // independent loads first: see touch
            }
            c.sink += acc;
        }
        for (int i = evBegin; i < evEnd; i++) {
            int r = router.eventRow(i);
            if (c.runOf(r) != RunStatus.RUNNING) {
                continue; // dropped with the tree (Q-A15)
            }
            if (!c.takesPart(r)) {
                c.out.carried.add(c.ids[r], c.generation(r), evs.tag[i], evs.types, evs.bits, i * evs.width);
                continue;
            }
            events.append(r - b, evs.tag[i], evs.types, evs.bits, i * evs.width, true);
            extra.add(r - b, X_EVENT);
        }
        if (s.stickyCount > 0) {
            int kept = 0;
            for (int i = 0; i < s.stickyCount; i++) {
                int l = s.sticky[i];
                int r = b + l;
                if (c.runOf(r) != RunStatus.RUNNING || !sticky(r)) {
                    s.clearFlags(l, ChunkSchedule.STICKY);
                    continue;
                }
                s.sticky[kept++] = (short) l;
                if (c.takesPart(r)) {
                    extra.add(l, (byte) 0);
                }
            }
            s.stickyCount = kept;
        }
        if (s.wakeAll) {
            s.wakeAll = false;
            for (int l = 0, rows = c.rows; l < rows; l++) {
                int r = b + l;
                if (c.runOf(r) == RunStatus.RUNNING && !s.isListed(l) && c.takesPart(r)) {
                    extra.add(l, (byte) 0);
                }
            }
        }
    }

    /**
     * Requests recorded since the last tick, in the lists of the world chunks this chunk covers:
     * tick period changes (the wheel learns the switch step) and parameter wake-ups.
     */
    private void drainRequests() {
        final ChunkBinding c = st;
        final ChunkSchedule s = c.cs;
        final int base = c.base;
        final int rows = c.rows;
        final int step = c.step;
        final int wc = c.world.chunkSize();
        for (int ch = base / wc, last = (base + rows - 1) / wc; ch <= last; ch++) {
            HostRequests.RequestList list = requests.requestList(ch);
            if (list == null || list.size == 0) {
                continue;
            }
            for (int i = 0; i < list.size; i++) {
                int r = list.rows[i];
                int l = r - base;
                if (l < 0 || l >= rows) {
                    continue; // a row beyond the table's end since (it was removed)
                }
                boolean wakeUp = (s.flagsOf(l) & ChunkSchedule.WAKE) != 0;
                s.clearFlags(l, ChunkSchedule.REQUESTED | ChunkSchedule.WAKE);
                if (c.runOf(r) != RunStatus.RUNNING) {
                    continue;
                }
                if (PeriodByte.pending(c.lodOf(r))) {
                    s.schedule(l, wakeStep(r, step));
                }
                if (wakeUp && c.takesPart(r)) {
                    extra.add(l, (byte) 0);
                }
            }
            list.size = 0;
        }
    }

    /** Fills {@code into} with every running row of the chunk (the whole chunk when all run); returns the count. */
    int allRunningRows(int[] into) {
        final ChunkBinding c = st;
        final int base = c.base;
        final int rows = c.rows;
        int n = 0;
        if (c.cs.running == rows) {
            for (int l = 0; l < rows; l++) {
                into[l] = base + l;
            }
            return rows;
        }
        for (int r = base, end = base + rows; r < end; r++) {
            if (c.runOf(r) == RunStatus.RUNNING) {
                into[n++] = r;
            }
        }
        return n;
    }

    /**
     * For chunks with agents of several periods: the always-awake agents taking part in this step by
     * (period, group) into {@link #lodOrder} with {@link #lodBegin}, and the running
     * agents taking part by period into {@link #evalRows} (when EVERY_TICK evaluators need them).
     */
    void splitByPeriod() {
        final ChunkBinding c = st;
        final ChunkSchedule s = c.cs;
        final int groups = c.groups;
        final int[] ord = s.order;
        final int[] gb = s.groupBegin;
        int[][] lb = this.lodBegin;
        for (int p = 0; p < PERIODS; p++) {
            Arrays.fill(lb[p], 0);
        }
        // count (period, group), then prefix over periods-major order, then place
        for (int g = 0; g < groups; g++) {
            for (int i = gb[g]; i < gb[g + 1]; i++) {
                int r = ord[i];
                if (c.takesPart(r)) {
                    lb[PeriodByte.log(c.lodOf(r))][g]++;
                }
            }
        }
        int at = 0;
        for (int p = 0; p < PERIODS; p++) {
            for (int g = 0; g < groups; g++) {
                int n = lb[p][g];
                lb[p][g] = at;
                at += n;
            }
            lb[p][groups] = at;
        }
        final int[] lodOrder = this.lodOrder;
        for (int g = 0; g < groups; g++) {
            for (int i = gb[g]; i < gb[g + 1]; i++) {
                int r = ord[i];
                if (c.takesPart(r)) {
                    lodOrder[lb[PeriodByte.log(c.lodOf(r))][g]++] = r;
                }
            }
        }
        // placing advanced each start to the next group's start: shift back
        for (int p = PERIODS - 1; p >= 0; p--) {
            int[] b = lb[p];
            for (int g = groups - 1; g >= 1; g--) {
                b[g] = b[g - 1];
            }
            b[0] = p == 0 ? 0 : lb[p - 1][groups];
        }
        final int[] evalCount = this.evalCount;
        Arrays.fill(evalCount, 0);
        if (t.everyTickEvaluatorCount() > 0) {
            for (int r = c.base, end = c.base + c.rows; r < end; r++) {
                if (c.runOf(r) == RunStatus.RUNNING && c.takesPart(r)) {
                    int p = PeriodByte.log(c.lodOf(r));
                    evalRows[p][evalCount[p]++] = r;
                }
            }
        }
    }

    /** Sorts rows[0..n) by last active state (counting sort, or insertion sort when short); returns n. */
    int sortByState(int[] rowsToSort, int n) {
        final ChunkBinding c = st;
        if (n <= 32) {
            for (int i = 1; i < n; i++) {
                int r = rowsToSort[i];
                int key = c.stateOf(r);
                int j = i - 1;
                while (j >= 0 && c.stateOf(rowsToSort[j]) > key) {
                    rowsToSort[j + 1] = rowsToSort[j];
                    j--;
                }
                rowsToSort[j + 1] = r;
            }
            return n;
        }
        final int[] h = this.histogram;
        Arrays.fill(h, 0);
        for (int i = 0; i < n; i++) {
            h[c.stateOf(rowsToSort[i])]++; // state + 1 in 1..stateCount: counts land one slot up
        }
        for (int s = 1; s < h.length; s++) {
            h[s] += h[s - 1];
        }
        final int[] sorted = this.sorted;
        for (int i = 0; i < n; i++) {
            int r = rowsToSort[i];
            sorted[h[c.stateOf(r) - 1]++] = r;
        }
        System.arraycopy(sorted, 0, rowsToSort, 0, n);
        return n;
    }

    /**
     * Fills {@link ExtraAgents#stateBegin}: for every state s, the first index in the state-sorted
     * {@code xs[0..n)} whose last active state is >= s, so that the X agents whose path contains s are
     * {@code xs[xBegin[s] .. xBegin[stateSubtreeEnd[s]])}. One sweep over states and X together.
     */
    void sliceX(int[] xs, int n) {
        final ChunkBinding c = st;
        final int[] xb = extra.stateBegin;
        int i = 0;
        for (int s = 0; s <= t.stateCount; s++) {
            while (i < n && c.stateOf(xs[i]) - 1 < s) {
                i++;
            }
            xb[s] = i;
        }
    }

    // ---- re-filing agents: group in the order, wake-up in the wheel, stickiness, period switch ----

    /** Re-files row {@code r}, looked at in this step, in its chunk's schedule. */
    void refile(int r) {
        final ChunkBinding c = st;
        final ChunkSchedule s = c.cs;
        final int l = r - c.base;
        final boolean firedNow = (extra.flags[l] & X_FIRED) != 0;
        if (c.runOf(r) != RunStatus.RUNNING) {
            if (s.isListed(l)) {
                s.remove(l, t.stateAwakeGroup(dec.oldLeaf[l]));
            }
            s.unschedule(l);
            s.running--;
            if (PeriodByte.log(c.lodOf(r)) != 0) {
                s.periodAgents--; // counted among the running agents by the period they ran with
            }
            applyPendingPeriod(r);
            return;
        }
        if (firedNow) {
            int gNew = t.stateAwakeGroup(c.stateOf(r) - 1);
            if (s.isListed(l)) {
                int gOld = t.stateAwakeGroup(dec.oldLeaf[l]);
                if (gNew >= 0) {
                    s.move(l, gOld, gNew);
                } else {
                    s.remove(l, gOld);
                }
            } else if (gNew >= 0) {
                s.insert(l, gNew);
            }
            if (t.tickPeriods.any) {
                c.aimPeriod(r); // rule Z3: the new path's period, at the step aligned to both
            }
        }
        byte lv = c.lodOf(r);
        if (PeriodByte.pending(lv)) {
            int p = PeriodByte.period(lv);
            int q = PeriodByte.pendingPeriod(lv);
            if (((c.step + c.ids[r]) & (Math.max(p, q) - 1)) == 0) {
                switchPeriod(r, p, q);
            }
        }
        s.schedule(l, wakeStep(r, c.step + 1));
        if (sticky(r)) {
            s.addSticky(l);
        }
    }

    /**
     * Whether running row {@code r} must be looked at in every step it takes part in, beyond the
     * always-awake order: its state completed (the scan repeats every tick), a gate is pending on
     * an event or completion transition (re-checked, maybe cancelled, every tick), or a task's
     * transition request waits for the next scan. A gate on an onTick
     * transition needs nothing more: only always-awake agents have one, and the order covers them.
     */
    private boolean sticky(int r) {
        final ChunkBinding c = st;
        return c.lastOf(r) != RunStatus.RUNNING
                || ((c.exec[r] & ExecWord.GATE_BIT) != 0 && t.transitionTrigger(c.gate[r] - 1) != TRIGGER_TICK)
                || (c.request != null && c.request[r] != 0); // a task's request waits for the next scan (rule O3)
    }

    /**
     * The step row {@code r} must next be looked at for its own sake: its earliest running timer on
     * the active path, or the step a requested period takes effect (>= {@code from}); 0 when none.
     */
    private int wakeStep(int r, int from) {
        final ChunkBinding c = st;
        int leaf = c.stateOf(r) - 1;
        int w = NEVER;
        if (leaf >= 0) {
            for (int j = t.statePathTimersBegin(leaf), e = t.statePathTimersBegin(leaf + 1); j < e; j++) {
                int due = d.ints[t.taskTimerDueSlot(t.pathTimerTasks(j))][r];
                if (due != 0 && due < w) {
                    w = due;
                }
            }
        }
        byte lv = c.lodOf(r);
        if (PeriodByte.pending(lv)) {
            int m = Math.max(PeriodByte.period(lv), PeriodByte.pendingPeriod(lv));
            int j = from + ((m - ((from + c.ids[r]) & (m - 1))) & (m - 1));
            w = Math.min(w, j);
        }
        return w == NEVER ? 0 : w;
    }

    /**
     * A tree that no longer runs has no timers to keep exact: a requested period applies at once; in a
     * tree with state tick periods, the LOD period (rule Z2: no path, no state period).
     */
    void applyPendingPeriod(int r) {
        if (st.lod != null) {
            st.setLod(r, st.lod[r]);
            return;
        }
        byte lv = st.lodOf(r);
        if (PeriodByte.pending(lv)) {
            st.setLod(r, PeriodByte.of(PeriodByte.pendingLog(lv)));
        }
    }

    /** Applies row {@code r}'s pending period change at this step: rebases its timers and gate from p to q. */
    private void switchPeriod(int r, int p, int q) {
        final ChunkBinding c = st;
        timers.rebaseRow(r, c.step, p, p * c.timerDt, q, q * c.timerDt);
        c.setLod(r, (byte) Integer.numberOfTrailingZeros(q));
        if (p == 1) {
            c.cs.periodAgents++;
        } else if (q == 1) {
            c.cs.periodAgents--;
        }
    }

    /** Rebuilds the bound chunk's schedule from the columns; the wheel stands at {@code nowStep}. */
    void rebuild(int nowStep) {
        final ChunkBinding c = st;
        final ChunkSchedule s = c.cs;
        final int base = c.base;
        final int rows = c.rows;
        final int[] groupOf = this.groupOf;
        s.clear(base, rows, nowStep);
        for (int l = 0; l < rows; l++) {
            int r = base + l;
            groupOf[l] = -1;
            if (c.runOf(r) == RunStatus.RUNNING) {
                s.running++;
                if (PeriodByte.log(c.lodOf(r)) != 0) {
                    s.periodAgents++;
                }
                int leaf = c.stateOf(r) - 1;
                if (leaf >= 0) {
                    groupOf[l] = t.stateAwakeGroup(leaf);
                }
            } else {
                applyPendingPeriod(r);
            }
        }
        s.buildOrder(groupOf);
        for (int l = 0; l < rows; l++) {
            int r = base + l;
            if (c.runOf(r) == RunStatus.RUNNING) {
                s.schedule(l, wakeStep(r, nowStep + 1));
                if (sticky(r)) {
                    s.addSticky(l);
                }
            }
        }
        s.dirty = false;
    }
}
