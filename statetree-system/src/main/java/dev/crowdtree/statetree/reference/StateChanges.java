package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID_TASK_INDEX;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.StateParameterValues;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

/**
 * {@code EnterState} and {@code ExitState} (docs/SEMANTICS.md section 6): applies a selected
 * transition to the agent being run. ExitState cancels the gate (under {@code unreal-5.8} only when
 * the state that armed it changes, rule U4) and exits the states that change (from the completed
 * state down under {@code unreal-5.8}, rule U3) or sit on the target branch, leaf to root, calling
 * their tasks' {@code exitState} in reverse
 * order up to {@code EnterStateFailedTaskIndex}; a history state exited as changed remembers the
 * path below it (rule Y2). EnterState makes the next path active root to leaf, gives an entering
 * state's own parameters their values (rule X3), copies a linked state's parameters into its
 * subtree copy, keeps the payload of the event a state with a required event was selected with (and
 * consumes it, rules V4, V5), and calls the entering states' tasks'
 * {@code enterState} in declared order (stopping their timers first, section 3.1); a task that fails
 * stops the entering, one that succeeds completes the state at once (Q-A2; under {@code unreal-5.8}
 * the shallowest state that completed on enter is the completion, rule U5).
 */
final class StateChanges {
    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeContext ctx;
    private final ContextControl control;
    private final TaskTimers timers;
    private final LinkedParameters linkedParameters;
    private final StateParameterValues stateParameters;

    StateChanges(InterpreterData data, TaskTimers timers, LinkedParameters linkedParameters) {
        this.data = data;
        this.tree = data.tree;
        this.ctx = data.ctx;
        this.control = data.control;
        this.timers = timers;
        this.linkedParameters = linkedParameters;
        this.stateParameters = new StateParameterValues(data.tree);
    }

    /** EnterState: returns the state's status after entering (RUNNING, SUCCEEDED or FAILED). */
    byte enterState(ExecutionState exec, TransitionResult transition) {
        if (transition.nextActiveStates.isEmpty()) {
            return RunStatus.FAILED;
        }
        exec.stateChangeCount++;

        boolean onTargetBranch = false;
        byte result = RunStatus.RUNNING;

        exec.enterStateFailedTaskIndex = INVALID_TASK_INDEX;
        exec.activeStates.reset();
        boolean shallowerSuccess = false;

        for (int index = 0; index < transition.nextActiveStates.num && result != RunStatus.FAILED; index++) {
            int currentHandle = transition.nextActiveStates.get(index);
            int previousHandle = transition.currentActiveStates.getStateSafe(index);

            if (!exec.activeStates.push(currentHandle)) {
                // "Reached max execution depth when trying to enter state"
                break;
            }
            onTargetBranch = onTargetBranch || currentHandle == transition.targetState;
            boolean wasActive = previousHandle == currentHandle && index < transition.changedFrom; // rule U3
            boolean isEnteringState = !wasActive || onTargetBranch;
            byte changeType = wasActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;

            if (isEnteringState && stateParameters.declares(currentHandle)) {
                stateParameters.enter(ctx, currentHandle, data.agent); // rule X3: before its linked values and tasks
            }
            if (tree.stateType(currentHandle) == CompiledStateTree.LINKED) {
                linkedParameters.copy(ctx, currentHandle, data.agent);
            }

            if (isEnteringState) {
                data.trace(TraceFormat.enter(data.tick, tree, currentHandle, changeType));
                if (data.recordingTick) {
                    data.recorder.countEntered(currentHandle, data.agent);
                }
                // rule U3: a state kept above the target and entered again as changed keeps its event
                if (tree.requiredEvents.any && tree.requiredEvents.has(currentHandle)
                        && (previousHandle != currentHandle || onTargetBranch)) {
                    enterWithEvent(exec, currentHandle, transition.nextActiveStates.eventAt(index));
                }
            }

            boolean all = tree.stateCompletionAll(currentHandle);
            boolean finishedOnEnter = false;
            int tasksBegin = tree.stateTasksBegin(currentHandle);
            for (int taskIndex = tasksBegin; taskIndex < tasksBegin + tree.stateTasksNum(currentHandle); taskIndex++) {
                if (isEnteringState && shouldCallStateChange(changeType, taskIndex)) {
                    if (tree.taskDoneSlot(taskIndex) >= 0) {
                        data.bools[tree.taskDoneSlot(taskIndex)][data.agent] = 0; // entering: not finished ("all", U9)
                    }
                    control.setChange(changeType, currentHandle, transition.targetState);
                    Task task = tree.task(taskIndex);
                    timers.stopTimer(taskIndex); // entering clears a timer left from before
                    control.setTask(taskIndex, task.timer());
                    data.calling("task", task, taskIndex);
                    byte status;
                    try {
                        status = task.enterState(ctx, data.agent);
                    } catch (RuntimeException | StackOverflowError e) {
                        data.fault(e); // rule R1: exits stop before the task that threw
                        exec.enterStateFailedTaskIndex = taskIndex - 1;
                        exec.completedIndex = index;
                        result = RunStatus.FAILED;
                        break;
                    }
                    control.setTask(-1, TimerKind.NONE);
                    if (!tree.taskConsidered(taskIndex)) {
                        if (status != RunStatus.RUNNING && tree.taskDoneSlot(taskIndex) >= 0) {
                            data.bools[tree.taskDoneSlot(taskIndex)][data.agent] = 1; // rule U9: not reached again
                        }
                        status = RunStatus.RUNNING; // a background task never completes its state
                    }
                    data.trace(TraceFormat.taskEnter(data.tick, tree, taskIndex, status == RunStatus.FAILED));
                    if (status == RunStatus.FAILED) {
                        exec.enterStateFailedTaskIndex = taskIndex;
                        if (tree.unreal.on && result == RunStatus.SUCCEEDED && exec.completedIndex < index) {
                            shallowerSuccess = true; // rule U5: the shallowest completed state is the completion
                        } else {
                            exec.completedIndex = index; // the failing task's state completed
                        }
                        result = status;
                        break;
                    }
                    if (status == RunStatus.SUCCEEDED && all) {
                        data.bools[tree.taskDoneSlot(taskIndex)][data.agent] = 1; // finished on enter
                        finishedOnEnter = true;
                    } else if (status == RunStatus.SUCCEEDED) {
                        // Deviation Q-A2: a task may complete its state on enter.
                        if (result != RunStatus.SUCCEEDED) {
                            exec.completedIndex = index; // the first state whose task succeeded completed
                        }
                        result = RunStatus.SUCCEEDED;
                    }
                }
            }
            if (all && finishedOnEnter && result != RunStatus.FAILED
                    && tree.allCountedDone(currentHandle, data.bools, data.agent)) {
                // completion "all": every counted task succeeded on enter
                if (result != RunStatus.SUCCEEDED) {
                    exec.completedIndex = index;
                }
                result = RunStatus.SUCCEEDED;
            }
        }
        return shallowerSuccess ? RunStatus.SUCCEEDED : result;
    }

    /**
     * A state with a required event is entered with the event it was selected with (rules V4, V5):
     * its declared fields are kept in the state's slots for its tasks, and the event leaves the
     * window unless the state says {@code "consumeEvent": false} (once: the transition's own event,
     * or another state's, may be the same one and already gone).
     */
    private void enterWithEvent(ExecutionState exec, int state, Event event) {
        if (event == null) {
            throw new IllegalStateException("state " + tree.statePath(state) + " entered without its required event");
        }
        tree.requiredEvents.keep(state, event.types(), event.bits(), 0, data.floats, data.ints, data.bools, data.agent);
        if (tree.requiredEvents.consumes(state)) {
            exec.eventsToProcess.remove(event);
        }
    }

    /** ExitState: exits the states of the current path the transition leaves or re-enters. */
    void exitState(ExecutionState exec, TransitionResult transition, byte exitStatus) {
        ActiveStates current = transition.currentActiveStates;
        ActiveStates next = transition.nextActiveStates;
        if (current.isEmpty()) {
            return;
        }
        // Rule U4: under unreal-5.8 a pending delay lasts while the state that armed it stays (not changed).
        int gateSource = tree.unreal.on && exec.gatedTransitionIndex != INVALID
                ? tree.transitionSource(exec.gatedTransitionIndex) : INVALID;
        boolean keepGate = gateSource != INVALID;

        boolean onTargetBranch = false;
        int[] exitedStates = new int[CompiledStateTree.MAX_DEPTH];
        byte[] exitedStateChangeType = new byte[CompiledStateTree.MAX_DEPTH];
        int numExitedStates = 0;

        for (int index = 0; index < current.num; index++) {
            int currentHandle = current.get(index);
            int nextHandle = next.getStateSafe(index);

            boolean remainsActive = nextHandle == currentHandle && index < transition.changedFrom; // rule U3
            onTargetBranch = onTargetBranch || (nextHandle != INVALID && nextHandle == transition.targetState);
            byte changeType = remainsActive ? ChangeType.SUSTAINED : ChangeType.CHANGED;

            keepGate &= remainsActive || currentHandle != gateSource;
            if (!remainsActive || onTargetBranch) {
                if (!remainsActive && tree.history.has(currentHandle)) {
                    // rule Y2: a history state exited as changed remembers the path below it
                    data.history[tree.history.index(currentHandle)][data.agent] = tree.history.memoryOf(currentHandle,
                            index + 1 < current.num ? current.get(index + 1) : -1, current.last());
                }
                exitedStates[numExitedStates] = currentHandle;
                exitedStateChangeType[numExitedStates] = changeType;
                numExitedStates++;
            }
        }

        if (!keepGate) {
            exec.gatedTransitionIndex = INVALID;
            exec.gatedTransitionTime = 0f;
        }
        control.setExitStatus(exitStatus);
        for (int index = numExitedStates - 1; index >= 0; index--) {
            int currentHandle = exitedStates[index];
            byte changeType = exitedStateChangeType[index];
            data.trace(TraceFormat.exit(data.tick, tree, currentHandle, changeType));

            int tasksBegin = tree.stateTasksBegin(currentHandle);
            for (int taskIndex = tasksBegin + tree.stateTasksNum(currentHandle) - 1; taskIndex >= tasksBegin; taskIndex--) {
                if (taskIndex <= exec.enterStateFailedTaskIndex && shouldCallStateChange(changeType, taskIndex)
                        && !(data.faulted && taskIndex == data.faultTask)) {
                    control.setChange(changeType, currentHandle, transition.targetState < 0 ? -1 : transition.targetState);
                    data.calling("task", tree.task(taskIndex), taskIndex);
                    try {
                        tree.task(taskIndex).exitState(ctx, data.agent);
                    } catch (RuntimeException | StackOverflowError e) {
                        data.fault(e); // rules R2, R3: the exit goes on
                    }
                    data.trace(TraceFormat.taskExit(data.tick, tree, taskIndex));
                }
            }
        }
    }

    /** A task sees a state change when its state changed, or when it was sustained and the task reselects. */
    private boolean shouldCallStateChange(byte changeType, int taskIndex) {
        return changeType == ChangeType.CHANGED
                || (changeType == ChangeType.SUSTAINED && tree.taskReselect(taskIndex));
    }
}
