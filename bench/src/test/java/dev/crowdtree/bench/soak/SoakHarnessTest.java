package dev.crowdtree.bench.soak;

import dev.crowdtree.bench.compare.Variant;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soak end to end on a small crowd, its verdict on failures, and its options. */
class SoakHarnessTest {
    /** The summary lines every soak prints, as patterns over whole lines. */
    private static final String[] SUMMARY_LINES = {
        "total agent-ticks: 10,000,000",
        "wall time: [0-9.]+ s \\(ticking [0-9.]+ s, 50 heap samples [0-9.]+ s\\)",
        "ns per agent-tick: [0-9.]+ \\(ticking time; the host activity before the ticks took [0-9.]+ s of it\\)",
        "agent-ticks/s: [0-9,]+",
        "10\\^11 agent-ticks would take [0-9.]+ h at this rate",
        "heap after GC: first [0-9.]+ MB, last [0-9.]+ MB, max [0-9.]+ MB, min [0-9.]+ MB \\(45 samples after a warm-up of 5\\)",
        "heap drift: [+-][0-9.]+% \\(median of the last 5 samples .*",
        "flat within 5%: yes",
        "node failures: 0",
        "dropped events: [0-9]+ \\(expected [0-9]+: .*",
        "host activity: .*",
        "allocated per tick: ticks [0-9.]+ B on the simulation thread and [0-9.]+ B on the workers; host activity [0-9.]+ B",
        "load average before: .+, after: .+",
        "result: PASS",
    };

    @Test
    void aSmallSoakPassesAndPrintsEveryFigure() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = SoakHarness.main(new String[] {"--agents", "5000", "--ticks", "2000", "--workers", "1"}, o, e);
        }
        String summary = out.toString(StandardCharsets.UTF_8);
        String progress = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, summary + progress);
        List<String> lines = List.of(summary.split("\n"));
        for (String p : SUMMARY_LINES) {
            assertTrue(lines.stream().anyMatch(l -> l.matches(p)), "no line matching '" + p + "' in\n" + summary);
        }
        // one progress line per sample, the last at the last tick
        List<String> progressLines = new ArrayList<>();
        for (String l : progress.split("\n")) {
            if (l.startsWith("soak: tick ")) {
                progressLines.add(l);
            }
        }
        assertEquals(50, progressLines.size(), progress);
        assertTrue(progressLines.get(49).startsWith("soak: tick 2,000/2,000 (100.0%) | 10,000,000 agent-ticks"), progressLines.get(49));
        assertTrue(progressLines.get(0).contains("heap after GC") && progressLines.get(0).contains("ETA"), progressLines.get(0));
        // the host despawned agents 20 times, each with a last event that had to be dropped (and only those)
        Matcher m = Pattern.compile("dropped events: ([0-9]+) \\(expected ([0-9]+)").matcher(summary);
        assertTrue(m.find(), summary);
        assertEquals(m.group(2), m.group(1));
        assertTrue(Long.parseLong(m.group(1)) >= 20 * 5, summary);
        assertTrue(summary.contains("100 agents despawned and respawned"), summary);
        assertTrue(summary.contains("parameter values (fatigue)"), summary);
    }

    @Test
    void aNodeFailureFailsTheSoak() {
        NodeRegistry registry = BuiltinNodes.registry();
        registry.register(NodeType.task("boomSome").factory(BoomSomeTask::new).build());
        CompiledStateTree boom;
        try {
            boom = new StateTreeCompiler(registry).compile(tree("Boom")
                    .root(state("Root").transition(on("onEvent").event(SoakTrees.EVENT).to("Work"))
                            .child(state("Work").task(node("boomSome")).task(node("delay").with("duration", 1.0))
                                    .transition(on("onStateCompleted").to("Work"))))
                    .build());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        SoakOptions o = SoakOptions.parse(new String[] {"--agents", "1000", "--ticks", "200", "--workers", "1"});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SoakReport r;
        try (PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            r = SoakHarness.run(o, boom, "boom", p, e);
        }
        String summary = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, r.exitStatus(), summary);
        assertTrue(r.failures > 0, summary);
        assertTrue(summary.contains("node failures: " + r.failures + "\n"), summary);
        assertTrue(summary.contains("task 'boomSome' in Root/Work: IllegalStateException: boom"), summary);
        assertTrue(summary.contains("result: FAIL (" + r.failures + " node failures)"), summary);
        assertTrue(r.heap().flat(), "only the failures fail it: " + summary);
    }

    @Test
    void theVerdictNamesEveryProblem() {
        SoakReport r = new SoakReport();
        r.heapSamples = new long[50];
        java.util.Arrays.fill(r.heapSamples, 100_000_000L);
        r.droppedEvents = 7;
        r.expectedDrops = 7;
        assertEquals(0, r.exitStatus(), r.summary());
        r.failures = 1;
        assertEquals(1, r.exitStatus());
        assertTrue(r.summary().contains("result: FAIL (1 node failure)"), r.summary());
        r.failures = 0;
        r.droppedEvents = 8;
        assertEquals(1, r.exitStatus(), "an event dropped that should not have been fails the soak");
        r.droppedEvents = 7;
        for (int i = 0; i < 50; i++) {
            r.heapSamples[i] = 100_000_000L + i * 500_000L; // +0.5% per sample
        }
        assertEquals(1, r.exitStatus());
        assertTrue(r.summary().contains("flat within 5%: no"), r.summary());
        assertTrue(r.summary().contains("result: FAIL (heap after GC drifted +"), r.summary());
    }

    @Test
    void optionsAreParsedAndUsageErrorsExitWith2() {
        SoakOptions d = SoakOptions.parse(new String[0]);
        assertEquals(1_000_000, d.agents);
        assertEquals(100_000, d.ticks);
        assertEquals(2_000, d.sampleEvery(), "about 50 samples");
        assertEquals(Variant.HIERARCHICAL, d.tree);
        SoakOptions o = SoakOptions.parse(new String[] {"--agents", "10k", "--ticks=30", "--tree", "sleepy", "--seed", "7",
            "--workers", "1", "--sample-every", "3"});
        assertEquals(10_000, o.agents);
        assertEquals(30, o.ticks);
        assertEquals(Variant.SLEEPY, o.tree);
        assertEquals(7, o.seed);
        assertEquals(3, o.sampleEvery());
        assertEquals(1, SoakOptions.parse(new String[] {"--ticks", "20"}).sampleEvery());
        assertNull(SoakOptions.parse(new String[] {"--agents", "5", "--help"}));
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(new String[] {"--agents", "0"}));
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(new String[] {"--ticks", "many"}));
        IllegalArgumentException tree = assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(new String[] {"--tree", "bushy"}));
        assertEquals("--tree must be one of hierarchical|flat|sleepy|aborts, got 'bushy'", tree.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(new String[] {"--sample-every"}));
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(new String[] {"soak"}));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o2 = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            assertEquals(2, SoakHarness.main(new String[] {"--agents", "lots"}, o2, e));
            assertEquals(0, SoakHarness.main(new String[] {"--help"}, o2, e));
        }
        String error = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, error.lines().count(), error);
        assertTrue(error.startsWith("soak: --agents needs a whole number, got 'lots'"), error);
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: java -jar bench/target/benchmarks.jar soak"));
    }

    @Test
    void everySoakTreeTakesTheHostsEvent() {
        for (Variant v : Variant.values()) {
            CompiledStateTree t = SoakTrees.compile(v);
            assertTrue(t.eventTagId(SoakTrees.EVENT) >= 0, v.id());
            assertEquals(v.compile().stateCount, t.stateCount, "the same states as compare's tree: " + v.id());
        }
        assertEquals("fatigue", HostActivity.settableParameter(SoakTrees.compile(Variant.HIERARCHICAL)));
        assertNull(HostActivity.settableParameter(SoakTrees.compile(Variant.SLEEPY)));
        assertFalse(SoakTrees.describe(Variant.HIERARCHICAL).isEmpty());
    }

    /** Throws from EnterState for every 50th agent id. */
    static final class BoomSomeTask extends Task {
        BoomSomeTask(NodeConfig c) {
            super(c, false);
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            if (ctx.agentId(row) % 50 == 7) {
                throw new IllegalStateException("boom");
            }
            return RunStatus.RUNNING;
        }
    }
}
