package dev.crowdtree.bench.soak;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;

/**
 * What the soak's host does before each tick, so that over a long run every input path of the
 * runtime is used and every buffer that could grow is filled and emptied again many times. All
 * choices are counter-based random draws keyed by (seed, draw, tick, stream): the same seed gives the
 * same run. Per tick {@code t}, with {@code n} agents:
 * <ol>
 *   <li>{@link #eventsPerTick} = max(1, n / 1000) agents get the event {@value SoakTrees#EVENT}
 *       (a root {@code onEvent} transition takes it, {@link SoakTrees});</li>
 *   <li>as many agents get the tree's first bool, int or float parameter set to 0 or 1 (none when
 *       the tree has no such parameter; the hierarchical tree's is {@code fatigue});</li>
 *   <li>max(1, n / 10000) agents get tick period 1 or 2 (docs/SEMANTICS.md section 12);</li>
 *   <li>every {@value #RESPAWN_EVERY} ticks, max(1, n / 1000) agents are despawned (their trees
 *       stop), then as many are spawned and started at {@code t}: the world reuses the freed ids
 *       (last freed, first reused) with a higher generation, so the population keeps its size and
 *       its ids. Each of them gets one more event just before it goes; that event and every other one
 *       queued for it (sent earlier in the step, or held since an earlier tick because its tick
 *       period of 2 skipped the step they arrived for) carry its old generation and must be dropped,
 *       not delivered to the agent that gets the id next: {@link #expectedDrops()} counts them, as
 *       the runtime reports them queued ({@code queuedEvents}) when the agent goes.</li>
 * </ol>
 * THREADING: the simulation thread, between ticks.
 */
final class HostActivity {
    /** Ticks between two despawn-and-respawn rounds. */
    static final int RESPAWN_EVERY = 100;
    private static final int EVENT_STREAM = 0x534F4531;
    private static final int PARAM_STREAM = 0x534F4532;
    private static final int PERIOD_STREAM = 0x534F4533;
    private static final int RESPAWN_STREAM = 0x534F4534;

    private final StateTreeSystem sys;
    private final World world;
    private final SoaTable table;
    private final SpawnInitializer init;
    private final long seed;
    private final String param;
    private final int eventsPerTick;
    private final int periodsPerTick;
    private final int respawnsPerRound;

    private long events;
    private long parameters;
    private long periods;
    private long respawned;
    private long expectedDrops;

    HostActivity(StateTreeSystem sys, long seed) {
        this.sys = sys;
        this.world = sys.world();
        this.table = sys.table();
        this.init = sys.spawnInitializer(SpawnInitializer.NONE);
        this.seed = seed;
        this.param = settableParameter(sys.tree());
        int n = sys.agentCount();
        this.eventsPerTick = Math.max(1, n / 1000);
        this.periodsPerTick = Math.max(1, n / 10_000);
        this.respawnsPerRound = Math.max(1, n / 1000);
    }

    /** The first parameter that 0 and 1 are valid values of (a bool, int or float, not an entity or enum), or null. */
    static String settableParameter(CompiledStateTree tree) {
        for (int p = 0; p < tree.paramCount(); p++) {
            if (!tree.paramEntity(p) && tree.enumValues(p) == null) {
                return tree.paramName(p);
            }
        }
        return null;
    }

    /** The host's inputs of tick {@code t}, sent before {@code tickAll(t, dt)}. */
    void beforeTick(long t) {
        for (int j = 0; j < eventsPerTick; j++) {
            int id = pick(j, t, EVENT_STREAM);
            sys.sendEvent(id, SoakTrees.EVENT, 0f, false);
        }
        events += eventsPerTick;
        if (param != null) {
            for (int j = 0; j < eventsPerTick; j++) {
                int id = pick(j, t, PARAM_STREAM);
                sys.setParameter(id, param, CounterRng.below(2, seed, j, t, PARAM_STREAM, 1));
            }
            parameters += eventsPerTick;
        }
        for (int j = 0; j < periodsPerTick; j++) {
            int id = pick(j, t, PERIOD_STREAM);
            sys.setTickPeriod(id, 1 << CounterRng.below(2, seed, j, t, PERIOD_STREAM, 1));
        }
        periods += periodsPerTick;
        if (t % RESPAWN_EVERY == 0) {
            respawn(t);
        }
    }

    private void respawn(long t) {
        int gone = 0;
        for (int j = 0; j < respawnsPerRound && table.size() > 0; j++) {
            int id = pick(j, t, RESPAWN_STREAM);
            // a last event, which must not reach the agent that gets this id next
            sys.sendEvent(id, SoakTrees.EVENT, 0f, false);
            events++;
            expectedDrops += queuedFor(sys, id);
            sys.despawn(id, t);
            gone++;
        }
        for (int j = 0; j < gone; j++) {
            world.commands().spawn(table, init, 0);
        }
        world.sync();
        sys.startNew(t);
        respawned += gone;
    }

    /**
     * The events queued for agent {@code id} (its current generation) that its despawn will drop:
     * those sent since the last tick and those held from earlier ticks for a step it did not take
     * part in. A respawn round only (allocates the events' descriptions).
     */
    static int queuedFor(StateTreeSystem sys, int id) {
        return sys.queuedEvents(id).size();
    }

    /** A live agent: the id in a row drawn from the current table. */
    private int pick(int draw, long t, int stream) {
        int row = CounterRng.below(table.size(), seed, draw, t, stream, 0);
        return table.agentIds().data()[row];
    }

    /** Events sent so far. */
    long events() {
        return events;
    }

    /** Parameter values set so far. */
    long parameters() {
        return parameters;
    }

    /** Tick periods set so far. */
    long periods() {
        return periods;
    }

    /** Agents despawned and respawned so far. */
    long respawned() {
        return respawned;
    }

    /** Events sent to agents that were despawned before the tick that would have delivered them. */
    long expectedDrops() {
        return expectedDrops;
    }

    /** The parameter the host sets, or null. */
    String parameter() {
        return param;
    }

    /** Agents that get an event (and a parameter value) per tick. */
    int eventsPerTick() {
        return eventsPerTick;
    }

    /** Agents despawned and respawned per round. */
    int respawnsPerRound() {
        return respawnsPerRound;
    }

    /** Agents that get a tick period per tick. */
    int periodsPerTick() {
        return periodsPerTick;
    }
}
