package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

/**
 * The global tasks of the agent being run (docs/SEMANTICS.md, rules G1-G3; tasks
 * {@code 0 .. globalTaskCount-1} of the compiled tree): entered at Start in declared order, before
 * the root state is selected; at every tick, after the evaluators and before TickTasks, each is
 * reached in declared order (its timer counts down, then {@code onTimer}, then its tick) whatever
 * the last tick status; exited in reverse order when the tree finishes or stops, after the states.
 * The first counted one that completes, on enter or at a tick, decides the tree's outcome
 * ({@link #completedTask}). Unreal's {@code StartGlobalTasks}, {@code TickEvaluatorsAndGlobalTasks}
 * and {@code StopGlobalTasks}.
 */
final class GlobalTasks {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeContext ctx;
    private final ContextControl control;
    private final TaskTimers timers;
    private final int[] rows;
    private final byte[] status = new byte[1];
    /** The global task that completed in the last {@link #enter} or {@link #tick}, or -1. */
    int completedTask = -1;

    GlobalTasks(InterpreterData data, TaskTimers timers) {
        this.data = data;
        this.tree = data.tree;
        this.ctx = data.ctx;
        this.control = data.control;
        this.timers = timers;
        this.rows = data.rows;
    }

    /**
     * Enters the global tasks in declared order (rule G1), like a state's tasks (section 6): a
     * failure stops the entering and decides FAILED; a success does not stop it and decides
     * SUCCEEDED unless a later task fails (Q-A2). Returns RUNNING, SUCCEEDED or FAILED.
     */
    byte enter(ExecutionState exec) {
        byte result = RunStatus.RUNNING;
        completedTask = -1;
        control.setChange(ChangeType.CHANGED, -1, -1);
        for (int k = 0; k < tree.globalTaskCount; k++) {
            Task task = tree.task(k);
            timers.stopTimer(k); // entering clears a timer left from before
            control.setTask(k, task.timer());
            data.calling("global task", task, k);
            byte s = task.enterState(ctx, data.agent);
            control.setTask(-1, TimerKind.NONE);
            if (!tree.taskConsidered(k)) {
                s = RunStatus.RUNNING; // a background task never finishes the tree
            }
            exec.globalTasksEntered = k + 1;
            data.trace(TraceFormat.taskEnter(data.tick, tree, k, s == RunStatus.FAILED));
            if (s == RunStatus.FAILED) {
                completedTask = k;
                return RunStatus.FAILED;
            }
            if (s == RunStatus.SUCCEEDED && result == RunStatus.RUNNING) {
                completedTask = k;
                result = RunStatus.SUCCEEDED;
            }
        }
        return result;
    }

    /**
     * One tick of the global tasks (rule G2): each, in declared order, counts its timer down and
     * gets {@code onTimer} if it ran out, then its tick; the first counted one that completes
     * decides, and the tasks after it are not reached. Returns RUNNING, SUCCEEDED or FAILED.
     */
    byte tick(float deltaTime) {
        status[0] = RunStatus.RUNNING;
        completedTask = -1;
        control.bindStatus(status, data.agent);
        for (int k = 0; k < tree.globalTaskCount; k++) {
            Task task = tree.task(k);
            control.setBackground(!tree.taskConsidered(k));
            if (timers.countDownTimer(k, deltaTime)) {
                control.setTask(k, task.timer());
                data.calling("global task", task, k);
                task.onTimer(ctx, rows, 0, 1);
                control.setTask(-1, TimerKind.NONE);
                if (status[0] != RunStatus.RUNNING) {
                    completedTask = k;
                    break;
                }
            }
            if (task.ticks()) {
                data.calling("global task", task, k);
                task.tick(ctx, rows, 0, 1);
                if (status[0] != RunStatus.RUNNING) {
                    completedTask = k;
                    break;
                }
            }
        }
        control.setBackground(false);
        return status[0];
    }

    /** Exits the entered global tasks in reverse order (rule G3), with {@code exitStatus} as the reason. */
    void exit(ExecutionState exec, byte exitStatus) {
        control.setExitStatus(exitStatus);
        control.setChange(ChangeType.CHANGED, -1, -1);
        for (int k = exec.globalTasksEntered - 1; k >= 0; k--) {
            if (data.faulted && k == data.faultTask) {
                continue; // rule R1: the task that threw gets no ExitState
            }
            data.calling("global task", tree.task(k), k);
            try {
                tree.task(k).exitState(ctx, data.agent);
            } catch (RuntimeException | StackOverflowError e) {
                data.fault(e); // rule R3: the exit goes on
            }
            data.trace(TraceFormat.taskExit(data.tick, tree, k));
        }
        exec.globalTasksEntered = 0;
    }
}
