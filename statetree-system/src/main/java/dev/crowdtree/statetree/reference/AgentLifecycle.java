package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.FAILED_HANDLE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.SUCCEEDED_HANDLE;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * {@code Start}, {@code Tick} and {@code Stop} of the agent being run (docs/SEMANTICS.md sections
 * 2, 3 and 7): the order of the phases within one call. Start selects and enters the initial
 * state; Tick takes the queued events, counts the gate down, ticks evaluators and tasks, then runs
 * up to {@link #MAX_ITERATIONS} transition rounds (TriggerTransitions, ExitState, EnterState); Stop
 * exits every active state. It also moves the agent's events to itself between the windows of
 * section 8 (this tick's {@code EventsToProcess}, the next round, the queue).
 */
final class AgentLifecycle {
    /** Unreal's {@code MaxIterations}: transition rounds per tick. */
    static final int MAX_ITERATIONS = 5;

    private final InterpreterData data;
    private final CompiledStateTree tree;
    private final NodeCalls nodes;
    private final StateSelection selection;
    private final Transitions transitions;
    private final StateChanges changes;

    AgentLifecycle(InterpreterData data, NodeCalls nodes, StateSelection selection, Transitions transitions,
                   StateChanges changes) {
        this.data = data;
        this.tree = data.tree;
        this.nodes = nodes;
        this.selection = selection;
        this.transitions = transitions;
        this.changes = changes;
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

        nodes.startEvaluators();
        nodes.tickEvaluators(0f);

        exec.treeRunStatus = RunStatus.RUNNING;
        exec.activeStates.reset();
        exec.lastTickStatus = RunStatus.UNSET;

        final int rootState = 0;
        TransitionResult transition = new TransitionResult();
        if (selection.selectState(exec, rootState, transition.nextActiveStates)) {
            // Enter state can fail or succeed; that is handled by the next Tick.
            transition.targetState = rootState;
            transition.currentActiveStates.copyFrom(exec.activeStates);
            exec.lastTickStatus = changes.enterState(exec, transition);
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

        if (exec.gatedTransitionIndex != INVALID) {
            exec.gatedTransitionTime -= deltaTime;
        }

        // Events sent by evaluators and tasks during their tick are seen by this tick's transitions.
        data.selfEventWindow = InterpreterData.WINDOW_EVENTS_TO_PROCESS;
        nodes.tickEvaluators(deltaTime);
        tickAfterEvaluators(exec, deltaTime);
    }

    /** Tick steps 5 to 8 (SEMANTICS.md section 3): TickTasks and the transition rounds. */
    void tickAfterEvaluators(ExecutionState exec, float deltaTime) {
        if (exec.lastTickStatus == RunStatus.RUNNING) {
            exec.lastTickStatus = nodes.tickTasks(exec, deltaTime);
        }

        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            if (iter > 0) {
                // Events sent during the previous round's ExitState/EnterState.
                exec.eventsToProcess.addAll(exec.enterExitEvents);
                exec.enterExitEvents.clear();
            }
            TransitionResult transition = new TransitionResult();
            boolean fired = transitions.triggerTransitions(exec, transition);
            if (fired) {
                int t = transition.transitionIndex;
                if (t >= 0 && tree.transitionTrigger[t] == CompiledStateTree.TRIGGER_EVENT && tree.transitionConsumesEvent[t]) {
                    Transitions.consumeEvent(tree, exec, t);
                }
                data.trace(TraceFormat.transition(data.tick, tree, exec.activeStates.last(), t));

                data.selfEventWindow = InterpreterData.WINDOW_ENTER_EXIT;
                changes.exitState(exec, transition, exec.lastTickStatus);

                ActiveStates next = transition.nextActiveStates;
                if (!next.isEmpty() && (next.last() == SUCCEEDED_HANDLE || next.last() == FAILED_HANDLE)) {
                    exec.treeRunStatus = next.last() == SUCCEEDED_HANDLE ? RunStatus.SUCCEEDED : RunStatus.FAILED;
                    exec.activeStates.reset();
                    data.trace(TraceFormat.tree(data.tick, RunStatus.name(exec.treeRunStatus)));
                    endTick(exec);
                    return;
                }
                if (transition.restartFailed) {
                    // Deviation Q-A9: the restart from root found no state; fail the tree cleanly.
                    exec.activeStates.reset();
                    failTree(exec);
                    endTick(exec);
                    return;
                }

                exec.lastTickStatus = changes.enterState(exec, transition);
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

    /** The tree fails: no state could be selected. */
    private void failTree(ExecutionState exec) {
        exec.treeRunStatus = RunStatus.FAILED;
        data.trace(TraceFormat.tree(data.tick, "failed"));
    }

    /** Events sent during the last round's ExitState/EnterState stay queued for the next tick. */
    private static void endTick(ExecutionState exec) {
        exec.events.addAll(exec.enterExitEvents);
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
        // Exit every active state, Changed, as for a terminal transition.
        TransitionResult transition = new TransitionResult();
        transition.currentActiveStates.copyFrom(exec.activeStates);
        transition.targetState = INVALID;
        transition.nextActiveStates.reset();
        changes.exitState(exec, transition, RunStatus.STOPPED);
        nodes.stopEvaluators();
        exec.treeRunStatus = RunStatus.STOPPED;
        exec.activeStates.reset();
        exec.applyPeriodIfNotRunning();
        data.trace(TraceFormat.tree(data.tick, "stopped"));
        data.selfEventWindow = previousWindow;
    }
}
