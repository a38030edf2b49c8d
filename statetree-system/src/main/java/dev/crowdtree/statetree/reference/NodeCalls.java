package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

/**
 * Calls the tree's evaluators, conditions and task ticks for the agent being run, with one-row
 * batches: evaluators' {@code treeStart}/{@code tick}/{@code treeStop} (docs/SEMANTICS.md sections
 * 2, 3 step 4 and 7), {@code TestAllConditions} for enter and transition conditions (sections 4 and
 * 5), and {@code TickTasks} with its timers and completion (section 3 step 5, section 3.1; rules
 * U5, U6 under {@code unreal-5.8}).
 */
final class NodeCalls {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeContext ctx;
    private final ContextControl control;
    private final int[] rows;
    private final TaskTimers timers;
    private final boolean[] conditionResult = new boolean[1];
    private final byte[] taskStatus = new byte[1];

    NodeCalls(InterpreterData data, TaskTimers timers) {
        this.data = data;
        this.tree = data.tree;
        this.ctx = data.ctx;
        this.control = data.control;
        this.rows = data.rows;
        this.timers = timers;
    }

    void startEvaluators() {
        for (int e = 0; e < tree.evaluatorCount(); e++) {
            data.calling("evaluator", tree.evaluator(e), -1);
            tree.evaluator(e).treeStart(ctx, rows, 0, 1);
        }
    }

    void tickEvaluators(float deltaTime) {
        tickEvaluators(deltaTime, null);
    }

    /** Ticks the tree's evaluators of schedule {@code which} (all of them for null), in order. */
    void tickEvaluators(float deltaTime, Evaluator.Schedule which) {
        control.setTime(data.seed, data.tick, deltaTime);
        for (int i = 0; i < tree.evaluatorCount(); i++) {
            Evaluator e = tree.evaluator(i);
            if (which == null || e.schedule() == which) {
                data.calling("evaluator", e, -1);
                e.tick(ctx, rows, 0, 1);
            }
        }
    }

    void stopEvaluators() {
        for (int e = 0; e < tree.evaluatorCount(); e++) {
            data.calling("evaluator", tree.evaluator(e), -1);
            try {
                tree.evaluator(e).treeStop(ctx, rows, 0, 1);
            } catch (RuntimeException | StackOverflowError ex) {
                data.fault(ex); // rule R3: stopping goes on
            }
        }
    }

    /** {@code TestAllConditions}: all conditions of the range must pass (AND). */
    boolean testAllConditions(int begin, int num) {
        for (int c = begin; c < begin + num; c++) {
            Condition condition = tree.condition(c);
            conditionResult[0] = false;
            data.calling("condition", condition, -1);
            condition.test(ctx, rows, 0, 1, conditionResult);
            if (!conditionResult[0]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Ticks the tasks of the active states root to leaf, in declared order; the first task that
     * completes decides the result and the tasks after it are not reached. A task that is reached
     * first counts its running timer down (SEMANTICS.md section 3) and, if it ran out, gets
     * {@code onTimer}; then, if it has a tick and nothing completed, its tick.
     */
    byte tickTasks(ExecutionState exec, float deltaTime) {
        if (tree.unreal.on) {
            return tickEveryTask(exec, deltaTime);
        }
        taskStatus[0] = RunStatus.RUNNING;
        control.bindStatus(taskStatus, data.agent);
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            boolean all = tree.stateCompletionAll(state);
            finishedNow = false;
            int tasksBegin = tree.stateTasksBegin(state);
            for (int taskIndex = tasksBegin; taskIndex < tasksBegin + tree.stateTasksNum(state); taskIndex++) {
                if (all && data.bools[tree.taskDoneSlot(taskIndex)][data.agent] != 0) {
                    continue; // completion "all": a finished task is not reached again
                }
                Task task = tree.task(taskIndex);
                control.setBackground(!tree.taskConsidered(taskIndex));
                if (timerRanOut(task, taskIndex, deltaTime)) {
                    if (taskStatus[0] != RunStatus.RUNNING) {
                        if (completes(exec, index, all, taskIndex)) {
                            timers.keepRunOut(taskIndex); // rule M1: it reports again when reached again
                            return taskStatus[0];
                        }
                        continue;
                    }
                }
                if (!task.ticks()) {
                    continue;
                }
                data.calling("task", task, taskIndex);
                task.tick(ctx, rows, 0, 1);
                if (taskStatus[0] != RunStatus.RUNNING && completes(exec, index, all, taskIndex)) {
                    return taskStatus[0];
                }
            }
            if (all && finishedNow && tree.allCountedDone(state, data.bools, data.agent)) {
                taskStatus[0] = RunStatus.SUCCEEDED;
                completes(exec, index, false, -1);
                return RunStatus.SUCCEEDED;
            }
        }
        control.setBackground(false);
        return RunStatus.RUNNING;
    }

    /**
     * TickTasks under {@code "rules": "unreal-5.8"} (docs/SEMANTICS.md section 20, rule U5), as
     * Unreal 5.8's {@code TickTasks}: the tasks of the active states are reached root to leaf in
     * declared order (a running timer counted down, then {@code onTimer} or the tick); a success does
     * not stop it, a failure does: the tasks after a failing one are not reached (their timers pause).
     * The completed state is the shallowest state whose task reported a status: failed if one of its
     * tasks failed, else succeeded. A path without any task succeeds at its last state (rule U6).
     */
    private byte tickEveryTask(ExecutionState exec, float deltaTime) {
        if (tree.unreal.noTaskOnPath(exec.activeStates.last())) {
            exec.completedIndex = exec.activeStates.num - 1;
            return RunStatus.SUCCEEDED;
        }
        byte completion = RunStatus.RUNNING;
        control.bindStatus(taskStatus, data.agent);
        reach:
        for (int index = 0; index < exec.activeStates.num; index++) {
            int state = exec.activeStates.get(index);
            boolean all = tree.stateCompletionAll(state);
            int tasksBegin = tree.stateTasksBegin(state);
            for (int taskIndex = tasksBegin; taskIndex < tasksBegin + tree.stateTasksNum(state); taskIndex++) {
                int doneSlot = tree.taskDoneSlot(taskIndex);
                if (doneSlot >= 0 && data.bools[doneSlot][data.agent] != 0) {
                    continue; // rules U9, U10: a task that completed is not reached again while its state stays
                }
                Task task = tree.task(taskIndex);
                taskStatus[0] = RunStatus.RUNNING; // a background task reports too (rule U9), and decides nothing
                if (timerRanOut(task, taskIndex, deltaTime) && taskStatus[0] != RunStatus.RUNNING) {
                    if (doneSlot < 0) {
                        timers.keepRunOut(taskIndex); // rule M1: it reports again when reached again
                    } // (one that keeps its status is not reached again: its timer stays stopped, U9)
                } else if (task.ticks()) {
                    data.calling("task", task, taskIndex);
                    task.tick(ctx, rows, 0, 1);
                }
                byte reported = taskStatus[0];
                if (reported != RunStatus.RUNNING && doneSlot >= 0) {
                    data.bools[doneSlot][data.agent] = 1;
                }
                if (!tree.taskConsidered(taskIndex)) {
                    continue; // a background task's report completes nothing and stops nothing
                }
                if (all && reported == RunStatus.SUCCEEDED) {
                    // rule U10: the state succeeds once its last counted task has
                    reported = tree.allCountedDone(state, data.bools, data.agent) ? RunStatus.SUCCEEDED : RunStatus.RUNNING;
                }
                if (reported != RunStatus.RUNNING
                        && (completion == RunStatus.RUNNING || (exec.completedIndex == index && reported == RunStatus.FAILED))) {
                    completion = reported; // the shallowest completed state; a failure wins in it
                    exec.completedIndex = index;
                }
                if (reported == RunStatus.FAILED) {
                    break reach; // the tasks after a failing one are not reached
                }
            }
        }
        control.setBackground(false);
        return completion;
    }

    /**
     * Counts task {@code taskIndex}'s running timer down (section 3.1) and, when it runs out, calls
     * its {@code onTimer}; returns whether it did.
     */
    private boolean timerRanOut(Task task, int taskIndex, float deltaTime) {
        if (!timers.countDownTimer(taskIndex, deltaTime)) {
            return false;
        }
        control.setTask(taskIndex, task.timer());
        data.calling("task", task, taskIndex);
        task.onTimer(ctx, rows, 0, 1);
        control.setTask(-1, TimerKind.NONE);
        return true;
    }

    /** Whether a task of the state being ticked finished in this call (completion "all" completes only then). */
    private boolean finishedNow;

    /**
     * A task of the state at {@code index} reported {@code taskStatus[0]}. In a {@code completion:
     * all} state a success only marks the task finished (false: go on); otherwise the state completed.
     */
    private boolean completes(ExecutionState exec, int index, boolean all, int taskIndex) {
        if (all && taskStatus[0] == RunStatus.SUCCEEDED) {
            data.bools[tree.taskDoneSlot(taskIndex)][data.agent] = 1;
            finishedNow = true;
            taskStatus[0] = RunStatus.RUNNING;
            return false;
        }
        exec.completedIndex = index;
        control.setBackground(false);
        return true;
    }

}
