package dev.crowdtree.bench.compare;

import com.badlogic.gdx.ai.btree.BehaviorTree;
import com.badlogic.gdx.ai.btree.LeafTask;
import com.badlogic.gdx.ai.btree.Task;
import com.badlogic.gdx.ai.btree.branch.DynamicGuardSelector;
import com.badlogic.gdx.ai.btree.branch.Parallel;
import com.badlogic.gdx.ai.btree.branch.Sequence;
import com.badlogic.gdx.ai.btree.decorator.Repeat;
import com.badlogic.gdx.utils.Array;

import static dev.crowdtree.bench.compare.Logic.A_FAREWELL;
import static dev.crowdtree.bench.compare.Logic.A_GREET;
import static dev.crowdtree.bench.compare.Logic.A_HIDE;
import static dev.crowdtree.bench.compare.Logic.A_IDLE;
import static dev.crowdtree.bench.compare.Logic.A_RUN;
import static dev.crowdtree.bench.compare.Logic.A_TRADE;
import static dev.crowdtree.bench.compare.Logic.CUSTOMER_HIGH;
import static dev.crowdtree.bench.compare.Logic.THREAT_HIGH;

/**
 * gdx-ai's {@link BehaviorTree}, one tree instance per agent, running the aborts variant (the
 * merchant of {@code AbortTrees.aborts()}). gdx-ai has no observer aborts; its
 * {@link DynamicGuardSelector} re-evaluates its children's guards at every step, in order, and
 * cancels the running child when an earlier child's guard passes. That is the construction used,
 * with one change to make it the BT's "abort lower priority" and not also "abort self": a branch's
 * guard ({@link Watch}) passes while its own branch is running, so a running Flee or Serve is not
 * cancelled when its condition stops holding (a plain guard would end Flee as soon as the threat
 * drops below 0.8, which our tree, the floor and Dominion do not do).
 *
 * <pre>
 * Parallel(sequence policy)                          root: both children run every step
 *   Perceive                                         leaf, always RUNNING: the two waves (the evaluators)
 *   Repeat(forever)                                  = the root restarting after the selector finishes
 *     DynamicGuardSelector                           = Root, the selector
 *       [guard Watch(threat &gt; 0.8)]   Sequence(Delay Run, Delay Hide)                    = Flee
 *       [guard Watch(customer &gt; 0.5)] Sequence(Delay Greet, Delay Trade, Delay Farewell) = Serve
 *                                     Delay Idle                                          = Idle
 * </pre>
 *
 * <p>The rest matches the StateTree the way {@link GdxBtPopulation} does: {@link Delay} counts down
 * from its second run on (gdx-ai runs a task in the step it starts, a StateTree ticks a state's
 * tasks from the tick after it was entered). Guards run before the running child in a step, so an
 * abort wins over a child completing in the same step, as Serve's {@code high} abort wins over the
 * sequence's next child; DynamicGuardSelector's child order is the priority order, so on Idle the
 * threat outranks the customer. When a branch succeeds, the selector succeeds and {@code Repeat}
 * runs it again in the same step: its guards choose anew, as our restart from the root does.
 */
final class GdxBtAbortsPopulation implements Population {
    /** The blackboard: the per-agent object the tree's tasks read and write. */
    static final class Agent {
        final int id;
        final PeerClock clock;
        float time;
        float phase;
        float threat;
        float customerPhase;
        float customer;
        /** Our state id of the running leaf (for the occupancy comparison only). */
        int state = -1;
        BehaviorTree<Agent> tree;

        Agent(int id, PeerClock clock) {
            this.id = id;
            this.clock = clock;
        }
    }

    /** The two wave evaluators: start with the tree (draw the phases), then update every step. */
    static final class Perceive extends LeafTask<Agent> {
        @Override
        public void start() {
            Agent a = getObject();
            Logic l = a.clock.logic;
            a.time = 0f;
            a.phase = l.phase(a.clock.seed, a.id);
            a.customerPhase = l.customerPhase(a.clock.seed, a.id);
        }

        @Override
        public Status execute() {
            Agent a = getObject();
            Logic l = a.clock.logic;
            float t = a.time + a.clock.dt;
            a.time = t;
            a.threat = Logic.wave(t, l.waveInv, a.phase);
            a.customer = Logic.wave(t, l.customerInv, a.customerPhase);
            return Status.RUNNING;
        }

        @Override
        protected Task<Agent> copyTo(Task<Agent> task) {
            return task;
        }
    }

    /** A timed leaf state: draws its wait at start, counts it down from the next step on. */
    static final class Delay extends LeafTask<Agent> {
        private final int leaf;
        private float remaining;
        private boolean entered;

        Delay(int leaf) {
            this.leaf = leaf;
        }

        @Override
        public void start() {
            Agent a = getObject();
            PeerClock c = a.clock;
            remaining = c.logic.delay(leaf, c.seed, a.id, c.tick);
            entered = true;
            a.state = c.logic.treeState[leaf];
        }

        @Override
        public Status execute() {
            if (entered) {
                entered = false;
                return Status.RUNNING;
            }
            float left = remaining - getObject().clock.dt;
            remaining = left;
            return left <= 0f ? Status.SUCCEEDED : Status.RUNNING;
        }

        @Override
        protected Task<Agent> copyTo(Task<Agent> task) {
            throw new UnsupportedOperationException("built per agent");
        }
    }

    /**
     * A branch's guard, the observer abort of its decorator: succeeds when the branch is running
     * (no abort of itself) or when its wave is above the limit (the branch may start, and a lower
     * one running is cancelled).
     */
    static final class Watch extends LeafTask<Agent> {
        private final Task<Agent> branch;
        private final boolean threat;

        Watch(Task<Agent> branch, boolean threat) {
            this.branch = branch;
            this.threat = threat;
        }

        @Override
        public Status execute() {
            if (branch.getStatus() == Status.RUNNING) {
                return Status.SUCCEEDED;
            }
            Agent a = getObject();
            boolean holds = threat ? a.threat > THREAT_HIGH : a.customer > CUSTOMER_HIGH;
            return holds ? Status.SUCCEEDED : Status.FAILED;
        }

        @Override
        protected Task<Agent> copyTo(Task<Agent> task) {
            throw new UnsupportedOperationException("built per agent");
        }
    }

    @SafeVarargs
    private static Array<Task<Agent>> tasks(Task<Agent>... t) {
        Array<Task<Agent>> a = new Array<>(true, t.length);
        for (Task<Agent> x : t) {
            a.add(x);
        }
        return a;
    }

    /** Builds one agent's tree. */
    static BehaviorTree<Agent> build(Agent agent) {
        Task<Agent> flee = new Sequence<>(tasks(new Delay(A_RUN), new Delay(A_HIDE)));
        flee.setGuard(new Watch(flee, true));
        Task<Agent> serve = new Sequence<>(tasks(new Delay(A_GREET), new Delay(A_TRADE), new Delay(A_FAREWELL)));
        serve.setGuard(new Watch(serve, false));
        Task<Agent> idle = new Delay(A_IDLE);
        Task<Agent> root = new Parallel<>(Parallel.Policy.Sequence, tasks(
                new Perceive(),
                new Repeat<>(new DynamicGuardSelector<>(tasks(flee, serve, idle)))));
        return new BehaviorTree<>(root, agent);
    }

    private final PeerClock clock;
    private final Agent[] agents;

    GdxBtAbortsPopulation(Logic logic, int n, long seed) {
        if (logic.variant != Variant.ABORTS) {
            throw new IllegalArgumentException("this gdx-ai behavior tree runs the aborts variant");
        }
        clock = new PeerClock(logic, seed, -1);
        agents = new Agent[n];
        for (int i = 0; i < n; i++) {
            Agent a = new Agent(i, clock);
            a.tree = build(a);
            agents[i] = a;
        }
    }

    /** Tick 0: the first step starts the waves (dt 0) and the selector chooses the first branch. */
    @Override
    public void start() {
        clock.tick = 0;
        clock.dt = 0f;
        for (Agent a : agents) {
            a.tree.step();
        }
    }

    @Override
    public void tick(long tick, float dt) {
        clock.tick = tick;
        clock.dt = dt;
        for (Agent a : agents) {
            a.tree.step();
        }
    }

    @Override
    public void states(int[] out) {
        for (Agent a : agents) {
            out[a.id] = a.state;
        }
    }

    @Override
    public void close() {
        // nothing to release
    }
}
