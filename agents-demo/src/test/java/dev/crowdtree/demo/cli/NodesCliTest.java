package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Your own node types in the command line: {@code --nodes} with a jar or a directory of node
 * providers (the embedding example's, compiled from examples/embedding) in validate, dot, trace and
 * run; the errors for a path that is missing, holds no provider or whose provider fails; a tree
 * whose needs no provider meets; and every examples/ tree in {@code run --tree}, headless.
 */
class NodesCliTest extends CliTestBase {
    private static final String TREE = NodeJars.GUARDS_TREE.toString();

    @Test
    void validateKnowsTheEmbeddingExamplesNodeTypesOnlyWithNodes() throws Exception {
        assertEquals(1, Main.execute("validate", TREE));
        assertTrue(out().contains("unknown condition type \"canSee\""), out());
        assertTrue(out().contains("hint: node types of your own are loaded from their jar with --nodes PATH"), out());
        out.reset();
        Path jar = NodeJars.guardJar(dir);
        assertEquals(0, Main.execute("validate", "--nodes", jar.toString(), TREE), err());
        assertTrue(out().contains("OK: tree 'Guards', 5 states"), out());
        assertFalse(out().contains("warning:"), "the embedding example's tree has no authoring warnings: " + out());
    }

    @Test
    void dotDrawsTheTreeWithNodesFromADirectory() throws Exception {
        Path classes = NodeJars.guardClasses(dir);
        assertEquals(0, Main.execute("dot", "--nodes", classes.toString(), TREE), err());
        assertTrue(out().startsWith("digraph"), out());
        assertTrue(out().contains("Chase") && out().contains("Respond"), out());
    }

    @Test
    void traceRunsTheExampleScenarioWithItsHostColumnInputsOnBothRuntimes() throws Exception {
        Path jar = NodeJars.guardJar(dir);
        assertEquals(0, Main.execute("trace", "--nodes", jar.toString(), NodeJars.GUARDS_SCENARIO.toString()), err());
        String batched = out();
        out.reset();
        assertEquals(0, Main.execute("trace", "--runtime", "reference", "--nodes", jar.toString(),
                NodeJars.GUARDS_SCENARIO.toString()), err());
        assertEquals(batched, out());
        // scenario.json: agent 0's distance 12.5 at tick 2 (it sees), 40 at tick 5 (out of sight);
        // agent 1: an alarm of level 1 at tick 7 (ignored), of level 3 at tick 8 (respond)
        assertTrue(batched.contains("a0 2 transition Root/Patrol -> Root/Chase"), batched);
        assertTrue(batched.contains("a0 5 transition Root/Chase -> Root/Return"), batched);
        assertFalse(batched.contains("a1 7 transition"), batched);
        assertTrue(batched.contains("a1 8 transition Root/Patrol -> Root/Respond"), batched);
        assertTrue(batched.contains("a1 9 transition Root/Respond -> Root/Chase"), batched);
    }

    @Test
    void runRunsTheExampleTreeAloneWithTheProvidersStandaloneValues() throws Exception {
        Path jar = NodeJars.guardJar(dir);
        assertEquals(0, Main.execute("run", "--nodes", jar.toString(), "--tree", TREE, "--agents", "2000",
                "--ticks", "40", "--workers", "2", "--quiet"), err());
        String o = out();
        assertTrue(o.contains("mode: the tree alone"), o);
        assertTrue(o.matches("(?s).*  Root/Patrol\\s+2000\\s+100\\.0%.*"), o);
        assertTrue(o.contains("node failures: 0"), o);
        assertTrue(o.matches("(?s).*world hash: [0-9a-f]{16}.*"), o);
    }

    @Test
    void aRecordingMadeWithNodesJarsAndReplayedWithoutThemSaysSo() throws Exception {
        Path jar = NodeJars.guardJar(dir);
        Path rec = dir.resolve("g.rec");
        assertEquals(0, Main.execute("run", "--nodes", jar.toString(), "--tree", TREE, "--agents", "200",
                "--ticks", "20", "--quiet", "--record", rec.toString()), err());
        err.reset();
        assertEquals(2, Main.execute("debug", "--replay", rec.toString(), "--verify"));
        String e = err().strip();
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.contains("it is of model 'plain' saved with other jars (fingerprint ")
                && e.contains("has none (no jar)") && e.endsWith("load it with the jars (--model, --nodes) it was saved with"), e);
        err.reset();
        assertEquals(0, Main.execute("debug", "--replay", rec.toString(), "--verify", "--nodes", jar.toString()), err());
    }

    @Test
    void nodesIsRepeatableAndEachPathAddsItsTypes() throws Exception {
        Path extra = NodeJars.classes(dir.resolve("extra"), Map.of("acme.Extra",
                "package acme;\n"
                        + "import dev.crowdtree.statetree.node.*;\n"
                        + "public final class Extra implements NodeProvider {\n"
                        + "  public static final class Always extends Condition {\n"
                        + "    public Always(NodeConfig c) { super(c); }\n"
                        + "    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {\n"
                        + "      for (int i = from; i < to; i++) { out[i] = true; }\n"
                        + "    }\n"
                        + "  }\n"
                        + "  public void register(NodeRegistry r) {\n"
                        + "    r.register(NodeType.condition(\"always\").factory(Always::new).build());\n"
                        + "  }\n"
                        + "}\n"), "acme.Extra");
        String both = Files.readString(NodeJars.GUARDS_TREE).replace("{\"type\": \"canSee\", \"range\": 15}]}",
                "{\"type\": \"canSee\", \"range\": 15}, {\"type\": \"always\"}]}");
        Path tree = write("both.json", both);
        assertEquals(1, Main.execute("validate", "--nodes", NodeJars.guardJar(dir).toString(), tree.toString()));
        assertTrue(out().contains("unknown condition type \"always\""), out());
        out.reset();
        assertEquals(0, Main.execute("validate", "--nodes", NodeJars.guardJar(dir.resolve("again")).toString(), "--nodes",
                extra.toString(), tree.toString()), err());
        assertTrue(out().contains("OK: tree 'Guards'"), out());
    }

    @Test
    void everyCommandSaysWhenANodesPathDoesNotExist() throws Exception {
        Path missing = dir.resolve("missing.jar");
        for (List<String> cmd : List.of(List.of("validate", TREE), List.of("dot", TREE),
                List.of("trace", NodeJars.GUARDS_SCENARIO.toString()), List.of("run", "--tree", TREE, "--ticks", "1"),
                List.of("serve", "--tree", TREE, "--port", "0"))) {
            err.reset();
            String[] args = new String[cmd.size() + 2];
            args[0] = cmd.get(0);
            args[1] = "--nodes";
            args[2] = missing.toString();
            for (int i = 1; i < cmd.size(); i++) {
                args[i + 2] = cmd.get(i);
            }
            assertEquals(2, Main.execute(args), cmd + ": " + err());
            assertEquals("error: --nodes " + missing + ": no such file or directory\n", err(), cmd.toString());
        }
    }

    /**
     * Issue 34, item 6: the same jar twice ({@code --nodes x.jar --nodes x.jar}) said "no node provider in
     * it". It is named as given twice, by its identity (a hard link is the same file); a copy, whose
     * classes load from the first, is named as already loaded from there.
     */
    @Test
    void theSameJarTwiceIsNamedAsGivenTwice() throws Exception {
        Path jar = NodeJars.guardJar(dir);
        assertEquals(2, Main.execute("validate", "--nodes", jar.toString(), "--nodes", jar.toString(), TREE));
        assertEquals("error: --nodes " + jar + ": given twice; give each jar or directory once\n", err());
        Path link = Files.createLink(dir.resolve("link.jar"), jar);
        err.reset();
        assertEquals(2, Main.execute("validate", "--nodes", jar.toString(), "--nodes", link.toString(), TREE));
        assertEquals("error: --nodes " + link + ": given twice (the same file as " + jar + "); give each jar or "
                + "directory once\n", err());
        Path copy = Files.copy(jar, dir.resolve("copy.jar"));
        err.reset();
        assertEquals(2, Main.execute("validate", "--nodes", jar.toString(), "--nodes", copy.toString(), TREE));
        assertTrue(err().startsWith("error: --nodes " + copy + ": its node provider "), err());
        assertTrue(err().endsWith(" is already loaded from " + jar + "; give each provider's classes once\n"), err());
    }

    @Test
    void aPathWithoutAProviderOrWithAFailingOneIsNamedWithTheClass() throws Exception {
        Path notAJar = write("notes.jar", "not a zip");
        assertEquals(2, Main.execute("validate", "--nodes", notAJar.toString(), TREE));
        assertTrue(err().startsWith("error: --nodes " + notAJar + ": not a jar file"), err());

        Path empty = NodeJars.jar(Files.createDirectories(dir.resolve("empty")), dir.resolve("empty.jar"));
        err.reset();
        assertEquals(2, Main.execute("validate", "--nodes", empty.toString(), TREE));
        assertEquals("error: --nodes " + empty + ": no node provider in it; a jar or directory lists its providers' "
                + "class names in META-INF/services/dev.crowdtree.statetree.node.NodeProvider\n", err());

        Path throwing = NodeJars.classes(dir.resolve("throwing"), Map.of("acme.Broken",
                "package acme;\npublic final class Broken implements dev.crowdtree.statetree.node.NodeProvider {\n"
                        + "  public void register(dev.crowdtree.statetree.node.NodeRegistry r) {\n"
                        + "    throw new IllegalStateException(\"no licence\");\n  }\n}\n"), "acme.Broken");
        err.reset();
        assertEquals(2, Main.execute("trace", "--nodes", throwing.toString(), NodeJars.GUARDS_SCENARIO.toString()));
        assertEquals("error: --nodes " + throwing + ": node provider acme.Broken failed: IllegalStateException: no licence\n",
                err());

        Path unlisted = NodeJars.classes(dir.resolve("unlisted"), Map.of("acme.Fine",
                "package acme;\npublic final class Fine {}\n"), "acme.Missing");
        err.reset();
        assertEquals(2, Main.execute("run", "--nodes", unlisted.toString(), "--tree", TREE, "--ticks", "1"));
        assertTrue(err().startsWith("error: --nodes " + unlisted + ": a node provider it lists cannot be loaded"), err());
        assertTrue(err().contains("acme.Missing"), err());

        Path clash = NodeJars.classes(dir.resolve("clash"), Map.of("acme.Clash",
                "package acme;\npublic final class Clash implements dev.crowdtree.statetree.node.NodeProvider {\n"
                        + "  public void register(dev.crowdtree.statetree.node.NodeRegistry r) {\n"
                        + "    r.register(dev.crowdtree.statetree.node.NodeType.task(\"delay\")\n"
                        + "        .factory(dev.crowdtree.statetree.nodes.RunTask::new).build());\n  }\n}\n"), "acme.Clash");
        err.reset();
        assertEquals(2, Main.execute("dot", "--nodes", clash.toString(), TREE));
        assertTrue(err().contains("node provider acme.Clash failed: IllegalArgumentException: a node type named 'delay' "
                + "is already registered"), err());
    }

    /** Issue 34: a provider overflowing its stack printed a raw stack trace (exit 1). */
    @Test
    void aProviderThatOverflowsItsStackIsAOneLineError() throws Exception {
        Path deep = NodeJars.classes(dir.resolve("deep"), Map.of("acme.Deep",
                "package acme;\npublic final class Deep implements dev.crowdtree.statetree.node.NodeProvider {\n"
                        + "  static int down(int n) { return down(n + 1) + 1; }\n"
                        + "  public void register(dev.crowdtree.statetree.node.NodeRegistry r) { down(0); }\n}\n"),
                "acme.Deep");
        assertEquals(2, Main.execute("validate", "--nodes", deep.toString(), TREE));
        assertEquals("error: --nodes " + deep + ": node provider acme.Deep failed: java.lang.StackOverflowError\n", err());
    }

    @Test
    void aTreeWhoseNeedsNoProviderMeetsIsRefusedNamingTheColumnAndTheNode() throws Exception {
        Path stingy = NodeJars.classes(dir.resolve("stingy"), Map.of("acme.Stingy",
                "package acme;\n"
                        + "import dev.crowdtree.statetree.node.*;\n"
                        + "public final class Stingy implements NodeProvider {\n"
                        + "  public static final class Sees extends Condition {\n"
                        + "    private final int d;\n"
                        + "    public Sees(NodeConfig c) { super(c); d = c.column(\"distance\"); }\n"
                        + "    public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {\n"
                        + "      float[] v = ctx.hostFloats(d);\n"
                        + "      for (int i = from; i < to; i++) { out[i] = v[rows[i]] < 10; }\n"
                        + "    }\n"
                        + "  }\n"
                        + "  public void register(NodeRegistry r) {\n"
                        + "    r.register(NodeType.condition(\"sees\").reads(\"distance\", HostColumn.Type.FLOAT)\n"
                        + "        .factory(Sees::new).build());\n"
                        + "  }\n"
                        + "}\n"), "acme.Stingy");
        Path tree = write("t.json", "{\"name\": \"T\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"A\", \"tasks\": [{\"type\": \"run\"}], \"transitions\": [{\"trigger\": \"onTick\", "
                + "\"to\": \"B\", \"conditions\": [{\"type\": \"sees\"}]}]}, {\"name\": \"B\"}]}}");
        Path scenario = write("s.json", "{\"tree\": \"t.json\", \"ticks\": 2}");
        assertEquals(0, Main.execute("validate", "--nodes", stingy.toString(), tree.toString()), err());
        String needs = "error: tree 'T' needs what no loaded node provider gives: host column 'distance' (float, read), "
                + "needed by condition 'sees' (transitions[0].conditions[0] of state 'Root/A'), has no standalone value";
        assertEquals(2, Main.execute("trace", "--nodes", stingy.toString(), scenario.toString()));
        assertTrue(err().startsWith(needs), err());
        err.reset();
        assertEquals(2, Main.execute("run", "--nodes", stingy.toString(), "--tree", tree.toString(), "--ticks", "1"));
        assertTrue(err().startsWith(needs), err());
        assertEquals(1, err().lines().count(), err());
    }

    @Test
    void everyExampleTreeRunsHeadlessAndGivesTheSameHashOnOneAndTwoWorkers() throws Exception {
        List<Path> trees;
        try (var s = Files.list(NodeJars.REPO.resolve("examples"))) {
            trees = s.map(d -> d.resolve("tree.json")).filter(Files::isRegularFile).sorted().toList();
        }
        assertTrue(trees.size() >= 6, trees.toString());
        Pattern hash = Pattern.compile("world hash: ([0-9a-f]{16})");
        for (Path t : trees) {
            String[] hashes = new String[2];
            for (int w = 1; w <= 2; w++) {
                out.reset();
                assertEquals(0, Main.execute("run", "--tree", t.toString(), "--agents", "3000", "--ticks", "60",
                        "--workers", Integer.toString(w), "--quiet"), t + ": " + err());
                String o = out();
                assertTrue(o.contains("mode: the tree alone"), t + ": " + o);
                assertTrue(o.contains("state occupancy at the end"), o);
                assertTrue(o.contains("awake in the statetree phase: mean "), o);
                Matcher m = hash.matcher(o);
                assertTrue(m.find(), o);
                hashes[w - 1] = m.group(1);
            }
            assertEquals(hashes[0], hashes[1], t + ": 1 and 2 workers");
        }
    }

    @Test
    void theCrowdTreeStillRunsInTheCrowdAndAloneTreesRunInThePlainModelWithEveryTool() throws Exception {
        assertEquals(0, Main.execute("run", "--agents", "2000", "--ticks", "5", "--quiet"), err());
        assertTrue(out().contains("mode: the crowd"), out());
        assertTrue(out().contains("smart-object slots in use"), out());
        Path alone = NodeJars.REPO.resolve("examples/fsm-noise-payload/tree.json");
        Path snap = dir.resolve("alone.snap");
        assertEquals(0, Main.execute("run", "--tree", alone.toString(), "--agents", "500", "--ticks", "6", "--quiet",
                "--save", snap.toString()), err());
        assertTrue(out().contains("mode: the tree alone (no model: only its node types)"), out());
        out.reset();
        assertEquals(0, Main.execute("run", "--tree", alone.toString(), "--agents", "500", "--ticks", "10", "--quiet"),
                err());
        String whole = hashOf(out());
        out.reset();
        assertEquals(0, Main.execute("run", "--load", snap.toString(), "--tree", alone.toString(), "--ticks", "4",
                "--quiet"), err());
        assertEquals(whole, hashOf(out()), "6 ticks saved and 4 more loaded: the 10-tick world");
        out.reset();
        assertEquals(0, Main.execute("run", "--tree", alone.toString(), "--agents", "500", "--ticks", "10", "--quiet",
                "--regions", "1"), err());
        assertEquals(whole, hashOf(out()), "one region (split by agent id: no positions) is the whole world");
    }

    private static String hashOf(String out) {
        return out.lines().filter(l -> l.startsWith("world hash: ")).findFirst().orElseThrow();
    }
}
