package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;

import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_FAILED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TO_SUCCEEDED;
import static dev.crowdtree.statetree.compiled.CompiledStateTree.TRIGGER_EVENT;
import static dev.crowdtree.statetree.exec.Decisions.RESTART;
import static dev.crowdtree.statetree.exec.ExtraAgents.X_FIRED;

/**
 * Applies the transitions the scan decided, per agent (docs/SEMANTICS.md section 3 step 6 and
 * section 4's restart from the root): consume the firing event, ExitState and EnterState (section 6,
 * with the linked states' parameters), or the terminal outcome; then up to four more rounds with the
 * events sent meanwhile (section 8). Also the ExitState and EnterState of Start and Stop.
 *
 * <p>THREADING: confined to its worker.
 */
final class TransitionApply {
    private final ChunkBinding st;
    private final ExtraAgents extra;
    private final TickStatus ts;
    private final Decisions dec;
    private final NodeFaults faults;
    private final CompiledStateTree t;
    private final InstanceData d;
    private final NodeContext ctx;
    private final ContextControl control;
    private final ChunkEvents events;
    private final AgentScan scan;
    private final GlobalTaskPhase globals;
    /** The tree follows Unreal 5.8's rules (rules U3, U4). */
    private final boolean unreal;
    // Scratch of a path change: the states exited and how.
    private final int[] exited = new int[CompiledStateTree.MAX_DEPTH];
    private final byte[] exitedChange = new byte[CompiledStateTree.MAX_DEPTH];

    TransitionApply(ChunkBinding state, ExtraAgents extra, TickStatus ts, Decisions dec, NodeFaults faults,
                    ChunkEvents events, AgentScan scan, GlobalTaskPhase globals) {
        this.st = state;
        this.extra = extra;
        this.ts = ts;
        this.dec = dec;
        this.faults = faults;
        this.t = state.t;
        this.d = state.d;
        this.ctx = state.ctx;
        this.control = state.control;
        this.events = events;
        this.scan = scan;
        this.globals = globals;
        this.unreal = state.t.unreal.on;
    }

    /** Applies the transitions of the rows the scan fired ({@link Decisions#firedRows}); they join X as fired. */
    void applyFired() {
        final ChunkBinding c = st;
        final int[] firedRows = dec.firedRows;
        final int fired = dec.fired;
        final int base = c.base;
        c.touch(firedRows, 0, fired);
        faults.applying = true;
        for (int i = 0; i < fired; i++) {
            int r = firedRows[i];
            int l = r - base;
            dec.oldLeaf[l] = c.stateOf(r) - 1;
            applyTransitions(r);
            if (c.recording && !c.countingAll) {
                moved(r, dec.oldLeaf[l]); // the Recorder's occupancy, by what changed
            }
            events.carryPending(r);
            extra.add(l, X_FIRED);
        }
        faults.applying = false;
        faults.dropPending();
    }

    /** Applies the transition detected for row {@code r} and up to four more rounds (A4 step 9). */
    private void applyTransitions(int r) {
        final int l = r - st.base;
        int tr = dec.firedTransition[l];
        if (tr == Decisions.GLOBAL_DONE) {
            finishByGlobalTask(r, l);
            return;
        }
        if (tr == Decisions.FAULTED) {
            finishByFault(r);
            return;
        }
        int leaf = dec.nextLeaf[l];
        int changedFrom = unreal ? dec.changedFrom[l] : CompiledStateTree.MAX_DEPTH;
        if (st.explain) {
            whyStatus = dec.whyStatus[l];
            whyDepth = dec.whyDepth[l];
        }
        for (int round = 1; ; round++) {
            if (!fire(r, tr, leaf, changedFrom)) {
                return; // tree finished
            }
            if (st.lastOf(r) == RunStatus.RUNNING || round == StateTreeRuntime.MAX_TRANSITION_ROUNDS) {
                break;
            }
            events.movePendingToE(l);
            long found = scan.triggerScalar(r);
            if (faults.isFaulted(l)) {
                finishByFault(r); // a condition threw (rule R1)
                return;
            }
            if (found == AgentScan.NONE) {
                break;
            }
            tr = ScanResult.transition(found);
            leaf = ScanResult.leaf(found);
            changedFrom = scan.changedFrom();
            if (st.explain) {
                whyStatus = scan.scanCompletion();
                whyDepth = scan.scanCompletedDepth();
            }
        }
        if (st.stateOf(r) == 0) {
            failTree(r);
        }
    }

    /**
     * Fires one transition: consume its event, trace, ExitState, then EnterState or the terminal
     * outcome, the states from depth {@code changedFrom} down exited and entered as changed (rule
     * U3; from the target's depth for a transition that reactivates its target, rule U11). Returns
     * false when the tree finished.
     */
    private boolean fire(int r, int fired, int leaf, int changedFrom) {
        final ChunkBinding c = st;
        final int cur = c.stateOf(r) - 1;
        // rule U4: a delayed transition that fires when its delay ran out consumes no event
        final boolean byArmedGate = Decisions.byArmedGate(fired);
        final int tr = Decisions.withoutGateFlag(fired);
        String why = c.wantsWhy(r) ? explain(r, cur, tr, byArmedGate) : null; // before its event is consumed
        if (c.recording) {
            count(tr, c.ids[r]);
        }
        if (tr >= 0 && t.transitionTrigger(tr) == TRIGGER_EVENT && t.transitionConsumesEvent(tr) && !byArmedGate) {
            events.consumeEvent(r - c.base, tr);
        }
        int byComposite = Decisions.compositeTarget(tr);
        int byRequest = Decisions.requestTarget(tr); // rule O2: a task's request
        if (c.traced(r)) {
            int to = byComposite >= 0 ? byComposite : byRequest;
            c.trace(r, to >= 0 ? TraceFormat.transitionTo(c.tick, t, cur, to) : TraceFormat.transition(c.tick, t, cur, tr));
            if (why != null) {
                c.traceWhy(r, why);
            }
        }
        boolean terminal = tr >= 0 && (t.transitionType(tr) == TO_SUCCEEDED || t.transitionType(tr) == TO_FAILED);
        if (terminal || (tr == RESTART && leaf < 0)) {
            // Terminal transition, or a restart that found no selectable leaf (Q-A9): exit everything.
            byte exitStatus = c.lastOf(r);
            exitState(r, cur, -1, -1, true, exitStatus, CompiledStateTree.MAX_DEPTH);
            c.setState(r, 0);
            finishTree(r, terminal && t.transitionType(tr) == TO_SUCCEEDED ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                    exitStatus, t.globalTaskCount);
            return false;
        }
        int target = tr >= 0 ? t.transitionTarget(tr) : byComposite >= 0 ? byComposite : byRequest >= 0 ? byRequest : 0;
        if (tr >= 0 && t.transitionReactivates(tr)) {
            changedFrom = Math.min(changedFrom, t.stateDepth(target)); // rule U11: the target's branch as changed
        }
        if (leaf == target && cur >= 0 && t.isSiblingLeafMove(cur, target)) {
            exitLeaf(r, cur, target); // the compiled fast path: one leaf out, its sibling in
            enterLeaf(r, target);
        } else {
            exitState(r, cur, target, leaf, false, c.lastOf(r), changedFrom);
            enterState(r, cur, target, leaf, changedFrom);
        }
        if (faults.isFaulted(r - c.base)) {
            finishByFault(r); // an ExitState or EnterState threw (rules R1, R2)
            return false;
        }
        return true;
    }

    /** For the {@link Recorder}: running row {@code r} left state {@code from} for its path now (if it still runs). */
    private void moved(int r, int from) {
        final long[] occupancy = st.out.occupancy;
        occupancy[from]--;
        if (st.runOf(r) == RunStatus.RUNNING) {
            occupancy[st.stateOf(r) - 1]++;
        }
    }

    /** Counts transition {@code tr} (or a special {@code firedTransition} value) of {@code agent} for the {@link Recorder}. */
    private void count(int tr, int agent) {
        ChunkOutput o = st.out;
        if (tr >= 0) {
            Recorder.count(o.fired, o.firedIds, tr, agent);
        } else if (tr == RESTART) {
            o.restarts++;
        } else if (Decisions.requestTarget(tr) >= 0) {
            o.requests++;
        } else {
            o.compositeRules++;
        }
    }

    // With ChunkBinding.explain: the completion the scan that decided the transition being fired ran
    // with, and the depth of its completed state (for its why line).
    private byte whyStatus;
    private int whyDepth;

    /**
     * The {@code why} line (docs/SEMANTICS.md section 10) of transition {@code tr} (or a special
     * {@code firedTransition} value) about to fire for row {@code r} on the path to {@code cur}.
     */
    private String explain(int r, int cur, int tr, boolean byArmedGate) {
        int completed = RunStatus.isCompletion(whyStatus) ? t.ancestorAt(cur, whyDepth) : 0;
        if (tr == RESTART) {
            return TraceFormat.whyRestart(st.tick, t, whyStatus, completed);
        }
        int byComposite = Decisions.compositeTarget(tr);
        if (byComposite >= 0) {
            return TraceFormat.whyComposite(st.tick, t, byComposite, whyStatus, completed);
        }
        int byRequest = Decisions.requestTarget(tr);
        if (byRequest >= 0) {
            return TraceFormat.whyRequest(st.tick, t, byRequest, Decisions.requestPriority(tr));
        }
        String event = null;
        if (t.transitionTrigger(tr) == TRIGGER_EVENT && !byArmedGate) {
            event = events.describe(events.firedEvent(r - st.base, tr));
        }
        return TraceFormat.whyTransition(st.tick, t, tr, event, whyStatus, completed);
    }

    // Scratch of an EnterState: what the tasks reported so far (see enterTasks).
    private byte enterResult;
    private boolean enterSucceeded;
    /** Rule U5: a shallower state completed before a deeper task failed. */
    private boolean enterShallower;
    private int enteredDepth;

    /**
     * EnterState (A10) from the path ending at {@code cur} (-1: empty) to the one ending at
     * {@code leaf}; the states from depth {@code changedFrom} down are entered as changed (rule U3).
     * What the tasks reported becomes row {@code r}'s last tick status, with the depth of the state
     * that completed on enter (a failing task's, else the first succeeding one's;
     * {@link ChunkBinding#setLast(int, byte, int)}).
     */
    void enterState(int r, int cur, int target, int leaf, int changedFrom) {
        final ChunkBinding c = st;
        beginEnter(r);
        final boolean traced = c.traced(r);
        boolean onTarget = false;
        for (int i = 0, at = t.statePathBegin(leaf), len = t.stateDepth(leaf) + 1; i < len; i++) {
            int s = t.pathStates(at + i);
            c.setState(r, (short) (s + 1));
            boolean stays = cur >= 0 && t.stateDepth(cur) >= i && t.isAncestorOrSelf(s, cur);
            boolean wasActive = stays && i < changedFrom;
            onTarget |= s == target;
            byte change = wasActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;
            if ((!wasActive || onTarget) && c.params.declares(s)) {
                c.params.enter(ctx, s, r); // rule X3: before its linked values and tasks
            }
            if (t.stateType(s) == CompiledStateTree.LINKED) {
                c.linked.copy(ctx, s, r);
            }
            if (!wasActive || onTarget) {
                announceEnter(r, s, change, traced);
                // rules V4, V5; U3: a state kept above the target and entered again as changed keeps its event
                if (t.requiredEvents.any && t.requiredEvents.has(s) && (!stays || onTarget)) {
                    events.enterRequired(r, i, s, d.floats, d.ints, d.bools);
                }
                if (!enterTasks(r, s, i, change, target, traced)) {
                    break;
                }
            }
        }
        endEnter(r);
    }

    /**
     * EnterState of leaf {@code s} alone, coming from a sibling leaf, a move the compiler's facts
     * mark as plain ({@link CompiledStateTree#isSiblingLeafMove}): what {@link #enterState} does
     * for that move, without comparing the two paths.
     */
    private void enterLeaf(int r, int s) {
        beginEnter(r);
        st.setState(r, (short) (s + 1));
        final boolean traced = st.traced(r);
        announceEnter(r, s, ChangeType.CHANGED, traced);
        enterTasks(r, s, t.stateDepth(s), ChangeType.CHANGED, s, traced);
        endEnter(r);
    }

    /** The start of an EnterState of row {@code r}: a path change counted, no failed task, the scratch cleared. */
    private void beginEnter(int r) {
        final ChunkBinding c = st;
        final long[] exec = c.exec;
        long e = exec[r] + (1L << ExecWord.CHANGES_SHIFT);
        exec[r] = e;
        if (e >>> ExecWord.CHANGES_SHIFT == 0) {
            c.changes[r]++; // the low 16 bits wrapped
        }
        c.setFailed(r, 0);
        enterResult = RunStatus.RUNNING;
        enterSucceeded = false;
        enterShallower = false;
        enteredDepth = 0;
    }

    /** The end of an EnterState: what the tasks reported becomes row {@code r}'s last tick status. */
    private void endEnter(int r) {
        st.setLast(r, (enterResult == RunStatus.RUNNING && enterSucceeded) || enterShallower ? RunStatus.SUCCEEDED
                : enterResult, enteredDepth);
    }

    /** State {@code s} is entered ({@code change}): its trace line and the Recorder's count. */
    private void announceEnter(int r, int s, byte change, boolean traced) {
        final ChunkBinding c = st;
        if (traced) {
            c.trace(r, TraceFormat.enter(c.tick, t, s, change));
        }
        if (c.recording) {
            Recorder.count(c.out.entered, c.out.enteredIds, s, c.ids[r]); // the Recorder's enters per state
        }
    }

    /**
     * EnterState of the tasks of state {@code s} (at depth {@code i} of the new path, entered as
     * {@code change} for a transition to {@code target}) for row {@code r}, in order, into the
     * scratch; false when one failed or threw (the states below are not entered).
     */
    private boolean enterTasks(int r, int s, int i, byte change, int target, boolean traced) {
        final ChunkBinding c = st;
        control.setChange(change, s, target);
        final boolean all = t.stateCompletionAll(s);
        boolean finishedOnEnter = false;
        for (int k = t.stateTasksBegin(s), end = k + t.stateTasksNum(s); k < end; k++) {
            if (change == ChangeType.CHANGED || t.taskReselect(k)) {
                if (t.taskDoneSlot(k) >= 0) {
                    d.bools[t.taskDoneSlot(k)][r] = 0; // entering: not finished (completion "all", rule U9)
                }
                int entered = faults.enterTask(k, r, "task");
                if (entered == NodeFaults.THREW) {
                    c.setFailed(r, (short) k); // exits stop before the task that threw (rule R1)
                    enterResult = RunStatus.FAILED;
                    enteredDepth = i;
                    return false;
                }
                byte taskStatus = (byte) entered;
                if (!t.taskConsidered(k)) {
                    if (taskStatus != RunStatus.RUNNING && t.taskDoneSlot(k) >= 0) {
                        d.bools[t.taskDoneSlot(k)][r] = 1; // rule U9: completed on enter, not reached again
                    }
                    taskStatus = RunStatus.RUNNING; // a background task never completes its state
                }
                if (traced) {
                    c.trace(r, TraceFormat.taskEnter(c.tick, t, k, taskStatus == RunStatus.FAILED));
                }
                if (taskStatus == RunStatus.FAILED) {
                    c.setFailed(r, (short) (k + 1));
                    enterResult = RunStatus.FAILED;
                    if (unreal && enterSucceeded && enteredDepth < i) {
                        enterShallower = true; // rule U5: the shallowest completed state is the completion
                    } else {
                        enteredDepth = i; // the failing task's state completed
                    }
                    return false;
                }
                if (taskStatus == RunStatus.SUCCEEDED && all) {
                    d.bools[t.taskDoneSlot(k)][r] = 1; // completion "all": finished on enter
                    finishedOnEnter = true;
                    continue;
                }
                if (taskStatus == RunStatus.SUCCEEDED && !enterSucceeded) {
                    enteredDepth = i; // the first state whose task succeeded completed
                }
                enterSucceeded |= taskStatus == RunStatus.SUCCEEDED;
            }
        }
        if (all && finishedOnEnter && !enterSucceeded && t.allCountedDone(s, d.bools, r)) {
            enteredDepth = i; // completion "all": every counted task succeeded on enter
            enterSucceeded = true;
        }
        return true;
    }

    /**
     * ExitState (A11) of the path ending at {@code cur}; {@code all} exits every state as changed
     * (terminal transitions, failed restarts, Stop), as does every state from depth
     * {@code changedFrom} down (rule U3). A history state exited as changed remembers the path below
     * it (rule Y2).
     */
    void exitState(int r, int cur, int target, int leaf, boolean all, byte exitStatus, int changedFrom) {
        if (cur < 0) {
            return;
        }
        final ChunkBinding c = st;
        // rule U4: under unreal-5.8 a pending delay lasts while the state that armed it stays (not changed)
        int gateSource = -1;
        if ((c.exec[r] & ExecWord.GATE_BIT) != 0) {
            if (unreal && !all) {
                gateSource = t.transitionSource(c.gate[r] - 1);
            } else {
                c.clearGate(r);
            }
        }
        final int nextLen = all || leaf < 0 ? 0 : t.stateDepth(leaf) + 1; // the next path, root first
        final int nextAt = all || leaf < 0 ? 0 : t.statePathBegin(leaf);
        final int len = t.stateDepth(cur) + 1;
        final int at = t.statePathBegin(cur);
        int count = 0;
        boolean onTarget = all;
        for (int i = 0; i < len; i++) {
            int s = t.pathStates(at + i);
            int next = i < nextLen ? t.pathStates(nextAt + i) : -1;
            boolean remains = next == s && i < changedFrom;
            if (s == gateSource && !remains) {
                c.clearGate(r);
            }
            onTarget |= next == target && next >= 0;
            if (!remains && t.history.has(s)) {
                // rule Y2: a history state exited as changed remembers the path below it
                d.history[t.history.index(s)][r] = t.history.memoryOf(s, i + 1 < len ? t.pathStates(at + i + 1) : -1, cur);
            }
            if (!remains || onTarget) {
                this.exited[count] = s;
                this.exitedChange[count] = remains ? ChangeType.SUSTAINED : ChangeType.CHANGED;
                count++;
            }
        }
        int failedTask = c.failedOf(r) - 1;
        int threw = faults.taskOf(r - c.base);
        final boolean traced = c.traced(r);
        control.setExitStatus(exitStatus);
        for (int j = count - 1; j >= 0; j--) {
            exitTasks(r, this.exited[j], this.exitedChange[j], target, failedTask, threw, traced);
        }
    }

    /**
     * ExitState of leaf {@code cur} alone, for a move to its sibling {@code target} that the
     * compiler's facts mark as plain ({@link CompiledStateTree#isSiblingLeafMove}): what {@link #exitState} does
     * for that move under the seeds' rules (a pending gate is cleared), without comparing the paths.
     */
    private void exitLeaf(int r, int cur, int target) {
        final ChunkBinding c = st;
        if ((c.exec[r] & ExecWord.GATE_BIT) != 0) {
            c.clearGate(r);
        }
        control.setExitStatus(c.lastOf(r));
        exitTasks(r, cur, ChangeType.CHANGED, target, c.failedOf(r) - 1, faults.taskOf(r - c.base), c.traced(r));
    }

    /**
     * State {@code s} is exited ({@code change}) for a transition to {@code target}: its trace line,
     * then ExitState of its tasks in reverse order, but not of those after {@code failedTask} (the
     * task that failed or threw on enter, -1: none), nor of {@code threw} (rules R1-R3).
     */
    private void exitTasks(int r, int s, byte change, int target, int failedTask, int threw, boolean traced) {
        final ChunkBinding c = st;
        if (traced) {
            c.trace(r, TraceFormat.exit(c.tick, t, s, change));
        }
        control.setChange(change, s, target);
        for (int k = t.stateTasksBegin(s) + t.stateTasksNum(s) - 1; k >= t.stateTasksBegin(s); k--) {
            if ((failedTask < 0 || k <= failedTask) && k != threw
                    && (change == ChangeType.CHANGED || t.taskReselect(k))) {
                control.setCallingTask(k); // a transition request's source (rule O2)
                try {
                    t.task(k).exitState(ctx, r);
                } catch (RuntimeException | StackOverflowError ex) {
                    faults.faultOne(r, "task", t.task(k), k, ex); // rules R2, R3: the exit goes on
                } finally {
                    control.setCallingTask(-1);
                }
                if (traced) {
                    c.trace(r, TraceFormat.taskExit(c.tick, t, k));
                }
            }
        }
    }

    /** The tree failed: no state left on the path. */
    void failTree(int r) {
        finishTree(r, RunStatus.FAILED, RunStatus.FAILED, t.globalTaskCount);
    }

    /**
     * The tree of row {@code r} finishes with {@code outcome}, its states already exited: its first
     * {@code globalTasks} global tasks are exited with {@code exitStatus} as the reason (rule G3),
     * then the outcome is traced.
     */
    void finishTree(int r, byte outcome, byte exitStatus, int globalTasks) {
        if (globalTasks > 0) {
            globals.exit(r, globalTasks, exitStatus);
        }
        st.setRun(r, outcome);
        if (st.traced(r)) {
            st.trace(r, TraceFormat.tree(st.tick, RunStatus.name(outcome)));
        }
    }

    /**
     * A node threw while processing row {@code r} (rule R1): every active state exits (each entered
     * task but the one that threw gets ExitState, reason failed), then the global tasks, and the
     * tree fails.
     */
    void finishByFault(int r) {
        final ChunkBinding c = st;
        exitState(r, c.stateOf(r) - 1, -1, -1, true, RunStatus.FAILED, CompiledStateTree.MAX_DEPTH);
        c.setState(r, 0);
        finishTree(r, RunStatus.FAILED, RunStatus.FAILED, t.globalTaskCount);
    }

    /** A global task finished the tree of row {@code r} in TickTasks (rule G2): every state exits, then the global tasks. */
    private void finishByGlobalTask(int r, int l) {
        final ChunkBinding c = st;
        byte status = ts.globalStatus[l];
        if (c.traced(r)) {
            c.trace(r, TraceFormat.taskCompleted(c.tick, t, ts.doneAt[l], status));
        }
        exitState(r, c.stateOf(r) - 1, -1, -1, true, status, CompiledStateTree.MAX_DEPTH);
        c.setState(r, 0);
        finishTree(r, status, status, t.globalTaskCount);
    }
}
