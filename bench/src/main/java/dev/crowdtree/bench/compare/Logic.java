package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.fixtures.AbortTrees;
import dev.crowdtree.bench.trees.SleepyTrees;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.nodes.DelayTask;

import java.util.Arrays;

/**
 * The decision logic of one {@link Variant}, as the hand-written peers (floor, Dominion, gdx-ai)
 * implement it: the timed leaf states, where each goes on completion, which ones react to the threat,
 * the gate of the way back, and (sleepy) which agents the host sends the event to before a tick
 * ({@link #hostEvents}). The constants are copied from the tree definitions
 * ({@code CrowdTrees.crowd()}, {@link dev.crowdtree.bench.trees.FlatTrees#flat()},
 * {@link dev.crowdtree.bench.trees.SleepyTrees#sleepy()}, {@link AbortTrees#aborts()}); everything the
 * compiler decides (state ids, random stream ids, the gate's transition index, delay and variance)
 * is read from the compiled tree, so that every peer draws exactly the random numbers our nodes
 * draw: {@code CounterRng.uniform(seed, agent, tick, stream)} keyed like {@link DelayTask} (the
 * task's stream, at enter), the wave evaluators (each its stream, tick 0, at tree start) and the gate
 * ({@code GATE_STREAM_BASE + transition index}, at arming).
 *
 * <p>The float arithmetic is also the nodes' own, operation for operation (Java never contracts
 * {@code a * b + c} into an FMA), so the peers reach bit-identical timers and thresholds.
 */
public final class Logic {
    /** Threat above which a calm state flees (the {@code compare > 0.8} condition; compared as double). */
    public static final double THREAT_HIGH = 0.8;
    /** Threat below which the danger group may calm down ({@code compare < 0.3}, hierarchical only). */
    public static final double THREAT_LOW = 0.3;
    /** Customer above which the aborts variant's merchant serves ({@code compare > 0.5}; compared as double). */
    public static final double CUSTOMER_HIGH = 0.5;
    /** Wave constants: period 20 s, amplitude 1, offset 0, triangle. */
    static final float WAVE_PERIOD = 20f;
    /** The aborts variant's customer wave: period 13 s, otherwise as the threat wave. */
    static final float CUSTOMER_PERIOD = 13f;
    static final float WAVE_AMPLITUDE = 1f;
    static final float WAVE_OFFSET = 0f;

    // Leaf indices of the hierarchical variant (CrowdTrees.crowd()).
    public static final int H_WANDER = 0, H_GRAZE = 1, H_SOCIALIZE = 2, H_IDLE = 3, H_FLEE = 4, H_HIDE = 5, H_ASSESS = 6;
    // Leaf indices of the flat variant (FlatTrees.flat()).
    public static final int F_WANDER = 0, F_GRAZE = 1, F_REST = 2, F_FLEE = 3, F_HIDE = 4;
    // Leaf indices of the sleepy variant (SleepyTrees.sleepy()), in chain order: S_SLEEP goes back to S_BLINK.
    public static final int S_BLINK = 0, S_NAP = 1, S_DOZE = 2, S_SLEEP = 3;
    // Leaf indices of the aborts variant (AbortTrees.aborts()): Flee's, Serve's, then Idle.
    public static final int A_RUN = 0, A_HIDE = 1, A_GREET = 2, A_TRADE = 3, A_FAREWELL = 4, A_IDLE = 5;
    /** The sleepy variant's event, sent by the host ({@link #hostEvents}); fires the root's transition to Blink. */
    public static final String S_EVENT = SleepyTrees.EVENT;
    /**
     * Random stream of the host's choice of event receivers (sleepy): draw {@code j} of tick {@code t}
     * is {@code CounterRng.below(agents, seed, j, t, HOST_EVENT_STREAM, 0)}. The "agent" key is the
     * draw index, so the choice is O(events) per tick and the same for every implementation.
     */
    public static final int HOST_EVENT_STREAM = 0x504F4B45;

    private static final String[] H_PATHS = {"Root/Peaceful/Wander", "Root/Peaceful/Graze", "Root/Peaceful/Socialize",
        "Root/Peaceful/Idle", "Root/Danger/Flee", "Root/Danger/Hide", "Root/Danger/Assess"};
    private static final float[][] H_DELAYS = {{3f, 1f}, {4f, 2f}, {2f, 1f}, {3f, 1.5f}, {2f, 0.5f}, {3f, 1f}, {1f, 0f}};
    private static final String[] F_PATHS = {"Root/Wander", "Root/Graze", "Root/Rest", "Root/Flee", "Root/Hide"};
    private static final float[][] F_DELAYS = {{3f, 1f}, {4f, 2f}, {2f, 1f}, {2f, 0.5f}, {3f, 1f}};
    private static final String[] S_PATHS = {"Root/Blink", "Root/Nap", "Root/Doze", "Root/Sleep"};
    private static final float[][] S_DELAYS = {{5f, 2f}, {15f, 5f}, {30f, 10f}, {50f, 10f}};
    private static final String[] A_PATHS = {"Root/Flee/Run", "Root/Flee/Hide", "Root/Serve/Greet", "Root/Serve/Trade",
        "Root/Serve/Farewell", "Root/Idle"};
    private static final float[][] A_DELAYS = {{2f, 0.5f}, {3f, 1f}, {1f, 0.5f}, {4f, 2f}, {1f, 0.5f}, {3f, 1f}};

    public final Variant variant;
    public final CompiledStateTree tree;
    /** Number of leaf states the logic uses. */
    public final int leaves;
    /** Our state id of each leaf. */
    public final int[] treeState;
    /** Delay bounds of each leaf: {@code lo = max(0, d - dev)} and {@code hi - lo}, as DelayTask computes them. */
    final float[] delayLo;
    final float[] delaySpan;
    /** Random stream of each leaf's delay task. */
    final int[] delayStream;
    /** Stream of the (threat) wave evaluator (its per-agent phase); -1 for the sleepy variant, which has none. */
    final int waveStream;
    /** {@code 1f / period}, as the wave evaluator computes it. */
    final float waveInv;
    /** Aborts only: stream of the customer wave evaluator, or -1. */
    final int customerStream;
    /** Aborts only: {@code 1f / 13f}, the customer wave's {@code 1f / period}. */
    final float customerInv;
    /** Hierarchical only: the gated Danger -> Peaceful transition. */
    /** The gated transition of the hierarchical variant (Danger -> Peaceful), or -1. */
    final int gate;

    private Logic(Variant variant, CompiledStateTree tree) {
        this.variant = variant;
        this.tree = tree;
        boolean h = variant == Variant.HIERARCHICAL;
        boolean a = variant == Variant.ABORTS;
        String[] paths = h ? H_PATHS : variant == Variant.FLAT ? F_PATHS : variant == Variant.SLEEPY ? S_PATHS : A_PATHS;
        float[][] delays = h ? H_DELAYS : variant == Variant.FLAT ? F_DELAYS : variant == Variant.SLEEPY ? S_DELAYS : A_DELAYS;
        leaves = paths.length;
        treeState = new int[leaves];
        delayLo = new float[leaves];
        delaySpan = new float[leaves];
        delayStream = new int[leaves];
        for (int l = 0; l < leaves; l++) {
            int s = tree.stateByPath(paths[l]);
            if (s < 0) {
                throw new IllegalStateException("tree " + tree.name + " has no state " + paths[l]);
            }
            treeState[l] = s;
            float d = delays[l][0];
            float dev = delays[l][1];
            float lo = Math.max(0f, d - dev);
            float hi = d + dev;
            delayLo[l] = lo;
            delaySpan[l] = hi - lo;
            delayStream[l] = delayTaskStream(tree, s);
        }
        waveStream = variant == Variant.SLEEPY ? -1 : a ? evaluatorStream(tree, AbortTrees.THREAT) : tree.evaluator(0).stream();
        waveInv = 1f / WAVE_PERIOD;
        customerStream = a ? evaluatorStream(tree, AbortTrees.CUSTOMER) : -1;
        customerInv = 1f / CUSTOMER_PERIOD;
        if (h) {
            int danger = tree.stateByPath("Root/Danger");
            int g = -1;
            for (int t = tree.stateTransitionsBegin(danger); t < tree.stateTransitionsBegin(danger) + tree.stateTransitionsNum(danger); t++) {
                if (tree.isGated(t)) {
                    g = t;
                }
            }
            if (g < 0) {
                throw new IllegalStateException("no gated transition on Root/Danger");
            }
            gate = g;
        } else {
            gate = -1;
        }
    }

    /** The logic of {@code variant}, keyed to the ids and streams of {@code tree} (compiled from {@link Variant#definition()}). */
    public static Logic of(Variant variant, CompiledStateTree tree) {
        return new Logic(variant, tree);
    }

    private static int evaluatorStream(CompiledStateTree tree, String name) {
        for (int e = 0; e < tree.evaluatorCount(); e++) {
            if (tree.evaluator(e).name().equals(name)) {
                return tree.evaluator(e).stream();
            }
        }
        throw new IllegalStateException("tree " + tree.name + " has no evaluator " + name);
    }

    private static int delayTaskStream(CompiledStateTree tree, int state) {
        for (int k = tree.stateTasksBegin(state); k < tree.stateTasksBegin(state) + tree.stateTasksNum(state); k++) {
            if (tree.task(k) instanceof DelayTask) {
                return tree.task(k).stream();
            }
        }
        throw new IllegalStateException("state " + tree.statePath(state) + " has no delay task");
    }

    /** The wait drawn when {@code agent} enters leaf {@code l} at {@code tick} (DelayTask.enterState). */
    float delay(int l, long seed, int agent, long tick) {
        return delayLo[l] + delaySpan[l] * CounterRng.uniform(seed, agent, tick, delayStream[l]);
    }

    /**
     * The events the host sends before {@code tick} (seen at that tick): for the sleepy variant,
     * {@link #hostEventsPerTick} receivers of {@link #S_EVENT} chosen by {@link #HOST_EVENT_STREAM}
     * (an agent may be drawn twice; a second copy changes nothing), written to {@code out}; none for
     * the other variants. O(events), allocation-free.
     *
     * @return the number of receivers written to {@code out}
     */
    public int hostEvents(long seed, long tick, int agents, int[] out) {
        int k = hostEventsPerTick(agents);
        for (int j = 0; j < k; j++) {
            out[j] = CounterRng.below(agents, seed, j, tick, HOST_EVENT_STREAM, 0);
        }
        return k;
    }

    /** How many events the host sends per tick to {@code agents} agents: {@code max(1, agents / 1000)} for sleepy, else 0. */
    public int hostEventsPerTick(int agents) {
        return variant != Variant.SLEEPY || agents == 0 ? 0 : Math.max(1, agents / 1000);
    }

    /** The agent's constant wave phase, drawn at tree start (WaveEvaluator.treeStart). */
    float phase(long seed, int agent) {
        return CounterRng.uniform(seed, agent, 0, waveStream);
    }

    /** Aborts: the agent's constant customer wave phase, drawn at tree start (WaveEvaluator.treeStart). */
    float customerPhase(long seed, int agent) {
        return CounterRng.uniform(seed, agent, 0, customerStream);
    }

    /**
     * Aborts: the leaf the root (a selector) selects when the threat is {@code threat} and the
     * customer {@code customer}: Flee's first child when its enter condition holds, else Serve's,
     * else Idle. The selection at start and at every restart from the root.
     */
    static int abortsSelect(float threat, float customer) {
        return threat > THREAT_HIGH ? A_RUN : customer > CUSTOMER_HIGH ? A_GREET : A_IDLE;
    }

    /** The gate time drawn when the gated transition is armed for {@code agent} at {@code tick}. */
    float gateDelay(long seed, int agent, long tick) {
        return tree.gateDelay(gate, seed, agent, tick);
    }

    /** The triangle wave at {@code time} for {@code phase} (WaveEvaluator.tick, triangle branch). */
    static float wave(float time, float inv, float phase) {
        float x = time * inv + phase + 0.25f;
        float y = x - ((x + 0x1.8p23f) - 0x1.8p23f);
        return WAVE_OFFSET + WAVE_AMPLITUDE * (4f * Math.abs(y) - 1f);
    }

    /** Fills {@code out} (length {@code tree.stateCount}) with the occupancy from per-agent leaf indices. */
    void occupancy(byte[] leafOfAgent, int n, int[] out) {
        Arrays.fill(out, 0);
        for (int i = 0; i < n; i++) {
            out[treeState[leafOfAgent[i]]]++;
        }
    }
}
