package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.util.Arrays;

/**
 * What a runtime's last tick did, counted over the whole population (docs/SEMANTICS.md section 10,
 * "Counters"; {@link StateTreeRuntime#setRecording}): how many running agents sit in each state
 * (their active path's last state) after the tick, how often each transition fired, how often a
 * composite's rule fired one and the tree restarted from the root, and the node failures, dropped
 * and rejected events of the tick. The batched runtime counts per chunk inside its kernels and sums
 * the chunks in chunk order, so the numbers are the same on any number of workers, and the same as
 * the reference interpreter's. Also per tick: how often agents entered each state ({@link #entered})
 * and how many events of each tag arrived ({@link #eventsArrived}), with the first {@value #NAMED}
 * agents of each of these and of each transition fired ({@link #enteredAgents}, {@link #firedAgents},
 * {@link #arrivedAgents}: in the batched runtime's chunk order, then the order of the chunk's work;
 * the reference interpreter's agent order); and the explained trace of a
 * bounded set of watched agents ({@link #watch}), each in a ring of its last lines.
 *
 * <p>Allocation: none in a tick but the text of a watched agent's lines, made when it prints some;
 * watching allocates an agent's ring at its slot's first use. THREADING: written by the runtime during a tick, read by
 * the simulation thread between ticks.
 */
public final class Recorder {
    /** How many agents of each per-tick count are named ({@link #firedAgents} and the like): the first ones. */
    public static final int NAMED = 3;
    private final CompiledStateTree tree;
    final long[] occupancy;
    final long[] fired;
    /** {@link #NAMED} agent ids per transition, state and tag: the first to fire, enter, receive in the tick. */
    final int[] firedIds, enteredIds, arrivedIds;
    long compositeRules;
    long restarts;
    long requests;
    private long tick = -1;
    private long failures, dropped, rejected;
    private long failuresTotal, droppedTotal, rejectedTotal;

    public Recorder(CompiledStateTree tree) {
        this.tree = tree;
        this.occupancy = new long[tree.stateCount];
        this.fired = new long[tree.transitionCount];
        this.entered = new long[tree.stateCount];
        this.tags = tree.tags();
        this.arrived = new long[tags.size()];
        this.firedIds = new int[NAMED * fired.length];
        this.enteredIds = new int[NAMED * entered.length];
        this.arrivedIds = new int[NAMED * arrived.length];
    }

    /**
     * The batched runtime's counts of a tick: the chunks' occupancies and transitions, summed in chunk
     * order ({@link ChunkOutput}).
     */
    void add(ChunkOutput[] outputs, int chunks, boolean countedAll) {
        if (countedAll) {
            clearOccupancy(); // the chunks counted every row; else they counted what their transitions changed
        }
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            for (int s = 0; s < occupancy.length; s++) {
                occupancy[s] += o.occupancy[s];
            }
            for (int tr = 0; tr < fired.length; tr++) {
                fired[tr] = named(firedIds, tr, fired[tr], o.firedIds, o.fired[tr]);
            }
            for (int s = 0; s < entered.length; s++) {
                entered[s] = named(enteredIds, s, entered[s], o.enteredIds, o.entered[s]);
            }
            for (int g = 0; g < arrived.length; g++) {
                arrived[g] = named(arrivedIds, g, arrived[g], o.arrivedIds, o.arrived[g]);
            }
            compositeRules += o.compositeRules;
            restarts += o.restarts;
            requests += o.requests;
        }
    }

    /**
     * Adds a chunk's count {@code more} of counter {@code k} to {@code had}, with the chunk's first agents
     * {@code from} after the ones named already (up to {@link #NAMED}); returns the sum.
     */
    private static long named(int[] ids, int k, long had, int[] from, long more) {
        for (long j = 0; j < more && had + j < NAMED; j++) {
            ids[k * NAMED + (int) (had + j)] = from[k * NAMED + (int) j];
        }
        return had + more;
    }

    /** Counts one more of counter {@code k} in {@code counts}, naming {@code agent} when among the first {@link #NAMED}. */
    static void count(long[] counts, int[] ids, int k, int agent) {
        long n = counts[k]++;
        if (n < NAMED) {
            ids[k * NAMED + (int) n] = agent;
        }
    }

    /** The first agents (up to {@link #NAMED}) of counter {@code k}. */
    private static int[] first(long[] counts, int[] ids, int k) {
        return Arrays.copyOfRange(ids, k * NAMED, k * NAMED + (int) Math.min(NAMED, counts[k]));
    }

    /** Forgets the occupancy, before it is counted afresh. */
    public void clearOccupancy() {
        Arrays.fill(occupancy, 0);
    }

    /** One running agent whose active path ends at {@code state}. */
    public void countOccupancy(int state) {
        occupancy[state]++;
    }

    /**
     * One transition that fired for {@code agent}: {@code transition} >= 0, or -1 for the restart from
     * the root, -3 for a transition a task requested, or any other negative value for a transition a
     * composite's rule fired.
     */
    public void countFired(int transition, int agent) {
        if (transition >= 0) {
            count(fired, firedIds, transition, agent);
        } else if (transition == -1) {
            restarts++;
        } else if (transition == -3) {
            requests++;
        } else {
            compositeRules++;
        }
    }

    // ---- for the host ----------------------------------------------------------------------------

    /** The tree counted. */
    public CompiledStateTree tree() {
        return tree;
    }

    // ---- for the runtimes ------------------------------------------------------------------------

    /** Starts the counts of a tick (the occupancy is kept: see {@link #clearOccupancy}). */
    public void beginTick() {
        Arrays.fill(fired, 0);
        Arrays.fill(entered, 0);
        Arrays.fill(arrived, 0);
        compositeRules = 0;
        restarts = 0;
        requests = 0;
    }

    /**
     * Ends the counts of tick {@code tickNumber}: the node failures, dropped and rejected events are
     * what the runtime's running totals grew by since the last tick.
     */
    public void endTick(long tickNumber, long failuresNow, long droppedNow, long rejectedNow) {
        tick = tickNumber;
        failures = failuresNow - failuresTotal;
        dropped = droppedNow - droppedTotal;
        rejected = rejectedNow - rejectedTotal;
        failuresTotal = failuresNow;
        droppedTotal = droppedNow;
        rejectedTotal = rejectedNow;
    }

    /** The tick these counts are of (-1 before the first). */
    public long tick() {
        return tick;
    }

    /** Running agents whose active path ends at {@code state} after the tick. */
    public long occupancy(int state) {
        return occupancy[state];
    }

    /** Running agents on a path through {@code state} (it or a state below it ends the path) after the tick. */
    public long occupancyBelow(int state) {
        long n = 0;
        for (int s = state, end = tree.stateSubtreeEnd(state); s < end; s++) {
            n += occupancy[s];
        }
        return n;
    }

    /** Running agents after the tick. */
    public long running() {
        return occupancyBelow(0);
    }

    /** How often transition {@code transition} fired in the tick (every round, every agent). */
    public long fired(int transition) {
        return fired[transition];
    }

    /** How often a composite's rule fired a transition in the tick (rules K4, K5). */
    public long compositeRules() {
        return compositeRules;
    }

    /**
     * How often a task's transition request fired in the tick (rules O1-O4; not in recordings' files
     * yet, which keep format version 1).
     */
    public long requests() {
        return requests;
    }

    /** How often a tree restarted from the root in the tick (section 4). */
    public long restarts() {
        return restarts;
    }

    /** Node failures in the tick (rule R1; under {@code NodeErrorPolicy.ISOLATE}). */
    public long failures() {
        return failures;
    }

    /** Events dropped in the tick because an agent's list or a buffer was full. */
    public long droppedEvents() {
        return dropped;
    }

    /** Events an onEvent transition with payload fields rejected in the tick (rule E5). */
    public long rejectedEvents() {
        return rejected;
    }
    // ---- watched agents and per-tick detail (issue 21) -----------------------------------------

    /** Default {@link #maxWatched()}. */
    public static final int DEFAULT_MAX_WATCHED = 65_536;
    /** Default {@link #linesPerAgent()}. */
    public static final int DEFAULT_LINES_PER_AGENT = 64;

    private int maxWatched = DEFAULT_MAX_WATCHED;
    private int linesPerAgent = DEFAULT_LINES_PER_AGENT;
    /** Per agent id, its watch slot or -1 ({@code length} may be less than the agent count: a missing entry is -1). */
    private int[] slotOf = new int[0];
    /**
     * Per agent id, a bit set while it is watched (a missing word is 0): what the batched runtime's
     * chunks read for a row that would print a line (a 1M-agent population's bits fit in 128 KB).
     */
    long[] watchBits = new long[0];
    private int watched;
    /** Per slot: the watched agent (-1: free), its ring (allocated at the slot's first use), head and size. */
    private int[] agentOfSlot = new int[0];
    private String[][] rings = new String[0][];
    private int[] head = new int[0], size = new int[0];
    private int[] freeSlots = new int[0];
    private int freeCount;
    private int slotsUsed; // slots ever handed out (the free list holds the returned ones)
    /** Per state, its enter lines in the tick (counted like {@link #fired}). */
    final long[] entered;
    /** Per event tag id, the events that became visible to an agent in the tick. */
    final long[] arrived;
    private final java.util.List<String> tags;

    /**
     * Watches {@code agent}: from now on its explained trace lines (the lines {@code trace
     * --explain} prints for it, {@code why} lines included, whether or not a trace sink is set or
     * explaining is on) are kept in a ring of the last {@link #linesPerAgent()} lines. Watching an
     * agent already watched does nothing. Allocation: the agent's ring, at the first use of its
     * slot; a watched agent's line text is allocated when it prints a line (the runtime makes the
     * line only for a watched or traced agent); nothing else per tick.
     *
     * @throws IllegalArgumentException for a negative agent id, or when {@link #maxWatched()} agents
     *                                  are watched already
     */
    public void watch(int agent) {
        if (agent < 0) {
            throw new IllegalArgumentException("agent " + agent + " cannot be watched; agent ids are >= 0");
        }
        if (isWatched(agent)) {
            return;
        }
        if (watched >= maxWatched) {
            throw new IllegalArgumentException("cannot watch agent " + agent + ": " + watched
                    + " agents are watched already, the most allowed (setWatchLimits(maxAgents, linesPerAgent) raises it;"
                    + " unwatch one first)");
        }
        if (agent >= slotOf.length) {
            int n = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(agent + 1L, slotOf.length * 2L));
            int old = slotOf.length;
            slotOf = Arrays.copyOf(slotOf, n);
            Arrays.fill(slotOf, old, n, -1);
        }
        if ((agent >>> 6) >= watchBits.length) {
            watchBits = Arrays.copyOf(watchBits, Math.max((agent >>> 6) + 1, watchBits.length * 2));
        }
        watchBits[agent >>> 6] |= 1L << agent;
        if (agentOfSlot.length == 0) {
            agentOfSlot = new int[maxWatched];
            rings = new String[maxWatched][];
            head = new int[maxWatched];
            size = new int[maxWatched];
            freeSlots = new int[maxWatched];
        }
        int slot = freeCount > 0 ? freeSlots[--freeCount] : slotsUsed++;
        if (rings[slot] == null) {
            rings[slot] = new String[linesPerAgent];
        }
        head[slot] = 0;
        size[slot] = 0;
        agentOfSlot[slot] = agent;
        slotOf[agent] = slot;
        watched++;
    }

    /** Stops watching {@code agent} and forgets its lines (nothing when it is not watched). */
    public void unwatch(int agent) {
        if (!isWatched(agent)) {
            return;
        }
        int slot = slotOf[agent];
        slotOf[agent] = -1;
        watchBits[agent >>> 6] &= ~(1L << agent);
        Arrays.fill(rings[slot], null);
        head[slot] = 0;
        size[slot] = 0;
        agentOfSlot[slot] = -1;
        freeSlots[freeCount++] = slot;
        watched--;
    }

    /** Whether {@code agent} is watched. */
    public boolean isWatched(int agent) {
        return agent >= 0 && agent < slotOf.length && slotOf[agent] >= 0;
    }

    /** How many agents are watched. */
    public int watchedCount() {
        return watched;
    }

    /** The most agents that can be watched at once ({@value #DEFAULT_MAX_WATCHED} by default). */
    public int maxWatched() {
        return maxWatched;
    }

    /** How many lines each watched agent's ring keeps ({@value #DEFAULT_LINES_PER_AGENT} by default). */
    public int linesPerAgent() {
        return linesPerAgent;
    }

    /**
     * Sets the bounds of watching: at most {@code maxAgents} agents, {@code linesPerAgent} lines each.
     * Forgets every watched agent.
     *
     * @throws IllegalArgumentException when a bound is below 1
     */
    public void setWatchLimits(int maxAgents, int linesPerAgent) {
        if (maxAgents < 1 || linesPerAgent < 1) {
            throw new IllegalArgumentException("watch limits " + maxAgents + " agents, " + linesPerAgent
                    + " lines per agent are not valid; both must be >= 1");
        }
        this.maxWatched = maxAgents;
        this.linesPerAgent = linesPerAgent;
        slotOf = new int[0];
        watchBits = new long[0];
        watched = 0;
        agentOfSlot = new int[0];
        rings = new String[0][];
        head = new int[0];
        size = new int[0];
        freeSlots = new int[0];
        freeCount = 0;
        slotsUsed = 0;
    }

    /** The watched agent's kept lines, oldest first (empty when it is not watched). */
    public java.util.List<String> trace(int agent) {
        if (!isWatched(agent)) {
            return java.util.List.of();
        }
        int slot = slotOf[agent];
        String[] ring = rings[slot];
        java.util.List<String> lines = new java.util.ArrayList<>(size[slot]);
        for (int i = 0, n = size[slot]; i < n; i++) {
            lines.add(ring[(head[slot] + i) % ring.length]);
        }
        return lines;
    }

    /** Adds {@code line} to watched agent {@code agent}'s ring, dropping its oldest line when full. */
    public void keep(int agent, String line) {
        int slot = agent < slotOf.length ? slotOf[agent] : -1;
        if (slot < 0) {
            return;
        }
        String[] ring = rings[slot];
        int n = size[slot];
        if (n < ring.length) {
            ring[(head[slot] + n) % ring.length] = line;
            size[slot] = n + 1;
        } else {
            ring[head[slot]] = line;
            head[slot] = (head[slot] + 1) % ring.length;
        }
    }

    /** The batched runtime's trace lines of a phase: each watched agent's, in chunk order, into its ring. */
    void keep(ChunkOutput[] outputs, int chunks) {
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            int[] agents = o.traceAgents.data;
            for (int i = 0, n = o.traceLines.size(); i < n; i++) {
                keep(agents[i], o.traceLines.get(i));
            }
        }
    }

    /** How many times agents entered {@code state} in the tick (its {@code enter} lines, any change type). */
    public long entered(int state) {
        return entered[state];
    }

    /**
     * How many events tagged exactly {@code tag} arrived at an agent in the tick (became visible to
     * it, from the host or sent by a node); 0 for a tag the tree does not know. (An event sent with
     * a tag the tree does not use travels as its nearest ancestor the tree uses, and is counted under
     * that one.)
     */
    public long eventsArrived(String tag) {
        int id = tags.indexOf(tag);
        return id < 0 ? 0 : arrived[id];
    }

    /** One enter line of {@code state} of {@code agent} (the reference interpreter, in a tick). */
    public void countEntered(int state, int agent) {
        count(entered, enteredIds, state, agent);
    }

    /** One event of tag id {@code tag} became visible to {@code agent} (the reference interpreter, in a tick). */
    public void countArrived(int tag, int agent) {
        count(arrived, arrivedIds, tag, agent);
    }

    /** The first agents (at most {@link #NAMED}) for which {@code transition} fired in the tick, in the order above. */
    public int[] firedAgents(int transition) {
        return first(fired, firedIds, transition);
    }

    /** The first agents (at most {@link #NAMED}) that entered {@code state} in the tick. */
    public int[] enteredAgents(int state) {
        return first(entered, enteredIds, state);
    }

    /** The first agents (at most {@link #NAMED}) an event tagged exactly {@code tag} arrived at in the tick (none for an unknown tag). */
    public int[] arrivedAgents(String tag) {
        int id = tags.indexOf(tag);
        return id < 0 ? new int[0] : first(arrived, arrivedIds, id);
    }
}
