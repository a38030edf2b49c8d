package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.Countdown;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.TimerService;

/**
 * The tasks' runtime timers (docs/SEMANTICS.md section 3.1), kept as the literal countdown in the
 * agent's instance data: the int slot is 0 when stopped; SECONDS: 1 while running, the float slot
 * holds the remaining time; TICKS: the ticks left. Nodes start timers through the
 * {@link TimerService} this class installs in the node context; TickTasks counts them down one tick
 * at a time, entering a task stops its timer, and the scheduled tick (section 11) asks when a timer
 * will run out and counts down the steps an agent slept through.
 */
final class TaskTimers {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final float[][] floats;
    private final int[][] ints;

    TaskTimers(InterpreterData data) {
        this.data = data;
        this.tree = data.tree;
        this.floats = data.floats;
        this.ints = data.ints;
        data.control.setTimers(new Timers());
    }

    /** One tick of task {@code k}'s timer, if it runs; true when it ran out (and stopped). */
    boolean countDownTimer(int k, float deltaTime) {
        TimerKind kind = tree.taskTimer(k);
        if (kind == TimerKind.NONE) {
            return false;
        }
        int agent = data.agent;
        int[] state = ints[tree.taskTimerDueSlot(k)];
        if (state[agent] == 0) {
            return false;
        }
        if (kind == TimerKind.SECONDS) {
            float[] remaining = floats[tree.taskTimerValueSlot(k)];
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

    /**
     * Rule M1 (docs/SEMANTICS.md section 3.1): task {@code k}'s timer ran out in this tick and its
     * {@code onTimer} completed the state; unless {@code onTimer} started the timer again, it stays
     * run out, so that the next tick the task is reached it runs out again, as the per-tick countdown
     * {@code remaining -= dt; if (remaining <= 0) ...} would (SECONDS: the remaining time, already
     * {@code <= 0}, keeps counting down; TICKS: one tick left).
     */
    void keepRunOut(int k) {
        int[] state = ints[tree.taskTimerDueSlot(k)];
        if (tree.taskTimer(k) != TimerKind.NONE && state[data.agent] == 0) {
            state[data.agent] = 1;
        }
    }

    /** Stops task {@code k}'s timer for the agent being run. */
    void stopTimer(int k) {
        if (tree.taskTimer(k) != TimerKind.NONE) {
            ints[tree.taskTimerDueSlot(k)][data.agent] = 0;
        }
    }

    /** The ticks (of agent {@code a}) task {@code k}'s running timer needs to run out, or NEVER. */
    long timerTicksLeft(int a, int k, float agentDt) {
        if (!isRunning(a, k)) {
            return Countdown.NEVER;
        }
        if (tree.taskTimer(k) == TimerKind.TICKS) {
            return ints[tree.taskTimerDueSlot(k)][a];
        }
        return Countdown.steps(floats[tree.taskTimerValueSlot(k)][a], agentDt);
    }

    /** Counts agent {@code a}'s running timer of task {@code k} down by {@code skipped} ticks of {@code agentDt}. */
    void catchUpTimer(int a, int k, long skipped, float agentDt) {
        if (!isRunning(a, k)) {
            return;
        }
        if (tree.taskTimer(k) == TimerKind.TICKS) {
            ints[tree.taskTimerDueSlot(k)][a] -= (int) skipped;
        } else {
            float[] remaining = floats[tree.taskTimerValueSlot(k)];
            remaining[a] = Countdown.after(remaining[a], agentDt, skipped);
        }
    }

    /** Whether task {@code k} has a timer and it runs for agent {@code a}. */
    private boolean isRunning(int a, int k) {
        return tree.taskTimer(k) != TimerKind.NONE && ints[tree.taskTimerDueSlot(k)][a] != 0;
    }

    /** Starts timers for the agent being run. */
    private final class Timers implements TimerService {
        @Override
        public void startTimer(int task, int row, float seconds) {
            floats[tree.taskTimerValueSlot(task)][row] = seconds;
            ints[tree.taskTimerDueSlot(task)][row] = 1;
        }

        @Override
        public void startTickTimer(int task, int row, int ticks) {
            ints[tree.taskTimerDueSlot(task)][row] = ticks;
        }
    }
}
