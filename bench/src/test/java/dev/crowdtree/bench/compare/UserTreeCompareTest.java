package dev.crowdtree.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.bench.TickProfile;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.NodeProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code compare --model PATH [--tree FILE]} and {@code compare --nodes PATH --tree FILE} with a
 * small model made here as a user makes one (Java sources compiled against the library, services
 * files, a jar): the condition {@code moody} is true for an agent when {@code mood * gain} is above
 * the external {@code bar}'s level. The model declares {@code mood} with per-agent initial values
 * ({@code (agent % 2) * 10}) and a bar at 5, so half of the agents go from Calm to Moody; the
 * column {@code gain} is the node provider's (standalone value 1). Anything else gives another
 * occupancy: standalone values instead of the model's initial ones (mood 30: all Moody), no value
 * (0: all Calm), the standalone bar (20: all Calm), an unbound gain (0: all Calm). With
 * {@code --nodes} alone every value is standalone: all Moody. The model's host system throws when
 * bound: the harness must not run it.
 */
class UserTreeCompareTest {
    static final int AGENTS = 2000;
    static final String TREE = "{\"name\": \"Moods\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"Calm\", \"tasks\": [{\"type\": \"delay\", \"duration\": 1000}],"
            + " \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"Root/Moody\", \"conditions\": [{\"type\": \"moody\"}]}]},"
            + "{\"name\": \"Moody\", \"tasks\": [{\"type\": \"delay\", \"duration\": 1000}]}]}}";

    @TempDir
    static Path dir;
    /** The model: its classes, its node provider, the tree {@code moods.json} inside. */
    static Path modelJar;
    /** The node provider alone ({@code --nodes}). */
    static Path nodesJar;
    /** A node provider whose column {@code secret} has no standalone value. */
    static Path strictJar;
    /** The model's tree as a file, the same tree with other state names, a tree that does not compile. */
    static Path moodsTree;
    static Path loudTree;
    static Path brokenTree;
    static Path strictTree;

    @BeforeAll
    static void jars() throws IOException {
        Map<String, String> common = Map.of(
                "moods.Bar", "package moods;\n"
                        + "/** The external: a level. */\n"
                        + "public final class Bar {\n"
                        + "    public final float level;\n"
                        + "    public Bar(float level) { this.level = level; }\n"
                        + "}\n",
                "moods.MoodyCondition", "package moods;\n"
                        + "import dev.crowdtree.statetree.node.*;\n"
                        + "public final class MoodyCondition extends Condition {\n"
                        + "    private final int mood, gain;\n"
                        + "    private final External<Bar> bar;\n"
                        + "    public MoodyCondition(NodeConfig c) {\n"
                        + "        super(c);\n"
                        + "        mood = c.column(\"mood\");\n"
                        + "        gain = c.column(\"gain\");\n"
                        + "        bar = c.external(\"bar\", Bar.class);\n"
                        + "    }\n"
                        + "    @Override public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {\n"
                        + "        float[] m = ctx.hostFloats(mood), g = ctx.hostFloats(gain);\n"
                        + "        float level = ctx.external(bar).level;\n"
                        + "        for (int i = from; i < to; i++) { out[i] = m[rows[i]] * g[rows[i]] > level; }\n"
                        + "    }\n"
                        + "}\n",
                "moods.MoodNodes", "package moods;\n"
                        + "import dev.crowdtree.statetree.node.*;\n"
                        + "import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;\n"
                        + "public final class MoodNodes implements NodeProvider {\n"
                        + "    @Override public void register(NodeRegistry r) {\n"
                        + "        r.register(NodeType.condition(\"moody\").reads(\"mood\", FLOAT).reads(\"gain\", FLOAT)\n"
                        + "                .external(\"bar\", Bar.class).factory(MoodyCondition::new).build());\n"
                        + "        r.standaloneColumn(\"mood\", 30);\n"
                        + "        r.standaloneColumn(\"gain\", 1);\n"
                        + "        r.standaloneExternal(\"bar\", Bar.class, () -> new Bar(20));\n"
                        + "    }\n"
                        + "}\n");
        Map<String, String> model = new java.util.HashMap<>(common);
        model.put("moods.MoodModel", "package moods;\n"
                + "import dev.crowdtree.statetree.model.*;\n"
                + "import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;\n"
                + "public final class MoodModel implements SimulationModel {\n"
                + "    @Override public ModelDefinition define() {\n"
                + "        return ModelDefinition.builder(\"moods\").agents(1000).dt(0.1f)\n"
                + "                .column(\"mood\", FLOAT, (seed, id, i) -> (id % 2) * 10)\n"
                + "                .treeResource(MoodModel.class, \"/moods.json\")\n"
                + "                .nodes(new MoodNodes())\n"
                + "                .external(\"bar\", Bar.class, () -> new Bar(5))\n"
                + "                .before(HostSystemSpec.named(\"sulk\").writes(\"mood\").factory(() -> binding -> {\n"
                + "                    throw new IllegalStateException(\"compare must not run the model's host systems\");\n"
                + "                }))\n"
                + "                .build();\n"
                + "    }\n"
                + "}\n");
        Path modelClasses = compile(dir.resolve("model-classes"), model);
        services(modelClasses, "dev.crowdtree.statetree.model.SimulationModel", "moods.MoodModel");
        Files.writeString(modelClasses.resolve("moods.json"), TREE);
        modelJar = jar(modelClasses, dir.resolve("moods-model.jar"));

        Path nodeClasses = compile(dir.resolve("node-classes"), common);
        services(nodeClasses, NodeProvider.class.getName(), "moods.MoodNodes");
        nodesJar = jar(nodeClasses, dir.resolve("moods-nodes.jar"));

        Path strictClasses = compile(dir.resolve("strict-classes"), Map.of("strict.StrictNodes", "package strict;\n"
                + "import dev.crowdtree.statetree.node.*;\n"
                + "import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;\n"
                + "public final class StrictNodes implements NodeProvider {\n"
                + "    @Override public void register(NodeRegistry r) {\n"
                + "        r.register(NodeType.condition(\"secretive\").reads(\"secret\", FLOAT).factory(c -> new Condition(c) {\n"
                + "            @Override public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) { }\n"
                + "        }).build());\n"
                + "    }\n"
                + "}\n"));
        services(strictClasses, NodeProvider.class.getName(), "strict.StrictNodes");
        strictJar = jar(strictClasses, dir.resolve("strict.jar"));

        moodsTree = Files.writeString(dir.resolve("moods.json"), TREE);
        loudTree = Files.writeString(dir.resolve("loud.json"), TREE.replace("Moods", "Loudness").replace("Calm", "Quiet")
                .replace("Moody", "Loud"));
        brokenTree = Files.writeString(dir.resolve("broken.json"), TREE.replace("\"type\": \"moody\"", "\"type\": \"grumpy\""));
        strictTree = Files.writeString(dir.resolve("strict.json"), TREE.replace("\"type\": \"moody\"", "\"type\": \"secretive\""));
    }

    /** Runs {@code compare} with {@code args}; returns status, console and error stream. */
    static String[] compare(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = CompareHarness.main(args, o, e);
        }
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    /** The small run's options after {@code first}: 2,000 agents, 50 warm-up ticks, 10 measured. */
    static String[] small(Path out, String... first) {
        List<String> a = new ArrayList<>(List.of(first));
        a.addAll(List.of("--agents", Integer.toString(AGENTS), "--warmup", "50", "--ticks", "10", "--budget", "1",
                "--out", out.toString()));
        return a.toArray(new String[0]);
    }

    /** The like-for-like row of compare.md: identical, with the occupancy {@code occupancy}. */
    static void assertLikeForLike(Path out, int implementations, String occupancy) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(out.resolve("compare.json").toFile());
        assertEquals(1, doc.get("equivalence").size(), doc.get("equivalence").toString());
        JsonNode e = doc.get("equivalence").get(0);
        assertTrue(e.get("identical").asBoolean(), e.toString());
        assertEquals(implementations, e.get("implementations").asInt());
        assertEquals(50, e.get("tick").asInt());
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains("| 50 | yes | " + occupancy + " |"), md);
    }

    @Test
    void modelsOwnTreeStartsFromTheModelsInitialValuesInForkedRuns(@TempDir Path out) throws Exception {
        String[] r = compare(small(out, "--model", modelJar.toString()));
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(r[1].contains("[ 3/3]"), r[1]);
        assertTrue(r[1].contains("one JVM per run"), r[1]);
        // half the agents (odd ids: mood 10 > bar 5) are Moody at every implementation
        assertLikeForLike(out, 3, "Calm 1000, Moody 1000");
        JsonNode doc = new ObjectMapper().readTree(out.resolve("compare.json").toFile());
        Set<String> impls = new HashSet<>();
        for (JsonNode res : doc.get("results")) {
            impls.add(res.get("impl").asText());
            assertEquals("Moods", res.get("variant").asText());
            assertEquals(AGENTS, res.get("agents").asInt());
            assertTrue(res.get("nsPerAgentTick").asDouble() > 0, res.toString());
        }
        assertEquals(Set.of("ours-1w", "ours-2w", "reference"), impls, "the default implementations of a user's tree");
        assertEquals(0, doc.get("failures").size());
        assertEquals(0, doc.get("aims").size(), "the aims are the built-in variants'");
        assertEquals(2, doc.get("ratios").size(), doc.get("ratios").toString());
        for (JsonNode ratio : doc.get("ratios")) {
            assertTrue(ratio.get("ratio").asDouble() > 0, ratio.toString());
            assertEquals("ours reference interpreter", ratio.get("reference").asText());
        }
        assertEquals("moods", doc.get("tree").get("model").asText());
        assertEquals(0.1, doc.get("settings").get("dt").asDouble(), 1e-6, "the model's dt");
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains("Your tree 'Moods' (moods.json, the model's own tree) of model 'moods' (" + modelJar), md);
        assertTrue(md.contains("mood at the model's initial value of each agent; gain at the node providers' standalone values"), md);
        assertTrue(md.contains("externals: bar from the model"), md);
        assertTrue(md.contains("The model's host systems (sulk) are not run"), md);
        assertTrue(md.contains("## Ours vs the reference interpreter"), md);
        assertTrue(r[1].contains("ours vs reference [Moods, 2,000 agents] ours batched, 1 worker: "), r[1]);
        assertTrue(Files.readString(out.resolve("compare.svg")).contains("Your tree 'Moods' of model 'moods'"));
    }

    /**
     * {@code TickProfile} takes a user's tree as {@code compare} does: the model's initial moods
     * leave half of the agents Calm, awake every tick for their onTick transition; with the
     * providers' standalone values every agent is Moody, asleep in its delay.
     */
    @Test
    void tickProfileProfilesAUsersTree() throws Exception {
        String model = profile("2000", "1", "20", "--model", modelJar.toString());
        assertTrue(model.startsWith("Moods, 2000 agents, 1 workers, 20 ticks: "), model);
        assertTrue(model.contains(" 1000 awake per tick, "), model);
        for (String phase : StateTreeSystem.PHASES) {
            assertTrue(model.contains("\n  " + phase + " "), model);
        }
        String standalone = profile("2000", "1", "20", "--nodes", nodesJar.toString(), "--tree", moodsTree.toString());
        assertTrue(standalone.contains(" 0 awake per tick, "), standalone);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> profile("10", "1", "1", "--tree", brokenTree.toString()));
        assertTrue(e.getMessage().contains(brokenTree.toString()), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> profile("10", "1", "1", "lazy"));
        assertTrue(e.getMessage().contains("unknown tree lazy; valid: crowd, hierarchical, flat, sleepy, aborts, or --tree/--model"), e.getMessage());
    }

    private static String profile(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TickProfile.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void modelWithAnotherTreeFile(@TempDir Path out) throws Exception {
        String[] r = compare(small(out, "--model", modelJar.toString(), "--tree", loudTree.toString(), "--no-fork",
                "--impls", "ours-1w,reference,reference-scheduled"));
        assertEquals("0", r[0], r[1] + r[2]);
        assertLikeForLike(out, 3, "Quiet 1000, Loud 1000");
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains("Your tree 'Loudness' (" + loudTree + ") of model 'moods'"), md);
        assertTrue(md.contains("| Loudness | ours reference interpreter, scheduled tick | 2,000 |"), md);
    }

    @Test
    void nodesWithTreeTakeTheStandaloneValuesInForkedRuns(@TempDir Path out) throws Exception {
        String[] r = compare(small(out, "--nodes", nodesJar.toString(), "--tree", moodsTree.toString(),
                "--impls", "ours-1w,reference"));
        assertEquals("0", r[0], r[1] + r[2]);
        // mood 30 * gain 1 > bar 20: every agent
        assertLikeForLike(out, 2, "Moody 2000");
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains("Your tree 'Moods' (" + moodsTree + ") with the node types of --nodes " + nodesJar), md);
        assertTrue(md.contains("mood, gain at the node providers' standalone values"), md);
        assertTrue(md.contains("of dt = 1/30 s"), md);
        JsonNode doc = new ObjectMapper().readTree(out.resolve("compare.json").toFile());
        assertTrue(doc.get("tree").get("model").isNull());
        assertEquals(1, doc.get("ratios").size());
    }

    @Test
    void refusalsAreOneLineWithStatus2() throws Exception {
        String jar = modelJar.toString();
        assertRefused("--variants chooses among the built-in trees", "--model", jar, "--variants", "flat");
        assertRefused("--nodes needs --tree FILE", "--nodes", nodesJar.toString());
        assertRefused("--impls gdx-ai,floor: implement only the built-in variants", "--model", jar, "--impls", "ours-1w,gdx-ai,floor");
        assertRefused("give a subset of ours-1w,", "--nodes", nodesJar.toString(), "--tree", moodsTree.toString(),
                "--impls", "dominion");
        assertRefused("--model " + nodesJar + ": no model in it", "--model", nodesJar.toString());
        assertRefused("--model " + dir.resolve("missing.jar") + ": no such file", "--model", dir.resolve("missing.jar").toString());
        assertRefused("--tree " + brokenTree + " does not compile with the node types of the built-ins and model 'moods': ",
                "--model", jar, "--tree", brokenTree.toString());
        assertRefused("unknown condition type \"grumpy\"", "--model", jar, "--tree", brokenTree.toString());
        assertRefused("host column 'secret' (float, read), needed by condition 'secretive'",
                "--nodes", strictJar.toString(), "--tree", strictTree.toString());
        assertRefused("has no standalone value", "--model", jar, "--nodes", strictJar.toString(), "--tree", strictTree.toString());
        assertRefused("--model is given twice", "--model", jar, "--model", jar);
    }

    private static void assertRefused(String expected, String... args) throws Exception {
        String[] r = compare(args);
        assertEquals("2", r[0], r[1] + r[2]);
        assertEquals("", r[1], "nothing runs");
        assertTrue(r[2].startsWith("error: "), r[2]);
        assertEquals(1, r[2].lines().count(), "one line: " + r[2]);
        assertTrue(r[2].contains(expected), "'" + expected + "' in: " + r[2]);
    }

    @Test
    void optionsOfAUserTree() {
        CompareHarness.Options o = CompareHarness.parse(new String[] {"--model", "m.jar", "--agents", "20k"});
        assertEquals(List.of(Impl.OURS_1W, Impl.OURS_2W, Impl.REFERENCE), o.impls);
        assertEquals(List.of(), o.variants);
        assertEquals(new UserTree.Source(Path.of("m.jar"), List.of(), null), o.source());
        CompareHarness.Options n = CompareHarness.parse(new String[] {"--nodes", "a.jar", "--nodes", "b", "--tree", "t.json",
            "--impls", "ours-1w,reference-scheduled"});
        assertEquals(List.of(Impl.OURS_1W, Impl.REFERENCE_SCHEDULED), n.impls);
        assertEquals(List.of(Path.of("a.jar"), Path.of("b")), n.source().nodes());
        assertNull(CompareHarness.parse(new String[0]).source(), "no user's tree: the built-in variants");
        // what a child JVM is given names the same files
        UserTree.Source s = n.source();
        List<String> args = new ArrayList<>(List.of("x"));
        args.addAll(s.args());
        UserTree.Source back = UserTree.Source.parse(args.toArray(new String[0]), 1);
        assertEquals(List.of(Path.of("a.jar").toAbsolutePath(), Path.of("b").toAbsolutePath()), back.nodes());
        assertEquals(Path.of("t.json").toAbsolutePath(), back.tree());
        assertNull(back.model());
    }

    private static Path compile(Path out, Map<String, String> sources) throws IOException {
        Path src = Files.createDirectories(out.resolveSibling(out.getFileName() + "-src"));
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "--release", "17", "-proc:none", "-cp", classPath()));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            args.add(f.toString());
        }
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, args.toArray(new String[0]));
        if (code != 0) {
            throw new IllegalStateException("javac failed:\n" + errors.toString(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** The library's classes (statetree-system, sim-core) for javac. */
    private static String classPath() {
        List<String> entries = new ArrayList<>();
        for (Class<?> c : List.of(NodeProvider.class, CounterRng.class)) {
            entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static void services(Path classes, String service, String implementation) throws IOException {
        Path f = classes.resolve("META-INF/services/" + service);
        Files.createDirectories(f.getParent());
        Files.writeString(f, implementation + "\n");
    }

    private static Path jar(Path classes, Path jar) throws IOException {
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
             Stream<Path> walk = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                j.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(p));
                j.closeEntry();
            }
        }
        return jar;
    }
}
