package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.Payload;

import java.util.List;

/**
 * What the scenario runner, the command line and the tests drive: a population of agents
 * {@code 0 .. agentCount()-1}, each running one instance of a compiled tree. Implemented by the
 * batched {@link StateTreeSystem} and by the per-agent
 * {@link dev.crowdtree.statetree.reference.ReferenceInterpreter}; both must produce identical traces.
 *
 * <p>Tick numbers are given by the caller: 0 for the initial start, then 1, 2, ...; they key the
 * random streams and prefix trace lines. THREADING: call from one thread.
 */
public interface StateTreeRuntime extends AutoCloseable {
    /** Agent id meaning "every agent" for {@link #setParameter} and {@link #sendEvent}. */
    int ALL = -1;

    CompiledStateTree tree();

    int agentCount();

    /** Start (docs/SEMANTICS.md section 2) for every agent, in agent order. */
    void startAll(long tick);

    /** One Tick (section 3) of every agent. */
    void tickAll(long tick, float dt);

    /** Stop (section 7) for one agent, or {@link #ALL}. */
    void stop(int agent, long tick);

    /** Sets a tree parameter for one agent or {@link #ALL}; the value is converted to the parameter's type. */
    void setParameter(int agent, String name, double value);

    /** Sets enum parameter {@code name} to the value named {@code value} (for one agent or {@link #ALL}). */
    default void setParameter(int agent, String name, String value) {
        setParameter(agent, name, tree().requireEnumValue(name, value));
    }

    /**
     * Queues an event for one agent or {@link #ALL}, seen in the next tick, with {@code payload}
     * (null: none). Unknown tags match nothing; payload fields no transition declares are dropped
     * (nothing could read them).
     */
    void sendEvent(int agent, String tag, Payload payload);

    /** Queues an event with the number payload {@code payload} (field {@code value}) when {@code hasPayload}. */
    default void sendEvent(int agent, String tag, float payload, boolean hasPayload) {
        sendEvent(agent, tag, hasPayload ? Payload.number(payload) : null);
    }

    /**
     * Queues an event with a payload of named fields ({@link Payload#of}: Boolean, Integer or
     * Float/Double values), e.g. {@code sendEvent(0, "Noise", Map.of("volume", 12.5))}.
     *
     * @throws IllegalArgumentException for a field with a reserved name or a value of another kind
     */
    default void sendEvent(int agent, String tag, java.util.Map<String, ?> payload) {
        sendEvent(agent, tag, Payload.of(payload));
    }

    /**
     * What a node that throws does (rules R1-R4, docs/SEMANTICS.md section 14): {@link
     * NodeErrorPolicy#FAIL} (the default) ends the call with the exception; {@link
     * NodeErrorPolicy#ISOLATE} fails only the agents the throwing call was processing.
     */
    void setNodeErrorPolicy(NodeErrorPolicy policy);

    /** The node failures recorded under {@link NodeErrorPolicy#ISOLATE}. */
    FailureLog failures();

    /**
     * Most events an agent holds at once in one window (queued for its next tick, seen in this
     * tick, or sent during a round's ExitState/EnterState); more are dropped and counted in
     * {@link #overflowedEvents()}. Unreal caps an instance's events at 64 too.
     */
    int MAX_PENDING_EVENTS = 64;

    /** Events dropped because an agent's list was full ({@link #MAX_PENDING_EVENTS}) or a buffer was. */
    long overflowedEvents();

    /**
     * Events an onEvent transition with payload fields rejected for a missing field or a field of
     * another type (docs/SEMANTICS.md section 8, rule E5), counted per (tag, field, reason) when
     * they became visible to their agent, since this runtime was created; sorted by tag, field,
     * reason, only keys with a count. The same in both runtimes and on any number of workers. Not
     * part of a snapshot: {@link #restore} leaves the counts as they are.
     */
    List<PayloadMismatch> unmatchedPayloads();

    /**
     * Transition rounds per tick at most (Unreal's {@code MaxIterations}; docs/SEMANTICS.md section 3,
     * rule D11a): a transition that would follow the fifth waits for the next tick. Both runtimes use it.
     */
    int MAX_TRANSITION_ROUNDS = 5;

    /** Largest tick period ({@link #setTickPeriod}). */
    int MAX_TICK_PERIOD = 64;

    /**
     * Sets the tick period of one agent or {@link #ALL}: 1, 2, 4, ..., {@value #MAX_TICK_PERIOD}. An
     * agent with period p takes part in every p-th tick with dt multiplied by p; a change takes effect
     * at the first tick aligned to both periods (docs/SEMANTICS.md section 12). In a tree whose states
     * declare tick periods this is the agent's LOD period: it ticks with the larger of it and the
     * smallest period on its active path (section 19, rules Z2-Z5).
     *
     * @throws IllegalArgumentException for a period that is not a power of two in range, or an unknown agent
     */
    void setTickPeriod(int agent, int period);

    /**
     * The agent's tick period in effect (a requested change, or one its states ask for, shows once it
     * takes effect).
     */
    int tickPeriod(int agent);

    /**
     * Agents that were awake in the last {@link #tickAll}: took part (section 12) and ran their tick
     * beyond the evaluators. A runtime without sleeping counts every running agent that took part.
     */
    int awakeLastTick();

    /** Turns tracing on (non-null) or off. */
    void setTrace(TraceSink sink);

    /**
     * With tracing on, follows each {@code transition} line with a {@code why} line saying what fired
     * it (docs/SEMANTICS.md section 10; {@code trace --explain}). Off by default; costs nothing off.
     */
    void setExplain(boolean explain);

    /**
     * Turns the population counters on (a fresh {@link Recorder}, counting from the next tick) or
     * off (counting nothing, costing nothing).
     */
    void setRecording(boolean on);

    /** The counters of the last tick ({@link Recorder}), or null when recording is off. */
    Recorder recorder();

    /**
     * Removes {@code agent}: its tree stops first (ExitState of its active states, traced as a
     * stop, at {@code tick}); afterwards the agent takes part in nothing and naming it is an error.
     */
    void despawn(int agent, long tick);

    /**
     * Binds the host object the tree's nodes need under {@code name} (see
     * {@code CompiledStateTree.externals}); every external must be bound before the first tick.
     */
    void bindExternal(String name, Object value);

    /**
     * Sets host column {@code column} (one the tree's nodes declare, {@code CompiledStateTree.hostColumns})
     * of one agent or {@link #ALL} to {@code value}, converted to the column's type; seen by the
     * nodes from the next tick. Between ticks only.
     *
     * @throws IllegalArgumentException for a column the tree does not declare, a value the column
     *                                  cannot hold, or an unknown agent
     */
    void setHostValue(int agent, String column, double value);

    /**
     * The agent's value of host column {@code column}, as a double.
     *
     * @throws IllegalArgumentException for a column the tree does not declare or an unknown agent
     */
    double hostValue(int agent, String column);

    /** The agent's tree run status ({@link dev.crowdtree.statetree.node.RunStatus}). */
    byte treeStatus(int agent);

    /** The agent's active path ({@code Root/A/B}), or "" when none. */
    String activePath(int agent);

    /**
     * The id of the last state of the agent's active path, or -1 when none.
     *
     * @throws IllegalArgumentException for an unknown or despawned agent
     */
    int activeState(int agent);

    /**
     * The agent's value of parameter {@code param} (an index into {@code tree().paramName}), as a
     * double: a bool as 1 or 0, an enum as its value's index.
     *
     * @throws IllegalArgumentException for an unknown or despawned agent, or an unknown parameter
     */
    double parameter(int agent, int param);

    /**
     * The events queued for the agent's next tick, oldest first, each written as the trace writes
     * an event ({@code Tag} or {@code Tag {field=value, ...}}, {@code TraceFormat.event}). (The batched
     * runtime's queue of other threads, {@code externalEvents()}, is drained at the next tick's start:
     * its events are not listed before.)
     *
     * @throws IllegalArgumentException for an unknown or despawned agent
     */
    List<String> queuedEvents(int agent);

    /**
     * Writes a snapshot of the whole runtime between ticks (docs/SNAPSHOT.md): a versioned binary
     * format with the tree's fingerprint and a checksum, covering the agents, every column or slot,
     * the trees' instance data, timers, the events queued for the next tick and the step and tick
     * counters. {@code out} is not closed.
     */
    void snapshot(java.io.OutputStream out) throws java.io.IOException;

    /**
     * Replaces this runtime's state with a snapshot {@link #snapshot} wrote, read to the end of
     * {@code in}; ticking on gives exactly what the snapshotted runtime would have given. The whole
     * snapshot is read and verified first: a truncated, corrupted, wrong-version or wrong-tree
     * snapshot is refused with a {@link dev.crowdtree.core.storage.SnapshotException} (one line)
     * and nothing is changed. Tracing, the node error policy and bound externals are not part of a
     * snapshot; they stay as they are.
     *
     * @throws java.io.IOException reading {@code in}, or a {@code SnapshotException}
     */
    void restore(java.io.InputStream in) throws java.io.IOException;

    @Override
    void close();
}
