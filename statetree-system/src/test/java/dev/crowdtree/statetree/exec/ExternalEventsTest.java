package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events offered from other threads through the JCTools queue are drained at the start of the next
 * tick in a stable order: however the threads race, the outcome is the same, and it equals sending
 * the same events on the simulation thread.
 */
@Timeout(120)
class ExternalEventsTest {
    static final int AGENTS = 300;
    static final int TICKS = 60;

    /** The events sent before tick k: (agent, tag) pairs, a fixed set per tick. */
    static List<ExternalEvent> eventsFor(int k) {
        List<ExternalEvent> list = new ArrayList<>();
        Random r = new Random(k);
        for (int i = 0; i < 40; i++) {
            list.add(new ExternalEvent(r.nextInt(AGENTS), r.nextBoolean() ? "Alarm" : "Nope",
                    r.nextInt(3), r.nextBoolean()));
        }
        return list;
    }

    static List<String> run(CompiledStateTree tree, int mode, long shuffleSeed) throws Exception {
        List<String> trace = new ArrayList<>();
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, AGENTS, 11, 2, 32)) {
            sys.setTrace((a, l) -> trace.add("a" + a + " " + l));
            sys.startAll(0);
            for (int k = 1; k <= TICKS; k++) {
                List<ExternalEvent> events = new ArrayList<>(eventsFor(k));
                Collections.shuffle(events, new Random(shuffleSeed * 1000 + k));
                if (mode == 0) {
                    for (ExternalEvent e : events) {
                        sys.sendEvent(e.agentId(), e.tag(), e.payload());
                    }
                } else {
                    offerFromThreads(sys, events, 4);
                }
                sys.tickAll(k, 0.1f);
            }
        }
        return trace;
    }

    /** Four threads offer a quarter of the events each, racing. */
    static void offerFromThreads(StateTreeSystem sys, List<ExternalEvent> events, int threads)
            throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int part = t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = part; i < events.size(); i += threads) {
                    sys.externalEvents().offer(events.get(i));
                }
            });
            th.start();
            ts.add(th);
        }
        start.countDown();
        for (Thread th : ts) {
            th.join();
        }
    }

    @Test
    void racingThreadsGiveTheSameOutcomeAsTheSimulationThread() throws Exception {
        CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(CrowdTrees.everything());
        List<String> reference = run(tree, 0, 1);
        assertTrue(reference.stream().anyMatch(l -> l.contains("-> Root/Alert")), "the Alarm events must matter");
        for (long seed = 2; seed < 6; seed++) {
            assertEquals(reference, run(tree, 1, seed), "events offered by racing threads, shuffle " + seed);
        }
    }
}
