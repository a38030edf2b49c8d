package dev.crowdtree.bench.compare;

import com.badlogic.gdx.ai.fsm.DefaultStateMachine;
import com.badlogic.gdx.ai.fsm.State;
import com.badlogic.gdx.ai.msg.Telegram;

import static dev.crowdtree.bench.compare.Logic.F_FLEE;
import static dev.crowdtree.bench.compare.Logic.F_GRAZE;
import static dev.crowdtree.bench.compare.Logic.F_HIDE;
import static dev.crowdtree.bench.compare.Logic.F_REST;
import static dev.crowdtree.bench.compare.Logic.F_WANDER;
import static dev.crowdtree.bench.compare.Logic.THREAT_HIGH;

/**
 * gdx-ai's {@link DefaultStateMachine}, the way its documentation uses it: one agent object and one
 * state machine per agent, the states an {@code enum} implementing {@link State} ({@code enter}
 * draws the state's delay, {@code update} counts it down and changes state), and the perception
 * (the threat wave) in the machine's <em>global state</em>, which {@code update()} runs before the
 * current state. A tick calls {@code update()} on every agent's machine. The flat variant only: a
 * plain FSM has no hierarchy.
 */
final class GdxFsmPopulation implements Population {
    /** The per-agent object (gdx-ai's "owner" / "entity"). */
    static final class Agent {
        final int id;
        final PeerClock clock;
        final DefaultStateMachine<Agent, FlatState> fsm;
        float time;
        float phase;
        float threat;
        float remaining;

        Agent(int id, PeerClock clock) {
            this.id = id;
            this.clock = clock;
            this.fsm = new DefaultStateMachine<>(this, null, FlatState.PERCEIVE);
        }

        void enterTimed(int leaf) {
            remaining = clock.logic.delay(leaf, clock.seed, id, clock.tick);
        }

        /** Counts the delay down; true when it ran out this tick. */
        boolean tickTimer() {
            float left = remaining - clock.dt;
            remaining = left;
            return left <= 0f;
        }
    }

    /** The flat variant's states; {@code PERCEIVE} is the global state. */
    enum FlatState implements State<Agent> {
        PERCEIVE(-1) {
            @Override
            public void update(Agent a) {
                float t = a.time + a.clock.dt;
                a.time = t;
                a.threat = Logic.wave(t, a.clock.logic.waveInv, a.phase);
            }
        },
        WANDER(F_WANDER) {
            @Override
            public void update(Agent a) {
                calm(a, GRAZE);
            }
        },
        GRAZE(F_GRAZE) {
            @Override
            public void update(Agent a) {
                calm(a, REST);
            }
        },
        REST(F_REST) {
            @Override
            public void update(Agent a) {
                calm(a, WANDER);
            }
        },
        FLEE(F_FLEE) {
            @Override
            public void update(Agent a) {
                if (a.tickTimer()) {
                    a.fsm.changeState(HIDE);
                }
            }
        },
        HIDE(F_HIDE) {
            @Override
            public void update(Agent a) {
                if (a.tickTimer()) {
                    a.fsm.changeState(WANDER);
                }
            }
        };

        final int leaf;

        FlatState(int leaf) {
            this.leaf = leaf;
        }

        /** A calm state: the threat transition is declared first, then the completion. */
        static void calm(Agent a, FlatState next) {
            boolean done = a.tickTimer();
            if (a.threat > THREAT_HIGH) {
                a.fsm.changeState(FLEE);
            } else if (done) {
                a.fsm.changeState(next);
            }
        }

        @Override
        public void enter(Agent a) {
            a.enterTimed(leaf);
        }

        @Override
        public void exit(Agent a) {
        }

        @Override
        public boolean onMessage(Agent a, Telegram telegram) {
            return false;
        }
    }

    private final PeerClock clock;
    private final Agent[] agents;

    GdxFsmPopulation(Logic logic, int n, long seed) {
        if (logic.variant != Variant.FLAT) {
            throw new IllegalArgumentException("the gdx-ai state machine runs the flat variant");
        }
        clock = new PeerClock(logic, seed, 0);
        agents = new Agent[n];
        for (int i = 0; i < n; i++) {
            agents[i] = new Agent(i, clock);
        }
    }

    @Override
    public void start() {
        clock.tick = 0;
        clock.dt = 0f;
        for (Agent a : agents) {
            a.time = 0f;
            a.phase = clock.logic.phase(clock.seed, a.id);
            FlatState.PERCEIVE.update(a);
            a.fsm.changeState(FlatState.WANDER);
        }
    }

    @Override
    public void tick(long tick, float dt) {
        clock.tick = tick;
        clock.dt = dt;
        for (Agent a : agents) {
            a.fsm.update();
        }
    }

    @Override
    public void states(int[] out) {
        for (Agent a : agents) {
            out[a.id] = clock.logic.treeState[a.fsm.getCurrentState().leaf];
        }
    }

    @Override
    public void close() {
        // nothing to release
    }
}
