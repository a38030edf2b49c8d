package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Node types of your own named like the crowd's ({@code flee}, {@code wander}): the crowd's node
 * types are registered only when the crowd model runs, so a jar that registers the same names loads
 * with {@code --nodes} in every command (validate, dot, trace, run, run --save/--load, serve, debug,
 * sweep); only next to the crowd ({@code --model crowd}) is it a clash, refused in one line naming
 * both providers.
 */
class CrowdNamesCliTest extends CliTestBase {
    /** A provider registering {@code flee} and {@code wander}, as the crowd's DemoNodes does, over columns x and y. */
    private static final String PROVIDER = "package acme;\n"
            + "import dev.crowdtree.statetree.node.*;\n"
            + "import static dev.crowdtree.statetree.node.HostColumn.Type.FLOAT;\n"
            + "public final class Critters implements NodeProvider {\n"
            + "  /** Walks along x at speed (negative: west) m/s; never completes. */\n"
            + "  public static final class Walk extends Task {\n"
            + "    private final float speed;\n"
            + "    private final int x;\n"
            + "    public Walk(NodeConfig c, float sign) {\n"
            + "      super(c, true);\n"
            + "      speed = sign * c.floatValue(\"speed\");\n"
            + "      x = c.column(\"x\");\n"
            + "    }\n"
            + "    @Override public void tick(NodeContext ctx, int[] rows, int from, int to) {\n"
            + "      float[] xs = ctx.hostFloats(x);\n"
            + "      float d = speed * ctx.dt();\n"
            + "      for (int i = from; i < to; i++) { xs[rows[i]] += d; }\n"
            + "    }\n"
            + "  }\n"
            + "  public void register(NodeRegistry r) {\n"
            + "    r.register(NodeType.task(\"flee\").constant(\"speed\", ValueType.FLOAT, p -> p.required().min(0))\n"
            + "        .writes(\"x\", FLOAT).reads(\"y\", FLOAT).factory(c -> new Walk(c, -1f)).build());\n"
            + "    r.register(NodeType.task(\"wander\").constant(\"speed\", ValueType.FLOAT, p -> p.required().min(0))\n"
            + "        .writes(\"x\", FLOAT).reads(\"y\", FLOAT).factory(c -> new Walk(c, 1f)).build());\n"
            + "    r.standaloneColumn(\"x\", 0);\n"
            + "    r.standaloneColumn(\"y\", 0);\n"
            + "  }\n"
            + "}\n";

    /** Wander for 0.3 s, flee for 0.2 s, and so on; a Scare event makes an agent flee at once. */
    private static final String TREE = "{\"name\": \"Critters\", \"hostEvents\": [\"Scare\"], \"root\": {\"name\": \"Root\",\n"
            + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Scare\", \"to\": \"Root/Flee\"}],\n"
            + " \"children\": [\n"
            + "  {\"name\": \"Wander\", \"tasks\": [{\"type\": \"wander\", \"speed\": 1.5}, {\"type\": \"delay\", \"duration\": 0.3}],\n"
            + "   \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Root/Flee\"}]},\n"
            + "  {\"name\": \"Flee\", \"tasks\": [{\"type\": \"flee\", \"speed\": 4}, {\"type\": \"delay\", \"duration\": 0.2}],\n"
            + "   \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Root/Wander\"}]}\n"
            + "]}}\n";

    private static final Pattern HASH = Pattern.compile("world hash: ([0-9a-f]{16})");

    private Path jar() throws Exception {
        Path classes = NodeJars.classes(dir.resolve("critters"), Map.of("acme.Critters", PROVIDER), "acme.Critters");
        return NodeJars.jar(classes, dir.resolve("critters.jar"));
    }

    @Test
    void validateDotTraceAndRunLoadTheProviderWhoseTypesAreNamedLikeTheCrowds() throws Exception {
        String jar = jar().toString();
        Path tree = write("critters.json", TREE);
        assertEquals(0, Main.execute("validate", "--nodes", jar, tree.toString()), err());
        assertTrue(out().contains("OK: tree 'Critters', 3 states"), out());
        out.reset();

        assertEquals(0, Main.execute("dot", "--nodes", jar, tree.toString()), err());
        assertTrue(out().startsWith("digraph"), out());
        assertTrue(out().contains("wander") && out().contains("flee"), out());
        out.reset();

        Path scenario = write("scenario.json", "{\"tree\": \"critters.json\", \"dt\": 0.1, \"ticks\": 6, \"agents\": 2,"
                + " \"inputs\": [{\"tick\": 1, \"agent\": 1, \"event\": \"Scare\"}]}");
        assertEquals(0, Main.execute("trace", "--nodes", jar, scenario.toString()), err());
        String trace = out();
        assertTrue(trace.contains("a1 1 transition Root/Wander -> Root/Flee"), trace);
        // 0.3 s at 0.1 s a tick: remaining = 0.3f - 0.1f - 0.1f - 0.1f > 0 in float, so it runs out at the 4th tick
        assertTrue(trace.contains("a0 4 transition Root/Wander -> Root/Flee"), "the delay of 0.3 s: " + trace);
        assertTrue(trace.contains("a1 3 transition Root/Flee -> Root/Wander"), "the delay of 0.2 s: " + trace);
        out.reset();

        assertEquals(0, Main.execute("run", "--nodes", jar, "--tree", tree.toString(), "--agents", "500", "--ticks", "3",
                "--workers", "1", "--quiet"), err());
        assertTrue(out().contains("mode: " + dev.crowdtree.demo.model.Models.PLAIN_MODE), out());
        assertTrue(out().contains("node failures: 0"), out());
        assertTrue(HASH.matcher(out()).find(), out());
        assertEquals("", err());
    }

    @Test
    void aRunSavedAndLoadedWithTheProviderGivesTheStraightRunsHash() throws Exception {
        String jar = jar().toString();
        Path tree = write("critters.json", TREE);
        Path snap = dir.resolve("critters.snap");
        assertEquals(0, Main.execute("run", "--nodes", jar, "--tree", tree.toString(), "--agents", "500", "--ticks", "6",
                "--workers", "1", "--quiet", "--save", snap.toString()), err());
        assertTrue(out().contains("saved: " + snap + ", tick 6"), out());
        out.reset();
        assertEquals(0, Main.execute("run", "--nodes", jar, "--tree", tree.toString(), "--agents", "500", "--ticks", "10",
                "--workers", "1", "--quiet"), err());
        String straight = hash(out());
        out.reset();
        // the tree is found where the snapshot recorded it (next to it)
        assertEquals(0, Main.execute("run", "--nodes", jar, "--load", snap.toString(), "--ticks", "4", "--workers", "2",
                "--quiet"), err());
        assertTrue(out().contains("loaded: " + snap + ", from tick 6"), out());
        assertEquals(straight, hash(out()), "6 ticks saved and 4 more loaded: the 10-tick run");
    }

    @Test
    void serveAndDebugStartWithTheProviderAndStop() throws Exception {
        String jar = jar().toString();
        Path tree = write("critters.json", TREE);
        Running serve = Running.start(this, Pattern.compile("serving model plain on (http://127\\.0\\.0\\.1:\\d+/)"),
                "serve", "--nodes", jar, "--tree", tree.toString(), "--agents", "400", "--workers", "1", "--port", "0");
        assertEquals(200, get(serve.url).statusCode());
        serve.stop();

        Path scenario = write("scenario.json", "{\"tree\": \"critters.json\", \"dt\": 0.1, \"ticks\": 20, \"agents\": 3}");
        out.reset();
        Running debug = Running.start(this, Pattern.compile("debugging on (http://127\\.0\\.0\\.1:\\d+/)"),
                "debug", "--nodes", jar, "--port", "0", "--paused", scenario.toString());
        HttpResponse<String> t = get(debug.url + "api/tree");
        assertEquals(200, t.statusCode(), t.body());
        assertTrue(t.body().contains("Root/Flee") && t.body().contains("Root/Wander"), t.body());
        debug.stop();
    }

    @Test
    void aSweepRunsTheTreeWithTheProviderOnALocalMember() throws Exception {
        String jar = jar().toString();
        Path tree = write("critters.json", TREE);
        assertEquals(0, Main.execute("sweep", "--nodes", jar, "--seeds", "1..2", "--local-members", "1", "--agents", "100",
                "--ticks", "5", "--tree", tree.toString(), "--quiet"), err());
        List<String> lines = out().lines().toList();
        assertEquals("| job | agents | ticks | wall_ms | ns_per_agent_tick | world_hash | alarms | member |", lines.get(0));
        assertTrue(lines.get(2).startsWith("| 1 | 100 | 5 | "), lines.get(2));
        assertTrue(lines.get(3).startsWith("| 2 | 100 | 5 | "), lines.get(3));
        assertFalse(out().contains("error"), out());
    }

    @Test
    void nextToTheCrowdTheSameNamesAreAClashNamingBothProviders() throws Exception {
        Path jar = jar();
        Path tree = write("critters.json", TREE);
        assertEquals(2, Main.execute("run", "--model", "crowd", "--nodes", jar.toString(), "--tree", tree.toString(),
                "--ticks", "3", "--quiet"));
        assertEquals("error: --nodes " + jar + ": node provider acme.Critters failed: IllegalArgumentException: a node "
                + "type named 'flee' is already registered by model 'crowd' (node provider "
                + "dev.crowdtree.demo.nodes.DemoNodes, built in); node provider acme.Critters (" + jar + ") registers it "
                + "again (node type names must be unique among what is loaded)\n", err());
        assertEquals("", out());
    }

    private static String hash(String out) {
        Matcher m = HASH.matcher(out);
        assertTrue(m.find(), out);
        return m.group(1);
    }

    private static HttpResponse<String> get(String url) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A command that serves until interrupted (serve, debug), run through Main.execute on a thread of its own. */
    private static final class Running {
        private final Thread thread;
        private final int[] exit = {-1};
        private final CrowdNamesCliTest test;
        final String url;

        private Running(CrowdNamesCliTest test, Pattern ready, String... args) throws InterruptedException {
            this.test = test;
            thread = new Thread(() -> {
                int code = Main.execute(args);
                synchronized (exit) {
                    exit[0] = code;
                }
            }, "cli-under-test");
            thread.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String found = null;
            while (found == null) {
                Matcher m = ready.matcher(test.out());
                if (m.find()) {
                    found = m.group(1);
                } else if (!thread.isAlive() || System.nanoTime() > deadline) {
                    fail(args[0] + " did not start; stdout:\n" + test.out() + "\nstderr:\n" + test.err());
                } else {
                    Thread.sleep(50);
                }
            }
            url = found;
        }

        static Running start(CrowdNamesCliTest test, Pattern ready, String... args) throws InterruptedException {
            return new Running(test, ready, args);
        }

        /** Interrupts it as Ctrl+C would; it stops with exit code 0. */
        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join(20_000);
            assertFalse(thread.isAlive(), "it did not stop when interrupted");
            synchronized (exit) {
                assertEquals(0, exit[0], "exit code; stderr:\n" + test.err());
            }
        }
    }
}
