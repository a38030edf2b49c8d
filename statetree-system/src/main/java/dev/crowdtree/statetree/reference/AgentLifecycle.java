package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.FAILED_HANDLE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.SUCCEEDED_HANDLE;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * {@code Start}, {@code Tick} and {@code Stop} of the agent being run (docs/SEMANTICS.md sections
 * 2, 3 and 7, rules G1-G3): the order of the phases within one call. Start enters the global tasks,
 * then selects and enters the initial state; Tick takes the queued events, counts the gate down,
 * ticks evaluators, global tasks and state tasks, then runs
 * up to {@link StateTreeRuntime#MAX_TRANSITION_ROUNDS} transition rounds (TriggerTransitions, ExitState, EnterState); Stop
 * exits every active state, then the global tasks. It also moves the agent's events to itself between the windows of
 * section 8 (this tick's {@code EventsToProcess}, the next round, the queue).
 */
final class AgentLifecycle {

    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeCalls nodes;
    private final StateSelection selection;
    private final Transitions transitions;
    private final StateChanges changes;
    private final GlobalTasks globals;

    AgentLifecycle(InterpreterData data, NodeCalls nodes, StateSelection selection, Transitions transitions,
                   StateChanges changes, GlobalTasks globals) {
        this.data = data;
        this.tree = data.tree;
        this.nodes = nodes;
        this.selection = selection;
        this.transitions = transitions;
        this.changes = changes;
        this.globals = globals;
    }

    // =============================================================================================
    // Start (SEMANTICS.md section 2, seed FStateTreeExecutionContext::Start)
    // =============================================================================================

    void start(ExecutionState exec) {
        data.selfEventWindow = InterpreterData.WINDOW_QUEUE; // events sent during Start are seen at tick 1
        // If a tree is running, stop it first.
        if (exec.treeRunStatus == RunStatus.RUNNING) {
            stop(exec);
        }
        data.trace(TraceFormat.start(data.tick));
        data.clearFault();
        try {
            startTree(exec);
        } catch (RuntimeException | StackOverflowError e) {
            data.fault(e);
        }
        if (data.faulted) {
            recover(exec);
        }
    }

    private void startTree(ExecutionState exec) {
        for (short[] memory : data.history) {
            memory[data.agent] = HistoryStates.NO_MEMORY; // rule Y5: Start clears the history states' memories
        }
        nodes.startEvaluators();
        nodes.tickEvaluators(0f);

        exec.treeRunStatus = RunStatus.RUNNING;
        exec.activeStates.reset();
        exec.lastTickStatus = RunStatus.UNSET;

        if (tree.globalTaskCount > 0) {
            // Rule G1: the global tasks are entered before the root state is selected.
            byte status = globals.enter(exec);
            if (status != RunStatus.RUNNING) {
                data.trace(TraceFormat.taskCompleted(data.tick, tree, globals.completedTask, status));
                finishTree(exec, status, status);
                return;
            }
        }

        final int rootState = 0;
        TransitionResult transition = new TransitionResult();
        if (selection.selectState(exec, rootState, transition.nextActiveStates)) {
            // Enter state can fail or succeed; that is handled by the next Tick.
            transition.targetState = rootState;
            transition.currentActiveStates.copyFrom(exec.activeStates);
            exec.lastTickStatus = changes.enterState(exec, transition);
        }
        if (data.faulted) {
            return;
        }

        if (exec.activeStates.isEmpty()) {
            // "Failed to select initial state ... check that the StateTree logic can always select a state at start."
            failTree(exec);
        }
    }

    // =============================================================================================
    // Tick (SEMANTICS.md section 3, seed FStateTreeExecutionContext::Tick)
    // =============================================================================================

    void tick(ExecutionState exec, float deltaTime) {
        // Events queued since the last tick become this tick's EventsToProcess.
        exec.eventsToProcess.clear();
        exec.eventsToProcess.addAll(exec.events);
        exec.events.clear();

        if (exec.treeRunStatus != RunStatus.RUNNING) {
            exec.eventsToProcess.clear(); // Q-A15: events reaching a tree that is not running are dropped
            return;
        }
        for (Event e : exec.eventsToProcess) {
            data.countVisible(exec, e); // rule E5
        }

        if (exec.gatedTransitionIndex != INVALID) {
            exec.gatedTransitionTime -= deltaTime;
        }

        // Events sent by evaluators and tasks during their tick are seen by this tick's transitions.
        data.selfEventWindow = InterpreterData.WINDOW_EVENTS_TO_PROCESS;
        data.clearFault();
        try {
            nodes.tickEvaluators(deltaTime);
            tickAfterEvaluators(exec, deltaTime);
        } catch (RuntimeException | StackOverflowError e) {
            data.fault(e);
        }
        if (data.faulted && exec.treeRunStatus == RunStatus.RUNNING) {
            data.selfEventWindow = InterpreterData.WINDOW_ENTER_EXIT;
            recover(exec);
            endTick(exec);
        }
    }

    /**
     * A node threw for this agent (rule R1): every active state exits (every entered task but the
     * one that threw gets ExitState, reason failed), then the global tasks, and the tree fails.
     */
    private void recover(ExecutionState exec) {
        exitEveryState(exec, RunStatus.FAILED);
        finishTree(exec, RunStatus.FAILED, RunStatus.FAILED);
    }

    /** Tick steps 5 to 8 (SEMANTICS.md section 3): the global tasks, TickTasks and the transition rounds. */
    void tickAfterEvaluators(ExecutionState exec, float deltaTime) {
        if (tree.globalTaskCount > 0) {
            // Rule G2: the global tasks tick before the state tasks; one that completes finishes the tree.
            byte status = globals.tick(deltaTime);
            if (status != RunStatus.RUNNING) {
                data.trace(TraceFormat.taskCompleted(data.tick, tree, globals.completedTask, status));
                data.selfEventWindow = InterpreterData.WINDOW_ENTER_EXIT;
                exitEveryState(exec, status);
                finishTree(exec, status, status);
                endTick(exec);
                return;
            }
        }
        if (exec.lastTickStatus == RunStatus.RUNNING) {
            exec.lastTickStatus = nodes.tickTasks(exec, deltaTime);
        }

        for (int iter = 0; iter < StateTreeRuntime.MAX_TRANSITION_ROUNDS; iter++) {
            if (iter > 0) {
                // Events sent during the previous round's ExitState/EnterState (counted against the new path, rule E5).
                for (Event e : exec.enterExitEvents) {
                    data.countVisible(exec, e);
                }
                exec.eventsToProcess.addAll(exec.enterExitEvents);
                exec.enterExitEvents.clear();
            }
            TransitionResult transition = new TransitionResult();
            boolean fired = transitions.triggerTransitions(exec, transition);
            if (fired) {
                int t = transition.transitionIndex;
                String why = data.explaining() ? explain(exec, transition) : null; // before its event is consumed
                if (data.recorder != null) {
                    data.recorder.countFired(t, data.agent);
                }
                if (t >= 0 && tree.transitionTrigger(t) == CompiledStateTree.TRIGGER_EVENT && tree.transitionConsumesEvent(t)
                        && !transition.byArmedGate) {
                    Transitions.consumeEvent(tree, exec, t);
                }
                data.trace(t == TransitionResult.COMPOSITE_RULE || t == TransitionResult.REQUEST
                        ? TraceFormat.transitionTo(data.tick, tree, exec.activeStates.last(), transition.targetState)
                        : TraceFormat.transition(data.tick, tree, exec.activeStates.last(), t));
                if (why != null) {
                    data.traceWhy(why);
                }

                if (t >= 0 && tree.transitionReactivates(t)) {
                    // rule U11: the target and the states below it are exited and entered as changed
                    int at = transition.nextActiveStates.indexOfReverse(transition.targetState);
                    if (at >= 0) {
                        transition.changedFrom = Math.min(transition.changedFrom, at);
                    }
                }
                data.selfEventWindow = InterpreterData.WINDOW_ENTER_EXIT;
                changes.exitState(exec, transition, exec.lastTickStatus);

                ActiveStates next = transition.nextActiveStates;
                if (!next.isEmpty() && (next.last() == SUCCEEDED_HANDLE || next.last() == FAILED_HANDLE)) {
                    exec.activeStates.reset();
                    finishTree(exec, next.last() == SUCCEEDED_HANDLE ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                            exec.lastTickStatus);
                    endTick(exec);
                    return;
                }
                if (transition.restartFailed) {
                    // Deviation Q-A9: the restart from root found no state; fail the tree cleanly.
                    exec.activeStates.reset();
                    finishTree(exec, RunStatus.FAILED, exec.lastTickStatus);
                    endTick(exec);
                    return;
                }

                exec.lastTickStatus = changes.enterState(exec, transition);
                if (data.faulted) {
                    return; // an ExitState or EnterState threw (rules R1, R2): recovered by tick
                }
            }
            if (!fired || exec.lastTickStatus == RunStatus.RUNNING) {
                break;
            }
        }

        if (exec.activeStates.isEmpty()) {
            // "Failed to select state ... state completion transition is likely missing."
            failTree(exec);
        }
        endTick(exec);
    }

    /**
     * The {@code why} line of {@code transition} (section 10): the transition and its trigger (with
     * the event it fired on, or the completion the scan ran with), a composite's rule, or the
     * restart from the root.
     */
    private String explain(ExecutionState exec, TransitionResult transition) {
        int t = transition.transitionIndex;
        byte completion = transition.whyCompletion;
        int completed = RunStatus.isCompletion(completion) ? exec.activeStates.get(transition.whyCompletedIndex) : 0;
        if (t == -1) {
            return TraceFormat.whyRestart(data.tick, tree, completion, completed);
        }
        if (t == TransitionResult.COMPOSITE_RULE) {
            return TraceFormat.whyComposite(data.tick, tree, transition.targetState, completion, completed);
        }
        if (t == TransitionResult.REQUEST) {
            return TraceFormat.whyRequest(data.tick, tree, transition.targetState, transition.requestPriority);
        }
        String event = null;
        if (tree.transitionTrigger(t) == CompiledStateTree.TRIGGER_EVENT && !transition.byArmedGate) {
            Event e = transitions.firedEvent(exec, t);
            event = TraceFormat.event(tree, e.tag(), e.types(), e.bits(), 0);
        }
        return TraceFormat.whyTransition(data.tick, tree, t, event, completion, completed);
    }

    /** The tree fails: no state could be selected. */
    private void failTree(ExecutionState exec) {
        finishTree(exec, RunStatus.FAILED, RunStatus.FAILED);
    }

    /**
     * The tree finishes with {@code outcome}, its states already exited: the global tasks are exited
     * with {@code exitStatus} as the reason (rule G3), then the outcome is traced.
     */
    private void finishTree(ExecutionState exec, byte outcome, byte exitStatus) {
        if (exec.globalTasksEntered > 0) {
            globals.exit(exec, exitStatus);
        }
        exec.treeRunStatus = outcome;
        data.trace(TraceFormat.tree(data.tick, RunStatus.name(outcome)));
    }

    /** Exits every active state, changed, as for a terminal transition, with {@code exitStatus} as the reason. */
    private void exitEveryState(ExecutionState exec, byte exitStatus) {
        TransitionResult transition = new TransitionResult();
        transition.currentActiveStates.copyFrom(exec.activeStates);
        transition.targetState = INVALID;
        transition.nextActiveStates.reset();
        changes.exitState(exec, transition, exitStatus);
        exec.activeStates.reset();
    }

    /** Events sent during the last round's ExitState/EnterState stay queued for the next tick. */
    private void endTick(ExecutionState exec) {
        for (Event e : exec.enterExitEvents) {
            data.enqueue(exec.events, e);
        }
        exec.enterExitEvents.clear();
        exec.eventsToProcess.clear();
    }

    // =============================================================================================
    // Stop (SEMANTICS.md section 7)
    // =============================================================================================

    void stop(ExecutionState exec) {
        if (exec.treeRunStatus != RunStatus.RUNNING) {
            return;
        }
        int previousWindow = data.selfEventWindow;
        data.selfEventWindow = InterpreterData.WINDOW_QUEUE;
        data.clearFault();
        // Exit every active state, Changed, as for a terminal transition, then the global tasks (rule G3).
        exitEveryState(exec, RunStatus.STOPPED);
        if (exec.globalTasksEntered > 0) {
            globals.exit(exec, RunStatus.STOPPED);
        }
        nodes.stopEvaluators();
        exec.treeRunStatus = RunStatus.STOPPED;
        exec.applyPeriodIfNotRunning();
        data.trace(TraceFormat.tree(data.tick, "stopped"));
        data.selfEventWindow = previousWindow;
    }
}
