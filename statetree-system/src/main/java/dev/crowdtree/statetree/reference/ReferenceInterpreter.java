package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.FailureLog;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.PayloadMismatch;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.TraceFormat;
import dev.crowdtree.statetree.exec.TraceSink;
import dev.crowdtree.statetree.internal.HostDeclarations;
import dev.crowdtree.statetree.internal.LinkedParameters;
import dev.crowdtree.statetree.internal.ParameterValues;
import dev.crowdtree.statetree.node.EventPayload;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.node.ValueType;

import java.util.List;

/**
 * The per-agent reference interpreter: the oracle the batched runtime is differentially tested
 * against. It is written straight from Unreal's {@code FStateTreeExecutionContext} (seed 000:
 * {@code Start}, {@code Tick}, {@code SelectState}, {@code SelectStateInternal},
 * {@code TriggerTransitions}, {@code EnterState}, {@code ExitState}) with the deviations of
 * docs/SEMANTICS.md, and keeps the seed's structure and names so the two can be read side by side.
 * It is deliberately simple and slow: one execution state per agent, nodes called with
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
    /*
     * This class is the public façade; the work is done by one package-private class per phase:
     * - InterpreterData: what the phases share (per-agent ExecutionStates, node instance data, the
     *   agent being run, event routing);
     * - AgentLifecycle: Start, Tick and Stop of one agent (SEMANTICS.md sections 2, 3, 7);
     * - Transitions: TriggerTransitions (section 4);
     * - StateSelection: SelectState (section 5);
     * - StateChanges: EnterState and ExitState (section 6);
     * - NodeCalls and TaskTimers: evaluators, conditions, TickTasks and timers (section 3, 3.1);
     * - GlobalTasks: the global tasks (rules G1-G3);
     * - TickScheduler: tick periods and the scheduled tick (sections 11, 12).
     */

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

    /** How the interpreter decides which agents to tick (docs/SEMANTICS.md section 11). */
    public enum TickMode {
        /** Every running agent every tick, as Unreal before 5.6. */
        EVERY_TICK,
        /** Unreal 5.6's scheduled tick: after each tick an agent may sleep until its next wake-up. */
        SCHEDULED
    }

    private final InterpreterData data;
    private final ExecutionState[] execs;
    private final AgentLifecycle lifecycle;
    private final TickScheduler scheduler;

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
        if (agents < 0) {
            throw new IllegalArgumentException("agents must be >= 0, got " + agents);
        }
        this.data = new InterpreterData(tree, agents, seed);
        this.execs = data.execs;
        TaskTimers timers = new TaskTimers(data);
        NodeCalls nodes = new NodeCalls(data, timers);
        LinkedParameters linkedParameters = new LinkedParameters(tree);
        StateSelection selection = new StateSelection(data, nodes, linkedParameters);
        StateChanges changes = new StateChanges(data, timers, linkedParameters);
        Transitions transitions = new Transitions(data, nodes, selection);
        this.lifecycle = new AgentLifecycle(data, nodes, selection, transitions, changes, new GlobalTasks(data, timers));
        this.scheduler = new TickScheduler(data, nodes, timers, lifecycle, tickMode);
    }

    // =============================================================================================
    // StateTreeRuntime
    // =============================================================================================

    @Override
    public CompiledStateTree tree() {
        return data.tree;
    }

    @Override
    public int agentCount() {
        return data.agents;
    }

    @Override
    public void startAll(long tickNumber) {
        HostDeclarations.requireBound(data.tree, data.externals);
        for (int a = 0; a < data.agents; a++) {
            if (execs[a].despawned) {
                continue; // a despawned agent takes part in nothing (SEMANTICS.md section 7)
            }
            data.bindAgent(a, tickNumber, 0f);
            lifecycle.start(execs[a]);
            scheduler.started(a);
        }
        deliverOutgoing();
    }

    @Override
    public void tickAll(long tickNumber, float dt) {
        HostDeclarations.requireBound(data.tree, data.externals);
        Recorder recorder = data.recorder;
        if (recorder != null) {
            recorder.beginTick();
            data.recordingTick = true;
        }
        try {
            scheduler.tickAll(tickNumber, dt);
        } finally {
            data.recordingTick = false;
        }
        deliverOutgoing();
        if (recorder != null) {
            data.count(recorder, tickNumber);
        }
    }

    /** The tick mode this interpreter was created with. */
    public TickMode tickMode() {
        return scheduler.tickMode();
    }

    @Override
    public void setTickPeriod(int agentId, int period) {
        if (period < 1 || period > MAX_TICK_PERIOD || Integer.bitCount(period) != 1) {
            throw new IllegalArgumentException("tick period " + period + (agentId >= 0 ? " for agent " + agentId : "")
                    + " is not valid; valid periods are 1, 2, 4, 8, 16, 32, " + MAX_TICK_PERIOD);
        }
        int log = Integer.numberOfTrailingZeros(period);
        if (agentId == ALL) {
            for (int a = 0; a < data.agents; a++) {
                scheduler.requestPeriod(a, log);
            }
        } else {
            checkAgent(agentId);
            scheduler.requestPeriod(agentId, log);
        }
    }

    @Override
    public int tickPeriod(int agentId) {
        checkAgent(agentId);
        return 1 << execs[agentId].periodLog;
    }

    @Override
    public int awakeLastTick() {
        return scheduler.awakeLastTick();
    }

    @Override
    public void stop(int agentId, long tickNumber) {
        if (agentId == ALL) {
            for (int a = 0; a < data.agents; a++) {
                data.bindAgent(a, tickNumber, 0f);
                lifecycle.stop(execs[a]);
            }
        } else {
            checkAgent(agentId);
            data.bindAgent(agentId, tickNumber, 0f);
            lifecycle.stop(execs[agentId]);
        }
        deliverOutgoing();
    }

    @Override
    public void setParameter(int agentId, String name, double value) {
        CompiledStateTree tree = data.tree;
        int p = ParameterValues.require(tree, name, value);
        int genSlot = tree.paramGenerationSlot(p);
        int generation = genSlot < 0 ? 0 : data.ctx.generationOf((int) value);
        if (agentId == ALL) {
            for (int a = 0; a < data.agents; a++) {
                data.ctx.write(tree.paramType(p), tree.paramSlot(p), a, value);
                if (genSlot >= 0) {
                    data.ctx.write(ValueType.INT, genSlot, a, generation); // an entity is a handle (issue 11)
                }
                scheduler.wakeUp(a);
            }
        } else {
            checkAgent(agentId);
            data.ctx.write(tree.paramType(p), tree.paramSlot(p), agentId, value);
            if (genSlot >= 0) {
                data.ctx.write(ValueType.INT, genSlot, agentId, generation);
            }
            scheduler.wakeUp(agentId);
        }
    }

    @Override
    public void sendEvent(int agentId, String tag, Payload payload) {
        CompiledStateTree t = data.tree;
        int id = t.eventTagId(tag);
        if (id < 0) {
            if (agentId != ALL) {
                checkAgent(agentId);
            }
            return; // no transition could match it: dropped before any window (section 8), as the batched runtime does
        }
        Event e = data.event(id, t.payloads.fill(payload, new EventPayload(t.payloads.fieldCount())));
        if (agentId == ALL) {
            for (int a = 0; a < data.agents; a++) {
                queueEvent(a, e);
            }
        } else {
            checkAgent(agentId);
            queueEvent(agentId, e);
        }
    }

    @Override
    public void setHostValue(int agentId, String column, double value) {
        int c = HostDeclarations.checkedColumn(data.tree, column, value);
        HostColumn.Type type = data.tree.hostColumns.get(c).type();
        if (agentId == ALL) {
            for (int a = 0; a < data.agents; a++) {
                type.set(data.hostColumns[c], a, value);
            }
        } else {
            checkAgent(agentId);
            type.set(data.hostColumns[c], agentId, value);
        }
    }

    @Override
    public double hostValue(int agentId, String column) {
        int c = HostDeclarations.column(data.tree, column);
        checkAgent(agentId);
        return data.tree.hostColumns.get(c).type().get(data.hostColumns[c], agentId);
    }

    @Override
    public void setNodeErrorPolicy(NodeErrorPolicy policy) {
        data.isolate = policy == NodeErrorPolicy.ISOLATE;
    }

    @Override
    public FailureLog failures() {
        return data.failures;
    }

    @Override
    public long overflowedEvents() {
        return data.overflowEvents;
    }

    @Override
    public List<PayloadMismatch> unmatchedPayloads() {
        return data.mismatchKeys.report(data.mismatchCounts);
    }

    @Override
    public void bindExternal(String name, Object value) {
        data.externals[HostDeclarations.external(data.tree, name, value)] = value;
    }

    @Override
    public void setExplain(boolean explain) {
        data.explain = explain;
    }

    @Override
    public void setRecording(boolean on) {
        data.recorder = on ? new Recorder(data.tree) : null;
    }

    @Override
    public Recorder recorder() {
        return data.recorder;
    }

    @Override
    public void setTrace(TraceSink traceSink) {
        data.sink = traceSink;
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
        return active.isEmpty() ? "" : data.tree.statePath(active.last());
    }

    @Override
    public int activeState(int agentId) {
        checkAgent(agentId);
        ActiveStates active = execs[agentId].activeStates;
        return active.isEmpty() ? -1 : active.last();
    }

    @Override
    public double parameter(int agentId, int param) {
        checkAgent(agentId);
        CompiledStateTree t = data.tree;
        if (param < 0 || param >= t.paramCount()) {
            throw new IllegalArgumentException("no parameter " + param + " in tree '" + t.name + "'; valid are 0.."
                    + (t.paramCount() - 1) + " " + t.paramNames().toString());
        }
        int slot = t.paramSlot(param);
        switch (t.paramType(param)) {
            case FLOAT:
                return data.floats[slot][agentId];
            case INT:
                return data.ints[slot][agentId];
            default:
                return data.bools[slot][agentId] != 0 ? 1 : 0;
        }
    }

    @Override
    public List<String> queuedEvents(int agentId) {
        checkAgent(agentId);
        List<String> out = new java.util.ArrayList<>();
        for (Event e : execs[agentId].events) {
            out.add(TraceFormat.event(data.tree, e.tag(), e.types(), e.bits(), 0));
        }
        return out;
    }

    @Override
    public void snapshot(java.io.OutputStream out) throws java.io.IOException {
        ReferenceSnapshot.write(data, scheduler, out);
    }

    @Override
    public void restore(java.io.InputStream in) throws java.io.IOException {
        ReferenceSnapshot.restore(data, scheduler, in);
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
        return data.floats[slot][agentId];
    }

    /** Events queued for the agent's next tick. */
    int queuedEventCount(int agentId) {
        return execs[agentId].events.size();
    }

    // =============================================================================================
    // Plumbing
    // =============================================================================================

    private void checkAgent(int agentId) {
        if (agentId < 0 || agentId >= data.agents) {
            throw new IllegalArgumentException("agent " + agentId + " is out of range 0.." + (data.agents - 1));
        }
        if (execs[agentId].despawned) {
            throw new IllegalArgumentException("agent " + agentId + " was despawned");
        }
    }

    @Override
    public void despawn(int agentId, long tickNumber) {
        stop(agentId, tickNumber);
        execs[agentId].despawned = true;
    }

    /** Queues an event for agent {@code a}'s next tick, and wakes it. */
    private void queueEvent(int a, Event e) {
        data.enqueue(execs[a].events, e);
        scheduler.wakeUp(a);
    }

    /** Delivers the events sent to other agents during this call, in sender order then send order. */
    private void deliverOutgoing() {
        for (InterpreterData.Outgoing o : data.outgoing) {
            queueEvent(o.target(), o.event());
        }
        data.outgoing.clear();
    }
}
