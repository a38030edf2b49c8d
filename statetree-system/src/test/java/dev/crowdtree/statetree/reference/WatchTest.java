package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The recorder's watched agents, its enters per state and events per tag (issue 21, docs/SEMANTICS.md
 * section 10, "Counters"), and the runtimes' accessors activeState, parameter and queuedEvents: the
 * same on both runtimes and on 1, 2 and 3 workers.
 */
class WatchTest {
    private static final Pattern ENTER = Pattern.compile("^(?:a\\d+ )?(\\d+) enter (.*) (?:changed|sustained)$");
    private static final int LINES = 4096;

    /** The runtimes compared: both reference modes, and the batched one on 1, 2 and 3 workers. */
    private static final List<GoldenTraceTest.NamedRuntime> RUNTIMES = List.of(
            new GoldenTraceTest.NamedRuntime("reference", ScenarioRunner.REFERENCE),
            new GoldenTraceTest.NamedRuntime("reference-scheduled", ScenarioRunner.REFERENCE_SCHEDULED),
            new GoldenTraceTest.NamedRuntime("batched-1", (t, a, s, w) -> StateTreeSystem.create(t, a, s, 1)),
            new GoldenTraceTest.NamedRuntime("batched-2-chunks-of-1", (t, a, s, w) -> StateTreeSystem.standalone(t, a, s, 2, 1)),
            new GoldenTraceTest.NamedRuntime("batched-3", (t, a, s, w) -> StateTreeSystem.create(t, a, s, 3)));

    /** The agents watched in a scenario of {@code agents} agents. */
    private static int[] watchedOf(int agents) {
        return agents <= 3 ? java.util.stream.IntStream.range(0, agents).toArray() : new int[] {0, agents / 2, agents - 1};
    }

    /** What one run gives: the trace, the watched agents' rings, the counts of each tick. */
    private record Run(List<String> trace, Map<Integer, List<String>> rings, List<String> counts) {
    }

    /**
     * Runs {@code c}'s scenario on {@code factory} with recording on and the agents of
     * {@link #watchedOf} watched; {@code explain}: the sink explains; {@code dropSink}: the sink is
     * removed after the start (the rings must not need it).
     */
    private static Run run(Path c, RuntimeFactory factory, boolean explain, boolean dropSink) throws Exception {
        Scenario scenario = Scenario.load(c.resolve("scenario.json"));
        CompiledStateTree tree = StateTreeJson.compile(scenario.resolveTree(), TestNodes.compiler());
        int[] watched = watchedOf(scenario.agents());
        RuntimeFactory watching = (t, agents, seed, workers) -> {
            StateTreeRuntime rt = factory.create(t, agents, seed, workers);
            rt.setExplain(explain);
            rt.setRecording(true);
            rt.recorder().setWatchLimits(watched.length, LINES);
            for (int a : watched) {
                rt.recorder().watch(a);
            }
            return rt;
        };
        List<String> trace = new ArrayList<>();
        Map<Integer, List<String>> rings = new HashMap<>();
        List<String> counts = new ArrayList<>();
        ScenarioRunner.run(scenario, tree, watching, trace::add, (rt, tick) -> {
            if (tick == 0 && dropSink) {
                rt.setTrace(null);
            }
            Recorder r = rt.recorder();
            if (tick > 0 && r.tick() == tick) {
                counts.add(counts(r, tree));
            }
            if (tick == scenario.ticks()) {
                for (int a : watched) {
                    rings.put(a, r.trace(a));
                }
            }
        });
        return new Run(trace, rings, counts);
    }

    /** A tick's enters per state and events per tag. */
    private static String counts(Recorder r, CompiledStateTree t) {
        StringBuilder b = new StringBuilder("tick ").append(r.tick()).append(':');
        for (int s = 0; s < t.stateCount; s++) {
            if (r.entered(s) != 0) {
                b.append(' ').append(t.statePath(s)).append('=').append(r.entered(s));
            }
        }
        b.append(" |");
        for (String tag : t.tags()) {
            if (r.eventsArrived(tag) != 0) {
                b.append(' ').append(tag).append('=').append(r.eventsArrived(tag));
            }
        }
        return b.toString();
    }

    /** The lines of agent {@code a} in a scenario trace (prefixed {@code a<k> } when it has several agents). */
    private static List<String> linesOf(List<String> trace, int a, boolean prefixed) {
        List<String> out = new ArrayList<>();
        String prefix = "a" + a + " ";
        for (String line : trace) {
            if (!prefixed) {
                out.add(line);
            } else if (line.startsWith(prefix)) {
                out.add(line.substring(prefix.length()));
            }
        }
        return out.size() > LINES ? out.subList(out.size() - LINES, out.size()) : out;
    }

    @Test
    void aWatchedAgentsRingIsItsExplainedTraceOnEveryRuntime() throws Exception {
        int checked = 0;
        long lines = 0;
        for (Path c : GoldenTraceTest.cases()) {
            if (!Files.isRegularFile(c.resolve("expected.trace"))) {
                continue;
            }
            Scenario scenario = Scenario.load(c.resolve("scenario.json"));
            boolean prefixed = scenario.agents() > 1;
            Run explained = run(c, ScenarioRunner.REFERENCE, true, false);
            Run plain = run(c, ScenarioRunner.REFERENCE, false, false);
            // watching changes nothing the sink sees
            assertEquals(ScenarioRunner.run(scenario, TestNodes.compiler(), ScenarioRunner.REFERENCE.explaining()),
                    explained.trace(), c.getFileName() + ": the explained trace, with agents watched");
            assertEquals(GoldenTraceTest.withoutWhy(explained.trace()), plain.trace(),
                    c.getFileName() + ": the plain trace, with agents watched");
            for (int a : watchedOf(scenario.agents())) {
                assertEquals(linesOf(explained.trace(), a, prefixed), explained.rings().get(a),
                        c.getFileName() + ": agent " + a + "'s ring");
                lines += explained.rings().get(a).size();
            }
            assertEquals(explained.rings(), plain.rings(), c.getFileName() + ": the rings without explaining");
            // the enters counted are the trace's enter lines of each tick
            Map<String, Long> enters = new HashMap<>();
            for (String line : explained.trace()) {
                Matcher m = ENTER.matcher(line);
                if (m.matches() && Integer.parseInt(m.group(1)) > 0) {
                    enters.merge("tick " + m.group(1) + " " + m.group(2), 1L, Long::sum);
                }
            }
            Map<String, Long> counted = new HashMap<>();
            for (String counts : explained.counts()) {
                String tick = counts.substring(0, counts.indexOf(':'));
                for (String part : counts.substring(counts.indexOf(':') + 1, counts.indexOf('|')).trim().split(" ")) {
                    if (!part.isEmpty()) {
                        int eq = part.lastIndexOf('=');
                        counted.put(tick + " " + part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
                    }
                }
            }
            // (ticks the scenario starts again are not ticks: their enters are not counted)
            Map<String, Long> enteredInTicks = new HashMap<>(enters);
            enteredInTicks.keySet().removeIf(k -> explained.counts().stream().noneMatch(cs -> cs.startsWith(k.substring(0,
                    k.indexOf(' ', 5)) + ":")));
            assertEquals(enteredInTicks, counted, c.getFileName() + ": enters counted");
            for (GoldenTraceTest.NamedRuntime r : RUNTIMES) {
                for (boolean dropSink : new boolean[] {false, true}) {
                    Run other = run(c, r.factory(), false, dropSink);
                    if (!other.rings().equals(explained.rings())) {
                        fail("rings of " + c.getFileName() + " differ on " + r.name() + (dropSink ? " without a sink" : "")
                                + ": " + other.rings() + "\ninstead of " + explained.rings());
                    }
                    if (!other.counts().equals(explained.counts())) {
                        fail("enters and events of " + c.getFileName() + " differ on " + r.name() + ":\n"
                                + GoldenTraceTest.unifiedDiff("reference", r.name(), explained.counts(), other.counts()));
                    }
                    if (!dropSink) {
                        assertEquals(plain.trace(), other.trace(), c.getFileName() + " on " + r.name()
                                + ": the sink's trace, with agents watched");
                    }
                }
            }
            checked++;
        }
        assertTrue(checked > 100, "cases checked: " + checked);
        assertTrue(lines > 1000, "ring lines checked: " + lines);
    }

    private static CompiledStateTree compile(String json) {
        try {
            return StateTreeJson.compile("watch.json", json.replace('\'', '"'), TestNodes.compiler());
        } catch (StateTreeCompileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** A tree that goes A -> B on Alarm, B -> A after two ticks, with an int, a bool, a float and an enum parameter. */
    private static final String TREE = "{'name': 'T', 'parameters': {'n': {'type': 'int', 'default': 3},"
            + " 'on': {'type': 'bool', 'default': true}, 'speed': {'type': 'float', 'default': 1.5},"
            + " 'mood': {'type': 'enum', 'values': ['calm', 'angry', 'sad'], 'default': 'angry'}},"
            + " 'root': {'name': 'Root', 'children': ["
            + "{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'Alarm',"
            + " 'payloadFields': {'level': 'int'}, 'to': 'B'}]},"
            + "{'name': 'B', 'tasks': [{'type': 'succeed', 'afterTicks': 2}], 'transitions': [{'trigger': 'onStateSucceeded',"
            + " 'to': 'A'}]}]}}";

    private static List<StateTreeRuntime> runtimes(CompiledStateTree tree, int agents) {
        List<StateTreeRuntime> out = new ArrayList<>();
        for (GoldenTraceTest.NamedRuntime r : RUNTIMES) {
            out.add(r.factory().create(tree, agents, 1, 2));
        }
        return out;
    }

    @Test
    void theRingKeepsTheLastLinesAndUnwatchForgets() {
        CompiledStateTree tree = compile(TREE);
        for (StateTreeRuntime rt : runtimes(tree, 4)) {
            try (rt) {
                rt.setRecording(true);
                Recorder r = rt.recorder();
                assertEquals(Recorder.DEFAULT_MAX_WATCHED, r.maxWatched());
                assertEquals(Recorder.DEFAULT_LINES_PER_AGENT, r.linesPerAgent());
                r.setWatchLimits(2, 3);
                r.watch(1);
                r.watch(1); // again: nothing
                assertEquals(1, r.watchedCount());
                r.watch(3);
                IllegalArgumentException full = assertThrows(IllegalArgumentException.class, () -> r.watch(2));
                assertTrue(full.getMessage().contains("2 agents are watched already"), full.getMessage());
                assertThrows(IllegalArgumentException.class, () -> r.watch(-1));
                rt.startAll(0);
                // the last three of: start, enter Root, enter A, task-enter
                assertEquals(List.of("0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:run"), r.trace(1));
                rt.sendEvent(1, "Alarm", Map.of("level", 2));
                rt.tickAll(1, 0.1f);
                // the last three of: ... transition, why, exit A, task-exit, enter B, task-enter
                assertEquals(List.of("1 task-exit Root/A:run", "1 enter Root/B changed", "1 task-enter Root/B:succeed"),
                        r.trace(1), rt.getClass().getSimpleName());
                assertEquals(List.of("0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:run"), r.trace(3));
                assertEquals(1, r.entered(tree.stateByPath("Root/B")));
                assertEquals(0, r.entered(tree.stateByPath("Root/A")));
                assertEquals(1, r.eventsArrived("Alarm"));
                assertEquals(0, r.eventsArrived("Nope"));
                r.unwatch(1);
                assertFalse(r.isWatched(1));
                assertEquals(List.of(), r.trace(1));
                r.watch(2); // the freed slot
                assertTrue(r.isWatched(2) && r.isWatched(3));
                assertEquals(List.of(), r.trace(2));
                rt.tickAll(2, 0.1f);
                rt.tickAll(3, 0.1f);
                assertEquals(List.of(), r.trace(2)); // agent 2 sits in A, printing nothing
                assertEquals(1, r.entered(tree.stateByPath("Root/A"))); // agent 1 back in A
                r.unwatch(2);
                r.watch(1);
                assertEquals(List.of(), r.trace(1)); // watched again: from now on
                assertEquals(2, r.watchedCount());
            }
        }
    }

    /** A sink that follows one agent sees its lines only, without why lines, while another agent is watched. */
    @Test
    void aSinkThatFollowsOneAgentIsUnchangedByWatchingAnother() {
        CompiledStateTree tree = compile(TREE);
        for (int workers = 1; workers <= 3; workers++) {
            try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 200, 1, workers, 16)) {
                List<String> sink = new ArrayList<>();
                sys.setTrace((agent, line) -> sink.add(agent + " " + line), 5);
                sys.setRecording(true);
                sys.recorder().watch(150);
                sys.startAll(0);
                sys.sendEvent(StateTreeRuntime.ALL, "Alarm", Map.of("level", 2));
                sys.tickAll(1, 0.1f);
                assertEquals(List.of("5 0 start", "5 0 enter Root changed", "5 0 enter Root/A changed",
                        "5 0 task-enter Root/A:run", "5 1 transition Root/A -> Root/B", "5 1 exit Root/A changed",
                        "5 1 task-exit Root/A:run", "5 1 enter Root/B changed", "5 1 task-enter Root/B:succeed"), sink);
                assertEquals(List.of("0 start", "0 enter Root changed", "0 enter Root/A changed", "0 task-enter Root/A:run",
                        "1 transition Root/A -> Root/B", "1 why Root/A transitions[0] onEvent Alarm {level=2} priority normal",
                        "1 exit Root/A changed", "1 task-exit Root/A:run", "1 enter Root/B changed",
                        "1 task-enter Root/B:succeed"), sys.recorder().trace(150), "workers " + workers);
            }
        }
    }

    @Test
    void eventsArrivedCountsTheEventsOfATagThatBecameVisible() {
        CompiledStateTree tree = compile(TREE);
        for (StateTreeRuntime rt : runtimes(tree, 150)) {
            try (rt) {
                rt.setRecording(true);
                rt.startAll(0);
                rt.sendEvent(StateTreeRuntime.ALL, "Alarm", Map.of("level", 1));
                rt.sendEvent(7, "Alarm", (dev.crowdtree.statetree.node.Payload) null);
                rt.sendEvent(7, "Nope", (dev.crowdtree.statetree.node.Payload) null); // a tag the tree does not use
                rt.tickAll(1, 0.1f);
                assertEquals(151, rt.recorder().eventsArrived("Alarm"), rt.getClass().getSimpleName());
                assertEquals(150, rt.recorder().entered(tree.stateByPath("Root/B")));
                assertEquals(0, rt.recorder().eventsArrived("Nope"));
                rt.tickAll(2, 0.1f);
                assertEquals(0, rt.recorder().eventsArrived("Alarm"));
            }
        }
    }

    @Test
    void theAccessorsAgreeOnBothRuntimes() {
        CompiledStateTree tree = compile(TREE);
        int n = tree.paramCount();
        List<String> reference = null;
        for (StateTreeRuntime rt : runtimes(tree, 70)) {
            try (rt) {
                List<String> seen = new ArrayList<>();
                rt.startAll(0);
                rt.setParameter(5, "n", 42);
                rt.setParameter(5, "mood", "sad");
                rt.setParameter(6, "on", 0);
                rt.setParameter(6, "speed", 2.25);
                rt.sendEvent(5, "Alarm", Map.of("level", 3));
                rt.sendEvent(5, "Alarm", (dev.crowdtree.statetree.node.Payload) null);
                rt.sendEvent(6, "Alarm", Map.of("level", -1));
                for (int k = 0; k <= 3; k++) {
                    if (k > 0) {
                        rt.tickAll(k, 0.1f);
                    }
                    for (int a : new int[] {0, 5, 6, 69}) {
                        int s = rt.activeState(a);
                        assertEquals(rt.activePath(a), s < 0 ? "" : tree.statePath(s));
                        StringBuilder b = new StringBuilder("tick " + k + " a" + a + " " + s + " " + rt.queuedEvents(a));
                        for (int p = 0; p < n; p++) {
                            b.append(' ').append(tree.paramName(p)).append('=').append(rt.parameter(a, p));
                        }
                        seen.add(b.toString());
                    }
                }
                assertTrue(seen.contains("tick 0 a5 " + tree.stateByPath("Root/A") + " [Alarm {level=3}, Alarm]"
                        + " n=42.0 on=1.0 speed=1.5 mood=2.0"), String.join("\n", seen));
                assertTrue(seen.contains("tick 0 a6 " + tree.stateByPath("Root/A") + " [Alarm {level=-1}]"
                        + " n=3.0 on=0.0 speed=2.25 mood=1.0"), String.join("\n", seen));
                assertTrue(seen.contains("tick 1 a5 " + tree.stateByPath("Root/B") + " [] n=42.0 on=1.0 speed=1.5 mood=2.0"),
                        String.join("\n", seen));
                if (reference == null) {
                    reference = seen;
                } else {
                    assertEquals(reference, seen, rt.getClass().getSimpleName());
                }
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.parameter(0, n));
                assertTrue(e.getMessage().contains("[n, on, speed, mood]"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> rt.parameter(0, -1));
                IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> rt.activeState(70));
                assertTrue(unknown.getMessage().contains("70"), unknown.getMessage());
                assertThrows(IllegalArgumentException.class, () -> rt.queuedEvents(-1));
                rt.stop(3, 4);
                assertEquals(-1, rt.activeState(3));
                rt.despawn(9, 4);
                assertThrows(IllegalArgumentException.class, () -> rt.activeState(9));
                assertThrows(IllegalArgumentException.class, () -> rt.parameter(9, 0));
                assertThrows(IllegalArgumentException.class, () -> rt.queuedEvents(9));
            }
        }
    }
}
