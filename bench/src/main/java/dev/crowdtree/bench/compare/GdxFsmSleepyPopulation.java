package dev.crowdtree.bench.compare;

import com.badlogic.gdx.ai.fsm.DefaultStateMachine;
import com.badlogic.gdx.ai.fsm.State;
import com.badlogic.gdx.ai.msg.Telegram;

import static dev.crowdtree.bench.compare.Logic.S_BLINK;
import static dev.crowdtree.bench.compare.Logic.S_DOZE;
import static dev.crowdtree.bench.compare.Logic.S_NAP;
import static dev.crowdtree.bench.compare.Logic.S_SLEEP;

/**
 * gdx-ai's {@link DefaultStateMachine} running the sleepy variant, like {@link GdxFsmPopulation}:
 * one agent object and one state machine per agent, the states an {@code enum} implementing
 * {@link State} ({@code enter} draws the leaf's delay, {@code update} counts it down and changes
 * state), no global state (the variant has no perception). A tick calls {@code update()} on every
 * agent's machine.
 *
 * <p>The host's event arrives through gdx-ai's own message path: {@link #sendEvent} hands one
 * reused {@link Telegram} ({@link #POKE}) to the agent's {@link DefaultStateMachine#handleMessage},
 * and the current state's {@code onMessage} notes it. The state acts on it in its next
 * {@code update}, after the countdown, so that it sees the event in the same tick as our tree does,
 * and loses to a completion in that tick as our tree's leaf-to-root scan has it (acting in
 * {@code onMessage} would run the transition before the tick, a different logic).
 */
final class GdxFsmSleepyPopulation implements Population {
    /** The telegram's message code for the host's event. */
    static final int POKE = 1;

    /** The per-agent object (gdx-ai's "owner" / "entity"). */
    static final class Agent {
        final int id;
        final PeerClock clock;
        final DefaultStateMachine<Agent, SleepyState> fsm;
        float remaining;
        boolean poked;

        Agent(int id, PeerClock clock) {
            this.id = id;
            this.clock = clock;
            this.fsm = new DefaultStateMachine<>(this);
        }
    }

    /** The sleepy variant's leaves, in chain order. */
    enum SleepyState implements State<Agent> {
        BLINK(S_BLINK) {
            @Override
            public void update(Agent a) {
                step(a, NAP);
            }
        },
        NAP(S_NAP) {
            @Override
            public void update(Agent a) {
                step(a, DOZE);
            }
        },
        DOZE(S_DOZE) {
            @Override
            public void update(Agent a) {
                step(a, SLEEP);
            }
        },
        SLEEP(S_SLEEP) {
            @Override
            public void update(Agent a) {
                step(a, BLINK);
            }
        };

        final int leaf;

        SleepyState(int leaf) {
            this.leaf = leaf;
        }

        /** Counts the delay down; the completion goes to {@code next}, else an event to BLINK (re-entered). */
        static void step(Agent a, SleepyState next) {
            float left = a.remaining - a.clock.dt;
            a.remaining = left;
            boolean poked = a.poked;
            if (poked) {
                a.poked = false;
            }
            if (left <= 0f) {
                a.fsm.changeState(next);
            } else if (poked) {
                a.fsm.changeState(BLINK);
            }
        }

        @Override
        public void enter(Agent a) {
            a.remaining = a.clock.logic.delay(leaf, a.clock.seed, a.id, a.clock.tick);
        }

        @Override
        public void exit(Agent a) {
        }

        @Override
        public boolean onMessage(Agent a, Telegram telegram) {
            if (telegram.message == POKE) {
                a.poked = true;
                return true;
            }
            return false;
        }
    }

    private final PeerClock clock;
    private final Agent[] agents;
    private final Telegram poke = new Telegram();

    GdxFsmSleepyPopulation(Logic logic, int n, long seed) {
        if (logic.variant != Variant.SLEEPY) {
            throw new IllegalArgumentException("this gdx-ai state machine runs the sleepy variant");
        }
        clock = new PeerClock(logic, seed, 0);
        agents = new Agent[n];
        for (int i = 0; i < n; i++) {
            agents[i] = new Agent(i, clock);
        }
        poke.message = POKE;
    }

    @Override
    public void start() {
        clock.tick = 0;
        clock.dt = 0f;
        for (Agent a : agents) {
            a.fsm.changeState(SleepyState.BLINK);
        }
    }

    @Override
    public void sendEvent(int agent) {
        agents[agent].fsm.handleMessage(poke);
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
