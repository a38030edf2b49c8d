package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.node.HostColumn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the debugger drives: a world with one StateTree runtime in it, stepped one tick at a time,
 * that can be snapshotted and restored bit-exactly (so time travel is a restore and a deterministic
 * re-simulation). A scripted scenario ({@link ScenarioTarget}) and the crowd ({@link SimTarget})
 * are the two kinds.
 *
 * <p>THREADING: called only from the debugger's session thread.
 */
interface DebugTarget extends AutoCloseable {
    /** The runtime whose agents the debugger shows. */
    StateTreeRuntime runtime();

    /** The last tick that ran (the world is as it was after it). */
    long tick();

    /** The last tick there is to run (a scenario's end), or {@link Long#MAX_VALUE}. */
    long lastTick();

    /**
     * Runs the next tick, applying its external inputs first; returns those inputs as a JSON array
     * in the scenario's input format ({@code "[]"} for none), for a recording.
     */
    String step();

    /** Tags of the events the host sends in the next tick, per agent ({@code agent < 0}: to every agent). */
    List<HostEvent> nextEvents();

    /** Whether the world can be snapshotted (time travel and recordings need it). */
    boolean canSnapshot();

    /** A snapshot of the whole world between ticks. */
    byte[] snapshot() throws IOException;

    /** Puts the world back as {@link #snapshot} saw it after tick {@code tick}. */
    void restore(byte[] snapshot, long tick) throws IOException;

    /** A hash of the whole world (the same world, the same hash, on any worker count). */
    long worldHash() throws IOException;

    /** {@link #worldHash()}, given {@code snapshot}, a {@link #snapshot} of the world just taken. */
    default long worldHash(byte[] snapshot) throws IOException {
        return worldHash();
    }

    /**
     * The per-agent host columns the debugger shows (the agent panel, the finder, column
     * breakpoints), in the order shown. By default the compiled tree's host columns, those its node
     * types read or write ({@code CompiledStateTree.hostColumns}); a target whose world has more
     * per-agent data may add its own. Called once per session (the session keeps the list).
     */
    default List<String> columnNames() {
        List<String> names = new ArrayList<>();
        for (HostColumn c : runtime().tree().hostColumns) {
            names.add(c.name());
        }
        return List.copyOf(names);
    }

    /**
     * The agent's value of {@code column}, one of {@link #columnNames()}, as a double. By default
     * the runtime's {@link StateTreeRuntime#hostValue}; a target that adds columns in
     * {@link #columnNames()} reads them here.
     *
     * @throws IllegalArgumentException for a column not shown or a despawned agent
     */
    default double columnValue(int agent, String column) {
        return runtime().hostValue(agent, column);
    }

    /**
     * How to make independent copies of this world, or null when it cannot be copied. The debugger
     * re-simulates the history on a copy, on a thread of its own, to fill the trace of an agent
     * opened late, so that the run keeps its pace meanwhile.
     */
    default Copier copier() {
        return null;
    }

    /**
     * Makes a copy of a target's world from one of its snapshots. THREADING: safe to call from any
     * thread (it reads only immutable things of the target it copies); the copy belongs to the
     * thread that made it.
     */
    @FunctionalInterface
    interface Copier {
        /**
         * A new world, as {@code snapshot} (of this target's world, taken after tick {@code tick})
         * left it, stepped by {@link DebugTarget#step}; the caller closes it. It cannot be copied in
         * turn.
         *
         * @throws IOException when the snapshot cannot be restored into a new world
         */
        DebugTarget open(byte[] snapshot, long tick) throws IOException;
    }

    /** A one-line description: what runs, how many agents, the tree. */
    String describe();

    @Override
    void close();

    /** An event the host sends to one agent (or every agent, -1) before the next tick. */
    record HostEvent(int agent, String tag) {
    }
}
