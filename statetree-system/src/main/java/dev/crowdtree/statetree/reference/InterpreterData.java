package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.FailureLog;
import dev.crowdtree.statetree.exec.NodeFailure;
import dev.crowdtree.statetree.exec.PayloadMismatchKeys;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.exec.TraceSink;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.EventFields;
import dev.crowdtree.statetree.node.EventOutbox;
import dev.crowdtree.statetree.node.EventPayload;
import dev.crowdtree.statetree.node.ContextControl;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.TimerKind;

import java.util.ArrayList;
import java.util.List;

/**
 * What every phase of the {@link ReferenceInterpreter} works on: the compiled tree, each agent's
 * {@link ExecutionState}, the node instance data (one array per slot, indexed by agent: row ==
 * agent index) with the {@link NodeContext} bound to it, and the binding of the agent being run
 * (its id, its tick, the trace). It also routes the events that agent's nodes send
 * (docs/SEMANTICS.md section 8): to itself, into the window {@link #selfEventWindow} names; to
 * other agents, into {@link #outgoing} until the end of the API call. And it counts the payload
 * mismatches of rule E5 ({@link #countVisible}).
 */
final class InterpreterData {
    /** Where an event an agent sends to itself goes (SEMANTICS.md section 8). */
    static final int WINDOW_QUEUE = 0;
    static final int WINDOW_EVENTS_TO_PROCESS = 1;
    static final int WINDOW_ENTER_EXIT = 2;

    final CompiledStateTree tree;
    final int agents;
    final long seed;
    final ExecutionState[] execs;

    // Node instance data: one array per slot, indexed by agent (row == agent index).
    final float[][] floats;
    final int[][] ints;
    final byte[][] bools;
    final int[] agentIds;
    /**
     * The history states' memories (docs/SEMANTICS.md rule Y2): one array per history state (by its
     * memory index), indexed by agent; a state id, {@code HistoryStates.NO_MEMORY} for none.
     */
    final short[][] history;

    /** The tree's host columns, one zeroed array per column (the interpreter owns no host table). */
    final Object[] hostColumns;
    /** The externals the host bound, by index. */
    final Object[] externals;

    final ContextControl control = new ContextControl();
    final NodeContext ctx = control.context();
    /** The one row nodes are called with: the agent being run. */
    final int[] rows = new int[1];

    /** Events sent to other agents during the current API call, delivered at its end. */
    final List<Outgoing> outgoing = new ArrayList<>();

    TraceSink sink;
    // The agent being run and its time, for the outbox and traces.
    int agent;
    long tick;
    int selfEventWindow = WINDOW_QUEUE;
    /** The event an onEvent transition with payload fields is being tested against (rule E3). */
    Event testedEvent;

    // Fault isolation (docs/SEMANTICS.md section 14, rules R1-R4).
    boolean isolate;
    final FailureLog failures = new FailureLog();
    /** The node being called (for the failure record): its kind, the node, its task index or -1. */
    private String nodeKind = "node";
    private Node node;
    private int nodeTask = -1;
    /** Whether the agent being run failed in this call, and the task that threw (no ExitState), or -1. */
    boolean faulted;
    int faultTask = -1;

    /** Names the node about to be called. */
    void calling(String kind, Node n, int task) {
        nodeKind = kind;
        node = n;
        nodeTask = task;
        control.setCallingTask(task); // a transition request's source (rule O2)
    }

    /** The agent being run starts a call (start, tick, stop): no fault yet. */
    void clearFault() {
        faulted = false;
        faultTask = -1;
    }

    /**
     * The node being called threw {@code e} for the agent being run (rule R1): records the failure
     * and traces it; the first one marks the agent failed. Rethrows under FAIL.
     */
    void fault(Throwable e) {
        if (!isolate) {
            throw NodeFailure.rethrow(e);
        }
        control.setTask(-1, TimerKind.NONE);
        control.setBackground(false);
        ActiveStates active = execs[agent].activeStates;
        int leaf = active.isEmpty() ? -1 : active.last();
        NodeFailure f = new NodeFailure(tick, agent, nodeKind + " '" + (node == null ? "?" : node.name()) + "'",
                leaf < 0 ? "-" : tree.statePath(leaf), NodeFailure.describe(e));
        failures.add(f);
        trace(TraceFormat.fault(f));
        if (!faulted) {
            faulted = true;
            faultTask = nodeTask;
        }
    }

    /** An event on its way to another agent. */
    record Outgoing(int target, Event event) {
    }

    /** Per-agent state and instance data for {@code agents} agents, parameters at their defaults. */
    InterpreterData(CompiledStateTree tree, int agents, long seed) {
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
        this.history = new short[tree.history.count()][agents];
        this.agentIds = new int[agents];
        for (int a = 0; a < agents; a++) {
            agentIds[a] = a;
        }
        control.bindSlots(floats, ints, bools, agentIds);
        this.hostColumns = new Object[tree.hostColumns.size()];
        for (int c = 0; c < hostColumns.length; c++) {
            hostColumns[c] = tree.hostColumns.get(c).type().newArray(agents);
        }
        this.externals = new Object[tree.externals.size()];
        control.bindHost(hostColumns, externals);
        for (int p = 0; p < tree.paramCount(); p++) {
            for (int a = 0; a < agents; a++) {
                ctx.write(tree.paramType(p), tree.paramSlot(p), a, tree.paramDefault(p));
            }
        }
        Outbox outbox = new Outbox();
        control.setOutbox(outbox);
        if (tree.requestsTransitions) {
            control.setRequests((row, state, priority, task) -> { // rows are agent ids here
                ExecutionState e = execs[row];
                if (e.requestState == ReferenceInterpreter.INVALID || priority > e.requestPriority) {
                    e.requestState = state;
                    e.requestPriority = priority;
                    int source = task >= 0 ? tree.taskState(task) : -1;
                    e.requestSourceDepth = source >= 0 ? tree.stateDepth(source) : -1;
                }
            });
        }
        control.setEvents(outbox, tree.payloads.fieldCount(), tree.payloads.valueField());
        control.ensureScratch(tree.maxConditionDepth, 1);
        mismatchKeys = new PayloadMismatchKeys(tree);
        mismatchCounts = new long[mismatchKeys.size()];
        mismatchFound = new int[mismatchKeys.scratchSize()];
    }

    /** Makes {@code agentId} the agent being run, at {@code tickNumber} with {@code dt}. */
    void bindAgent(int agentId, long tickNumber, float dt) {
        this.agent = agentId;
        this.tick = tickNumber;
        rows[0] = agentId;
        control.setTime(seed, tickNumber, dt);
        control.setChange(ChangeType.CHANGED, -1, -1);
    }

    /** The population counters, or null when recording is off ({@code StateTreeRuntime.setRecording}). */
    Recorder recorder;

    /** The counts of tick {@code tickNumber} that are not counted as they happen: occupancy, and the totals' growth. */
    void count(Recorder r, long tickNumber) {
        r.clearOccupancy(); // counted afresh, agent by agent
        for (int a = 0; a < agents; a++) {
            ExecutionState exec = execs[a];
            if (exec.treeRunStatus == RunStatus.RUNNING && !exec.activeStates.isEmpty()) {
                r.countOccupancy(exec.activeStates.last());
            }
        }
        long rejected = 0;
        for (long m : mismatchCounts) {
            rejected += m;
        }
        r.endTick(tickNumber, failures.total(), overflowEvents, rejected);
    }

    /** Whether a {@code why} line follows each transition line (section 10, {@code trace --explain}). */
    boolean explain;

    /** Counting for the {@link #recorder} what happens as it happens: set during a tickAll with recording on. */
    boolean recordingTick;

    /** Whether {@code why} lines are wanted for the agent being run: tracing on and explaining, or the agent watched. */
    boolean explaining() {
        return (explain && sink != null) || watched();
    }

    /** Whether the agent being run is watched ({@code Recorder.watch}). */
    private boolean watched() {
        return recorder != null && recorder.isWatched(agent);
    }

    /** Traces a line for the agent being run, if tracing is on; and keeps it if the agent is watched. */
    void trace(String line) {
        if (sink != null) {
            sink.line(agent, line);
        }
        if (watched()) {
            recorder.keep(agent, line);
        }
    }

    /** Traces a {@code why} line: for the sink only when it explains. */
    void traceWhy(String line) {
        if (sink != null && explain) {
            sink.line(agent, line);
        }
        if (watched()) {
            recorder.keep(agent, line);
        }
    }

    /** Events dropped because an agent's list was full (StateTreeRuntime#MAX_PENDING_EVENTS). */
    long overflowEvents;

    /** Adds {@code e} to an agent's event list, unless it holds the most it may: then it is counted. Returns whether added. */
    boolean enqueue(List<Event> list, Event e) {
        if (list.size() >= StateTreeRuntime.MAX_PENDING_EVENTS) {
            overflowEvents++;
            return false;
        }
        list.add(e);
        return true;
    }

    /** Rule E5's keys and counts (since creation), and scratch for one event's keys. */
    final PayloadMismatchKeys mismatchKeys;
    final long[] mismatchCounts;
    private final int[] mismatchFound;

    /**
     * Rule E5 (docs/SEMANTICS.md section 8): {@code e} just entered {@code exec}'s
     * {@code EventsToProcess} (became visible to it): counted for the recorder by tag in a tick; counts the keys under which the onEvent transitions with payload
     * fields on its active path, as it is now, reject the event, once per key.
     */
    void countVisible(ExecutionState exec, Event e) {
        if (recordingTick) {
            recorder.countArrived(e.tag(), agent); // the Recorder's events arrived per tag
        }
        if (mismatchCounts.length == 0) {
            return;
        }
        int n = 0;
        for (int i = 0; i < exec.activeStates.num; i++) {
            n = mismatchKeys.rejections(exec.activeStates.get(i), e.tag(), e.types(), 0, mismatchFound, n);
        }
        n = mismatchKeys.requiredRejections(e.tag(), e.types(), 0, mismatchFound, n); // rule V6
        for (int i = 0; i < n; i++) {
            mismatchCounts[mismatchFound[i]]++;
        }
    }

    /** An event of this tree with a copy of {@code payload} (null: none). */
    Event event(int tag, EventPayload payload) {
        return Event.of(tag, payload, tree.payloads.fieldCount());
    }

    /** Routes events sent by nodes of the agent being run, and shows the payload of the event being tested. */
    private final class Outbox implements EventOutbox, EventFields {
        @Override
        public byte eventFieldType(int row, int field) {
            return testedEvent.types()[field];
        }

        @Override
        public int eventFieldBits(int row, int field) {
            return testedEvent.bits()[field];
        }

        @Override
        public void sendToSelf(int row, int tag, EventPayload payload) {
            ExecutionState exec = execs[agent];
            Event e = event(tag, payload);
            switch (selfEventWindow) {
                case WINDOW_EVENTS_TO_PROCESS:
                    if (enqueue(exec.eventsToProcess, e)) {
                        countVisible(exec, e); // rule E5: seen by this tick's transitions
                    }
                    break;
                case WINDOW_ENTER_EXIT:
                    enqueue(exec.enterExitEvents, e);
                    break;
                default:
                    enqueue(exec.events, e);
            }
        }

        @Override
        public int generationOf(int agentId) {
            return agentId >= 0 && agentId < agents && !execs[agentId].despawned ? 0 : -1; // ids are never reused here
        }

        @Override
        public void sendToAgent(int agentId, int tag, EventPayload payload) {
            if (agentId < 0 || agentId >= agents) {
                return; // no such agent
            }
            outgoing.add(new Outgoing(agentId, event(tag, payload)));
        }
    }
}
