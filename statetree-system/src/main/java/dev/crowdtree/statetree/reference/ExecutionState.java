package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID_TASK_INDEX;

import dev.crowdtree.statetree.node.RunStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * One agent's {@code FStateTreeExecutionState} (docs/SEMANTICS.md section 1: run statuses, active
 * path, gate, {@code EnterStateFailedTaskIndex}, {@code StateChangeCount}), plus its event lists
 * (section 8), its tick period (section 12) and its sleep (section 11).
 */
final class ExecutionState {
    byte treeRunStatus = RunStatus.UNSET;
    byte lastTickStatus = RunStatus.UNSET;
    final ActiveStates activeStates = new ActiveStates();
    int gatedTransitionIndex = INVALID;
    /** A task's pending transition request (rules O1-O4): its state, or INVALID, and its priority. */
    int requestState = INVALID;
    int requestPriority;
    /** The depth of the state whose task made the request, -1 for a global task's (rule U3 under unreal-5.8). */
    int requestSourceDepth = -1;
    float gatedTransitionTime;
    int enterStateFailedTaskIndex = INVALID_TASK_INDEX;
    /** How many global tasks are entered (all of them while the tree runs; rules G1-G3). */
    int globalTasksEntered;
    int stateChangeCount;
    /** {@code InstanceData.GetEvents()}: queued for the next tick. */
    final List<Event> events = new ArrayList<>();
    /** {@code EventsToProcess}: what this tick's transitions see. */
    final List<Event> eventsToProcess = new ArrayList<>();
    /** The event whose payload passed the conditions of the last onEvent transition with payload fields found. */
    Event chosenEvent;
    /** Events sent to self during the current round's ExitState/EnterState. */
    final List<Event> enterExitEvents = new ArrayList<>();
    /** Tick period in effect (log2), and a requested one (-1: none); SEMANTICS.md section 12. */
    int periodLog;
    int pendingLog = -1;
    /** The LOD period the host asked for (log2): the period in effect while the tree does not run (rule Z2). */
    int hostLog;
    /** Scheduled mode: asleep until this step (0: awake; {@link TickScheduler#SLEEP_FOREVER}: until something happens). */
    int sleepUntil;
    /** The last step the agent ran (took part and ticked past its evaluators), and the dt it slept with. */
    int lastStep;
    float sleptDt;

    /**
     * A tree that no longer runs has no timers to keep exact: the LOD period the host asked for
     * applies at once (section 12; rule Z2: no path, no state period).
     */
    void applyPeriodIfNotRunning() {
        if (treeRunStatus != RunStatus.RUNNING) {
            periodLog = hostLog;
            pendingLog = -1;
        }
    }
    /** Despawned: stopped for good; the interpreter refuses to address it. */
    boolean despawned;
    /**
     * Index in the active path of the state whose task made {@link #lastTickStatus} a completion:
     * only it and its ancestors match completion triggers (SEMANTICS.md section 4).
     */
    int completedIndex;
}
