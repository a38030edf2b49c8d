package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.exec.TraceSink;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.EventOutbox;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.TimerService;
import dev.crowdtree.statetree.node.ValueInput;

import dev.crowdtree.statetree.exec.Countdown;
import dev.crowdtree.statetree.node.Evaluator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The per-agent reference interpreter: the oracle the batched runtime is differentially tested
 * against. It is written straight from Unreal's {@code FStateTreeExecutionContext} (seed 000:
 * {@code Start}, {@code Tick}, {@code SelectState}, {@code SelectStateInternal},
 * {@code TriggerTransitions}, {@code EnterState}, {@code ExitState}) with the deviations of
 * docs/SEMANTICS.md, and keeps the seed's structure and names so the two can be read side by side.
 * It is deliberately simple and slow: one {@link ExecutionState} per agent, nodes called with
 * one-row batches, no batching, no sorting, no caching.
 *
 * <p>Independence from the batched runtime is the point: the core algorithm compares explicit path
 * arrays element by element ({@code IndexOfReverse}, {@code GetStateSafe}) and walks
 * {@code stateParent}, exactly like the seed, and never uses the DFS-range shortcuts of
 * {@link CompiledStateTree} ({@code isAncestorOrSelf}, {@code ancestorAt}).
 *
 * <p>Events (SEMANTICS.md section 8): each agent has a queue ({@code InstanceData.GetEvents()}) and
 * the {@code EventsToProcess} list of the tick being run. Events an agent sends to itself go to
 * {@code EventsToProcess} during evaluator and task ticks, to a per-round list during
 * ExitState/EnterState (appended to {@code EventsToProcess} at the next round, or queued for the
 * next tick), and to the queue during Start and Stop. Events sent to other agents are collected and
 * delivered to the targets' queues after the whole {@link #startAll}, {@link #tickAll} or
 * {@link #stop} call, in sender order then send order; sends to agent ids out of range are dropped.
 *
 * <p>THREADING: single-threaded; call from one thread.
 */
public final class ReferenceInterpreter implements StateTreeRuntime {
    /** Unreal's {@code MaxIterations}: transition rounds per tick. */
    static final int MAX_ITERATIONS = 5;
    /** {@code INDEX_NONE}. */
    static final int INDEX_NONE = -1;
    /** Invalid state handle / transition index. */
    static final int INVALID = CompiledStateTree.INVALID;
    /** {@code FStateTreeStateHandle::Succeeded}: a pseudo-state, never a real index. */
    static final short SUCCEEDED_HANDLE = -2;
    /** {@code FStateTreeStateHandle::Failed}: a pseudo-state, never a real index. */
    static final short FAILED_HANDLE = -3;
    /**
     * {@code FStateTreeIndex16::Invalid} as a task index: the largest 16-bit value, so that
     * {@code TaskIndex <= EnterStateFailedTaskIndex} accepts every task ("This will make all tasks
     * to be accepted").
     */
    static final int INVALID_TASK_INDEX = 0xFFFF;

    /** Where an event an agent sends to itself goes (SEMANTICS.md section 8). */
    private static final int WINDOW_QUEUE = 0;
    private static final int WINDOW_EVENTS_TO_PROCESS = 1;
    private static final int WINDOW_ENTER_EXIT = 2;

    private final CompiledStateTree tree;
    private final int agents;
    private final long seed;
    private final ExecutionState[] execs;

    // Node instance data: one array per slot, indexed by agent (row == agent index).
    private final float[][] floats;
    private final int[][] ints;
    private final byte[][] bools;
    private final int[] agentIds;

    private final NodeContext ctx = new NodeContext();
    private final int[] rows = new int[1];
    private final boolean[] conditionResult = new boolean[1];
    private final byte[] taskStatus = new byte[1];

    /** Events sent to other agents during the current API call, delivered at its end. */
    private final List<Outgoing> outgoing = new ArrayList<>();

    private TraceSink sink;
    // The agent being run and its time, for the outbox and traces.
    private int agent;
    private long tick;
    private int selfEventWindow = WINDOW_QUEUE;

    /** How the interpreter decides which agents to tick (docs/SEMANTICS.md section 11). */
    public enum TickMode {
        /** Every running agent every tick, as Unreal before 5.6. */
        EVERY_TICK,
        /** Unreal 5.6's scheduled tick: after each tick an agent may sleep until its next wake-up. */
        SCHEDULED
    }

    private final TickMode tickMode;
    private int awakeLastTick;
    /** Steps run so far (tickAll calls), and the dt of the last one. */
    private int step;
    private float lastDt = Float.NaN;

    /**
     * @param tree   the compiled tree
     * @param agents number of agents (ids {@code 0 .. agents-1})
     * @param seed   simulation seed for every random draw
     */
    public ReferenceInterpreter(CompiledStateTree tree, int agents, long seed) {
        this(tree, agents, seed, TickMode.EVERY_TICK);
    }

    /** An interpreter with the given tick mode; results are the same in both modes. */
    public ReferenceInterpreter(CompiledStateTree tree, int agents, long seed, TickMode tickMode) {
        this.tickMode = tickMode;
        if (agents < 0) {
            throw new IllegalArgumentException("agents must be >= 0, got " + agents);
        }
        if (tickMode == TickMode.SCHEDULED) {
            awake = new int[agents];
            for (int a = 0; a < agents; a++) {
                awake[a] = a; // everyone is awake until its first tick decides otherwise
            }
            awakeCount = agents;
        }
        this.tree = tree;
        this.agents = agents;
        this.seed = seed;
        this.execs = new ExecutionState[agents];
        for (int a = 0; a < agents; a++) {
            execs[a] = new ExecutionState();
        }
        this.floats = new float[tree.floatSlots][agents];
        this.ints = new int[tree.intSlots][agents];
        this.bools = new byte[tree.boolSlots][agents];
        this.agentIds = new int[agents];
        for (int a = 0; a < agents; a++) {
            agentIds[a] = a;
        }
        ctx.bindSlots(floats, ints, bools, agentIds);
        for (int p = 0; p < tree.paramName.length; p++) {
            for (int a = 0; a < agents; a++) {
                ctx.write(tree.paramType[p], tree.paramSlot[p], a, tree.paramDefault[p]);
            }
        }
        ctx.setOutbox(new Outbox());
        ctx.setTimers(new Timers());
        ctx.ensureScratch(tree.maxConditionDepth, 1);
    }

    /** An event on its way to another agent. */
    private record Outgoing(int target, Event event) {
    }

    /** {@link ExecutionState#sleepUntil} of an agent that sleeps until an event or a request wakes it. */
    static final int SLEEP_FOREVER = Integer.MAX_VALUE;

    // =============================================================================================
    // StateTreeRuntime
    // =============================================================================================

    @Override
    public CompiledStateTree tree() {
        return tree;
    }

    @Override
    public int agentCount() {
        return agents;
    }

    @Override
    public void startAll(long tickNumber) {
        for (int a = 0; a < agents; a++) {
            bindAgent(a, tickNumber, 0f);
            start(execs[a]);
            ExecutionState exec = execs[a];
            exec.lastStep = step - ((step + a) & ((1 << exec.periodLog) - 1)); // its last step at or before now
            decideSleep(a, exec, lastDt);
        }
        deliverOutgoing();
    }

    @Override
    public void tickAll(long tickNumber, float dt) {
        step++;
        awakeLastTick = 0;
        if (tickMode == TickMode.SCHEDULED && Float.floatToIntBits(dt) != Float.floatToIntBits(lastDt)) {
            // Sleepers chose their wake-up step for the old dt: wake them all (they catch up first).
            for (int a = 0; a < agents; a++) {
                wakeUp(a);
            }
        }
        lastDt = dt;
        if (tickMode == TickMode.EVERY_TICK) {
            for (int a = 0; a < agents; a++) {
                tickAgent(a, tickNumber, dt);
            }
        } else {
            tickScheduled(tickNumber, dt);
        }
        deliverOutgoing();
    }

    /** One agent's tick at this step, if it takes part (SEMANTICS.md section 12). */
    private void tickAgent(int a, long tickNumber, float dt) {
        ExecutionState exec = execs[a];
        int period = 1 << exec.periodLog;
        if (((step + a) & (period - 1)) != 0) {
            return; // not its step: nothing happens, its events wait
        }
        float agentDt = period * dt;
        bindAgent(a, tickNumber, agentDt);
        if (exec.treeRunStatus == RunStatus.RUNNING) {
            awakeLastTick++;
        }
        tick(exec, agentDt);
        exec.lastStep = step;
        switchPeriodIfDue(exec, a);
        exec.applyPeriodIfNotRunning();
    }

    /** A requested period takes effect at a step aligned to both periods, after that step ran. */
    private void switchPeriodIfDue(ExecutionState exec, int a) {
        if (exec.pendingLog >= 0) {
            int m = 1 << Math.max(exec.periodLog, exec.pendingLog);
            if (((step + a) & (m - 1)) == 0) {
                exec.periodLog = exec.pendingLog;
                exec.pendingLog = -1;
            }
        }
    }

    /** The tick mode this interpreter was created with. */
    public TickMode tickMode() {
        return tickMode;
    }

    @Override
    public void setTickPeriod(int agentId, int period) {
        if (period < 1 || period > MAX_TICK_PERIOD || Integer.bitCount(period) != 1) {
            throw new IllegalArgumentException("tick period " + period + (agentId >= 0 ? " for agent " + agentId : "")
                    + " is not valid; valid periods are 1, 2, 4, 8, 16, 32, " + MAX_TICK_PERIOD);
        }
        int log = Integer.numberOfTrailingZeros(period);
        if (agentId == ALL) {
            for (int a = 0; a < agents; a++) {
                requestPeriod(a, log);
            }
        } else {
            checkAgent(agentId);
            requestPeriod(agentId, log);
        }
    }

    private void requestPeriod(int a, int log) {
        ExecutionState exec = execs[a];
        if (exec.treeRunStatus != RunStatus.RUNNING) {
            exec.periodLog = log; // nothing to keep exact: at once
            exec.pendingLog = -1;
            return;
        }
        exec.pendingLog = log == exec.periodLog ? -1 : log;
        if (exec.pendingLog >= 0 && exec.sleepUntil != 0) {
            sleepUntil(a, exec, Math.min(exec.sleepUntil, switchStep(exec, a, step + 1)));
        }
    }

    /** The first step at or after {@code from} aligned to both the current and the requested period. */
    private static int switchStep(ExecutionState exec, int a, int from) {
        int m = 1 << Math.max(exec.periodLog, exec.pendingLog);
        return from + ((m - ((from + a) & (m - 1))) & (m - 1));
    }

    @Override
    public int tickPeriod(int agentId) {
        checkAgent(agentId);
        return 1 << execs[agentId].periodLog;
    }

    @Override
    public int awakeLastTick() {
        return awakeLastTick;
    }

    // ---- the scheduled tick (SEMANTICS.md section 11) ------------------------------------------

    /** Sleeping agents by wake-up step ({@code step << 32 | agent}); stale entries are skipped. */
    private final PriorityQueue<Long> wakeQueue = new PriorityQueue<>();
    /** Awake agents in ascending order, and those woken since the last tick. */
    private int[] awake = new int[0];
    private int awakeCount;
    private final List<Integer> woken = new ArrayList<>();

    private void tickScheduled(long tickNumber, float dt) {
        while (!wakeQueue.isEmpty() && (int) (wakeQueue.peek() >>> 32) <= step) {
            long e = wakeQueue.poll();
            int a = (int) e;
            if (execs[a].sleepUntil == (int) (e >>> 32)) {
                wakeUp(a);
            }
        }
        // this tick's awake agents, ascending: those awake before, and those woken since
        int[] run = Arrays.copyOf(awake, awakeCount + woken.size());
        int n = awakeCount;
        for (int a : woken) {
            run[n++] = a;
        }
        woken.clear();
        Arrays.sort(run, 0, n);
        awakeCount = 0;
        boolean everyTickEvaluators = tree.evaluatorsEveryTick.length > 0;
        int next = 0;
        for (int a = 0; a < agents; a++) {
            boolean isAwake = next < n && run[next] == a;
            if (isAwake) {
                while (next < n && run[next] == a) {
                    next++; // (an agent woken twice is listed twice)
                }
                ExecutionState exec = execs[a];
                catchUp(a, exec);
                tickAgent(a, tickNumber, dt);
                if (decideSleep(a, exec, dt) == 0) {
                    keepAwake(a);
                }
            } else if (everyTickEvaluators) {
                tickAsleep(a, tickNumber, dt);
            } else if (next < n) {
                a = run[next] - 1; // skip the sleepers
            } else {
                break;
            }
        }
    }

    private void keepAwake(int a) {
        if (awakeCount == awake.length) {
            awake = Arrays.copyOf(awake, Math.max(16, awakeCount * 2));
        }
        awake[awakeCount++] = a;
    }

    /**
     * A sleeping agent at a step it takes part in: only its EVERY_TICK evaluators run. If one of them
     * sent the agent an event, the agent wakes in this very tick and runs the rest of it.
     */
    private void tickAsleep(int a, long tickNumber, float dt) {
        ExecutionState exec = execs[a];
        int period = 1 << exec.periodLog;
        if (((step + a) & (period - 1)) != 0 || exec.treeRunStatus != RunStatus.RUNNING) {
            return;
        }
        float agentDt = period * dt;
        bindAgent(a, tickNumber, agentDt);
        exec.eventsToProcess.clear();
        selfEventWindow = WINDOW_EVENTS_TO_PROCESS;
        tickEvaluators(agentDt, tree.evaluatorsEveryTick);
        if (exec.eventsToProcess.isEmpty()) {
            return; // still asleep: this step counts among those its timers catch up on
        }
        catchUp(a, exec);
        tickEvaluators(agentDt, tree.evaluatorsWhenAwake);
        awakeLastTick++;
        tickAfterEvaluators(exec, agentDt);
        exec.lastStep = step;
        switchPeriodIfDue(exec, a);
        exec.applyPeriodIfNotRunning();
        decideSleep(a, exec, dt); // awake again: listed for the next tick by stayAwake
    }

    /**
     * After an agent ran at this step (or started): it sleeps when nothing in its next tick could be
     * observed (SEMANTICS.md section 11), until the step its first timer runs out or its requested
     * period takes effect. Returns its {@code sleepUntil} (0: awake).
     */
    private int decideSleep(int a, ExecutionState exec, float dt) {
        if (tickMode != TickMode.SCHEDULED) {
            return 0;
        }
        if (!(dt > 0f)) {
            return stayAwake(a, exec); // before the first tick the dt of the coming steps is unknown
        }
        if (exec.treeRunStatus != RunStatus.RUNNING) {
            return sleepUntil(a, exec, SLEEP_FOREVER); // nothing to do until an event or a start
        }
        if (exec.lastTickStatus != RunStatus.RUNNING || exec.gatedTransitionIndex != INVALID
                || !exec.events.isEmpty() || exec.activeStates.isEmpty()
                || tree.stateAlwaysAwake[exec.activeStates.last()]) {
            return stayAwake(a, exec);
        }
        int period = 1 << exec.periodLog;
        float agentDt = period * dt;
        long wake = exec.pendingLog >= 0 ? switchStep(exec, a, exec.lastStep + 1) : Long.MAX_VALUE;
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            int tasksBegin = tree.stateTasksBegin[state];
            for (int k = tasksBegin; k < tasksBegin + tree.stateTasksNum[state]; k++) {
                long ticks = timerTicksLeft(a, k, agentDt);
                if (ticks != Countdown.NEVER) {
                    wake = Math.min(wake, exec.lastStep + ticks * period);
                }
            }
        }
        exec.sleptDt = dt;
        return sleepUntil(a, exec, wake >= SLEEP_FOREVER ? SLEEP_FOREVER : (int) wake);
    }

    /** Keeps (or makes) the agent awake; one that was asleep joins the next tick's awake agents. */
    private int stayAwake(int a, ExecutionState exec) {
        if (exec.sleepUntil != 0) {
            exec.sleepUntil = 0;
            woken.add(a);
        }
        return 0;
    }

    private int sleepUntil(int a, ExecutionState exec, int wakeStep) {
        exec.sleepUntil = wakeStep;
        if (wakeStep != SLEEP_FOREVER) {
            wakeQueue.add(((long) wakeStep << 32) | a);
        }
        return wakeStep;
    }

    /** Wakes a sleeping agent: it runs at its next step (something happened, or its time came). */
    private void wakeUp(int a) {
        if (tickMode == TickMode.SCHEDULED && execs[a].sleepUntil != 0) {
            execs[a].sleepUntil = 0;
            woken.add(a);
        }
    }

    /** The ticks (of the agent) task {@code k}'s running timer needs to run out, or NEVER. */
    private long timerTicksLeft(int a, int k, float agentDt) {
        TimerKind kind = tree.taskTimer[k];
        if (kind == TimerKind.NONE || ints[tree.taskTimerDueSlot[k]][a] == 0) {
            return Countdown.NEVER;
        }
        if (kind == TimerKind.TICKS) {
            return ints[tree.taskTimerDueSlot[k]][a];
        }
        return Countdown.steps(floats[tree.taskTimerValueSlot[k]][a], agentDt);
    }

    /**
     * A sleeping agent about to run again: its timers count down the steps it slept through, as a
     * plain tick would have (TickTasks reaches every task of a sleeping agent at each of its steps).
     */
    private void catchUp(int a, ExecutionState exec) {
        int period = 1 << exec.periodLog;
        if (exec.treeRunStatus != RunStatus.RUNNING || ((step + a) & (period - 1)) != 0) {
            return; // not running, or not its step: it catches up at its next step
        }
        // lastStep and this step are both its steps (its period did not change while it slept)
        long skipped = (step - exec.lastStep) / period - 1;
        if (skipped <= 0) {
            return;
        }
        float agentDt = period * exec.sleptDt;
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            int tasksBegin = tree.stateTasksBegin[state];
            for (int k = tasksBegin; k < tasksBegin + tree.stateTasksNum[state]; k++) {
                TimerKind kind = tree.taskTimer[k];
                if (kind == TimerKind.NONE || ints[tree.taskTimerDueSlot[k]][a] == 0) {
                    continue;
                }
                if (kind == TimerKind.TICKS) {
                    ints[tree.taskTimerDueSlot[k]][a] -= (int) skipped;
                } else {
                    float[] remaining = floats[tree.taskTimerValueSlot[k]];
                    remaining[a] = Countdown.after(remaining[a], agentDt, skipped);
                }
            }
        }
        exec.lastStep = step - period; // caught up to its previous step
    }

    @Override
    public void stop(int agentId, long tickNumber) {
        if (agentId == ALL) {
            for (int a = 0; a < agents; a++) {
                bindAgent(a, tickNumber, 0f);
                stop(execs[a]);
            }
        } else {
            checkAgent(agentId);
            bindAgent(agentId, tickNumber, 0f);
            stop(execs[agentId]);
        }
        deliverOutgoing();
    }

    @Override
    public void setParameter(int agentId, String name, double value) {
        int p = tree.requireParam(name);
        if (agentId == ALL) {
            for (int a = 0; a < agents; a++) {
                ctx.write(tree.paramType[p], tree.paramSlot[p], a, value);
                wakeUp(a);
            }
        } else {
            checkAgent(agentId);
            ctx.write(tree.paramType[p], tree.paramSlot[p], agentId, value);
            wakeUp(agentId);
        }
    }

    @Override
    public void sendEvent(int agentId, String tag, float payload, boolean hasPayload) {
        Event e = new Event(tree.tagId(tag), payload, hasPayload);
        if (agentId == ALL) {
            for (int a = 0; a < agents; a++) {
                execs[a].events.add(e);
                wakeUp(a);
            }
        } else {
            checkAgent(agentId);
            execs[agentId].events.add(e);
            wakeUp(agentId);
        }
    }

    @Override
    public void setTrace(TraceSink traceSink) {
        this.sink = traceSink;
    }

    @Override
    public byte treeStatus(int agentId) {
        checkAgent(agentId);
        return execs[agentId].treeRunStatus;
    }

    @Override
    public String activePath(int agentId) {
        checkAgent(agentId);
        ActiveStates active = execs[agentId].activeStates;
        return active.isEmpty() ? "" : tree.statePath[active.last()];
    }

    @Override
    public void close() {
        // nothing to release
    }

    // ---- introspection for tests ----------------------------------------------------------------

    byte lastTickStatus(int agentId) {
        return execs[agentId].lastTickStatus;
    }

    int gatedTransitionIndex(int agentId) {
        return execs[agentId].gatedTransitionIndex;
    }

    float gatedTransitionTime(int agentId) {
        return execs[agentId].gatedTransitionTime;
    }

    public int stateChangeCount(int agentId) {
        return execs[agentId].stateChangeCount;
    }

    int enterStateFailedTaskIndex(int agentId) {
        return execs[agentId].enterStateFailedTaskIndex;
    }

    /** The agent's float slot value (parameters, evaluator outputs, task fields). */
    float floatSlot(int slot, int agentId) {
        return floats[slot][agentId];
    }

    /** Events queued for the agent's next tick. */
    int queuedEvents(int agentId) {
        return execs[agentId].events.size();
    }

    // =============================================================================================
    // Start (SEMANTICS.md section 2, seed FStateTreeExecutionContext::Start)
    // =============================================================================================

    private void start(ExecutionState exec) {
        selfEventWindow = WINDOW_QUEUE; // events sent during Start are seen at tick 1
        // If a tree is running, stop it first.
        if (exec.treeRunStatus == RunStatus.RUNNING) {
            stop(exec);
        }
        trace(TraceFormat.start(tick));

        startEvaluators();
        tickEvaluators(0f);

        exec.treeRunStatus = RunStatus.RUNNING;
        exec.activeStates.reset();
        exec.lastTickStatus = RunStatus.UNSET;

        final int rootState = 0;
        TransitionResult transition = new TransitionResult();
        if (selectState(exec, rootState, transition.nextActiveStates)) {
            // Enter state can fail or succeed; that is handled by the next Tick.
            transition.targetState = rootState;
            transition.currentActiveStates.copyFrom(exec.activeStates);
            exec.lastTickStatus = enterState(exec, transition);
        }

        if (exec.activeStates.isEmpty()) {
            // "Failed to select initial state ... check that the StateTree logic can always select a state at start."
            exec.treeRunStatus = RunStatus.FAILED;
            trace(TraceFormat.tree(tick, "failed"));
        }
    }

    // =============================================================================================
    // Tick (SEMANTICS.md section 3, seed FStateTreeExecutionContext::Tick)
    // =============================================================================================

    private void tick(ExecutionState exec, float deltaTime) {
        // Events queued since the last tick become this tick's EventsToProcess.
        exec.eventsToProcess.clear();
        exec.eventsToProcess.addAll(exec.events);
        exec.events.clear();

        if (exec.treeRunStatus != RunStatus.RUNNING) {
            exec.eventsToProcess.clear(); // Q-A15: events reaching a tree that is not running are dropped
            return;
        }

        if (exec.gatedTransitionIndex != INVALID) {
            exec.gatedTransitionTime -= deltaTime;
        }

        // Events sent by evaluators and tasks during their tick are seen by this tick's transitions.
        selfEventWindow = WINDOW_EVENTS_TO_PROCESS;
        tickEvaluators(deltaTime);
        tickAfterEvaluators(exec, deltaTime);
    }

    /** Tick steps 5 to 8 (SEMANTICS.md section 3): TickTasks and the transition rounds. */
    private void tickAfterEvaluators(ExecutionState exec, float deltaTime) {
        if (exec.lastTickStatus == RunStatus.RUNNING) {
            exec.lastTickStatus = tickTasks(exec, deltaTime);
        }

        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            if (iter > 0) {
                // Events sent during the previous round's ExitState/EnterState.
                exec.eventsToProcess.addAll(exec.enterExitEvents);
                exec.enterExitEvents.clear();
            }
            TransitionResult transition = new TransitionResult();
            boolean fired = triggerTransitions(exec, transition);
            if (fired) {
                int t = transition.transitionIndex;
                if (t >= 0 && tree.transitionTrigger[t] == CompiledStateTree.TRIGGER_EVENT) {
                    consumeEvent(exec, tree.transitionEvent[t]);
                }
                trace(TraceFormat.transition(tick, tree, exec.activeStates.last(), t));

                selfEventWindow = WINDOW_ENTER_EXIT;
                exitState(exec, transition);

                ActiveStates next = transition.nextActiveStates;
                if (!next.isEmpty() && (next.last() == SUCCEEDED_HANDLE || next.last() == FAILED_HANDLE)) {
                    exec.treeRunStatus = next.last() == SUCCEEDED_HANDLE ? RunStatus.SUCCEEDED : RunStatus.FAILED;
                    exec.activeStates.reset();
                    trace(TraceFormat.tree(tick, RunStatus.name(exec.treeRunStatus)));
                    endTick(exec);
                    return;
                }
                if (transition.restartFailed) {
                    // Deviation Q-A9: the restart from root found no state; fail the tree cleanly.
                    exec.treeRunStatus = RunStatus.FAILED;
                    exec.activeStates.reset();
                    trace(TraceFormat.tree(tick, "failed"));
                    endTick(exec);
                    return;
                }

                exec.lastTickStatus = enterState(exec, transition);
            }
            if (!fired || exec.lastTickStatus == RunStatus.RUNNING) {
                break;
            }
        }

        if (exec.activeStates.isEmpty()) {
            // "Failed to select state ... state completion transition is likely missing."
            exec.treeRunStatus = RunStatus.FAILED;
            trace(TraceFormat.tree(tick, "failed"));
        }
        endTick(exec);
    }

    /** Events sent during the last round's ExitState/EnterState stay queued for the next tick. */
    private static void endTick(ExecutionState exec) {
        exec.events.addAll(exec.enterExitEvents);
        exec.enterExitEvents.clear();
        exec.eventsToProcess.clear();
    }

    /** Removes the first event with {@code tag} from {@code EventsToProcess}. */
    private static void consumeEvent(ExecutionState exec, int tag) {
        for (int i = 0; i < exec.eventsToProcess.size(); i++) {
            if (exec.eventsToProcess.get(i).tag() == tag) {
                exec.eventsToProcess.remove(i);
                return;
            }
        }
        throw new IllegalStateException("an onEvent transition fired without its event");
    }

    // =============================================================================================
    // Stop (SEMANTICS.md section 7)
    // =============================================================================================

    private void stop(ExecutionState exec) {
        if (exec.treeRunStatus != RunStatus.RUNNING) {
            return;
        }
        int previousWindow = selfEventWindow;
        selfEventWindow = WINDOW_QUEUE;
        // Exit every active state, Changed, as for a terminal transition.
        TransitionResult transition = new TransitionResult();
        transition.currentActiveStates.copyFrom(exec.activeStates);
        transition.targetState = INVALID;
        transition.nextActiveStates.reset();
        exitState(exec, transition);
        stopEvaluators();
        exec.treeRunStatus = RunStatus.STOPPED;
        exec.activeStates.reset();
        exec.applyPeriodIfNotRunning();
        trace(TraceFormat.tree(tick, "stopped"));
        selfEventWindow = previousWindow;
    }

    // =============================================================================================
    // SelectState / SelectStateInternal (SEMANTICS.md section 5)
    // =============================================================================================

    /**
     * Selects {@code nextState}: keeps the active path down to the first active state found
     * walking up from {@code nextState} (the common ancestor), pushes the states between it and
     * {@code nextState} without testing their enter conditions (Q-A6), then runs
     * {@link #selectStateInternal}.
     */
    private boolean selectState(ExecutionState exec, int nextState, ActiveStates outNewActiveState) {
        if (nextState == INVALID) {
            return false;
        }
        outNewActiveState.copyFrom(exec.activeStates);

        int[] inBetweenStates = new int[CompiledStateTree.MAX_DEPTH];
        int numInBetweenStates = 0;
        int commonActiveAncestorIndex = INDEX_NONE;

        int currState = nextState;
        while (currState != INVALID) {
            inBetweenStates[numInBetweenStates++] = currState;
            commonActiveAncestorIndex = outNewActiveState.indexOfReverse(currState);
            if (commonActiveAncestorIndex != INDEX_NONE) {
                break;
            }
            if (numInBetweenStates == inBetweenStates.length) {
                // "Too many parent states when selecting state"
                return false;
            }
            currState = tree.stateParent[currState];
        }

        outNewActiveState.setNum(Math.max(0, commonActiveAncestorIndex));

        boolean activeStatesOverflow = false;
        for (int index = numInBetweenStates - 1; index > 0; index--) {
            activeStatesOverflow |= !outNewActiveState.push(inBetweenStates[index]);
        }
        if (activeStatesOverflow) {
            // "Reached max execution depth when trying to select state"
            return false;
        }
        return selectStateInternal(nextState, outNewActiveState);
    }

    /**
     * If {@code nextState}'s enter conditions pass, pushes it; a {@code tryEnterState} state or a
     * leaf is selected; otherwise its children (first child {@code s + 1}, next sibling
     * {@code stateSubtreeEnd[child]}; a linked state's only child is its subtree copy) are tried in
     * order and the first that can be selected wins; if none can, it is popped.
     */
    private boolean selectStateInternal(int nextState, ActiveStates outNewActiveState) {
        if (nextState == INVALID) {
            return false;
        }
        if (testAllConditions(tree.stateEnterConditionsBegin[nextState], tree.stateEnterConditionsNum[nextState])) {
            if (!outNewActiveState.push(nextState)) {
                // "Reached max execution depth when trying to select state"
                return false;
            }
            boolean hasChildren = tree.stateSubtreeEnd[nextState] > nextState + 1;
            if (tree.stateSelection[nextState] == CompiledStateTree.TRY_ENTER || !hasChildren) {
                // Select this state (deviation Q-A10: tryEnterState ends the path here).
                return true;
            }
            if (tree.stateType[nextState] == CompiledStateTree.LINKED) {
                int linkedState = nextState + 1; // the private copy of the linked subtree
                if (selectStateInternal(linkedState, outNewActiveState)) {
                    return true;
                }
            } else {
                for (int childState = nextState + 1; childState < tree.stateSubtreeEnd[nextState];
                     childState = tree.stateSubtreeEnd[childState]) {
                    if (selectStateInternal(childState, outNewActiveState)) {
                        return true;
                    }
                }
            }
            outNewActiveState.pop();
        }
        return false;
    }

    // =============================================================================================
    // TriggerTransitions (SEMANTICS.md section 4)
    // =============================================================================================

    private boolean triggerTransitions(ExecutionState exec, TransitionResult outTransition) {
        int completionTrigger = 0;
        if (exec.lastTickStatus == RunStatus.SUCCEEDED) {
            completionTrigger = CompiledStateTree.TRIGGER_SUCCEEDED;
        } else if (exec.lastTickStatus == RunStatus.FAILED) {
            completionTrigger = CompiledStateTree.TRIGGER_FAILED;
        }

        for (int stateIndex = exec.activeStates.num - 1; stateIndex >= 0; stateIndex--) {
            int state = exec.activeStates.get(stateIndex);
            int begin = tree.stateTransitionsBegin[state];
            for (int i = 0; i < tree.stateTransitionsNum[state]; i++) {
                int transitionIndex = begin + i;
                int trigger = tree.transitionTrigger[transitionIndex];
                boolean shouldCheck = (trigger & completionTrigger) != 0
                        || trigger == CompiledStateTree.TRIGGER_TICK
                        || (trigger == CompiledStateTree.TRIGGER_EVENT
                        && hasEvent(exec, tree.transitionEvent[transitionIndex]));

                if (shouldCheck && testAllConditions(tree.transitionConditionsBegin[transitionIndex],
                        tree.transitionConditionsNum[transitionIndex])) {
                    if (tree.isGated(transitionIndex)) {
                        if (exec.gatedTransitionIndex != transitionIndex) {
                            exec.gatedTransitionIndex = transitionIndex;
                            exec.gatedTransitionTime = tree.gateTime(transitionIndex, seed, agent, tick);
                        }
                        if (exec.gatedTransitionTime > 0f) {
                            // Keep ticking the current state until the gate opens (Q-A5: blocks the rest of the scan).
                            return false;
                        }
                    }

                    byte type = tree.transitionType[transitionIndex];
                    if (type == CompiledStateTree.GOTO) {
                        outTransition.currentActiveStates.copyFrom(exec.activeStates);
                        outTransition.targetState = tree.transitionTarget[transitionIndex];
                        outTransition.nextActiveStates.reset();
                        if (selectState(exec, outTransition.targetState, outTransition.nextActiveStates)) {
                            outTransition.transitionIndex = transitionIndex;
                            return true;
                        }
                    } else if (type == CompiledStateTree.NOT_SET) {
                        // Masks the transitions of ancestors (and the restart from root: Q-A4).
                        return false;
                    } else {
                        short handle = type == CompiledStateTree.TO_SUCCEEDED ? SUCCEEDED_HANDLE : FAILED_HANDLE;
                        outTransition.currentActiveStates.copyFrom(exec.activeStates);
                        outTransition.targetState = handle;
                        outTransition.nextActiveStates.reset();
                        outTransition.nextActiveStates.push(handle);
                        outTransition.transitionIndex = transitionIndex;
                        return true;
                    }
                } else if (exec.gatedTransitionIndex == transitionIndex) {
                    exec.gatedTransitionIndex = INVALID;
                    exec.gatedTransitionTime = 0f;
                }
            }
        }

        if (exec.lastTickStatus != RunStatus.RUNNING) {
            // Restart the tree from the root.
            final int rootState = 0;
            outTransition.currentActiveStates.copyFrom(exec.activeStates);
            outTransition.targetState = rootState;
            outTransition.nextActiveStates.reset();
            outTransition.transitionIndex = -1;
            if (!selectState(exec, rootState, outTransition.nextActiveStates)) {
                outTransition.restartFailed = true;
                outTransition.nextActiveStates.reset();
            }
            return true;
        }
        return false;
    }

    private boolean hasEvent(ExecutionState exec, int tag) {
        for (Event e : exec.eventsToProcess) {
            if (e.tag() == tag) {
                return true;
            }
        }
        return false;
    }


    // =============================================================================================
    // EnterState / ExitState (SEMANTICS.md section 6)
    // =============================================================================================

    private byte enterState(ExecutionState exec, TransitionResult transition) {
        if (transition.nextActiveStates.isEmpty()) {
            return RunStatus.FAILED;
        }
        exec.stateChangeCount++;

        boolean onTargetBranch = false;
        byte result = RunStatus.RUNNING;

        exec.enterStateFailedTaskIndex = INVALID_TASK_INDEX;
        exec.activeStates.reset();

        for (int index = 0; index < transition.nextActiveStates.num && result != RunStatus.FAILED; index++) {
            int currentHandle = transition.nextActiveStates.get(index);
            int previousHandle = transition.currentActiveStates.getStateSafe(index);

            if (!exec.activeStates.push(currentHandle)) {
                // "Reached max execution depth when trying to enter state"
                break;
            }
            if (tree.stateType[currentHandle] == CompiledStateTree.LINKED) {
                updateLinkedStateParameters(currentHandle);
            }

            onTargetBranch = onTargetBranch || currentHandle == transition.targetState;
            boolean wasActive = previousHandle == currentHandle;
            boolean isEnteringState = !wasActive || onTargetBranch;
            byte changeType = wasActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;

            if (isEnteringState) {
                trace(TraceFormat.enter(tick, tree, currentHandle, changeType));
            }

            int tasksBegin = tree.stateTasksBegin[currentHandle];
            for (int taskIndex = tasksBegin; taskIndex < tasksBegin + tree.stateTasksNum[currentHandle]; taskIndex++) {
                boolean shouldCallStateChange = changeType == ChangeType.CHANGED
                        || (changeType == ChangeType.SUSTAINED && tree.taskReselect[taskIndex]);
                if (isEnteringState && shouldCallStateChange) {
                    ctx.setChange(changeType, currentHandle, transition.targetState);
                    Task task = tree.tasks[taskIndex];
                    stopTimer(taskIndex); // entering clears a timer left from before
                    ctx.setTask(taskIndex, task.timer());
                    byte status = task.enterState(ctx, agent);
                    ctx.setTask(-1, TimerKind.NONE);
                    trace(TraceFormat.taskEnter(tick, tree, taskIndex, status == RunStatus.FAILED));
                    if (status == RunStatus.FAILED) {
                        exec.enterStateFailedTaskIndex = taskIndex;
                        result = status;
                        break;
                    }
                    if (status == RunStatus.SUCCEEDED) {
                        // Deviation Q-A2: a task may complete its state on enter.
                        result = RunStatus.SUCCEEDED;
                    }
                }
            }
        }
        return result;
    }

    private void exitState(ExecutionState exec, TransitionResult transition) {
        ActiveStates current = transition.currentActiveStates;
        ActiveStates next = transition.nextActiveStates;
        if (current.isEmpty()) {
            return;
        }
        exec.gatedTransitionIndex = INVALID;
        exec.gatedTransitionTime = 0f;

        boolean onTargetBranch = false;
        int[] exitedStates = new int[CompiledStateTree.MAX_DEPTH];
        byte[] exitedStateChangeType = new byte[CompiledStateTree.MAX_DEPTH];
        int numExitedStates = 0;

        for (int index = 0; index < current.num; index++) {
            int currentHandle = current.get(index);
            int nextHandle = next.getStateSafe(index);

            boolean remainsActive = nextHandle == currentHandle;
            onTargetBranch = onTargetBranch || (nextHandle != INVALID && nextHandle == transition.targetState);
            byte changeType = remainsActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;

            if (!remainsActive || onTargetBranch) {
                exitedStates[numExitedStates] = currentHandle;
                exitedStateChangeType[numExitedStates] = changeType;
                numExitedStates++;
            }
        }

        for (int index = numExitedStates - 1; index >= 0; index--) {
            int currentHandle = exitedStates[index];
            byte changeType = exitedStateChangeType[index];
            trace(TraceFormat.exit(tick, tree, currentHandle, changeType));

            int tasksBegin = tree.stateTasksBegin[currentHandle];
            for (int taskIndex = tasksBegin + tree.stateTasksNum[currentHandle] - 1; taskIndex >= tasksBegin; taskIndex--) {
                if (taskIndex <= exec.enterStateFailedTaskIndex) {
                    boolean shouldCallStateChange = changeType == ChangeType.CHANGED
                            || (changeType == ChangeType.SUSTAINED && tree.taskReselect[taskIndex]);
                    if (shouldCallStateChange) {
                        ctx.setChange(changeType, currentHandle, transition.targetState < 0 ? -1 : transition.targetState);
                        tree.tasks[taskIndex].exitState(ctx, agent);
                        trace(TraceFormat.taskExit(tick, tree, taskIndex));
                    }
                }
            }
        }
    }

    /** Copies the linked state's {@code linkedParameters} into its subtree copy's parameter slots. */
    private void updateLinkedStateParameters(int linkedState) {
        int begin = tree.stateLinkedParamsBegin[linkedState];
        for (int p = begin; p < begin + tree.stateLinkedParamsNum[linkedState]; p++) {
            ValueInput value = tree.linkedParamValue[p];
            ctx.write(tree.linkedParamType[p], tree.linkedParamSlot[p], agent, value.getDouble(ctx, agent));
        }
    }

    // =============================================================================================
    // Nodes
    // =============================================================================================

    private void startEvaluators() {
        for (int e = 0; e < tree.evaluators.length; e++) {
            tree.evaluators[e].treeStart(ctx, rows, 0, 1);
        }
    }

    private void tickEvaluators(float deltaTime) {
        tickEvaluators(deltaTime, tree.evaluators);
    }

    private void tickEvaluators(float deltaTime, Evaluator[] which) {
        ctx.setTime(seed, tick, deltaTime);
        for (Evaluator e : which) {
            e.tick(ctx, rows, 0, 1);
        }
    }

    private void stopEvaluators() {
        for (int e = 0; e < tree.evaluators.length; e++) {
            tree.evaluators[e].treeStop(ctx, rows, 0, 1);
        }
    }

    /**
     * Ticks the tasks of the active states root to leaf, in declared order; the first task that
     * completes decides the result and the tasks after it are not reached. A task that is reached
     * first counts its running timer down (SEMANTICS.md section 3) and, if it ran out, gets
     * {@code onTimer}; then, if it has a tick and nothing completed, its tick.
     */
    private byte tickTasks(ExecutionState exec, float deltaTime) {
        taskStatus[0] = RunStatus.RUNNING;
        ctx.bindStatus(taskStatus, agent);
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            int tasksBegin = tree.stateTasksBegin[state];
            for (int taskIndex = tasksBegin; taskIndex < tasksBegin + tree.stateTasksNum[state]; taskIndex++) {
                Task task = tree.tasks[taskIndex];
                if (countDownTimer(taskIndex, deltaTime)) {
                    ctx.setTask(taskIndex, task.timer());
                    task.onTimer(ctx, rows, 0, 1);
                    ctx.setTask(-1, TimerKind.NONE);
                    if (taskStatus[0] != RunStatus.RUNNING) {
                        return taskStatus[0];
                    }
                }
                if (!task.ticks()) {
                    continue;
                }
                task.tick(ctx, rows, 0, 1);
                if (taskStatus[0] != RunStatus.RUNNING) {
                    return taskStatus[0];
                }
            }
        }
        return RunStatus.RUNNING;
    }

    // ---- timers: the literal countdown (int slot: 0 = stopped; SECONDS: 1 = running, the float
    // slot holds the remaining time; TICKS: the ticks left) -------------------------------------

    /** One tick of task {@code k}'s timer, if it runs; true when it ran out (and stopped). */
    private boolean countDownTimer(int k, float deltaTime) {
        TimerKind kind = tree.taskTimer[k];
        if (kind == TimerKind.NONE) {
            return false;
        }
        int[] state = ints[tree.taskTimerDueSlot[k]];
        if (state[agent] == 0) {
            return false;
        }
        if (kind == TimerKind.SECONDS) {
            float[] remaining = floats[tree.taskTimerValueSlot[k]];
            float left = remaining[agent] - deltaTime;
            remaining[agent] = left;
            if (left <= 0f) {
                state[agent] = 0;
                return true;
            }
            return false;
        }
        if (--state[agent] == 0) {
            return true;
        }
        return false;
    }

    private void stopTimer(int k) {
        if (tree.taskTimer[k] != TimerKind.NONE) {
            ints[tree.taskTimerDueSlot[k]][agent] = 0;
        }
    }

    /** Starts timers for the agent being run. */
    private final class Timers implements TimerService {
        @Override
        public void startTimer(int task, int row, float seconds) {
            floats[tree.taskTimerValueSlot[task]][row] = seconds;
            ints[tree.taskTimerDueSlot[task]][row] = 1;
        }

        @Override
        public void startTickTimer(int task, int row, int ticks) {
            ints[tree.taskTimerDueSlot[task]][row] = ticks;
        }
    }

    /** {@code TestAllConditions}: all conditions of the range must pass (AND). */
    private boolean testAllConditions(int begin, int num) {
        for (int c = begin; c < begin + num; c++) {
            Condition condition = tree.conditions[c];
            conditionResult[0] = false;
            condition.test(ctx, rows, 0, 1, conditionResult);
            if (!conditionResult[0]) {
                return false;
            }
        }
        return true;
    }

    // =============================================================================================
    // Plumbing
    // =============================================================================================

    private void bindAgent(int agentId, long tickNumber, float dt) {
        this.agent = agentId;
        this.tick = tickNumber;
        rows[0] = agentId;
        ctx.setTime(seed, tickNumber, dt);
        ctx.setChange(ChangeType.CHANGED, -1, -1);
    }

    private void trace(String line) {
        if (sink != null) {
            sink.line(agent, line);
        }
    }

    private void checkAgent(int agentId) {
        if (agentId < 0 || agentId >= agents) {
            throw new IllegalArgumentException("agent " + agentId + " is out of range 0.." + (agents - 1));
        }
    }

    private void deliverOutgoing() {
        for (Outgoing o : outgoing) {
            execs[o.target()].events.add(o.event());
            wakeUp(o.target());
        }
        outgoing.clear();
    }

    /** Routes events sent by nodes of the agent being run. */
    private final class Outbox implements EventOutbox {
        @Override
        public void sendToSelf(int row, int tag, float payload, boolean hasPayload) {
            ExecutionState exec = execs[agent];
            Event e = new Event(tag, payload, hasPayload);
            switch (selfEventWindow) {
                case WINDOW_EVENTS_TO_PROCESS:
                    exec.eventsToProcess.add(e);
                    break;
                case WINDOW_ENTER_EXIT:
                    exec.enterExitEvents.add(e);
                    break;
                default:
                    exec.events.add(e);
            }
        }

        @Override
        public void sendToAgent(int agentId, int tag, float payload, boolean hasPayload) {
            if (agentId < 0 || agentId >= agents) {
                return; // no such agent
            }
            outgoing.add(new Outgoing(agentId, new Event(tag, payload, hasPayload)));
        }
    }
}
