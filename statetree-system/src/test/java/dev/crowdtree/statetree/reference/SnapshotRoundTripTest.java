package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Snapshot and restore (docs/SNAPSHOT.md) on {@value #TREES} random trees of
 * {@link RandomDifferentialTest}'s generator with its random scenarios (events, parameters, tick
 * periods, stops; history states and restarts; trees with state tick periods and state parameters,
 * and trees under Unreal 5.8's rules, among them): a runtime runs to a random tick k, is snapshotted, and the snapshot is restored into
 * a fresh runtime of the same tree; both then run the rest of the scenario and must give the same
 * trace, the same trace as a runtime never snapshotted, and byte-identical snapshots at the end. Bad
 * snapshots (truncated, a bit flipped, another format version, not a snapshot, another tree, another
 * runtime kind) are refused with their message, and the runtime they were offered to goes on exactly
 * like an untouched twin. A state entered by a required event keeps its payload across a snapshot
 * (rule V5).
 */
class SnapshotRoundTripTest {
    private static final int TREES = 150;

    /** Batched runtimes with several chunk layouts and worker counts. */
    private static final List<RuntimeFactory> BATCHED = List.of(StateTreeSystem::create,
            (t, agents, seed, workers) -> StateTreeSystem.standalone(t, agents, seed, 2, 1));

    /** The reference interpreter in both tick modes. */
    private static final List<RuntimeFactory> REFERENCES = List.of(ScenarioRunner.REFERENCE,
            ScenarioRunner.REFERENCE_SCHEDULED);

    @Test
    void batchedRuntimeRoundTripsOnRandomTrees() {
        roundTrips(BATCHED, "batched");
    }

    @Test
    void referenceInterpreterRoundTripsOnRandomTrees() {
        roundTrips(REFERENCES, "reference");
    }

    /**
     * A history state's memory (rule Y7) goes with the snapshot: golden case {@code hist_deep}, four
     * agents, snapshotted after tick 3, when H has been left and remembers B2; the restored runtime
     * resumes B2 at tick 4, as the one never snapshotted does, on every runtime.
     */
    @Test
    void theMemoriesOfHistoryStatesGoWithTheSnapshot() throws Exception {
        java.nio.file.Path golden = java.nio.file.Path.of(System.getProperty("basedir", "."))
                .resolve("src/test/resources/golden/hist_deep");
        CompiledStateTree tree = dev.crowdtree.statetree.json.StateTreeJson.compile(golden.resolve("tree.json"),
                TestNodes.compiler());
        assertEquals(1, tree.history.count());
        String json = java.nio.file.Files.readString(golden.resolve("scenario.json"))
                .replace("\"tree\": \"tree.json\",", "\"agents\": 4,");
        Scenario sc = scenario(json);
        List<RuntimeFactory> all = new ArrayList<>(BATCHED);
        all.addAll(REFERENCES);
        for (RuntimeFactory f : all) {
            try (Driver a = new Driver(f, tree, sc); Driver b = new Driver(f, tree, sc)) {
                a.runTo(3);
                b.restore(a.snapshot(), 3);
                a.runTo(sc.ticks());
                b.runTo(sc.ticks());
                List<String> tail = a.trace.subList(a.linesUpTo(3), a.trace.size());
                assertEquals(tail, b.trace);
                assertTrue(b.trace.contains("a2 4 enter Root/H/B/B2 changed"), String.join("\n", b.trace));
                assertArrayEquals(a.snapshot(), b.snapshot());
            }
        }
    }

    @Test
    void aSnapshotOfTheOtherRuntimeIsRefused() throws Exception {
        CompiledStateTree tree = null;
        for (int n = 0; tree == null; n++) {
            try {
                tree = TestNodes.compiler().compile(new RandomDifferentialTest.Gen(new SplittableRandom(300 + n), false,
                        new SplittableRandom(400 + n), new SplittableRandom(450 + n), new SplittableRandom(470 + n),
                        null, new SplittableRandom(490 + n), null).tree("Kind"));
            } catch (StateTreeCompileException e) {
                // try the next one
            }
        }
        Scenario sc = scenario(RandomDifferentialTest.scenario(new SplittableRandom(7), tree, false));
        try (Driver batched = new Driver(BATCHED.get(0), tree, sc); Driver ref = new Driver(REFERENCES.get(0), tree, sc)) {
            batched.runTo(5);
            ref.runTo(5);
            SnapshotException x = assertThrows(SnapshotException.class,
                    () -> ref.runtime.restore(new ByteArrayInputStream(batched.snapshot())));
            assertEquals("a snapshot of a statetree.batched, not of a statetree.reference", x.getMessage());
            x = assertThrows(SnapshotException.class,
                    () -> batched.runtime.restore(new ByteArrayInputStream(ref.snapshot())));
            assertEquals("a snapshot of a statetree.reference, not of a statetree.batched", x.getMessage());
        }
    }

    private static void roundTrips(List<RuntimeFactory> factories, String what) {
        int done = 0;
        long bytes = 0;
        int withStatePeriods = 0;
        int withStateParams = 0;
        int withUnreal = 0;
        for (int n = 0; done < TREES && n < 3 * TREES; n++) {
            SplittableRandom rnd = new SplittableRandom(5000 + n);
            TreeDef def = new RandomDifferentialTest.Gen(rnd, n % 3 == 2, new SplittableRandom(9000 + n),
                    new SplittableRandom(11000 + n), new SplittableRandom(13000 + n), new SplittableRandom(15000 + n),
                    new SplittableRandom(17000 + n), new SplittableRandom(19000 + n), new SplittableRandom(23000 + n))
                    .tree("Snap" + n);
            CompiledStateTree tree;
            try {
                tree = TestNodes.compiler().compile(def);
            } catch (StateTreeCompileException e) {
                continue;
            }
            done++;
            withStatePeriods += tree.tickPeriods.any ? 1 : 0; // rules Z1-Z5: LOD periods and pending changes mid-run
            withStateParams += tree.stateParameters.any ? 1 : 0; // rules X1-X6: values in the depth blocks' slots
            withUnreal += tree.unreal.on ? 1 : 0; // rules U2-U6: armed gates and completions across a snapshot
            String json = RandomDifferentialTest.scenario(rnd, tree, n % 2 == 1, new SplittableRandom(21000 + n));
            Scenario sc = scenario(json);
            RuntimeFactory f = factories.get(n % factories.size());
            int k = 1 + rnd.nextInt(sc.ticks() - 1);
            List<String> whole = TestNodes.run(tree, json, f);
            try (Driver a = new Driver(f, tree, sc); Driver b = new Driver(f, tree, sc)) {
                a.runTo(k);
                byte[] snap = a.snapshot();
                bytes += snap.length;
                b.restore(snap, k);
                a.runTo(sc.ticks());
                b.runTo(sc.ticks());
                String where = what + " tree " + n + ", snapshot after tick " + k + "\nscenario: " + json;
                assertEquals(whole, a.trace, "snapshotting changed the runtime: " + where);
                List<String> tail = a.trace.subList(a.linesUpTo(k), a.trace.size());
                if (!tail.equals(b.trace)) {
                    fail("the restored runtime disagrees: " + where + "\n"
                            + GoldenTraceTest.unifiedDiff("original", "restored", tail, b.trace));
                }
                byte[] sa = a.snapshot();
                byte[] sb = b.snapshot();
                if (!Arrays.equals(sa, sb)) {
                    fail("final snapshots differ in " + differingSections(sa, sb) + ": " + where);
                }
            }
        }
        assertTrue(done >= TREES, "only " + done + " trees compiled");
        assertTrue(bytes > 0);
        assertTrue(withStatePeriods >= TREES / 5, "trees with state tick periods: " + withStatePeriods);
        assertTrue(withStateParams >= TREES / 5, "trees with state parameters: " + withStateParams);
        assertTrue(withUnreal >= TREES / 5, "trees under Unreal 5.8's rules: " + withUnreal);
    }

    /**
     * Rule V5: the payload of the event that entered a state is part of the snapshot. Golden case
     * {@code reqevent_payload}, snapshotted after tick 2 (Move re-entered with {@code x = 7}, its
     * waitUntil not re-entered: it succeeds at tick 3 only by reading the kept payload) and after
     * tick 7 (Move entered with 3 at tick 6, kept through a Target it could not be selected with),
     * on every runtime: the restored runtime goes on exactly as the original, to identical snapshots.
     */
    @Test
    void aStateEnteredByARequiredEventRoundTripsWithItsPayload() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("basedir", "."))
                .resolve("src/test/resources/golden/reqevent_payload");
        Scenario sc = Scenario.load(dir.resolve("scenario.json"));
        CompiledStateTree tree = dev.crowdtree.statetree.json.StateTreeJson.compile(dir.resolve("tree.json"),
                TestNodes.compiler());
        List<RuntimeFactory> all = new ArrayList<>(BATCHED);
        all.addAll(REFERENCES);
        for (RuntimeFactory f : all) {
            for (int k : new int[] {2, 7}) {
                try (Driver a = new Driver(f, tree, sc); Driver b = new Driver(f, tree, sc)) {
                    a.runTo(k);
                    b.restore(a.snapshot(), k);
                    a.runTo(sc.ticks());
                    b.runTo(sc.ticks());
                    assertEquals(a.trace.subList(a.linesUpTo(k), a.trace.size()), b.trace, "after tick " + k);
                    assertTrue(b.trace.contains((k == 2 ? "3" : "10") + " transition Root/Move -> Root/Idle"), b.trace.toString());
                    assertArrayEquals(a.snapshot(), b.snapshot());
                }
            }
        }
    }

    @Test
    void badSnapshotsAreRefusedAndChangeNothing() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        CompiledStateTree tree = null;
        CompiledStateTree other = null;
        for (int n = 0; other == null; n++) {
            TreeDef def = new RandomDifferentialTest.Gen(new SplittableRandom(100 + n), false, new SplittableRandom(200 + n),
                    new SplittableRandom(250 + n), new SplittableRandom(270 + n), null, new SplittableRandom(290 + n), null)
                    .tree(tree == null ? "Mine" : "Theirs");
            try {
                CompiledStateTree t = TestNodes.compiler().compile(def);
                if (tree == null) {
                    tree = t;
                } else {
                    other = t;
                }
            } catch (StateTreeCompileException e) {
                // try the next one
            }
        }
        Scenario sc = scenario(RandomDifferentialTest.scenario(rnd, tree, true));
        Scenario otherSc = scenario(RandomDifferentialTest.scenario(rnd, other, false));
        List<RuntimeFactory> all = new ArrayList<>(BATCHED);
        all.addAll(REFERENCES);
        for (RuntimeFactory f : all) {
            byte[] good;
            byte[] foreign;
            try (Driver d = new Driver(f, tree, sc); Driver o = new Driver(f, other, otherSc)) {
                d.runTo(20);
                good = d.snapshot();
                o.runTo(10);
                foreign = o.snapshot();
            }
            byte[] flipped = good.clone();
            flipped[good.length / 2] ^= 0x10;
            byte[] version = good.clone();
            version[11] = 3;
            byte[] notOne = "{\"ticks\": 3}".getBytes();
            Map<String, byte[]> bad = Map.of(
                    "checksum mismatch: the file is corrupted or truncated", Arrays.copyOf(good, good.length - 7),
                    "checksum mismatch: the file is corrupted or truncated ", flipped,
                    "snapshot format version 3, this build reads 1", version,
                    "not a crowdtree snapshot", notOne,
                    "snapshot of tree 'Theirs' (fingerprint ", foreign);
            for (Map.Entry<String, byte[]> e : bad.entrySet()) {
                try (Driver target = new Driver(f, tree, sc); Driver twin = new Driver(f, tree, sc)) {
                    target.runTo(30);
                    twin.runTo(30);
                    SnapshotException x = assertThrows(SnapshotException.class,
                            () -> target.runtime.restore(new ByteArrayInputStream(e.getValue())));
                    assertTrue(x.getMessage().startsWith(e.getKey().strip()), x.getMessage());
                    if (e.getKey().startsWith("snapshot of tree")) {
                        assertTrue(x.getMessage().contains("this runtime runs tree 'Mine' (fingerprint "), x.getMessage());
                    }
                    target.runTo(sc.ticks());
                    twin.runTo(sc.ticks());
                    assertEquals(twin.trace, target.trace, "a refused snapshot changed the runtime: " + e.getKey());
                    assertArrayEquals(twin.snapshot(), target.snapshot());
                }
            }
        }
    }

    /**
     * Rule U1: the rule set is part of the tree's fingerprint, so a snapshot of a tree under the seeds'
     * rules is refused by a runtime of the same tree under {@code unreal-5.8}, and the other way round.
     */
    @Test
    void aSnapshotDoesNotCrossRuleSets() throws Exception {
        String json = "{'name': 'Same', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [{'type': 'delay',"
                + " 'duration': 1.0}], 'transitions': [{'trigger': 'onTick', 'to': 'A', 'delay': 0.5}]}]}}";
        CompiledStateTree seed = dev.crowdtree.statetree.json.StateTreeJson.compile("same.json", json.replace('\'', '"'),
                TestNodes.compiler());
        CompiledStateTree unreal = dev.crowdtree.statetree.json.StateTreeJson.compile("same.json", json
                .replace("{'name': 'Same',", "{'name': 'Same', 'rules': 'unreal-5.8',").replace('\'', '"'), TestNodes.compiler());
        Scenario sc = scenario("{\"ticks\": 10, \"dt\": 0.25, \"agents\": 3}");
        List<RuntimeFactory> all = new ArrayList<>(BATCHED);
        all.addAll(REFERENCES);
        for (RuntimeFactory f : all) {
            try (Driver s = new Driver(f, seed, sc); Driver u = new Driver(f, unreal, sc)) {
                s.runTo(5);
                u.runTo(5);
                byte[] fromSeed = s.snapshot();
                byte[] fromUnreal = u.snapshot();
                SnapshotException x = assertThrows(SnapshotException.class,
                        () -> u.runtime.restore(new ByteArrayInputStream(fromSeed)));
                assertTrue(x.getMessage().startsWith("snapshot of tree 'Same' (fingerprint "), x.getMessage());
                x = assertThrows(SnapshotException.class, () -> s.runtime.restore(new ByteArrayInputStream(fromUnreal)));
                assertTrue(x.getMessage().startsWith("snapshot of tree 'Same' (fingerprint "), x.getMessage());
            }
        }
    }

    /** The sections in which two snapshots differ, for messages. */
    static List<String> differingSections(byte[] a, byte[] b) {
        List<String> names = new ArrayList<>();
        try {
            dev.crowdtree.core.storage.SnapshotReader ra = dev.crowdtree.core.storage.SnapshotReader.parse(a);
            dev.crowdtree.core.storage.SnapshotReader rb = dev.crowdtree.core.storage.SnapshotReader.parse(b);
            for (String s : List.of("tree", "world", "runtime", "events", "interpreter")) {
                try {
                    if (!Arrays.equals(ra.bytes(s), rb.bytes(s))) {
                        names.add(s);
                    }
                } catch (SnapshotException e) {
                    // not in this kind of snapshot
                }
            }
        } catch (SnapshotException e) {
            names.add(e.getMessage());
        }
        return names;
    }

    static Scenario scenario(String json) {
        try {
            return Scenario.parse(json, "<test>", null);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** Runs a scenario tick by tick as {@link ScenarioRunner} does, collecting the trace. */
    static final class Driver implements AutoCloseable {
        final StateTreeRuntime runtime;
        final Scenario scenario;
        final List<String> trace = new ArrayList<>();
        private final List<int[]> tickLines = new ArrayList<>();
        private final List<String> tickText = new ArrayList<>();
        private final List<Scenario.Input> inputs;
        private final List<Integer> linesAfterTick = new ArrayList<>();
        private final CompiledStateTree tree;
        private int next;
        private int nextTick;

        Driver(RuntimeFactory f, CompiledStateTree tree, Scenario sc) {
            this.tree = tree;
            this.scenario = sc;
            this.runtime = f.create(tree, sc.agents(), sc.seed(), sc.workers());
            runtime.setTrace((agent, line) -> {
                tickLines.add(new int[] {agent, tickText.size()});
                tickText.add(line);
            });
            runtime.setNodeErrorPolicy(sc.onNodeError());
            inputs = new ArrayList<>(sc.inputs());
            inputs.sort(Comparator.comparingInt(Scenario.Input::tick));
        }

        /** Runs ticks up to and including {@code last}. */
        void runTo(int last) {
            boolean prefix = scenario.agents() > 1;
            for (; nextTick <= last; nextTick++) {
                int k = nextTick;
                boolean start = k == 0;
                while (next < inputs.size() && inputs.get(next).tick() == k) {
                    start |= ScenarioRunner.apply(runtime, tree, inputs.get(next++), k);
                }
                if (start) {
                    runtime.startAll(k);
                } else {
                    runtime.tickAll(k, scenario.dt());
                }
                tickLines.sort(Comparator.comparingInt(l -> l[0]));
                for (int[] l : tickLines) {
                    trace.add(prefix ? "a" + l[0] + " " + tickText.get(l[1]) : tickText.get(l[1]));
                }
                tickLines.clear();
                tickText.clear();
                linesAfterTick.add(trace.size());
            }
        }

        /** Trace lines of ticks 0..k. */
        int linesUpTo(int k) {
            return linesAfterTick.get(k);
        }

        byte[] snapshot() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                runtime.snapshot(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }

        /** Restores a snapshot taken after tick {@code k}: this driver goes on with tick k + 1. */
        void restore(byte[] snap, int k) {
            try {
                runtime.restore(new ByteArrayInputStream(snap));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            nextTick = k + 1;
            while (next < inputs.size() && inputs.get(next).tick() <= k) {
                next++;
            }
        }

        @Override
        public void close() {
            runtime.close();
        }
    }
}
