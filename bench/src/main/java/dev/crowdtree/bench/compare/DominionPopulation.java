package dev.crowdtree.bench.compare;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;

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
 * Dominion ECS, used the idiomatic way: each agent is an entity with two mutable component objects,
 * {@link Perception} (the threat wave) and {@link Brain} (the state machine: leaf, timer, gate,
 * fatigue), and a tick is two systems, each a plain for-each over a {@code findEntitiesWith} query:
 * the perception system, then the brain system (a {@code switch} on the leaf, the same cases as the
 * floor). Single-threaded, like the other peers.
 *
 * <p>Sleepy variant: one component, {@link Brain}, and one system, every entity every tick (count
 * the delay down, then the completion, else the event, as the floor). The host sets the event flag
 * through the agent's {@link Entity} handle ({@code entity.get(Brain.class)}).
 *
 * <p>Aborts variant: {@link Perception} holds both waves (threat and customer), and the brain
 * system is the floor's switch over the merchant's leaves (the aborts, then the completion, then
 * the root's selection anew after Hide, Farewell and Idle).
 */
final class DominionPopulation implements Population {
    /** The perception component: the threat evaluator's per-agent data and output. */
    public static final class Perception {
        float time;
        float phase;
        float threat;
        /** Aborts: the customer wave's phase and value. */
        float customerPhase;
        float customer;
    }

    /** The decision component: the agent's state machine. */
    public static final class Brain {
        final int id;
        byte leaf;
        boolean gateArmed;
        /** Sleepy: the host's event arrived since the last tick. */
        boolean event;
        float remaining;
        float gateTime;
        float fatigue;

        Brain(int id) {
            this.id = id;
        }
    }

    private final Logic logic;
    private final int n;
    private final long seed;
    private final boolean hierarchical;
    private final boolean sleepy;
    private final boolean aborts;
    private final Dominion dominion;
    /** Sleepy: each agent's entity, by agent id, for the host's events. */
    private final Entity[] entities;
    private long tick;
    private float dt;

    DominionPopulation(Logic logic, int agents, long seed) {
        this.logic = logic;
        this.n = agents;
        this.seed = seed;
        this.hierarchical = logic.variant == Variant.HIERARCHICAL;
        this.sleepy = logic.variant == Variant.SLEEPY;
        this.aborts = logic.variant == Variant.ABORTS;
        System.setProperty("dominion.show-banner", "false");
        System.setProperty("dominion.logging-level", "WARNING");
        dominion = Dominion.create();
        entities = new Entity[sleepy ? agents : 0];
        for (int i = 0; i < agents; i++) {
            if (sleepy) {
                entities[i] = dominion.createEntity(new Brain(i));
            } else {
                dominion.createEntity(new Perception(), new Brain(i));
            }
        }
    }

    @Override
    public void start() {
        tick = 0;
        if (sleepy) {
            for (Results.With1<Brain> r : dominion.findEntitiesWith(Brain.class)) {
                enter(r.comp(), S_BLINK);
            }
            return;
        }
        for (Results.With2<Perception, Brain> r : dominion.findEntitiesWith(Perception.class, Brain.class)) {
            Perception p = r.comp1();
            Brain b = r.comp2();
            p.time = 0f;
            p.phase = logic.phase(seed, b.id);
            p.threat = Logic.wave(0f, logic.waveInv, p.phase);
            if (aborts) {
                p.customerPhase = logic.customerPhase(seed, b.id);
                p.customer = Logic.wave(0f, logic.customerInv, p.customerPhase);
                enter(b, Logic.abortsSelect(p.threat, p.customer));
                continue;
            }
            enter(b, hierarchical ? H_WANDER : F_WANDER);
        }
    }

    private void enter(Brain b, int l) {
        b.leaf = (byte) l;
        b.remaining = logic.delay(l, seed, b.id, tick);
        if (hierarchical) {
            if (l == H_GRAZE) {
                b.fatigue = 1f;
            } else if (l == H_IDLE) {
                b.fatigue = 0f;
            }
        }
    }

    @Override
    public void sendEvent(int agent) {
        if (!sleepy) {
            throw new UnsupportedOperationException("the " + logic.variant.id() + " variant takes no host events");
        }
        entities[agent].get(Brain.class).event = true;
    }

    @Override
    public void tick(long tick, float dt) {
        this.tick = tick;
        this.dt = dt;
        if (sleepy) {
            brainSystemSleepy();
            return;
        }
        perceptionSystem();
        if (hierarchical) {
            brainSystemHierarchical();
        } else if (aborts) {
            brainSystemAborts();
        } else {
            brainSystemFlat();
        }
    }

    private void perceptionSystem() {
        final float d = dt;
        final float inv = logic.waveInv;
        for (Results.With1<Perception> r : dominion.findEntitiesWith(Perception.class)) {
            Perception p = r.comp();
            float t = p.time + d;
            p.time = t;
            p.threat = Logic.wave(t, inv, p.phase);
            if (aborts) {
                p.customer = Logic.wave(t, logic.customerInv, p.customerPhase);
            }
        }
    }

    private void brainSystemHierarchical() {
        final float d = dt;
        for (Results.With2<Perception, Brain> r : dominion.findEntitiesWith(Perception.class, Brain.class)) {
            Brain b = r.comp2();
            float threat = r.comp1().threat;
            if (b.gateArmed) {
                b.gateTime -= d;
            }
            float left = b.remaining - d;
            b.remaining = left;
            boolean done = left <= 0f;
            switch (b.leaf) {
                case H_WANDER:
                    calm(b, done, threat, H_GRAZE);
                    break;
                case H_GRAZE:
                    calm(b, done, threat, H_SOCIALIZE);
                    break;
                case H_SOCIALIZE:
                    calm(b, done, threat, H_IDLE);
                    break;
                case H_IDLE:
                    calm(b, done, threat, H_WANDER);
                    break;
                case H_FLEE:
                    danger(b, done, threat, H_HIDE);
                    break;
                case H_HIDE:
                    danger(b, done, threat, H_ASSESS);
                    break;
                default:
                    danger(b, done, threat, H_FLEE);
            }
        }
    }

    private void calm(Brain b, boolean done, float threat, int next) {
        if (done) {
            enter(b, next);
        } else if (threat > THREAT_HIGH) {
            enter(b, H_FLEE);
        }
    }

    private void danger(Brain b, boolean done, float threat, int next) {
        if (done) {
            b.gateArmed = false;
            enter(b, next);
        } else if (threat < THREAT_LOW) {
            if (!b.gateArmed) {
                b.gateArmed = true;
                b.gateTime = logic.gateDelay(seed, b.id, tick);
            }
            if (b.gateTime <= 0f) {
                b.gateArmed = false;
                enter(b, H_WANDER);
            }
        } else {
            b.gateArmed = false;
        }
    }

    private void brainSystemFlat() {
        final float d = dt;
        for (Results.With2<Perception, Brain> r : dominion.findEntitiesWith(Perception.class, Brain.class)) {
            Brain b = r.comp2();
            float threat = r.comp1().threat;
            float left = b.remaining - d;
            b.remaining = left;
            boolean done = left <= 0f;
            switch (b.leaf) {
                case F_WANDER:
                case F_GRAZE:
                case F_REST:
                    if (threat > THREAT_HIGH) {
                        enter(b, F_FLEE);
                    } else if (done) {
                        enter(b, b.leaf == F_WANDER ? F_GRAZE : b.leaf == F_GRAZE ? F_REST : F_WANDER);
                    }
                    break;
                case F_FLEE:
                    if (done) {
                        enter(b, F_HIDE);
                    }
                    break;
                default:
                    if (done) {
                        enter(b, F_WANDER);
                    }
            }
        }
    }

    private void brainSystemAborts() {
        final float d = dt;
        for (Results.With2<Perception, Brain> r : dominion.findEntitiesWith(Perception.class, Brain.class)) {
            Brain b = r.comp2();
            Perception p = r.comp1();
            float threat = p.threat;
            float customer = p.customer;
            float left = b.remaining - d;
            b.remaining = left;
            boolean done = left <= 0f;
            switch (b.leaf) {
                case A_RUN:
                    if (done) {
                        enter(b, A_HIDE);
                    }
                    break;
                case A_HIDE:
                    if (done) {
                        enter(b, Logic.abortsSelect(threat, customer));
                    }
                    break;
                case A_GREET:
                case A_TRADE:
                case A_FAREWELL:
                    if (threat > THREAT_HIGH) {
                        enter(b, A_RUN); // Serve's high abort outranks the sequence's next child
                    } else if (done) {
                        enter(b, b.leaf == A_GREET ? A_TRADE : b.leaf == A_TRADE ? A_FAREWELL
                                : customer > CUSTOMER_HIGH ? A_GREET : A_IDLE);
                    }
                    break;
                default:
                    if (threat > THREAT_HIGH) {
                        enter(b, A_RUN);
                    } else if (customer > CUSTOMER_HIGH) {
                        enter(b, A_GREET);
                    } else if (done) {
                        enter(b, A_IDLE);
                    }
            }
        }
    }

    private void brainSystemSleepy() {
        final float d = dt;
        for (Results.With1<Brain> r : dominion.findEntitiesWith(Brain.class)) {
            Brain b = r.comp();
            float left = b.remaining - d;
            b.remaining = left;
            boolean done = left <= 0f;
            boolean poked = b.event;
            if (poked) {
                b.event = false;
            }
            switch (b.leaf) {
                case S_BLINK:
                    sleepy(b, done, poked, S_NAP);
                    break;
                case S_NAP:
                    sleepy(b, done, poked, S_DOZE);
                    break;
                case S_DOZE:
                    sleepy(b, done, poked, S_SLEEP);
                    break;
                default:
                    sleepy(b, done, poked, S_BLINK);
            }
        }
    }

    /** The leaf's completion transition first, then the root's event transition (leaf to root). */
    private void sleepy(Brain b, boolean done, boolean poked, int next) {
        if (done) {
            enter(b, next);
        } else if (poked) {
            enter(b, S_BLINK);
        }
    }

    @Override
    public void states(int[] out) {
        for (Results.With1<Brain> r : dominion.findEntitiesWith(Brain.class)) {
            Brain b = r.comp();
            out[b.id] = logic.treeState[b.leaf];
        }
    }

    @Override
    public void close() {
        dominion.close();
    }
}
