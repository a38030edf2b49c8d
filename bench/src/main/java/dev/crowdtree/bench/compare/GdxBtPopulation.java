package dev.crowdtree.bench.compare;

import com.badlogic.gdx.ai.btree.BehaviorTree;
import com.badlogic.gdx.ai.btree.LeafTask;
import com.badlogic.gdx.ai.btree.Task;
import com.badlogic.gdx.ai.btree.branch.Parallel;
import com.badlogic.gdx.ai.btree.branch.Sequence;
import com.badlogic.gdx.ai.btree.decorator.Repeat;
import com.badlogic.gdx.utils.Array;

import static dev.crowdtree.bench.compare.Logic.H_ASSESS;
import static dev.crowdtree.bench.compare.Logic.H_FLEE;
import static dev.crowdtree.bench.compare.Logic.H_GRAZE;
import static dev.crowdtree.bench.compare.Logic.H_HIDE;
import static dev.crowdtree.bench.compare.Logic.H_IDLE;
import static dev.crowdtree.bench.compare.Logic.H_SOCIALIZE;
import static dev.crowdtree.bench.compare.Logic.H_WANDER;
import static dev.crowdtree.bench.compare.Logic.THREAT_HIGH;
import static dev.crowdtree.bench.compare.Logic.THREAT_LOW;

/**
 * gdx-ai's {@link BehaviorTree}, one tree instance per agent (gdx-ai keeps running state in the task
 * objects, so trees cannot be shared), running the hierarchical variant. A tick calls
 * {@link BehaviorTree#step()} on every agent's tree. The tree:
 *
 * <pre>
 * Parallel(sequence policy)                      root: both children run every step
 *   Perceive                                     leaf, always RUNNING: the threat wave (the evaluator)
 *   Repeat(forever)
 *     Sequence
 *       Parallel(selector policy)                = Peaceful: ends when a child succeeds
 *         Repeat(forever) Sequence(Delay Wander, SetFatigue 1, Delay Graze, Delay Socialize, SetFatigue 0, Delay Idle)
 *         ThreatWatcher                          succeeds when threat &gt; 0.8 (= Peaceful's OnTick transition)
 *       Parallel(selector policy)                = Danger
 *         Repeat(forever) Sequence(Delay Flee, Delay Hide, Delay Assess)
 *         CalmWatcher                            the gated transition: succeeds after threat &lt; 0.3 held for the gate time
 * </pre>
 *
 * <p>A behavior tree does not have StateTree semantics, and the straightforward tree above differs
 * from ours in three places, each matched here with a custom leaf (the point of this peer is
 * gdx-ai's per-agent object structure and dispatch, not a different decision rule):
 * <ol>
 *   <li>When a Sequence child succeeds, gdx-ai starts <em>and runs</em> the next child in the same
 *       step; a StateTree enters the next state in that tick but ticks its tasks only from the next
 *       tick on. {@link Delay} therefore counts down from its second run on ("the timer starts next
 *       tick"); with gdx-ai's time-based {@code Wait} every timer would end one tick early.</li>
 *   <li>A StateTree fires at most one transition per tick here (the entered state is running, so
 *       there is no second round), and checks transitions leaf to root: a leaf's completion wins
 *       over its group's threat transition. In the Parallel the watcher runs right after the cycle,
 *       so in a tick where the cycle moved to its next leaf the watcher would also fire. Both
 *       watchers therefore do nothing in a tick in which a leaf was entered (a per-agent tick stamp
 *       on the blackboard).</li>
 *   <li>The StateTree gate is one per-agent timer that any transition cancels (ExitState), and it
 *       also counts down in ticks where the group's transition is not evaluated. {@link CalmWatcher}
 *       holds it: counts down first, cancels it in a tick where a leaf was entered, arms it (one
 *       draw from the gate's stream) when the threat is low, cancels it when not.</li>
 * </ol>
 * The StateTree's restart from root and {@code @next} resolution have no counterpart here: the
 * crowd tree's leaves always complete into a sibling, which the Sequence order expresses.
 */
final class GdxBtPopulation implements Population {
    /** The blackboard: the per-agent object the tree's tasks read and write. */
    static final class Agent {
        final int id;
        final PeerClock clock;
        float time;
        float phase;
        float threat;
        float fatigue;
        /** Our state id of the running leaf (for the occupancy comparison only). */
        int state = -1;
        /** Tick in which the agent last entered a leaf. */
        long enterTick = -1;
        BehaviorTree<Agent> tree;

        Agent(int id, PeerClock clock) {
            this.id = id;
            this.clock = clock;
        }
    }

    /** The threat evaluator: starts with the tree (draws the phase), then updates every step. */
    static final class Perceive extends LeafTask<Agent> {
        @Override
        public void start() {
            Agent a = getObject();
            a.time = 0f;
            a.phase = a.clock.logic.phase(a.clock.seed, a.id);
        }

        @Override
        public Status execute() {
            Agent a = getObject();
            float t = a.time + a.clock.dt;
            a.time = t;
            a.threat = Logic.wave(t, a.clock.logic.waveInv, a.phase);
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
            a.enterTick = c.tick;
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

    /** Writes the fatigue parameter and succeeds (the setParameter task). */
    static final class SetFatigue extends LeafTask<Agent> {
        private final float value;

        SetFatigue(float value) {
            this.value = value;
        }

        @Override
        public Status execute() {
            getObject().fatigue = value;
            return Status.SUCCEEDED;
        }

        @Override
        protected Task<Agent> copyTo(Task<Agent> task) {
            throw new UnsupportedOperationException("built per agent");
        }
    }

    /** Peaceful's OnTick transition: succeeds (ending Peaceful) when the threat is high. */
    static final class ThreatWatcher extends LeafTask<Agent> {
        @Override
        public Status execute() {
            Agent a = getObject();
            if (a.enterTick == a.clock.tick) {
                return Status.RUNNING; // a leaf transition already happened this tick
            }
            return a.threat > THREAT_HIGH ? Status.SUCCEEDED : Status.RUNNING;
        }

        @Override
        protected Task<Agent> copyTo(Task<Agent> task) {
            throw new UnsupportedOperationException("built per agent");
        }
    }

    /** Danger's gated OnTick transition: succeeds (ending Danger) once the gate has run out. */
    static final class CalmWatcher extends LeafTask<Agent> {
        private boolean armed;
        private float gateTime;

        @Override
        public void start() {
            armed = false;
        }

        @Override
        public Status execute() {
            Agent a = getObject();
            PeerClock c = a.clock;
            if (armed) {
                gateTime -= c.dt;
            }
            if (a.enterTick == c.tick) {
                armed = false; // a leaf transition this tick cancelled the gate
                return Status.RUNNING;
            }
            if (a.threat < THREAT_LOW) {
                if (!armed) {
                    armed = true;
                    gateTime = c.logic.gateDelay(c.seed, a.id, c.tick);
                }
                return gateTime > 0f ? Status.RUNNING : Status.SUCCEEDED;
            }
            armed = false;
            return Status.RUNNING;
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
        Task<Agent> peaceful = new Parallel<>(Parallel.Policy.Selector, tasks(
                new Repeat<>(new Sequence<>(tasks(new Delay(H_WANDER), new SetFatigue(1f), new Delay(H_GRAZE),
                        new Delay(H_SOCIALIZE), new SetFatigue(0f), new Delay(H_IDLE)))),
                new ThreatWatcher()));
        Task<Agent> danger = new Parallel<>(Parallel.Policy.Selector, tasks(
                new Repeat<>(new Sequence<>(tasks(new Delay(H_FLEE), new Delay(H_HIDE), new Delay(H_ASSESS)))),
                new CalmWatcher()));
        Task<Agent> root = new Parallel<>(Parallel.Policy.Sequence, tasks(
                new Perceive(),
                new Repeat<>(new Sequence<>(tasks(peaceful, danger)))));
        return new BehaviorTree<>(root, agent);
    }

    private final PeerClock clock;
    private final Agent[] agents;

    GdxBtPopulation(Logic logic, int n, long seed) {
        if (logic.variant != Variant.HIERARCHICAL) {
            throw new IllegalArgumentException("the gdx-ai behavior tree runs the hierarchical variant");
        }
        clock = new PeerClock(logic, seed, -1);
        agents = new Agent[n];
        for (int i = 0; i < n; i++) {
            Agent a = new Agent(i, clock);
            a.tree = build(a);
            agents[i] = a;
        }
    }

    /** Tick 0: the first step starts every task on the initial path (Perceive, Peaceful, Wander). */
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
