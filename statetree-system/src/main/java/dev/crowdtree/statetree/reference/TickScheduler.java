package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.Countdown;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.reference.ReferenceInterpreter.TickMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

/**
 * Which agents run at each step, and with which dt. Tick periods (docs/SEMANTICS.md section 12):
 * step {@code k} is the k-th {@code tickAll}; an agent with period {@code p} takes part when
 * {@code (k + agent) mod p == 0}, with {@code p * dt}, and a requested period takes effect at a step
 * aligned to both periods; in a tree with state tick periods the period asked for is the larger of
 * the host's LOD period and the active path's (section 19, rules Z2, Z3). The scheduled tick
 * (section 11, {@link TickMode#SCHEDULED}): after each tick an agent sleeps when its next tick could
 * do nothing observable, until its first timer runs out or its requested period takes effect, or
 * until something wakes it (an event, a parameter, a new dt); a sleeper still runs its EVERY_TICK
 * evaluators, and its timers catch up on the steps it slept through before it runs again.
 */
final class TickScheduler {
    /** {@link ExecutionState#sleepUntil} of an agent that sleeps until an event or a request wakes it. */
    static final int SLEEP_FOREVER = Integer.MAX_VALUE;

    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final ExecutionState[] execs;
    private final int agents;
    private final NodeCalls nodes;
    private final TaskTimers timers;
    private final AgentLifecycle lifecycle;
    private final TickMode tickMode;

    int awakeLastTick;
    /** Steps run so far (tickAll calls), and the dt of the last one. */
    int step;
    float lastDt = Float.NaN;

    /** Sleeping agents by wake-up step ({@code step << 32 | agent}); stale entries are skipped. */
    final PriorityQueue<Long> wakeQueue = new PriorityQueue<>();
    /** Awake agents in ascending order, and those woken since the last tick. */
    int[] awake = new int[0];
    int awakeCount;
    final List<Integer> woken = new ArrayList<>();

    TickScheduler(InterpreterData data, NodeCalls nodes, TaskTimers timers, AgentLifecycle lifecycle,
                  TickMode tickMode) {
        this.data = data;
        this.tree = data.tree;
        this.execs = data.execs;
        this.agents = data.agents;
        this.nodes = nodes;
        this.timers = timers;
        this.lifecycle = lifecycle;
        this.tickMode = tickMode;
        if (tickMode == TickMode.SCHEDULED) {
            awake = new int[agents];
            for (int a = 0; a < agents; a++) {
                awake[a] = a; // everyone is awake until its first tick decides otherwise
            }
            awakeCount = agents;
        }
    }

    TickMode tickMode() {
        return tickMode;
    }

    /** Running agents that were awake in the last step. */
    int awakeLastTick() {
        return awakeLastTick;
    }

    /** After agent {@code a} started: its last step is its step at or before now, and it may sleep. */
    void started(int a) {
        ExecutionState exec = execs[a];
        exec.lastStep = step - ((step + a) & ((1 << exec.periodLog) - 1)); // its last step at or before now
        aimPeriod(exec);
        decideSleep(a, exec, lastDt);
    }

    /** One step: every agent that takes part in it (and, scheduled, is awake) ticks, in ascending order. */
    void tickAll(long tickNumber, float dt) {
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
    }

    /** One agent's tick at this step, if it takes part (SEMANTICS.md section 12). */
    private void tickAgent(int a, long tickNumber, float dt) {
        ExecutionState exec = execs[a];
        int period = 1 << exec.periodLog;
        if (((step + a) & (period - 1)) != 0) {
            return; // not its step: nothing happens, its events wait
        }
        float agentDt = period * dt;
        data.bindAgent(a, tickNumber, agentDt);
        if (exec.treeRunStatus == RunStatus.RUNNING) {
            awakeLastTick++;
        }
        lifecycle.tick(exec, agentDt);
        ranThisStep(exec, a);
    }

    /** After agent {@code a} ran at this step: a requested period may take effect. */
    private void ranThisStep(ExecutionState exec, int a) {
        exec.lastStep = step;
        aimPeriod(exec);
        switchPeriodIfDue(exec, a);
        exec.applyPeriodIfNotRunning();
    }

    /**
     * In a tree with state tick periods, a running agent asks for the larger of its LOD period and
     * its active path's (rules Z2, Z3): a pending change when that differs from the period in effect,
     * none when it does not. Looked at after every step the agent ran and after its start.
     */
    private void aimPeriod(ExecutionState exec) {
        if (tree.tickPeriods.any && exec.treeRunStatus == RunStatus.RUNNING) {
            int leaf = exec.activeStates.isEmpty() ? INVALID : exec.activeStates.last();
            int target = tree.tickPeriods.targetLog(exec.hostLog, leaf);
            exec.pendingLog = target == exec.periodLog ? -1 : target;
        }
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

    /** Requests the period {@code 1 << log} for agent {@code a} (SEMANTICS.md section 12). */
    void requestPeriod(int a, int log) {
        ExecutionState exec = execs[a];
        exec.hostLog = log;
        if (exec.treeRunStatus != RunStatus.RUNNING) {
            exec.periodLog = log; // nothing to keep exact: at once
            exec.pendingLog = -1;
            return;
        }
        // with state tick periods, the larger of the LOD period and the active path's (rule Z2)
        int leaf = exec.activeStates.isEmpty() ? INVALID : exec.activeStates.last();
        int target = tree.tickPeriods.targetLog(log, leaf);
        exec.pendingLog = target == exec.periodLog ? -1 : target;
        if (exec.pendingLog >= 0 && exec.sleepUntil != 0) {
            sleepUntil(a, exec, Math.min(exec.sleepUntil, switchStep(exec, a, step + 1)));
        }
    }

    /** The first step at or after {@code from} aligned to both the current and the requested period. */
    private static int switchStep(ExecutionState exec, int a, int from) {
        int m = 1 << Math.max(exec.periodLog, exec.pendingLog);
        return from + ((m - ((from + a) & (m - 1))) & (m - 1));
    }

    // ---- the scheduled tick (SEMANTICS.md section 11) ------------------------------------------

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
        boolean everyTickEvaluators = tree.everyTickEvaluatorCount() > 0;
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
        data.bindAgent(a, tickNumber, agentDt);
        exec.eventsToProcess.clear();
        data.selfEventWindow = InterpreterData.WINDOW_EVENTS_TO_PROCESS;
        nodes.tickEvaluators(agentDt, Evaluator.Schedule.EVERY_TICK);
        if (exec.eventsToProcess.isEmpty()) {
            return; // still asleep: this step counts among those its timers catch up on
        }
        catchUp(a, exec);
        nodes.tickEvaluators(agentDt, Evaluator.Schedule.WHEN_AWAKE);
        awakeLastTick++;
        lifecycle.tickAfterEvaluators(exec, agentDt);
        ranThisStep(exec, a);
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
                || exec.requestState != INVALID
                || !exec.events.isEmpty() || exec.activeStates.isEmpty()
                || tree.stateAlwaysAwake(exec.activeStates.last())) {
            return stayAwake(a, exec);
        }
        int period = 1 << exec.periodLog;
        float agentDt = period * dt;
        long wake = exec.pendingLog >= 0 ? switchStep(exec, a, exec.lastStep + 1) : Long.MAX_VALUE;
        for (int k = 0; k < tree.globalTaskCount; k++) {
            long ticks = timers.timerTicksLeft(a, k, agentDt); // the global tasks' timers (rule G2)
            if (ticks != Countdown.NEVER) {
                wake = Math.min(wake, exec.lastStep + ticks * period);
            }
        }
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            int tasksBegin = tree.stateTasksBegin(state);
            for (int k = tasksBegin; k < tasksBegin + tree.stateTasksNum(state); k++) {
                long ticks = timers.timerTicksLeft(a, k, agentDt);
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
    void wakeUp(int a) {
        if (tickMode == TickMode.SCHEDULED) {
            stayAwake(a, execs[a]);
        }
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
        for (int k = 0; k < tree.globalTaskCount; k++) {
            timers.catchUpTimer(a, k, skipped, agentDt);
        }
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            int tasksBegin = tree.stateTasksBegin(state);
            for (int k = tasksBegin; k < tasksBegin + tree.stateTasksNum(state); k++) {
                timers.catchUpTimer(a, k, skipped, agentDt);
            }
        }
        exec.lastStep = step - period; // caught up to its previous step
    }
}
