package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The population counters ({@link Recorder}, {@code StateTreeRuntime.setRecording}): the same on
 * every runtime and worker count, tick by tick, and what the trace says happened.
 */
class RecorderTest {
    private static final Pattern TRANSITION = Pattern.compile("^(?:a\\d+ )?(\\d+) transition .*");

    /** One tick's counts, comparable across runtimes. */
    private static String counts(Recorder r, CompiledStateTree t) {
        StringBuilder b = new StringBuilder("tick ").append(r.tick()).append(':');
        for (int s = 0; s < t.stateCount; s++) {
            if (r.occupancy(s) != 0) {
                b.append(' ').append(t.statePath(s)).append('=').append(r.occupancy(s));
            }
        }
        b.append(" |");
        for (int tr = 0; tr < t.transitionCount; tr++) {
            if (r.fired(tr) != 0) {
                b.append(" #").append(tr).append('=').append(r.fired(tr));
            }
        }
        return b.append(" | composite ").append(r.compositeRules()).append(" restart ").append(r.restarts())
                .append(" request ").append(r.requests())
                .append(" failures ").append(r.failures()).append(" dropped ").append(r.droppedEvents())
                .append(" rejected ").append(r.rejectedEvents()).toString();
    }

    /** Runs {@code c}'s scenario with recording on: the counts of every tick, and the trace. */
    private static List<String> record(Path c, RuntimeFactory factory, List<String> trace) throws Exception {
        Scenario scenario = Scenario.load(c.resolve("scenario.json"));
        CompiledStateTree tree = StateTreeJson.compile(scenario.resolveTree(), TestNodes.compiler());
        List<String> ticks = new ArrayList<>();
        RuntimeFactory recording = (t, agents, seed, workers) -> {
            StateTreeRuntime rt = factory.create(t, agents, seed, workers);
            rt.setRecording(true);
            return rt;
        };
        ScenarioRunner.run(scenario, tree, recording, trace::add, (rt, tick) -> {
            if (tick > 0 && rt.recorder().tick() == tick) {
                ticks.add(counts(rt.recorder(), tree));
            }
        });
        return ticks;
    }

    @Test
    void everyRuntimeCountsTheSameAsTheTraceSays() throws Exception {
        int checked = 0;
        for (Path c : GoldenTraceTest.cases()) {
            if (!Files.isRegularFile(c.resolve("expected.trace"))) {
                continue;
            }
            List<String> trace = new ArrayList<>();
            List<String> reference = record(c, ScenarioRunner.REFERENCE, trace);
            for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
                List<String> other = record(c, r.factory(), new ArrayList<>());
                if (!other.equals(reference)) {
                    fail("counters of " + c.getFileName() + " differ on " + r.name() + ":\n"
                            + GoldenTraceTest.unifiedDiff("reference", r.name(), reference, other));
                }
            }
            // the transitions fired in each tick are the trace's transition lines of that tick
            long[] perTick = new long[reference.size() + 2];
            for (String line : trace) {
                Matcher m = TRANSITION.matcher(line);
                if (m.matches() && Integer.parseInt(m.group(1)) > 0) {
                    int tick = Integer.parseInt(m.group(1));
                    if (tick < perTick.length) {
                        perTick[tick]++;
                    }
                }
            }
            for (String counts : reference) {
                int tick = Integer.parseInt(counts.substring(5, counts.indexOf(':')));
                assertEquals(perTick[tick], firedIn(counts), c.getFileName() + ", " + counts);
            }
            checked++;
        }
        assertTrue(checked > 100, "cases checked: " + checked);
    }

    /** The transitions counted in one {@link #counts} line: each transition, composite rules, restarts and requests. */
    private static long firedIn(String counts) {
        String[] parts = counts.split("\\|");
        long n = 0;
        Matcher m = Pattern.compile("#\\d+=(\\d+)").matcher(parts[1]);
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        Matcher tail = Pattern.compile("composite (\\d+) restart (\\d+) request (\\d+)").matcher(parts[2]);
        assertTrue(tail.find(), counts);
        return n + Long.parseLong(tail.group(1)) + Long.parseLong(tail.group(2)) + Long.parseLong(tail.group(3));
    }

    /**
     * The batched runtime counts the occupancy afresh only after a start or a stop, and otherwise by
     * what its transitions changed: over a long run of the crowd tree it still matches the agents'
     * active paths, tick after tick, on 1 and 2 workers.
     */
    @Test
    void theOccupancyCountedByChangesMatchesTheActivePaths() {
        CompiledStateTree tree = TestNodes.compile(dev.crowdtree.statetree.fixtures.CrowdTrees.everything());
        for (int workers : new int[] {1, 2}) {
            try (StateTreeRuntime rt = dev.crowdtree.statetree.exec.StateTreeSystem.create(tree, 3000, 5, workers)) {
                rt.setRecording(true);
                rt.startAll(0);
                long changed = 0;
                for (int k = 1; k <= 300; k++) {
                    if (k == 150) {
                        rt.stop(17, k); // a stop: counted afresh at the next tick
                    }
                    rt.tickAll(k, 1f / 30f);
                    if (k % 50 == 0 || k == 151) {
                        long[] fromPaths = new long[tree.stateCount];
                        for (int a = 0; a < 3000; a++) {
                            if (rt.treeStatus(a) == dev.crowdtree.statetree.node.RunStatus.RUNNING) {
                                fromPaths[tree.stateByPath(rt.activePath(a))]++;
                            }
                        }
                        for (int s = 0; s < tree.stateCount; s++) {
                            assertEquals(fromPaths[s], rt.recorder().occupancy(s), "tick " + k + ", " + tree.statePath(s)
                                    + ", workers " + workers);
                        }
                    }
                    for (int tr = 0; tr < tree.transitionCount; tr++) {
                        changed += rt.recorder().fired(tr);
                    }
                }
                assertTrue(changed > 1000, "transitions counted: " + changed);
            }
        }
    }

    @Test
    void occupancyIsThePopulationByLastStateAndOffMeansNoRecorder() throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("occupancy.json", ("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'succeed', 'afterTicks': 2}], 'transitions': [{'trigger':"
                + " 'onStateSucceeded', 'to': 'B'}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}}").replace('\'', '"'),
                TestNodes.compiler());
        for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
            try (StateTreeRuntime rt = r.factory().create(tree, 100, 1, 2)) {
                assertNull(rt.recorder(), r.name());
                rt.setRecording(true);
                rt.startAll(0);
                rt.tickAll(1, 0.1f);
                Recorder rec = rt.recorder();
                assertEquals(1, rec.tick());
                assertEquals(100, rec.occupancy(tree.stateByPath("Root/A")), r.name());
                assertEquals(100, rec.occupancyBelow(0), r.name());
                assertEquals(100, rec.running(), r.name());
                rt.tickAll(2, 0.1f);
                assertEquals(100, rec.occupancy(tree.stateByPath("Root/B")), r.name());
                assertEquals(0, rec.occupancy(tree.stateByPath("Root/A")), r.name());
                assertEquals(100, rec.fired(0), r.name());
                rt.tickAll(3, 0.1f);
                assertEquals(0, rec.fired(0), r.name()); // the counts are the last tick's
                rt.stop(7, 4);
                rt.tickAll(4, 0.1f);
                assertEquals(99, rec.running(), r.name()); // a stopped agent is not running
                rt.setRecording(false);
                assertNull(rt.recorder(), r.name());
            }
        }
    }
}
