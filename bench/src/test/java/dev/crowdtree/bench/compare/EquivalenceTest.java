package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.fixtures.AbortTrees;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.crowdtree.bench.compare.Logic.A_FAREWELL;
import static dev.crowdtree.bench.compare.Logic.A_GREET;
import static dev.crowdtree.bench.compare.Logic.A_HIDE;
import static dev.crowdtree.bench.compare.Logic.A_IDLE;
import static dev.crowdtree.bench.compare.Logic.A_RUN;
import static dev.crowdtree.bench.compare.Logic.A_TRADE;
import static dev.crowdtree.bench.compare.Logic.S_BLINK;
import static dev.crowdtree.bench.compare.Logic.S_NAP;
import static dev.crowdtree.bench.compare.Logic.S_SLEEP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Like for like: every implementation of the harness, run from one seed (with the host's events of
 * the sleepy variant, {@link Logic#hostEvents}), must have every agent in the same state after every
 * checkpoint, and so the same per-state occupancy after K ticks. Agents are compared one by one
 * (stronger than occupancy), at every 25th tick. The sleepy variant runs its real delays (3 to 60 s)
 * for {@link Report#SLEEPY_TEST_TICKS} ticks, long enough for every leaf and the wrap-around from the
 * last leaf to the first. The aborts variant runs {@link Report#ABORTS_TEST_TICKS} ticks (a period
 * of the threat wave), every change of state classified by its cause ({@link AbortCounts}); that
 * its priorities decide where some agents go within those ticks, so that a peer ignoring them
 * fails the comparison, is {@link #theAbortsPrioritiesDecideWhereSomeAgentsGo}.
 */
class EquivalenceTest {
    static final int AGENTS = 5000;
    static final int TICKS = 300;
    static final long SEED = 42;
    static final float DT = 1f / 30f;

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyImplementationReachesTheSameStates(Variant variant) {
        CompiledStateTree tree = variant.compile();
        Logic logic = Logic.of(variant, tree);
        boolean sleepy = variant == Variant.SLEEPY;
        boolean aborts = variant == Variant.ABORTS;
        int ticks = sleepy ? Report.SLEEPY_TEST_TICKS : aborts ? Report.ABORTS_TEST_TICKS : TICKS;
        List<Impl> impls = new ArrayList<>(List.of(Impl.values()));
        List<Population> pops = new ArrayList<>();
        try {
            for (Impl impl : impls) {
                Population p = impl.create(logic, AGENTS, SEED);
                pops.add(p);
                p.start();
            }
            int[] events = new int[logic.hostEventsPerTick(AGENTS)];
            boolean[] poked = new boolean[AGENTS];
            SleepyCounts counts = new SleepyCounts(logic);
            AbortCounts abortCounts = new AbortCounts(logic);
            int[] expected = new int[AGENTS];
            int[] actual = new int[AGENTS];
            int[] before = new int[AGENTS];
            int[] now = new int[AGENTS];
            int transitions = 0;
            int[] previous = null;
            pops.get(0).states(now);
            for (int tick = 0; tick <= ticks; tick++) {
                if (tick > 0) {
                    int k = logic.hostEvents(SEED, tick, AGENTS, events);
                    for (Population p : pops) {
                        CompareRun.step(p, events, k, tick, DT);
                    }
                    if (sleepy || aborts) {
                        // the first implementation's states every tick: what happened to whom, by cause
                        System.arraycopy(now, 0, before, 0, AGENTS);
                        pops.get(0).states(now);
                    }
                    if (sleepy) {
                        Arrays.fill(poked, false);
                        for (int j = 0; j < k; j++) {
                            poked[events[j]] = true;
                        }
                        counts.tick(tick, before, now, poked);
                    } else if (aborts) {
                        abortCounts.tick(tick, before, now);
                    }
                }
                if (tick % 25 != 0 && tick != ticks) {
                    continue;
                }
                pops.get(0).states(expected);
                for (int i = 1; i < pops.size(); i++) {
                    Arrays.fill(actual, -2);
                    pops.get(i).states(actual);
                    for (int a = 0; a < AGENTS; a++) {
                        if (actual[a] != expected[a]) {
                            fail(variant.id() + ": " + impls.get(i).id() + " has agent " + a + " in "
                                    + name(tree, actual[a]) + " at tick " + tick + ", " + impls.get(0).id()
                                    + " in " + name(tree, expected[a]));
                        }
                    }
                }
                if (previous != null) {
                    for (int a = 0; a < AGENTS; a++) {
                        transitions += previous[a] != expected[a] ? 1 : 0;
                    }
                }
                previous = expected.clone();
            }
            int[] occupancy = occupancy(tree, expected);
            for (int i = 1; i < pops.size(); i++) {
                pops.get(i).states(actual);
                assertArrayEquals(occupancy, occupancy(tree, actual), impls.get(i).id() + " occupancy after " + ticks + " ticks");
            }
            // The comparison means something: the population is spread over the leaves, danger included.
            int used = 0;
            for (int c : occupancy) {
                used += c > 0 ? 1 : 0;
            }
            assertEquals(logic.leaves, used, "occupied leaves " + Arrays.toString(occupancy));
            assertTrue(transitions > AGENTS, "agents changed state between checkpoints " + transitions + " times");
            if (sleepy) {
                counts.check();
            }
            if (aborts) {
                abortCounts.check();
            }
        } finally {
            for (Population p : pops) {
                p.close();
            }
        }
    }

    /**
     * The sleepy variant's causes, counted tick by tick on one implementation (the others are
     * compared with it): completions along the chain, the wrap-around from the last leaf to the first,
     * events that fired, events that lost to a completion in the same tick. Every change of state
     * must be one of these.
     */
    static final class SleepyCounts {
        final Logic logic;
        final int[] leafOfState;
        int completions;
        int wraps;
        int eventsFired;
        int eventsLostToCompletion;

        SleepyCounts(Logic logic) {
            this.logic = logic;
            leafOfState = new int[logic.tree.stateCount];
            Arrays.fill(leafOfState, -1);
            for (int l = 0; l < logic.leaves; l++) {
                leafOfState[logic.treeState[l]] = l;
            }
        }

        void tick(int tick, int[] before, int[] now, boolean[] poked) {
            for (int a = 0; a < before.length; a++) {
                int from = leafOfState[before[a]];
                int to = leafOfState[now[a]];
                int next = (from + 1) % logic.leaves;
                if (to == next && (!poked[a] || to != S_BLINK)) {
                    completions++;
                    wraps += from == S_SLEEP ? 1 : 0;
                    eventsLostToCompletion += poked[a] ? 1 : 0;
                } else if (poked[a] && to == S_BLINK) {
                    eventsFired++; // Blink to Blink included: a re-entry, a new delay drawn
                } else if (to != from || poked[a]) {
                    fail("tick " + tick + ": agent " + a + " went from leaf " + from + " to " + to + (poked[a] ? " with" : " without")
                            + " an event");
                }
            }
        }

        void check() {
            assertTrue(completions > 2 * AGENTS, "completions " + completions);
            assertTrue(wraps > 0, "no agent went round the chain (Sleep -> Blink by completion)");
            assertTrue(eventsFired > 1000, "events that fired: " + eventsFired);
            assertTrue(eventsLostToCompletion > 0, "no event arrived in the tick its agent's delay ran out");
        }
    }

    /**
     * The aborts variant's causes, counted tick by tick on one implementation (the others are
     * compared with it): the sequences' next child (Run to Hide, Greet to Trade, Trade to Farewell),
     * the restart from the root after Flee or Serve succeeded (from Hide or Farewell to the first
     * leaf of what the root selects), and the aborts: the threat's from Serve (any of its leaves) and
     * from Idle, the customer's from Idle. Every change of state must be one of these, and each must
     * happen. (Idle's own completion and restart re-enter Idle: not a change of state.)
     */
    static final class AbortCounts {
        final int[] leafOfState;
        final int[][] moves = new int[6][6];

        AbortCounts(Logic logic) {
            leafOfState = new int[logic.tree.stateCount];
            Arrays.fill(leafOfState, -1);
            for (int l = 0; l < logic.leaves; l++) {
                leafOfState[logic.treeState[l]] = l;
            }
        }

        void tick(int tick, int[] before, int[] now) {
            for (int a = 0; a < before.length; a++) {
                int from = leafOfState[before[a]];
                int to = leafOfState[now[a]];
                if (from == to) {
                    continue;
                }
                boolean ok;
                switch (from) {
                    case A_RUN:
                        ok = to == A_HIDE;
                        break;
                    case A_HIDE:
                        ok = to == A_RUN || to == A_GREET || to == A_IDLE; // the restart
                        break;
                    case A_GREET:
                        ok = to == A_TRADE || to == A_RUN;
                        break;
                    case A_TRADE:
                        ok = to == A_FAREWELL || to == A_RUN;
                        break;
                    case A_FAREWELL:
                        ok = to == A_RUN || to == A_GREET || to == A_IDLE; // the abort, or the restart
                        break;
                    default:
                        ok = to == A_RUN || to == A_GREET; // Idle's aborts
                }
                if (!ok) {
                    fail("tick " + tick + ": agent " + a + " went from leaf " + from + " to " + to);
                }
                moves[from][to]++;
            }
        }

        void check() {
            String all = Arrays.deepToString(moves);
            assertTrue(moves[A_RUN][A_HIDE] > 100, "Flee's next child: " + all);
            assertTrue(moves[A_GREET][A_TRADE] > 100 && moves[A_TRADE][A_FAREWELL] > 100, "Serve's next child: " + all);
            assertTrue(moves[A_HIDE][A_GREET] + moves[A_HIDE][A_IDLE] > 100, "restarts after Flee: " + all);
            // Farewell to Greet (the customer still there after the whole Serve) is rare: 1 in this run
            assertTrue(moves[A_FAREWELL][A_IDLE] > 100, "restarts after Serve: " + all);
            assertTrue(moves[A_GREET][A_RUN] > 0 && moves[A_TRADE][A_RUN] > 0, "Serve's threat abort: " + all);
            assertTrue(moves[A_IDLE][A_RUN] > 100, "Idle's threat abort: " + all);
            assertTrue(moves[A_IDLE][A_GREET] > 100, "Idle's customer abort: " + all);
        }
    }

    /**
     * The aborts variant's priorities decide where some agents go within the ticks the comparison
     * runs, so a peer that ignored them would fail it: our runtime on the tree with other priorities
     * ({@link AbortTrees#aborts(String, String, String)}) puts some agents elsewhere at some
     * checkpoint than on the real tree. Serve's abort at {@code normal} (skipped when the sequence's
     * rule found the next child: the merchant enters the next step and flees a tick later), and
     * Idle's two at the same priority (the customer, declared first, wins when both hold), each
     * changed alone.
     */
    @Test
    void theAbortsPrioritiesDecideWhereSomeAgentsGo() throws Exception {
        CompiledStateTree real = Variant.ABORTS.compile();
        int serve = differingAgents(real, AbortTrees.aborts("normal", "medium", "high"));
        int idle = differingAgents(real, AbortTrees.aborts("high", "medium", "medium"));
        assertTrue(serve > 0, "Serve's high abort over the sequence's next child changed nobody's state");
        assertTrue(idle > 0, "Idle's threat abort over its customer abort changed nobody's state");
    }

    /** Agents in another state at some checkpoint (every 25 ticks) on {@code other} than on {@code real}. */
    private static int differingAgents(CompiledStateTree real, TreeDef other) throws Exception {
        CompiledStateTree changed = StateTreeCompiler.withBuiltins().compile(other);
        int[] a = new int[AGENTS];
        int[] b = new int[AGENTS];
        boolean[] differs = new boolean[AGENTS];
        try (Population p = Impl.population(Impl.OURS_1W.runtime(real, AGENTS, SEED));
             Population q = Impl.population(Impl.OURS_1W.runtime(changed, AGENTS, SEED))) {
            p.start();
            q.start();
            for (int tick = 1; tick <= Report.ABORTS_TEST_TICKS; tick++) {
                p.tick(tick, DT);
                q.tick(tick, DT);
                if (tick % 25 == 0) {
                    p.states(a);
                    q.states(b);
                    for (int i = 0; i < AGENTS; i++) {
                        differs[i] |= a[i] != b[i];
                    }
                }
            }
        }
        int n = 0;
        for (boolean d : differs) {
            n += d ? 1 : 0;
        }
        return n;
    }

    /**
     * An event in the tick a delay runs out loses to the completion (the leaf's transition is checked
     * before the root's): for agents poked one tick before, in, and one tick after the tick their first
     * delay runs out, every implementation ends up where the semantics say, computed here from the
     * delay's float countdown.
     */
    @Test
    void anEventInTheTickADelayRunsOutLosesToTheCompletion() {
        Variant variant = Variant.SLEEPY;
        CompiledStateTree tree = variant.compile();
        Logic logic = Logic.of(variant, tree);
        int n = 90;
        int[] due = new int[n];
        int[] eventTick = new int[n];
        int last = 0;
        for (int a = 0; a < n; a++) {
            float r = logic.delay(S_BLINK, SEED, a, 0);
            int t = 0;
            do {
                t++;
                r -= DT;
            } while (r > 0f);
            due[a] = t;
            eventTick[a] = t + (a % 3) - 1;
            last = Math.max(last, t + 2);
        }
        int blink = logic.treeState[S_BLINK];
        int nap = logic.treeState[S_NAP];
        for (Impl impl : Impl.values()) {
            try (Population p = impl.create(logic, n, SEED)) {
                p.start();
                int[] states = new int[n];
                for (int tick = 1; tick <= last; tick++) {
                    for (int a = 0; a < n; a++) {
                        if (eventTick[a] == tick) {
                            p.sendEvent(a);
                        }
                    }
                    p.tick(tick, DT);
                    p.states(states);
                    for (int a = 0; a < n; a++) {
                        int offset = eventTick[a] - due[a];
                        int want;
                        if (tick <= due[a] - 1) {
                            want = blink; // not due yet; an event at due - 1 (offset -1) re-enters Blink
                        } else if (tick == due[a]) {
                            want = offset == -1 ? blink : nap; // the completion wins over an event in this tick
                        } else {
                            want = offset == 0 ? nap : blink; // the lost event is gone; a later one fires
                        }
                        if (tick >= due[a] - 1 && tick <= due[a] + 2) { // later, a newly drawn delay (>= 3 s) may run out
                            assertEquals(want, states[a], impl.id() + ": agent " + a + " (delay runs out at tick " + due[a]
                                    + ", event at tick " + eventTick[a] + ") at tick " + tick);
                        }
                    }
                }
            }
        }
    }

    @Test
    void theHostPokesMaxOfOneAndAThousandthOfTheAgentsPerTickTheSameForEveryone() {
        Logic sleepy = Logic.of(Variant.SLEEPY, Variant.SLEEPY.compile());
        assertEquals(0, sleepy.hostEventsPerTick(0));
        assertEquals(1, sleepy.hostEventsPerTick(10));
        assertEquals(5, sleepy.hostEventsPerTick(AGENTS));
        assertEquals(1000, sleepy.hostEventsPerTick(1_000_000));
        assertEquals(0, Logic.of(Variant.FLAT, Variant.FLAT.compile()).hostEventsPerTick(1_000_000));
        int[] first = new int[1000];
        int[] again = new int[1000];
        int[] next = new int[1000];
        assertEquals(1000, sleepy.hostEvents(SEED, 7, 1_000_000, first));
        sleepy.hostEvents(SEED, 7, 1_000_000, again);
        sleepy.hostEvents(SEED, 8, 1_000_000, next);
        assertArrayEquals(first, again, "a pure function of (seed, tick, draw)");
        assertFalse(Arrays.equals(first, next), "another tick, other agents");
        long distinct = Arrays.stream(first).distinct().count();
        assertTrue(distinct > 990, "a thousand draws out of a million hardly collide: " + distinct);
        for (int id : first) {
            assertTrue(id >= 0 && id < 1_000_000, "agent id " + id);
        }
    }

    static int[] occupancy(CompiledStateTree tree, int[] states) {
        int[] c = new int[tree.stateCount];
        for (int s : states) {
            c[s]++;
        }
        return c;
    }

    private static String name(CompiledStateTree tree, int s) {
        return s < 0 ? "(none: " + s + ")" : tree.statePath(s);
    }
}
