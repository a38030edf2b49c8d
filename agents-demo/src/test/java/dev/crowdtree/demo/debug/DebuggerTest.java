package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.testing.NodeJars;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioRunner;
import dev.crowdtree.statetree.reference.StandaloneHost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The debugger's JSON API on examples/debug-guards, against an independent run of the same scenario:
 * the counts, breakpoints pausing at the tick the trace says, the finder, the agent panel, stepping
 * and time travel (issue 21 item 3; the page itself is driven in DebuggerBrowserTest).
 */
@Timeout(120)
class DebuggerTest {
    static final Path SCENARIO = NodeJars.REPO.resolve("examples/debug-guards/scenario.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Debugger debugger;

    @BeforeEach
    void open() throws Exception {
        debugger = Debugger.openScenario(SCENARIO, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).paused(true).ticksPerSecond(0));
        waitFor(() -> get("/api/status").path("tick").asLong(-1) == 0);
    }

    @AfterEach
    void close() {
        debugger.close();
    }

    /** The trace of the scenario, and each agent's active path and energy after each tick. */
    static final class Independent {
        final List<String> trace = new ArrayList<>();
        final Map<Long, String[]> paths = new HashMap<>();
        final Map<Long, double[]> energy = new HashMap<>();

        Independent() throws Exception {
            NodeRegistry nodes = DemoNodes.registry();
            Scenario s = Scenario.load(SCENARIO);
            CompiledStateTree tree = StateTreeJson.compile(s.resolveTree(), new StateTreeCompiler(nodes));
            int energyParam = tree.paramIndex("energy");
            ScenarioRunner.run(s, tree, StandaloneHost.factory(StateTreeSystem::create, nodes), trace::add,
                    (StateTreeRuntime r, int k) -> {
                        String[] p = new String[r.agentCount()];
                        double[] e = new double[r.agentCount()];
                        for (int a = 0; a < p.length; a++) {
                            p[a] = r.activePath(a);
                            e[a] = r.parameter(a, energyParam);
                        }
                        paths.put((long) k, p);
                        energy.put((long) k, e);
                    });
        }

        /** The first tick after {@code after} with a line {@code a<k> <tick> enter <state> }. */
        long firstEnter(String state, long after) {
            Pattern p = Pattern.compile("^a\\d+ (\\d+) enter " + Pattern.quote(state) + " ");
            for (String line : trace) {
                Matcher m = p.matcher(line);
                if (m.find() && Long.parseLong(m.group(1)) > after) {
                    return Long.parseLong(m.group(1));
                }
            }
            throw new AssertionError("no enter " + state + " after " + after);
        }
    }

    @Test
    void countsBreakpointFinderAgentAndTimeTravelAgreeWithAnIndependentRun() throws Exception {
        Independent ind = new Independent();
        JsonNode tree = get("/api/tree");
        assertEquals("GuardPost", tree.path("name").asText());
        Map<String, Integer> ids = new HashMap<>();
        for (JsonNode s : tree.path("states")) {
            ids.put(s.path("path").asText(), s.path("id").asInt());
        }

        // counts at tick 0
        JsonNode st = get("/api/status");
        assertEquals(150, st.path("running").asInt());
        assertEquals(countBelow(ind.paths.get(0L), "Root/Patrol"), st.path("occupancyBelow").get(ids.get("Root/Patrol")).asInt());

        // ten steps, one tick each
        for (int i = 1; i <= 10; i++) {
            assertEquals(i, post("/api/step", null).path("tick").asLong());
        }

        // a breakpoint on entering Root/Investigate pauses at the tick the trace says
        long expected = ind.firstEnter("Root/Investigate", 10);
        post("/api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigate\"}");
        post("/api/continue", null);
        waitFor(() -> get("/api/status").path("paused").asBoolean() && get("/api/status").path("tick").asLong() > 10);
        st = get("/api/status");
        assertEquals(expected, st.path("tick").asLong(), st.toString());
        assertTrue(st.path("reason").asText().contains("Root/Investigate entered"), st.toString());
        long t = expected;
        // the reason names the agents that entered (all of them, or the first three and how many)
        java.util.regex.Matcher who = java.util.regex.Pattern.compile("entered \\(([0-9,]+) times?(: agents? |; first agents )([0-9, ]+)\\)")
                .matcher(st.path("reason").asText());
        assertTrue(who.find(), st.toString());
        String[] named = who.group(3).split(", ");
        long times = Long.parseLong(who.group(1).replace(",", ""));
        assertEquals(Math.min(times, 3), named.length, st.toString());
        for (String a : named) {
            assertTrue(agentsBelow(ind.paths.get(t), "Root/Investigate").contains(Integer.parseInt(a)),
                    "agent " + a + " named in " + st.path("reason").asText() + " is not in Root/Investigate at tick " + t);
        }

        // the counts and the finder at that tick
        for (String path : ids.keySet()) {
            assertEquals(countBelow(ind.paths.get(t), path), st.path("occupancyBelow").get(ids.get(path)).asInt(), path);
        }
        JsonNode found = get("/api/find?state=Root/Investigate&limit=1000");
        assertEquals(agentsBelow(ind.paths.get(t), "Root/Investigate"), ids(found));
        found = get("/api/find?state=Root/Patrol&param=energy&min=20&max=60");
        TreeSet<Integer> expect = new TreeSet<>();
        for (int a = 0; a < 150; a++) {
            double e = ind.energy.get(t)[a];
            if (below(ind.paths.get(t)[a], "Root/Patrol") && e >= 20 && e <= 60) {
                expect.add(a);
            }
        }
        assertEquals(expect, ids(found));
        assertFalse(expect.isEmpty());

        // an agent's panel; its explained trace is the trace's lines of it (why lines included)
        int agent = -1; // one that entered Root/Investigate at t
        for (String l : ind.trace) {
            if (l.matches("^a\\d+ " + t + " enter Root/Investigate .*")) {
                agent = Integer.parseInt(l.substring(1, l.indexOf(' ')));
                break;
            }
        }
        assertTrue(agent >= 0);
        JsonNode a = post("/api/agent/open?id=" + agent, null);
        assertEquals(ind.paths.get(t)[agent], a.path("activePath").asText());
        // its trace over the history is filled by a re-simulation off the session thread
        int opened = agent;
        waitFor(() -> get("/api/agent?id=" + opened).path("backfill").asText().equals("done"));
        a = get("/api/agent?id=" + agent);
        List<String> lines = new ArrayList<>();
        a.path("trace").forEach(l -> lines.add(l.asText()));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(t + " why Root/Patrol transitions[0] onEvent Noise")), lines.toString());
        List<String> plain = new ArrayList<>();
        for (String l : lines) {
            if (!l.matches("^\\d+ why .*")) {
                plain.add("a" + agent + " " + l);
            }
        }
        List<String> fromTrace = new ArrayList<>();
        for (String l : ind.trace) {
            long lt = l.startsWith("a" + agent + " ") ? Long.parseLong(l.split(" ")[1]) : -1;
            if (lt > 0 && lt <= t) { // the history starts after tick 0
                fromTrace.add(l);
            }
        }
        assertEquals(fromTrace, plain);

        // step one tick
        st = post("/api/step", null);
        assertEquals(t + 1, st.path("tick").asLong());

        // time travel: back to t - 7, everything as it was
        long back = t - 7;
        st = post("/api/seek?tick=" + back, null);
        assertEquals(back, st.path("tick").asLong());
        for (String path : ids.keySet()) {
            assertEquals(countBelow(ind.paths.get(back), path), st.path("occupancyBelow").get(ids.get(path)).asInt(), path);
        }
        for (int k = 0; k < 150; k += 7) {
            assertEquals(ind.paths.get(back)[k], get("/api/agent?id=" + k).path("activePath").asText(), "agent " + k);
        }
        a = get("/api/agent?id=" + agent);
        a.path("trace").forEach(l -> assertTrue(Long.parseLong(l.asText().split(" ")[0]) <= back, l.asText()));

        // continuing from there pauses at the breakpoint again, at the same tick
        post("/api/continue", null);
        waitFor(() -> get("/api/status").path("paused").asBoolean());
        assertEquals(t, get("/api/status").path("tick").asLong());
    }

    @Test
    void badInputIsRefusedSayingWhatWouldBeValid() throws Exception {
        HttpResponse<String> r = send("POST", "/api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigat\"}");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("no state 'Root/Investigat'") && r.body().contains("Root/Investigate"), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"explode\"}");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("enter, transition, failure, event"), r.body());
        r = send("POST", "/api/seek?tick=9999", null);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("outside the history"), r.body());
        r = send("GET", "/api/find?param=stamina", null);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("energy"), r.body());
        r = send("GET", "/api/agent?id=150", null);
        assertEquals(400, r.statusCode());
        r = send("POST", "/api/status", null);
        assertEquals(405, r.statusCode());
    }

    @Test
    void withATokenEveryRequestMustCarryItAndThePageSendsIt() throws Exception {
        String token = "0123456789abcdef0123";
        try (Debugger d = Debugger.openScenario(SCENARIO, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).paused(true).token(token))) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + "api/status")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, r.statusCode(), r.body());
            r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + "api/status?token=" + token)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + "api/status"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + "?token=" + token)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(r.body().contains("const TOKEN = \"" + token + "\";"), "the page sends the token it was opened with");
        }
    }

    @Test
    void aRequestNamingAnotherHostOrAPostFromAnotherOriginIsRefused() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(debugger.url() + "api/pause"))
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode(), r.body());
        assertTrue(r.body().contains("another origin"), r.body());
    }

    // ---- helpers --------------------------------------------------------------------------------

    static boolean below(String path, String state) {
        return path.equals(state) || path.startsWith(state + "/");
    }

    static int countBelow(String[] paths, String state) {
        return agentsBelow(paths, state).size();
    }

    static TreeSet<Integer> agentsBelow(String[] paths, String state) {
        TreeSet<Integer> out = new TreeSet<>();
        for (int a = 0; a < paths.length; a++) {
            if (below(paths[a], state)) {
                out.add(a);
            }
        }
        return out;
    }

    static TreeSet<Integer> ids(JsonNode found) {
        TreeSet<Integer> out = new TreeSet<>();
        found.path("agents").forEach(a -> out.add(a.asInt()));
        assertEquals(out.size(), found.path("total").asInt());
        return out;
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitFor(Check c) throws Exception {
        long end = System.nanoTime() + 30_000_000_000L;
        while (!c.ok()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out");
            }
            Thread.sleep(20);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(debugger.url() + path.substring(1)));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send("GET", path, null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> r = send(path.startsWith("/api/breakpoints") ? "POST" : "POST", path, body);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}
