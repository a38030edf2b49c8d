package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.EventOutbox;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.TimerService;
import dev.crowdtree.statetree.exec.TraceFormat;

import java.util.Arrays;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.GATE_STREAM_BASE;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.GOTO;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.NOT_SET;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_COMPLETED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_TICK;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRY_ENTER;

/**
 * One worker's engine: scratch buffers sized to a chunk, a {@link NodeContext}, and the StateTree
 * algorithms of docs/SEMANTICS.md.
 *
 * <p>Per chunk and tick ({@link #tickChunk}): build each agent's events, count down gates, run the
 * evaluators over the running rows, counting-sort the running rows by active state so that the
 * agents whose path contains state {@code s} form the contiguous slice
 * {@code [offset[s], offset[subtreeEnd[s]])}, tick every task once per slice (root to leaf), detect
 * transitions by scanning states from the highest id down (leaf to root for every agent) with
 * condition kernels over the candidate rows, and finally apply the fired transitions per agent,
 * with up to 4 more scalar rounds. The active path is never stored: it is the parent chain of the
 * last active state, and "is {@code a} on the path" is {@link CompiledStateTree#isAncestorOrSelf}.
 *
 * <p>Per-agent columns use +1 encodings so that a zeroed row is a fresh, not-started instance:
 * {@code state} = last active state + 1 (0: empty path), {@code gate} = gated transition + 1 (0: no
 * gate), {@code failedTask} = EnterState-failed task + 1 (0: invalid, every task accepted).
 *
 * <p>Allocation: none while tracing is off, once the event pool has grown to its high-water mark.
 * THREADING: confined to its worker; a chunk writes only its own rows and its {@link ChunkOutput}.
 */
final class ChunkRunner implements EventOutbox, TimerService {
    private static final byte UNDECIDED = 0, BLOCKED = 1, FIRED = 2;
    /** {@link #firedTransition} value for the restart from root. */
    private static final int RESTART = -2;
    /** Outbox modes: events to self go to E (this tick) or to P (next round / next tick). */
    private static final int TO_E = 0, TO_P = 1;

    private final StateTreeSystem sys;
    private final CompiledStateTree t;
    final NodeContext ctx = new NodeContext();

    // chunk-sized scratch
    private int capacity;
    private int[] running = new int[0];
    private int[] sorted = new int[0];
    private int[] cand = new int[0];
    private boolean[] pass = new boolean[0];
    private boolean[] tmp = new boolean[0];
    private byte[] status = new byte[0];
    private byte[] decision = new byte[0];
    private int[] firedTransition = new int[0];
    private int[] nextLeaf = new int[0];
    /** Rows with a fired transition, in detection order, and their number. */
    private int[] firedRows = new int[0];
    private int fired;
    /** Completed agents / agents with events, in state order, and per-state offsets into them. */
    private int[] doneRows = new int[0];
    private int[] evRows = new int[0];
    private final int[] doneOffset;
    private final int[] evOffset;
    private final int[] offset;
    private final int[] one = new int[1];
    private final boolean[] oneOut = new boolean[1];
    private final int[] chain = new int[CompiledStateTree.MAX_DEPTH];
    private final int[] exited = new int[CompiledStateTree.MAX_DEPTH];
    private final byte[] exitedChange = new byte[CompiledStateTree.MAX_DEPTH];

    // per-row event lists (by local row) over a pooled linked list
    private int[] eHead = new int[0];
    private int[] eTail = new int[0];
    private int[] pHead = new int[0];
    private int[] pTail = new int[0];
    private int[] evTag = new int[64];
    private float[] evPayload = new float[64];
    private boolean[] evHas = new boolean[64];
    private boolean[] evDead = new boolean[64];
    private int[] evNext = new int[64];
    private int evSize;

    // the chunk being processed
    private int base;
    private int outboxMode;
    private ChunkOutput out;
    private boolean tracing;
    private int traceAgent;
    private long tick;
    private short[] colState;
    private byte[] colRun;
    private byte[] colLast;
    private short[] colGate;
    private float[] colGateTime;
    private short[] colFailed;
    private int[] colChanges;
    private int[] ids;

    ChunkRunner(StateTreeSystem sys) {
        this.sys = sys;
        this.t = sys.tree();
        this.offset = new int[t.stateCount + 1];
        this.doneOffset = new int[t.stateCount + 1];
        this.evOffset = new int[t.stateCount + 1];
    }

    /** Sizes scratch for chunks of {@code n} rows (simulation thread, before phases). */
    void ensureCapacity(int n) {
        if (n <= capacity) {
            return;
        }
        capacity = n;
        running = new int[n];
        sorted = new int[n];
        cand = new int[n];
        pass = new boolean[n];
        tmp = new boolean[n];
        status = new byte[n];
        decision = new byte[n];
        firedTransition = new int[n];
        nextLeaf = new int[n];
        firedRows = new int[n];
        doneRows = new int[n];
        evRows = new int[n];
        eHead = new int[n];
        eTail = new int[n];
        pHead = new int[n];
        pTail = new int[n];
        ctx.ensureScratch(t.maxConditionDepth + 1, n);
        ctx.setOutbox(this);
        ctx.setTimers(this);
    }

    /** Binds the columns and the chunk (start of every chunk). */
    private void begin(int chunkBase, int rows, ChunkOutput output, long tickNumber, float dt) {
        base = chunkBase;
        out = output;
        tick = tickNumber;
        tracing = sys.tracing();
        traceAgent = sys.traceAgent();
        colState = sys.colState.data();
        colRun = sys.colRun.data();
        colLast = sys.colLast.data();
        colGate = sys.colGate.data();
        colGateTime = sys.colGateTime.data();
        colFailed = sys.colFailedTask.data();
        colChanges = sys.colChanges.data();
        ids = sys.table().agentIds().data();
        sys.bindSlots(ctx);
        ctx.setTime(sys.seed(), tickNumber, dt);
        ctx.bindStatus(status, chunkBase);
        evSize = 0;
        Arrays.fill(eHead, 0, rows, -1);
        Arrays.fill(pHead, 0, rows, -1);
    }

    // =============================================================================================
    // Tick of one chunk
    // =============================================================================================

    void tickChunk(int chunkBase, int chunkEnd, ChunkOutput output, long tickNumber, float dt,
                   EventBuffer events, int evBegin, int evEnd, long[] phaseNanos) {
        final int rows = chunkEnd - chunkBase;
        long t0 = System.nanoTime();
        begin(chunkBase, rows, output, tickNumber, dt);
        final byte[] run = colRun;
        // Events queued for this tick; dropped for trees that are not running (Q-A15).
        boolean anyEvents = false;
        for (int i = evBegin; i < evEnd; i++) {
            int r = sys.eventRow(i);
            if (run[r] == RunStatus.RUNNING) {
                append(r - chunkBase, events.tag[i], events.payload[i], events.hasPayload[i], true);
                anyEvents = true;
            }
        }
        // One pass: the running rows, their gate countdown (before evaluators, A4 step 5) and the
        // histogram of active states for the counting sort.
        final int[] runRows = running;
        final short[] st = colState;
        final short[] gate = colGate;
        final float[] gateTime = colGateTime;
        final int[] off = offset;
        final byte[] last = colLast;
        final byte[] stat = status;
        final byte[] dec = decision;
        Arrays.fill(off, 0);
        int n = 0;
        int gated = 0;
        int done = 0;
        for (int r = chunkBase; r < chunkEnd; r++) {
            if (run[r] == RunStatus.RUNNING) {
                runRows[n++] = r;
                off[st[r]]++; // state + 1: counts land one slot up, ready for the prefix sum
                if (gate[r] != 0) {
                    gateTime[r] -= dt;
                    gated++;
                }
                byte l = last[r];
                stat[r - chunkBase] = l; // TickTasks status starts as the last status
                dec[r - chunkBase] = UNDECIDED;
                if (l != RunStatus.RUNNING) {
                    done++;
                }
            }
        }
        if (n == 0) {
            return;
        }
        long t1 = System.nanoTime();
        outboxMode = TO_E;
        for (Evaluator e : t.evaluators) {
            e.tick(ctx, runRows, 0, n);
        }
        long t2 = System.nanoTime();
        placeSorted(runRows, n);
        int completed = tickTasks(n, done);
        anyEvents |= evSize > 0; // evaluators and tasks may have sent events to themselves
        long t3 = System.nanoTime();
        fired = 0;
        detectTransitions(n, completed, anyEvents, gated);
        long t4 = System.nanoTime();
        outboxMode = TO_P;
        for (int i = 0; i < fired; i++) {
            int r = firedRows[i];
            applyTransitions(r);
            carryPending(r);
        }
        long t5 = System.nanoTime();
        if (phaseNanos != null) {
            phaseNanos[0] += t1 - t0;
            phaseNanos[1] += t2 - t1;
            phaseNanos[2] += t3 - t2;
            phaseNanos[3] += t4 - t3;
            phaseNanos[4] += t5 - t4;
        }
    }

    /**
     * Second half of the counting sort: {@link #offset} holds the histogram of (state + 1); turns it
     * into start offsets and places the running rows into {@link #sorted} by active state, stably.
     * Afterwards the rows whose path contains state s are {@code sorted[offset[s] .. offset[subtreeEnd[s]])}.
     */
    private void placeSorted(int[] runRows, int n) {
        final int[] off = offset;
        final short[] st = colState;
        for (int s = 1; s < off.length; s++) {
            off[s] += off[s - 1];
        }
        // off[s] = number of rows whose state is < s = where state s starts.
        final int[] out = sorted;
        for (int i = 0; i < n; i++) {
            int r = runRows[i];
            out[off[st[r] - 1]++] = r;
        }
        // Placing advanced off[s-1] to the end of state s-1 = the start of state s; shift back.
        System.arraycopy(off, 0, off, 1, off.length - 1);
        off[0] = 0;
    }

    /**
     * TickTasks for the agents whose last status is RUNNING ({@link #status} was initialized from
     * it, and {@code alreadyDone} agents are not RUNNING): states in ascending id order (root to leaf
     * for every agent), each task over its state's slice; an agent leaves the slices once a task
     * completes it. Then records the completed agents, in state order, in {@link #doneRows}
     * with per-state offsets {@link #doneOffset}. Returns their number.
     */
    private int tickTasks(int n, int alreadyDone) {
        final byte[] last = colLast;
        final byte[] st = status;
        final int b = base;
        int done = alreadyDone;
        final int[] off = offset;
        final short[] end = t.stateSubtreeEnd;
        for (int s = 0; s < t.stateCount; s++) {
            if (!t.stateTicks[s] && t.stateTasksNum[s] == 0) {
                continue;
            }
            int lo = off[s];
            int hi = off[end[s]];
            if (lo == hi) {
                continue;
            }
            for (int k = t.stateTasksBegin[s], kEnd = k + t.stateTasksNum[s]; k < kEnd; k++) {
                Task task = t.tasks[k];
                if (t.taskTimer[k] != TimerKind.NONE) {
                    done += countDownTimers(k, lo, hi);
                }
                if (!task.ticks()) {
                    continue;
                }
                ctx.resetCompletions();
                if (done == 0) {
                    task.tick(ctx, sorted, lo, hi);
                } else {
                    int m = 0;
                    for (int i = lo; i < hi; i++) {
                        int r = sorted[i];
                        if (st[r - b] == RunStatus.RUNNING) {
                            cand[m++] = r;
                        }
                    }
                    if (m == 0) {
                        continue;
                    }
                    task.tick(ctx, cand, 0, m);
                }
                done += ctx.completions();
            }
        }
        // Write the statuses back and list the completed agents in state order.
        final short[] state = colState;
        final int[] dOff = doneOffset;
        Arrays.fill(dOff, 0);
        int d = 0;
        for (int i = 0; i < n; i++) {
            int r = sorted[i];
            byte l = st[r - b];
            last[r] = l;
            if (l != RunStatus.RUNNING) {
                doneRows[d++] = r;
                dOff[state[r]]++;
            }
        }
        for (int s = 1; s < dOff.length; s++) {
            dOff[s] += dOff[s - 1];
        }
        return d;
    }

    /** Literal countdown of task k's timers over the slice's running rows; onTimer for those that ran out. */
    private int countDownTimers(int k, int lo, int hi) {
        final byte[] st = status;
        final int b = base;
        final int[] state = ctx.ints(t.taskTimerDueSlot[k]);
        final boolean seconds = t.taskTimer[k] == TimerKind.SECONDS;
        final float[] remaining = seconds ? ctx.floats(t.taskTimerValueSlot[k]) : null;
        final float dt = ctx.dt();
        int m = 0;
        for (int i = lo; i < hi; i++) {
            int r = sorted[i];
            if (st[r - b] != RunStatus.RUNNING || state[r] == 0) {
                continue;
            }
            boolean out;
            if (seconds) {
                float left = remaining[r] - dt;
                remaining[r] = left;
                out = left <= 0f;
            } else {
                out = --state[r] == 0;
            }
            if (out) {
                state[r] = 0;
                cand[m++] = r;
            }
        }
        if (m == 0) {
            return 0;
        }
        ctx.resetCompletions();
        ctx.setTask(k, t.taskTimer[k]);
        t.tasks[k].onTimer(ctx, cand, 0, m);
        ctx.setTask(-1, TimerKind.NONE);
        return ctx.completions();
    }

    @Override
    public void startTimer(int task, int row, float seconds) {
        ctx.floats(t.taskTimerValueSlot[task])[row] = seconds;
        ctx.ints(t.taskTimerDueSlot[task])[row] = 1;
    }

    @Override
    public void startTickTimer(int task, int row, int ticks) {
        ctx.ints(t.taskTimerDueSlot[task])[row] = ticks;
    }

    /**
     * Round one of TriggerTransitions for the whole chunk: states from the highest id down, so every
     * agent's states are visited leaf to root; per transition, the undecided agents whose trigger
     * matches are tested with the condition kernels; the first transition that passes decides.
     * Candidates of an onTick transition are all agents of the state's slice; those of completion
     * and event transitions come from the (short) lists of completed agents and agents with events,
     * unless the transition is gated and some agent has a pending gate: a gate is cancelled when its
     * transition's trigger stops matching, so then every agent of the slice must be looked at.
     */
    private void detectTransitions(int n, int completed, boolean anyEvents, int gated) {
        final byte[] dec = decision; // reset to UNDECIDED by the first pass of tickChunk
        final int b = base;
        if (anyEvents) {
            listAgentsWithEvents(n);
        }
        final int[] off = offset;
        for (int s = t.stateCount - 1; s >= 0; s--) {
            int num = t.stateTransitionsNum[s];
            if (num == 0) {
                continue;
            }
            int end = t.stateSubtreeEnd[s];
            int lo = off[s];
            int hi = off[end];
            if (lo == hi) {
                continue;
            }
            for (int tr = t.stateTransitionsBegin[s], trEnd = tr + num; tr < trEnd; tr++) {
                byte trig = t.transitionTrigger[tr];
                boolean gatedTr = t.transitionDelay[tr] > 0f || t.transitionDelayVariance[tr] > 0f;
                if (trig == TRIGGER_TICK) {
                    // Every agent of the slice is a candidate: evaluate the conditions over the slice
                    // in place (conditions are pure, so also testing decided agents changes nothing)
                    // and skip the decided ones below, instead of copying the candidates first.
                    testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], sorted, lo, hi, pass);
                    for (int i = lo; i < hi; i++) {
                        int r = sorted[i];
                        if (dec[r - b] == UNDECIDED) {
                            decide(r, tr, pass[i], gatedTr);
                        }
                    }
                    continue;
                }
                int m = 0;
                if (gatedTr && gated > 0) {
                    for (int i = lo; i < hi; i++) {
                        int r = sorted[i];
                        if (dec[r - b] != UNDECIDED) {
                            continue;
                        }
                        if (shouldCheck(tr, r)) {
                            cand[m++] = r;
                        } else {
                            cancelGate(r, tr);
                        }
                    }
                } else if (trig == TRIGGER_EVENT) {
                    for (int i = anyEvents ? evOffset[s] : 0, e = anyEvents ? evOffset[end] : 0; i < e; i++) {
                        int r = evRows[i];
                        if (dec[r - b] == UNDECIDED && shouldCheck(tr, r)) {
                            cand[m++] = r;
                        }
                    }
                } else if (completed > 0) {
                    for (int i = doneOffset[s], e = doneOffset[end]; i < e; i++) {
                        int r = doneRows[i];
                        if (dec[r - b] == UNDECIDED && shouldCheck(tr, r)) {
                            cand[m++] = r;
                        }
                    }
                }
                if (m == 0) {
                    continue;
                }
                testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], cand, 0, m, pass);
                for (int j = 0; j < m; j++) {
                    decide(cand[j], tr, pass[j], gatedTr);
                }
            }
        }
        // Restart from root when a completed state found no transition (A8.5).
        for (int i = 0; i < completed; i++) {
            int r = doneRows[i];
            if (dec[r - b] == UNDECIDED) {
                dec[r - b] = FIRED;
                firedTransition[r - b] = RESTART;
                nextLeaf[r - b] = selectInternal(r, 0);
                firedRows[fired++] = r;
            }
        }
    }

    /** Lists the running agents that have events, in state order, with per-state offsets. */
    private void listAgentsWithEvents(int n) {
        final int[] eOff = evOffset;
        final short[] state = colState;
        final int b = base;
        Arrays.fill(eOff, 0);
        int k = 0;
        for (int i = 0; i < n; i++) {
            int r = sorted[i];
            if (eHead[r - b] >= 0) {
                evRows[k++] = r;
                eOff[state[r]]++;
            }
        }
        for (int s = 1; s < eOff.length; s++) {
            eOff[s] += eOff[s - 1];
        }
    }

    /**
     * Transition {@code tr}'s trigger matched for the undecided row {@code r} and its conditions
     * gave {@code passed}: cancel its gate on failure, otherwise record the decision.
     */
    private void decide(int r, int tr, boolean passed, boolean gatedTr) {
        if (!passed) {
            if (gatedTr) {
                cancelGate(r, tr);
            }
            return;
        }
        int leaf = onPassed(r, tr);
        if (leaf == CONTINUE) {
            return;
        }
        int l = r - base;
        if (leaf == STOP) {
            decision[l] = BLOCKED;
        } else {
            decision[l] = FIRED;
            firedTransition[l] = tr;
            nextLeaf[l] = leaf;
            firedRows[fired++] = r;
        }
    }

    private static final int CONTINUE = -3, STOP = -4, TERMINAL = -5;

    /**
     * Transition {@code tr} passed its trigger and conditions for row {@code r}: handle the gate and
     * the type. Returns the selected leaf, {@link #TERMINAL} for @succeeded/@failed, {@link #STOP}
     * when the scan must stop without a transition (gate waiting, @none), or {@link #CONTINUE} when
     * the target could not be selected.
     */
    private int onPassed(int r, int tr) {
        if (t.transitionDelay[tr] > 0f || t.transitionDelayVariance[tr] > 0f) {
            if (colGate[r] != tr + 1) {
                colGate[r] = (short) (tr + 1);
                float u = CounterRng.uniform(sys.seed(), ids[r], tick, GATE_STREAM_BASE + tr);
                colGateTime[r] = Math.max(0f, t.transitionDelay[tr] + t.transitionDelayVariance[tr] * (2f * u - 1f));
            }
            if (colGateTime[r] > 0f) {
                return STOP;
            }
        }
        switch (t.transitionType[tr]) {
            case GOTO: {
                int leaf = selectInternal(r, t.transitionTarget[tr]);
                return leaf >= 0 ? leaf : CONTINUE;
            }
            case NOT_SET:
                return STOP;
            default:
                return TERMINAL;
        }
    }

    private boolean shouldCheck(int tr, int r) {
        byte trig = t.transitionTrigger[tr];
        byte last = colLast[r];
        if (trig == TRIGGER_TICK) {
            return true;
        }
        if (trig == TRIGGER_EVENT) {
            return hasEvent(r - base, t.transitionEvent[tr]);
        }
        byte completion = last == RunStatus.SUCCEEDED ? TRIGGER_SUCCEEDED : last == RunStatus.FAILED ? TRIGGER_FAILED : 0;
        return (trig & completion) != 0;
    }

    private void cancelGate(int r, int tr) {
        if (colGate[r] == tr + 1) {
            colGate[r] = 0;
            colGateTime[r] = 0f;
        }
    }

    /**
     * ANDs the conditions {@code [begin, begin+num)} over {@code rows[from..to)} into
     * {@code result[from..to)}.
     */
    private void testConditions(int begin, int num, int[] rows, int from, int to, boolean[] result) {
        if (num == 0) {
            Arrays.fill(result, from, to, true);
            return;
        }
        Condition[] conds = t.conditions;
        conds[begin].test(ctx, rows, from, to, result);
        for (int c = begin + 1; c < begin + num; c++) {
            conds[c].test(ctx, rows, from, to, tmp);
            for (int i = from; i < to; i++) {
                result[i] &= tmp[i];
            }
        }
    }

    private boolean enterConditionsPass(int r, int s) {
        int num = t.stateEnterConditionsNum[s];
        if (num == 0) {
            return true;
        }
        one[0] = r;
        testConditions(t.stateEnterConditionsBegin[s], num, one, 0, 1, oneOut);
        return oneOut[0];
    }

    /**
     * SelectState(target) (A5, A6). The kept prefix and the in-between ancestors are not tested
     * (Q-A6), and the resulting path is the parent chain of the selected state, so the result only
     * depends on SelectStateInternal(target). Returns the selected last state, or -1.
     */
    int selectInternal(int r, int s) {
        if (!enterConditionsPass(r, s)) {
            return -1;
        }
        int end = t.stateSubtreeEnd[s];
        if (t.stateSelection[s] == TRY_ENTER || end == s + 1) {
            return s;
        }
        for (int c = s + 1; c < end; c = t.stateSubtreeEnd[c]) {
            int leaf = selectInternal(r, c);
            if (leaf >= 0) {
                return leaf;
            }
        }
        return -1;
    }

    // =============================================================================================
    // Applying transitions (per agent, sparse)
    // =============================================================================================

    /** Applies the transition detected for row {@code r} and up to four more rounds (A4 step 9). */
    private void applyTransitions(int r) {
        final int l = r - base;
        int tr = firedTransition[l];
        int leaf = nextLeaf[l];
        for (int round = 1; ; round++) {
            if (!fire(r, tr, leaf)) {
                return; // tree finished
            }
            if (colLast[r] == RunStatus.RUNNING || round == 5) {
                break;
            }
            movePendingToE(l);
            long found = triggerScalar(r);
            if (found == NONE) {
                break;
            }
            tr = (int) (found >> 32);
            leaf = (int) found;
        }
        if (colState[r] == 0) {
            failTree(r);
        }
    }

    private static final long NONE = Long.MIN_VALUE;

    /**
     * Fires one transition: consume its event, trace, ExitState, then EnterState or the terminal
     * outcome. Returns false when the tree finished.
     */
    private boolean fire(int r, int tr, int leaf) {
        final int cur = colState[r] - 1;
        if (tr >= 0 && t.transitionTrigger[tr] == TRIGGER_EVENT) {
            consumeEvent(r - base, t.transitionEvent[tr]);
        }
        if (traced(r)) {
            trace(r, TraceFormat.transition(tick, t, cur, tr));
        }
        boolean terminal = tr >= 0 && (t.transitionType[tr] == TO_SUCCEEDED || t.transitionType[tr] == TO_FAILED);
        if (terminal || (tr == RESTART && leaf < 0)) {
            // Terminal transition, or a restart that found no selectable leaf (Q-A9): exit everything.
            exitState(r, cur, -1, -1, true);
            colState[r] = 0;
            colRun[r] = terminal && t.transitionType[tr] == TO_SUCCEEDED ? RunStatus.SUCCEEDED : RunStatus.FAILED;
            if (traced(r)) {
                trace(r, TraceFormat.tree(tick, RunStatus.name(colRun[r])));
            }
            return false;
        }
        int target = tr >= 0 ? t.transitionTarget[tr] : 0;
        exitState(r, cur, target, leaf, false);
        colLast[r] = enterState(r, cur, target, leaf);
        return true;
    }

    /** TriggerTransitions for one agent (rounds two to five). Returns (transition << 32 | leaf) or NONE. */
    private long triggerScalar(int r) {
        int cur = colState[r] - 1;
        for (int s = cur; s >= 0; s = t.stateParent[s]) {
            for (int tr = t.stateTransitionsBegin[s], end = tr + t.stateTransitionsNum[s]; tr < end; tr++) {
                boolean ok = shouldCheck(tr, r);
                if (ok) {
                    one[0] = r;
                    testConditions(t.transitionConditionsBegin[tr], t.transitionConditionsNum[tr], one, 0, 1, oneOut);
                    ok = oneOut[0];
                }
                if (!ok) {
                    cancelGate(r, tr);
                    continue;
                }
                int leaf = onPassed(r, tr);
                if (leaf == STOP) {
                    return NONE;
                }
                if (leaf != CONTINUE) {
                    return ((long) tr << 32) | (leaf & 0xFFFFFFFFL);
                }
            }
        }
        if (colLast[r] != RunStatus.RUNNING) {
            return ((long) RESTART << 32) | (selectInternal(r, 0) & 0xFFFFFFFFL);
        }
        return NONE;
    }

    /** Fills {@link #chain} with the path ending at {@code leaf}, root first; returns its length. */
    private int chainOf(int leaf) {
        int len = t.stateDepth[leaf] + 1;
        for (int s = leaf, i = len - 1; i >= 0; s = t.stateParent[s], i--) {
            chain[i] = s;
        }
        return len;
    }

    /** EnterState (A10) from the path ending at {@code cur} (-1: empty) to the one ending at {@code leaf}. */
    byte enterState(int r, int cur, int target, int leaf) {
        colChanges[r]++;
        colFailed[r] = 0;
        byte result = RunStatus.RUNNING;
        boolean succeeded = false;
        boolean onTarget = false;
        int len = chainOf(leaf);
        for (int i = 0; i < len; i++) {
            int s = chain[i];
            colState[r] = (short) (s + 1);
            boolean wasActive = cur >= 0 && t.stateDepth[cur] >= i && t.isAncestorOrSelf(s, cur);
            onTarget |= s == target;
            byte change = wasActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;
            if (t.stateType[s] == CompiledStateTree.LINKED) {
                copyLinkedParameters(r, s);
            }
            if (!wasActive || onTarget) {
                if (traced(r)) {
                    trace(r, TraceFormat.enter(tick, t, s, change));
                }
                ctx.setChange(change, s, target);
                for (int k = t.stateTasksBegin[s], end = k + t.stateTasksNum[s]; k < end; k++) {
                    if (change == ChangeType.CHANGED || t.taskReselect[k]) {
                        if (t.taskTimer[k] != TimerKind.NONE) {
                            ctx.ints(t.taskTimerDueSlot[k])[r] = 0;
                        }
                        ctx.setTask(k, t.taskTimer[k]);
                        byte st = t.tasks[k].enterState(ctx, r);
                        ctx.setTask(-1, TimerKind.NONE);
                        if (traced(r)) {
                            trace(r, TraceFormat.taskEnter(tick, t, k, st == RunStatus.FAILED));
                        }
                        if (st == RunStatus.FAILED) {
                            colFailed[r] = (short) (k + 1);
                            result = RunStatus.FAILED;
                            break;
                        }
                        succeeded |= st == RunStatus.SUCCEEDED;
                    }
                }
                if (result == RunStatus.FAILED) {
                    break;
                }
            }
        }
        return result == RunStatus.RUNNING && succeeded ? RunStatus.SUCCEEDED : result;
    }

    private void copyLinkedParameters(int r, int s) {
        for (int i = t.stateLinkedParamsBegin[s], end = i + t.stateLinkedParamsNum[s]; i < end; i++) {
            ctx.write(t.linkedParamType[i], t.linkedParamSlot[i], r, t.linkedParamValue[i].getDouble(ctx, r));
        }
    }

    /**
     * ExitState (A11) of the path ending at {@code cur}; {@code all} exits every state as changed
     * (terminal transitions, failed restarts, Stop).
     */
    void exitState(int r, int cur, int target, int leaf, boolean all) {
        if (cur < 0) {
            return;
        }
        colGate[r] = 0;
        colGateTime[r] = 0f;
        int len = chainOf(cur);
        int count = 0;
        boolean onTarget = all;
        for (int i = 0; i < len; i++) {
            int s = chain[i];
            int next = all || leaf < 0 || t.stateDepth[leaf] < i ? -1 : t.ancestorAt(leaf, i);
            boolean remains = next == s;
            onTarget |= next == target && next >= 0;
            if (!remains || onTarget) {
                exited[count] = s;
                exitedChange[count] = remains ? ChangeType.SUSTAINED : ChangeType.CHANGED;
                count++;
            }
        }
        int failed = colFailed[r] - 1;
        for (int j = count - 1; j >= 0; j--) {
            int s = exited[j];
            byte change = exitedChange[j];
            if (traced(r)) {
                trace(r, TraceFormat.exit(tick, t, s, change));
            }
            ctx.setChange(change, s, target);
            for (int k = t.stateTasksBegin[s] + t.stateTasksNum[s] - 1; k >= t.stateTasksBegin[s]; k--) {
                if ((failed < 0 || k <= failed) && (change == ChangeType.CHANGED || t.taskReselect[k])) {
                    t.tasks[k].exitState(ctx, r);
                    if (traced(r)) {
                        trace(r, TraceFormat.taskExit(tick, t, k));
                    }
                }
            }
        }
    }

    private void failTree(int r) {
        colRun[r] = RunStatus.FAILED;
        if (traced(r)) {
            trace(r, TraceFormat.tree(tick, "failed"));
        }
    }

    // =============================================================================================
    // Start and Stop of a range of rows (per chunk)
    // =============================================================================================

    /**
     * Start (docs/SEMANTICS.md section 2) for rows {@code rows[0..n)} of the chunk at
     * {@code chunkBase}: stops running trees, starts evaluators and ticks them with dt 0, then
     * selects and enters per agent.
     */
    void startRows(int chunkBase, int chunkRows, int[] rows, int n, ChunkOutput output, long tickNumber) {
        begin(chunkBase, chunkRows, output, tickNumber, 0f);
        outboxMode = TO_P;
        for (int i = 0; i < n; i++) {
            int r = rows[i];
            if (colRun[r] == RunStatus.RUNNING) {
                stopRow(r);
            }
            if (traced(r)) {
                trace(r, TraceFormat.start(tick));
            }
        }
        for (Evaluator e : t.evaluators) {
            e.treeStart(ctx, rows, 0, n);
        }
        for (Evaluator e : t.evaluators) {
            e.tick(ctx, rows, 0, n);
        }
        for (int i = 0; i < n; i++) {
            int r = rows[i];
            colRun[r] = RunStatus.RUNNING;
            colState[r] = 0;
            colLast[r] = RunStatus.UNSET;
            int leaf = selectInternal(r, 0);
            if (leaf >= 0) {
                colLast[r] = enterState(r, -1, 0, leaf);
            }
            if (colState[r] == 0) {
                failTree(r);
            }
            carryPending(r);
        }
    }

    /** Start for every row of a chunk whose tree is {@code UNSET} (never started) or, if {@code all}, every row. */
    void startChunk(int chunkBase, int chunkEnd, boolean all, ChunkOutput output, long tickNumber) {
        int n = 0;
        byte[] run = sys.colRun.data();
        for (int r = chunkBase; r < chunkEnd; r++) {
            if (all || run[r] == RunStatus.UNSET) {
                running[n++] = r;
            }
        }
        if (n > 0) {
            startRows(chunkBase, chunkEnd - chunkBase, running, n, output, tickNumber);
        }
    }

    /** Stop for every running row of a chunk. */
    void stopChunk(int chunkBase, int chunkEnd, ChunkOutput output, long tickNumber) {
        begin(chunkBase, chunkEnd - chunkBase, output, tickNumber, 0f);
        outboxMode = TO_P;
        for (int r = chunkBase; r < chunkEnd; r++) {
            if (colRun[r] == RunStatus.RUNNING) {
                stopRow(r);
            }
        }
    }

    /** Stop (section 7) of one running row; its pending events are dropped with the tree. */
    private void stopRow(int r) {
        exitState(r, colState[r] - 1, -1, -1, true);
        one[0] = r;
        for (Evaluator e : t.evaluators) {
            e.treeStop(ctx, one, 0, 1);
        }
        colRun[r] = RunStatus.STOPPED;
        colState[r] = 0;
        pHead[r - base] = -1;
        if (traced(r)) {
            trace(r, TraceFormat.tree(tick, "stopped"));
        }
    }

    // =============================================================================================
    // Events
    // =============================================================================================

    private void append(int local, int tag, float payload, boolean has, boolean toE) {
        if (evSize == evTag.length) {
            int m = evSize * 2;
            evTag = Arrays.copyOf(evTag, m);
            evPayload = Arrays.copyOf(evPayload, m);
            evHas = Arrays.copyOf(evHas, m);
            evDead = Arrays.copyOf(evDead, m);
            evNext = Arrays.copyOf(evNext, m);
        }
        int e = evSize++;
        evTag[e] = tag;
        evPayload[e] = payload;
        evHas[e] = has;
        evDead[e] = false;
        evNext[e] = -1;
        int[] head = toE ? eHead : pHead;
        int[] tail = toE ? eTail : pTail;
        if (head[local] < 0) {
            head[local] = e;
        } else {
            evNext[tail[local]] = e;
        }
        tail[local] = e;
    }

    private boolean hasEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (evTag[e] == tag && !evDead[e]) {
                return true;
            }
        }
        return false;
    }

    private void consumeEvent(int local, int tag) {
        for (int e = eHead[local]; e >= 0; e = evNext[e]) {
            if (evTag[e] == tag && !evDead[e]) {
                evDead[e] = true;
                return;
            }
        }
    }

    private void movePendingToE(int local) {
        int p = pHead[local];
        if (p < 0) {
            return;
        }
        if (eHead[local] < 0) {
            eHead[local] = p;
        } else {
            evNext[eTail[local]] = p;
        }
        eTail[local] = pTail[local];
        pHead[local] = -1;
    }

    /** Events sent during the last ExitState/EnterState wait for the agent's next tick. */
    private void carryPending(int r) {
        int local = r - base;
        for (int e = pHead[local]; e >= 0; e = evNext[e]) {
            out.carried.add(ids[r], evTag[e], evPayload[e], evHas[e]);
        }
        pHead[local] = -1;
    }

    @Override
    public void sendToSelf(int row, int tag, float payload, boolean hasPayload) {
        append(row - base, tag, payload, hasPayload, outboxMode == TO_E);
    }

    @Override
    public void sendToAgent(int agentId, int tag, float payload, boolean hasPayload) {
        out.toOthers.add(agentId, tag, payload, hasPayload);
    }

    /** Whether lines of row {@code r} are wanted (tracing on, and no filter or this agent). */
    private boolean traced(int r) {
        return tracing && (traceAgent < 0 || ids[r] == traceAgent);
    }

    private void trace(int r, String line) {
        out.traceAgents.add(ids[r]);
        out.traceLines.add(line);
    }
}
