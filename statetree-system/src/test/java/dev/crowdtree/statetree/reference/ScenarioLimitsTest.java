package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Scenarios cannot ask for more than a trace run can do: agents, workers and memory have limits;
 * the tree file stays in the scenario's directory; the trace streams; names are escaped in it.
 */
class ScenarioLimitsTest {
    @TempDir
    Path dir;

    private static final String TREE = "{\"name\": \"T\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"A\", \"tasks\": [{\"type\": \"delay\", \"duration\": 0.2}],"
            + " \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"B\"}]},"
            + "{\"name\": \"B\", \"tasks\": [{\"type\": \"delay\", \"duration\": 0.2}],"
            + " \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"A\"}]}]}}";

    private Path scenario(String json) throws Exception {
        Files.writeString(dir.resolve("tree.json"), TREE);
        Path s = dir.resolve("scenario.json");
        Files.writeString(s, json);
        return s;
    }

    private ScenarioException refused(String json) throws Exception {
        Path s = scenario(json);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioRunner.run(s, ScenarioRunner.REFERENCE));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        return e;
    }

    @Test
    void agentsAndWorkersHaveSaneMaxima() throws Exception {
        ScenarioException e = refused("{\"tree\": \"tree.json\", \"ticks\": 3, \"agents\": 2147483647}");
        assertEquals("agents", e.field());
        assertTrue(e.problem().contains("at most 10000000"), e.getMessage());
        e = refused("{\"tree\": \"tree.json\", \"ticks\": 3, \"agents\": 1073741824}");
        assertEquals("agents", e.field());
        e = refused("{\"tree\": \"tree.json\", \"ticks\": 3, \"workers\": 100000}");
        assertEquals("workers", e.field());
        assertTrue(e.problem().contains("at most 256"), e.getMessage());
    }

    @Test
    void moreAgentsThanTheHeapCanTraceAreRefusedBeforeTheRun() throws Exception {
        long perAgent = ScenarioRunner.estimatedBytesPerAgent(StateTreeJson.compile(scenario("{\"ticks\": 1}")
                .resolveSibling("tree.json"), TestNodes.compiler()));
        long agents = Math.min(Scenario.MAX_AGENTS, Runtime.getRuntime().maxMemory() / perAgent + 1);
        assumeTrue(agents * perAgent > Runtime.getRuntime().maxMemory(), "the heap takes even the most agents");
        ScenarioException e = refused("{\"tree\": \"tree.json\", \"ticks\": 3, \"agents\": " + agents + "}");
        assertEquals("agents", e.field());
        assertTrue(e.problem().contains("-Xmx"), e.getMessage());
    }

    @Test
    void aControlCharacterInTheTreeNameIsACleanError() throws Exception {
        ScenarioException e = refused("{\"tree\": \"tr\\u0000ee.json\", \"ticks\": 3}");
        assertEquals("tree", e.field());
        assertTrue(e.getMessage().contains("tr\\u0000ee.json") && e.problem().contains("control character"),
                e.getMessage());
        e = refused("{\"tree\": \"tree.json\\u001b[2J\", \"ticks\": 3}");
        assertTrue(e.getMessage().contains("\\u001B[2J") && !e.getMessage().contains("\u001b"), e.getMessage());
    }

    @Test
    void theTreeMayNotLeaveTheScenariosDirectory() throws Exception {
        Path inner = Files.createDirectory(dir.resolve("inner"));
        Files.writeString(dir.resolve("secret.txt"), "root:x:0:0:root:/root:/bin/bash");
        Path s = inner.resolve("scenario.json");
        for (String tree : List.of("../secret.txt", dir.resolve("secret.txt").toString(), "a/../../secret.txt")) {
            Files.writeString(s, "{\"tree\": \"" + tree.replace("\\", "\\\\") + "\", \"ticks\": 3}");
            Scenario sc = Scenario.load(s);
            ScenarioException e = assertThrows(ScenarioException.class,
                    () -> ScenarioRunner.run(sc, TestNodes.compiler(), ScenarioRunner.REFERENCE));
            assertEquals("tree", e.field(), e.getMessage());
            assertTrue(e.problem().contains("outside the scenario's directory"), e.getMessage());
            assertFalse(e.getMessage().contains("root:x"), e.getMessage());
            // given explicitly (the command line's trace --tree), any tree is fine
            CompiledStateTree t = StateTreeJson.compile(scenario("{\"ticks\": 1}").resolveSibling("tree.json"),
                    TestNodes.compiler());
            assertEquals("0 start", ScenarioRunner.run(sc, t, ScenarioRunner.REFERENCE).get(0));
        }
        // a tree next to (or below) the scenario is fine
        Files.copy(dir.resolve("tree.json"), inner.resolve("tree.json"));
        Files.writeString(s, "{\"tree\": \"./x/../tree.json\", \"ticks\": 1}");
        assertEquals("0 start", ScenarioRunner.run(s, ScenarioRunner.REFERENCE).get(0));
    }

    /** Issue 23, defect 7: a scenario's tree that is a symbolic link to a file outside its directory is not read. */
    @Test
    void aTreeThatIsASymbolicLinkOutOfTheScenariosDirectoryIsRefused() throws Exception {
        Path inner = Files.createDirectory(dir.resolve("linked"));
        Files.writeString(dir.resolve("secret.json"), "{\"name\": \"TOPSECRET\", \"root\": 7}");
        try {
            Files.createSymbolicLink(inner.resolve("tree.json"), dir.resolve("secret.json"));
        } catch (UnsupportedOperationException | java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no symbolic links here: " + e);
        }
        Path s = inner.resolve("scenario.json");
        Files.writeString(s, "{\"tree\": \"tree.json\", \"ticks\": 3}");
        Scenario sc = Scenario.load(s);
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ScenarioRunner.run(sc, TestNodes.compiler(), ScenarioRunner.REFERENCE));
        assertEquals("tree", e.field(), e.getMessage());
        assertTrue(e.problem().startsWith("\"tree.json\" is a symbolic link to a file outside the scenario's directory"),
                e.getMessage());
        assertFalse(e.getMessage().contains("TOPSECRET"), e.getMessage());
    }

    @Test
    void aTreeFileThatIsNotJsonIsNotQuoted() throws Exception {
        Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        Path s = dir.resolve("scenario.json");
        Files.writeString(s, "{\"tree\": \"passwd\", \"ticks\": 1}");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> ScenarioRunner.run(s, ScenarioRunner.REFERENCE));
        assertTrue(e.getMessage().contains("JSON syntax error at line 1, column "), e.getMessage());
        assertFalse(e.getMessage().contains("root"), e.getMessage());
        Files.writeString(s, "secret-token-1234");
        ScenarioException se = assertThrows(ScenarioException.class, () -> Scenario.load(s));
        assertFalse(se.getMessage().contains("secret"), se.getMessage());
    }

    @Test
    void scenarioFilesAreReadThroughTheSameDoor() throws Exception {
        ScenarioException e = assertThrows(ScenarioException.class, () -> Scenario.load(dir));
        assertEquals(dir + ": cannot read the file: it is a directory", e.getMessage());
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(ScenarioException.class, () -> Scenario.load(zero)));
            assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        }
        Path s = scenario("{\"tree\": \"tree.json\", \"ticks\": 3}" + " ".repeat(2000));
        e = assertThrows(ScenarioException.class, () -> Scenario.load(s, 1000));
        assertTrue(e.getMessage().contains("over the limit of 1,000 bytes"), e.getMessage());
        assertEquals(3, Scenario.load(s, 4000).ticks());
    }

    @Test
    void theTraceStreamsLinesAsTheyHappen() throws Exception {
        CompiledStateTree t = StateTreeJson.compile(scenario("{\"ticks\": 1}").resolveSibling("tree.json"),
                TestNodes.compiler());
        Scenario s = Scenario.parse("{\"ticks\": 2000000000}", "long.json", null);
        AtomicInteger ticks = new AtomicInteger();
        RuntimeFactory counting = (tree, agents, seed, workers) -> counting(
                ScenarioRunner.REFERENCE.create(tree, agents, seed, workers), ticks);
        RuntimeException stop = new RuntimeException("seen enough");
        List<String> seen = new ArrayList<>();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> ScenarioRunner.run(s, t, counting, line -> {
            seen.add(line + " @" + ticks.get());
            if (seen.size() == 10) {
                throw stop;
            }
        }));
        assertSame(stop, thrown);
        assertEquals("0 start @0", seen.get(0)); // printed before the first of 2,000,000,000 ticks ran
        assertTrue(ticks.get() < 100, ticks + " ticks ran");
        // the list variant is the same lines
        Scenario shortOne = Scenario.parse("{\"ticks\": 5}", "short.json", null);
        List<String> streamed = new ArrayList<>();
        ScenarioRunner.run(shortOne, t, StateTreeSystem::create, streamed::add);
        assertEquals(ScenarioRunner.run(shortOne, t, StateTreeSystem::create), streamed);
    }

    @Test
    void controlCharactersInNamesAreEscapedInTraceLines() throws Exception {
        String hostile = TREE.replace("\"name\": \"A\"", "\"name\": \"A\\u001b[2J\\r\\n0 fake\"")
                .replace("\"to\": \"A\"", "\"to\": \"A\\u001b[2J\\r\\n0 fake\"");
        CompiledStateTree t = StateTreeJson.compile("hostile.json", hostile, TestNodes.compiler());
        for (RuntimeFactory f : List.of(ScenarioRunner.REFERENCE, (RuntimeFactory) StateTreeSystem::create)) {
            List<String> trace = ScenarioRunner.run(Scenario.parse("{\"ticks\": 3}", "s.json", null), t, f);
            assertTrue(trace.contains("0 enter Root/A\\u001B[2J\\u000D\\u000A0 fake changed"), trace.toString());
            assertTrue(trace.stream().noneMatch(l -> l.chars().anyMatch(c -> c < 0x20)), trace.toString());
        }
    }

    /** {@code inner}, counting its ticks in {@code ticks}. */
    private static StateTreeRuntime counting(StateTreeRuntime inner, AtomicInteger ticks) {
        return (StateTreeRuntime) Proxy.newProxyInstance(StateTreeRuntime.class.getClassLoader(),
                new Class<?>[] {StateTreeRuntime.class}, (proxy, method, args) -> {
                    if (method.getName().equals("tickAll")) {
                        ticks.incrementAndGet();
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
