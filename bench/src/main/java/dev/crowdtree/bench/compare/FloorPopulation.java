package dev.crowdtree.bench.compare;

import static dev.crowdtree.bench.compare.Logic.A_FAREWELL;
import static dev.crowdtree.bench.compare.Logic.A_GREET;
import static dev.crowdtree.bench.compare.Logic.A_HIDE;
import static dev.crowdtree.bench.compare.Logic.A_IDLE;
import static dev.crowdtree.bench.compare.Logic.A_RUN;
import static dev.crowdtree.bench.compare.Logic.A_TRADE;
import static dev.crowdtree.bench.compare.Logic.CUSTOMER_HIGH;
import static dev.crowdtree.bench.compare.Logic.F_FLEE;
import static dev.crowdtree.bench.compare.Logic.F_GRAZE;
import static dev.crowdtree.bench.compare.Logic.F_HIDE;
import static dev.crowdtree.bench.compare.Logic.F_REST;
import static dev.crowdtree.bench.compare.Logic.F_WANDER;
import static dev.crowdtree.bench.compare.Logic.H_ASSESS;
import static dev.crowdtree.bench.compare.Logic.H_FLEE;
import static dev.crowdtree.bench.compare.Logic.H_GRAZE;
import static dev.crowdtree.bench.compare.Logic.H_HIDE;
import static dev.crowdtree.bench.compare.Logic.H_IDLE;
import static dev.crowdtree.bench.compare.Logic.H_SOCIALIZE;
import static dev.crowdtree.bench.compare.Logic.H_WANDER;
import static dev.crowdtree.bench.compare.Logic.S_BLINK;
import static dev.crowdtree.bench.compare.Logic.S_DOZE;
import static dev.crowdtree.bench.compare.Logic.S_NAP;
import static dev.crowdtree.bench.compare.Logic.S_SLEEP;
import static dev.crowdtree.bench.compare.Logic.THREAT_HIGH;
import static dev.crowdtree.bench.compare.Logic.THREAT_LOW;

/**
 * The floor: the logic written by hand as a {@code switch} over the agent's leaf, over primitive
 * arrays indexed by agent, one loop per tick on the calling thread. No framework, no hierarchy at run
 * time (the hierarchical variant's groups are folded into the cases: a calm leaf checks its
 * completion, then the Peaceful threat transition; a danger leaf its completion, then the Danger
 * gate). Per agent: leaf (1 B), remaining, wave time and phase, gate time (4 B each), gate armed
 * (1 B), fatigue (4 B).
 *
 * <p>Sleepy variant: the obvious loop, every agent every tick: count the delay down, take the event
 * flag the host set ({@link #sendEvent}), then the leaf's completion, else the event. Per agent: leaf
 * and event flag (1 B each), remaining (4 B). No scheduling: that is what the comparison is about.
 *
 * <p>Aborts variant: the behavior tree flattened by hand into the same kind of switch, every agent
 * every tick: both waves, the delay, then per leaf the threat abort (Serve's leaves and Idle), the
 * customer abort (Idle), the completion: Run to Hide, Greet to Trade to Farewell, and after Hide,
 * Farewell and Idle the root's selection anew ({@link Logic#abortsSelect}). The priorities are
 * folded into the order of the tests. Per agent: leaf (1 B), remaining, wave time, threat phase,
 * customer phase (4 B each; both waves run on the same clock, so one time serves both).
 */
final class FloorPopulation implements Population {
    private final Logic logic;
    private final int n;
    private final long seed;
    private final boolean hierarchical;
    private final boolean sleepy;
    private final boolean aborts;
    private final byte[] leaf;
    private final float[] remaining;
    private final float[] time;
    private final float[] phase;
    private final float[] gateTime;
    private final byte[] gateArmed;
    private final float[] fatigue;
    private final byte[] event;
    private final float[] customerPhase;

    FloorPopulation(Logic logic, int agents, long seed) {
        this.logic = logic;
        this.n = agents;
        this.seed = seed;
        this.hierarchical = logic.variant == Variant.HIERARCHICAL;
        this.sleepy = logic.variant == Variant.SLEEPY;
        this.aborts = logic.variant == Variant.ABORTS;
        leaf = new byte[agents];
        remaining = new float[agents];
        time = new float[sleepy ? 0 : agents];
        phase = new float[sleepy ? 0 : agents];
        gateTime = new float[hierarchical ? agents : 0];
        gateArmed = new byte[hierarchical ? agents : 0];
        fatigue = new float[hierarchical ? agents : 0];
        event = new byte[sleepy ? agents : 0];
        customerPhase = new float[aborts ? agents : 0];
    }

    @Override
    public void start() {
        for (int i = 0; i < n; i++) {
            if (sleepy) {
                enter(i, S_BLINK, 0);
                continue;
            }
            time[i] = 0f;
            phase[i] = logic.phase(seed, i);
            if (aborts) {
                customerPhase[i] = logic.customerPhase(seed, i);
                enter(i, Logic.abortsSelect(Logic.wave(0f, logic.waveInv, phase[i]),
                        Logic.wave(0f, logic.customerInv, customerPhase[i])), 0);
                continue;
            }
            enter(i, hierarchical ? H_WANDER : F_WANDER, 0);
        }
    }

    @Override
    public void sendEvent(int agent) {
        if (!sleepy) {
            throw new UnsupportedOperationException("the " + logic.variant.id() + " variant takes no host events");
        }
        event[agent] = 1;
    }

    private void enter(int i, int l, long tick) {
        leaf[i] = (byte) l;
        remaining[i] = logic.delay(l, seed, i, tick);
        if (hierarchical) {
            if (l == H_GRAZE) {
                fatigue[i] = 1f;
            } else if (l == H_IDLE) {
                fatigue[i] = 0f;
            }
        }
    }

    @Override
    public void tick(long tick, float dt) {
        if (hierarchical) {
            tickHierarchical(tick, dt);
        } else if (sleepy) {
            tickSleepy(tick, dt);
        } else if (aborts) {
            tickAborts(tick, dt);
        } else {
            tickFlat(tick, dt);
        }
    }

    private void tickHierarchical(long tick, float dt) {
        final byte[] leaf = this.leaf;
        final float[] remaining = this.remaining;
        final float[] time = this.time;
        final float[] phase = this.phase;
        final float[] gateTime = this.gateTime;
        final byte[] gateArmed = this.gateArmed;
        final float inv = logic.waveInv;
        for (int i = 0; i < n; i++) {
            if (gateArmed[i] != 0) {
                gateTime[i] -= dt;
            }
            float t = time[i] + dt;
            time[i] = t;
            float threat = Logic.wave(t, inv, phase[i]);
            float left = remaining[i] - dt;
            remaining[i] = left;
            boolean done = left <= 0f;
            switch (leaf[i]) {
                case H_WANDER:
                    calm(i, done, threat, H_GRAZE, tick);
                    break;
                case H_GRAZE:
                    calm(i, done, threat, H_SOCIALIZE, tick);
                    break;
                case H_SOCIALIZE:
                    calm(i, done, threat, H_IDLE, tick);
                    break;
                case H_IDLE:
                    calm(i, done, threat, H_WANDER, tick);
                    break;
                case H_FLEE:
                    danger(i, done, threat, H_HIDE, tick);
                    break;
                case H_HIDE:
                    danger(i, done, threat, H_ASSESS, tick);
                    break;
                default:
                    danger(i, done, threat, H_FLEE, tick);
            }
        }
    }

    private void calm(int i, boolean done, float threat, int next, long tick) {
        if (done) {
            enter(i, next, tick);
        } else if (threat > THREAT_HIGH) {
            enter(i, H_FLEE, tick);
        }
    }

    private void danger(int i, boolean done, float threat, int next, long tick) {
        if (done) {
            gateArmed[i] = 0;
            enter(i, next, tick);
        } else if (threat < THREAT_LOW) {
            if (gateArmed[i] == 0) {
                gateArmed[i] = 1;
                gateTime[i] = logic.gateDelay(seed, i, tick);
            }
            if (gateTime[i] <= 0f) {
                gateArmed[i] = 0;
                enter(i, H_WANDER, tick);
            }
        } else {
            gateArmed[i] = 0;
        }
    }

    private void tickFlat(long tick, float dt) {
        final byte[] leaf = this.leaf;
        final float[] remaining = this.remaining;
        final float[] time = this.time;
        final float[] phase = this.phase;
        final float inv = logic.waveInv;
        for (int i = 0; i < n; i++) {
            float t = time[i] + dt;
            time[i] = t;
            float threat = Logic.wave(t, inv, phase[i]);
            float left = remaining[i] - dt;
            remaining[i] = left;
            boolean done = left <= 0f;
            switch (leaf[i]) {
                case F_WANDER:
                    if (threat > THREAT_HIGH) {
                        enter(i, F_FLEE, tick);
                    } else if (done) {
                        enter(i, F_GRAZE, tick);
                    }
                    break;
                case F_GRAZE:
                    if (threat > THREAT_HIGH) {
                        enter(i, F_FLEE, tick);
                    } else if (done) {
                        enter(i, F_REST, tick);
                    }
                    break;
                case F_REST:
                    if (threat > THREAT_HIGH) {
                        enter(i, F_FLEE, tick);
                    } else if (done) {
                        enter(i, F_WANDER, tick);
                    }
                    break;
                case F_FLEE:
                    if (done) {
                        enter(i, F_HIDE, tick);
                    }
                    break;
                default:
                    if (done) {
                        enter(i, F_WANDER, tick);
                    }
            }
        }
    }

    private void tickSleepy(long tick, float dt) {
        final byte[] leaf = this.leaf;
        final float[] remaining = this.remaining;
        final byte[] event = this.event;
        for (int i = 0; i < n; i++) {
            float left = remaining[i] - dt;
            remaining[i] = left;
            boolean done = left <= 0f;
            boolean poked = event[i] != 0;
            if (poked) {
                event[i] = 0;
            }
            switch (leaf[i]) {
                case S_BLINK:
                    sleepy(i, done, poked, S_NAP, tick);
                    break;
                case S_NAP:
                    sleepy(i, done, poked, S_DOZE, tick);
                    break;
                case S_DOZE:
                    sleepy(i, done, poked, S_SLEEP, tick);
                    break;
                default:
                    sleepy(i, done, poked, S_BLINK, tick);
            }
        }
    }

    /** The leaf's completion transition first, then the root's event transition (leaf to root). */
    private void sleepy(int i, boolean done, boolean poked, int next, long tick) {
        if (done) {
            enter(i, next, tick);
        } else if (poked) {
            enter(i, S_BLINK, tick);
        }
    }

    private void tickAborts(long tick, float dt) {
        final byte[] leaf = this.leaf;
        final float[] remaining = this.remaining;
        final float[] time = this.time;
        final float[] phase = this.phase;
        final float[] customerPhase = this.customerPhase;
        final float inv = logic.waveInv;
        final float customerInv = logic.customerInv;
        for (int i = 0; i < n; i++) {
            float t = time[i] + dt;
            time[i] = t;
            float threat = Logic.wave(t, inv, phase[i]);
            float customer = Logic.wave(t, customerInv, customerPhase[i]);
            float left = remaining[i] - dt;
            remaining[i] = left;
            boolean done = left <= 0f;
            switch (leaf[i]) {
                case A_RUN:
                    if (done) {
                        enter(i, A_HIDE, tick);
                    }
                    break;
                case A_HIDE:
                    if (done) {
                        enter(i, Logic.abortsSelect(threat, customer), tick);
                    }
                    break;
                case A_GREET:
                    serve(i, done, threat, A_TRADE, tick);
                    break;
                case A_TRADE:
                    serve(i, done, threat, A_FAREWELL, tick);
                    break;
                case A_FAREWELL:
                    // Serve succeeds: its abort still fires (the same as the restart would select), else the restart
                    serve(i, done, threat, customer > CUSTOMER_HIGH ? A_GREET : A_IDLE, tick);
                    break;
                default:
                    if (threat > THREAT_HIGH) {
                        enter(i, A_RUN, tick);
                    } else if (customer > CUSTOMER_HIGH) {
                        enter(i, A_GREET, tick);
                    } else if (done) {
                        enter(i, A_IDLE, tick);
                    }
            }
        }
    }

    /** A leaf of Serve: Serve's high abort outranks the sequence's next child (found at normal). */
    private void serve(int i, boolean done, float threat, int next, long tick) {
        if (threat > THREAT_HIGH) {
            enter(i, A_RUN, tick);
        } else if (done) {
            enter(i, next, tick);
        }
    }

    @Override
    public void states(int[] out) {
        for (int i = 0; i < n; i++) {
            out[i] = logic.treeState[leaf[i]];
        }
    }

    @Override
    public void close() {
        // nothing to release
    }
}
