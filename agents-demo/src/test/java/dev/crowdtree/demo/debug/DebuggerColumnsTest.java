package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.statetree.node.HostColumn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The debugger's host columns through its JSON API ({@code /api/agent}'s {@code columns}, the
 * finder's column filter, column breakpoints), on the embedding example's guards ({@link
 * GuardColumns}: a scenario that sets host column {@code distance}), against an independent run of
 * the same scenario on the reference interpreter ({@link ScenarioTimeline}).
 */
@Timeout(120)
class DebuggerColumnsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String DISTANCE = GuardColumns.DISTANCE;

    @TempDir
    static Path dir;
    private static GuardColumns guards;
    private static ScenarioTimeline expected;

    private Debugger debugger;

    @BeforeAll
    static void compileTheGuards() throws Exception {
        guards = GuardColumns.create(dir);
        expected = ScenarioTimeline.run(guards.scenario, guards.registry());
    }

    @AfterAll
    static void closeTheGuards() throws Exception {
        if (guards != null) {
            guards.close();
        }
    }

    @BeforeEach
    void open() throws Exception {
        debugger = Debugger.openScenario(guards.scenario, guards.registry(),
                Debugger.Options.defaults().port(0).paused(true).ticksPerSecond(0));
        DebuggerTest.waitFor(() -> get("/api/status").path("tick").asLong(-1) == 0);
    }

    @AfterEach
    void close() {
        debugger.close();
    }

    private static List<String> columnNames() {
        List<String> names = new ArrayList<>();
        for (HostColumn c : expected.tree.hostColumns) {
            names.add(c.name());
        }
        return names;
    }

    // ---- the agent panel ------------------------------------------------------------------------

    @Test
    void theAgentPanelShowsEveryHostColumnWithTheValueOfTheTickShown() throws Exception {
        List<String> names = columnNames();
        assertTrue(names.containsAll(List.of(DISTANCE, "x", "y", "homeX", "homeY")), names.toString());
        List<String> listed = new ArrayList<>();
        get("/api/tree").path("columns").forEach(c -> listed.add(c.asText()));
        assertEquals(names, listed, "/api/tree's columns: the tree's host columns, in order");

        for (int t = 0; t <= GuardColumns.TICKS; t++) {
            if (t > 0) {
                assertEquals(t, post("/api/step").path("tick").asInt());
            }
            for (int a = 0; a < GuardColumns.AGENTS; a++) {
                JsonNode cols = get("/api/agent?id=" + a).path("columns");
                assertTrue(cols.isObject(), cols.toString());
                List<String> keys = new ArrayList<>();
                cols.fieldNames().forEachRemaining(keys::add);
                assertEquals(names, keys, "agent " + a + "'s columns, in the order of columnNames()");
                for (String c : names) {
                    assertTrue(cols.get(c).isNumber(), c + ": " + cols);
                    assertEquals((float) expected.column(t, a, c), (float) cols.get(c).asDouble(),
                            "agent " + a + "'s " + c + " after tick " + t);
                }
            }
        }

        // as the scenario says: distance 1000 unless set, set at ticks 2, 3, 4, 6, 10 and 12
        seek(1);
        assertEquals(1000, agentColumn(0, DISTANCE));
        seek(2);
        assertEquals(12.5, agentColumn(0, DISTANCE), "the scenario sets agent 0's distance to 12.5 at tick 2");
        assertEquals(1000, agentColumn(1, DISTANCE));
        seek(4);
        assertEquals(5, agentColumn(3, DISTANCE));
        seek(10);
        assertEquals(14.5, agentColumn(3, DISTANCE));
        JsonNode a = get("/api/agent?id=3");
        assertTrue(a.path("columns").get(DISTANCE).isNumber() && a.toString().contains("\"distance\":14.5"), a.toString());
        // and the guards' tasks steer them: the velocity they choose changes between ticks
        seek(0);
        double vx0 = agentColumn(1, "vx");
        seek(GuardColumns.TICKS);
        assertNotEquals(vx0, agentColumn(1, "vx"), "agent 1 sets off on its patrol");
    }

    // ---- the finder -----------------------------------------------------------------------------

    @Test
    void theFinderFiltersByAColumnsRange() throws Exception {
        seek(4);
        TreeSet<Integer> close = DebuggerTest.ids(get("/api/find?column=distance&min=0&max=10"));
        assertEquals(new TreeSet<>(List.of(1, 3, 5, 7, 9, 11, 13, 15)), close, "distance 5, set at ticks 3 and 4");
        assertEquals(close, DebuggerTest.ids(get("/api/find?column=distance&columnMin=0&columnMax=10")));
        assertEquals(expectedAt(4, DISTANCE, 0, 10), close);
        assertEquals(new TreeSet<>(List.of(0)), DebuggerTest.ids(get("/api/find?column=distance&min=12.5&max=12.5")),
                "bounds are inclusive");

        // with a parameter (its own range: min/max) and a state
        TreeSet<Integer> shift1 = DebuggerTest.ids(get("/api/find?param=shift&min=1&max=1&column=distance&columnMax=10"));
        assertEquals(new TreeSet<>(List.of(1, 7, 13)), shift1, "distance <= 10 and shift (agent % 3) 1");
        for (String state : List.of("Root/Patrol", "Root/Chase")) {
            TreeSet<Integer> want = new TreeSet<>();
            for (int a : expectedAt(4, DISTANCE, 0, 10)) {
                if (ScenarioTimeline.passesThrough(expected.path(4, a), state)) {
                    want.add(a);
                }
            }
            assertEquals(want, DebuggerTest.ids(get("/api/find?state=" + state + "&column=distance&min=0&max=10")), state);
        }

        // a column the tasks write, at the end
        seek(GuardColumns.TICKS);
        double x = expected.column(GuardColumns.TICKS, 1, "x");
        TreeSet<Integer> want = expectedAt(GuardColumns.TICKS, "x", x - 0.5, x + 0.5);
        assertEquals(want, DebuggerTest.ids(get("/api/find?column=x&min=" + (x - 0.5) + "&max=" + (x + 0.5))));
        assertTrue(want.contains(1));
    }

    @Test
    void theFinderRefusesAnUnknownColumnOrABoundThatIsNotFinite() throws Exception {
        HttpResponse<String> r = send("GET", "/api/find?column=dist&min=0&max=1", null);
        assertEquals(400, r.statusCode(), r.body());
        String error = JSON.readTree(r.body()).path("error").asText();
        assertTrue(error.contains("'dist'"), error);
        for (String c : columnNames()) {
            assertTrue(error.contains(c), "the message lists " + c + ": " + error);
        }
        r = send("GET", "/api/find?column=distance&min=Infinity", null);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("min") && r.body().contains("finite"), r.body());
        r = send("GET", "/api/find?column=distance&columnMax=abc", null);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("columnMax"), r.body());
        r = send("GET", "/api/find?column=distance&min=0&columnMin=1", null);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("columnMin"), r.body());
    }

    // ---- column breakpoints ---------------------------------------------------------------------

    @Test
    void aColumnBreakpointOnOneAgentPausesWhereItsValueCrosses() throws Exception {
        seek(3);
        JsonNode list = post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":15,\"agent\":3}");
        assertEquals(1, list.size(), list.toString());
        JsonNode b = list.get(0);
        assertEquals("column", b.path("kind").asText());
        assertEquals(DISTANCE, b.path("column").asText());
        assertEquals(15, b.path("crosses").asDouble());
        assertEquals(3, b.path("agent").asInt());
        assertEquals("column distance of agent 3 crosses 15", b.path("text").asText());
        assertEquals(list, get("/api/breakpoints"));

        // tick 4 (1000 -> 5) is the first tick after it was set: it only records the value
        assertEquals("breakpoint 1: column distance crossed 15 (upward) at tick 6: agent 3, 5 -> 15", continueToPause(6));
        // 15 -> 15 at tick 8 does not cross
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 10: agent 3, 15 -> 14.5",
                continueToPause(10));
        assertEquals("end of the scenario at tick 16", continueToPause(16));
    }

    @Test
    void aColumnBreakpointOnAnyAgentNamesTheFirstFiveAndCountsThem() throws Exception {
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":15}");
        assertEquals("column distance of any agent crosses 15", get("/api/breakpoints").get(0).path("text").asText());
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 2: agent 0 (1 agent)", continueToPause(2));
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 3: agent 1 (1 agent)", continueToPause(3));
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 4: agents 3, 5, 7, 9, 11, ... (7 agents)",
                continueToPause(4));
        assertEquals("breakpoint 1: column distance crossed 15 (upward) at tick 6: agent 3 (1 agent)", continueToPause(6));
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 10: agent 3 (1 agent)", continueToPause(10));
        assertEquals("breakpoint 1: column distance crossed 15 (1 upward, 1 downward) at tick 12: agents 5, 17 (2 agents)",
                continueToPause(12));
        assertEquals("end of the scenario at tick 16", continueToPause(16));

        // time travel back before tick 4: continuing pauses there again, as when it first ran
        seek(3);
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 4: agents 3, 5, 7, 9, 11, ... (7 agents)",
                continueToPause(4));
    }

    @Test
    void aColumnBreakpointDoesNotFireWithoutACrossing() throws Exception {
        // agent 19's distance stays 1000; every homeX stays 0, on the threshold (at-or-above) all along
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":500,\"agent\":19}");
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"homeX\",\"crosses\":0}");
        assertEquals("end of the scenario at tick 16", continueToPause(16));
    }

    @Test
    void aColumnBreakpointStillRecordsTheTickInWhichAnEarlierBreakpointPaused() throws Exception {
        // agent 0 crosses at tick 2 (first in the list, it pauses); agent 1 at tick 3, compared with tick 2
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":15,\"agent\":0}");
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":15,\"agent\":1}");
        assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 2: agent 0, 1000 -> 12.5",
                continueToPause(2));
        assertEquals("breakpoint 2: column distance crossed 15 (downward) at tick 3: agent 1, 1000 -> 5",
                continueToPause(3));
    }

    @Test
    void badColumnBreakpointsAreRefusedSayingWhatWouldBeValid() throws Exception {
        String names = String.join(", ", columnNames());
        HttpResponse<String> r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"dist\",\"crosses\":15}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("'dist'") && r.body().contains(names), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"crosses\":15}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("column is missing") && r.body().contains(names), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\"}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("crosses is missing") && r.body().contains("finite number"), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":1e999}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("crosses = Infinity is not a finite number"), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":\"near\"}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("crosses = \\\"near\\\" is not a number"), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":15,\"agent\":20}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("agent 20 is out of range: 0..19"), r.body());
        r = send("POST", "/api/breakpoints", "{\"kind\":\"columns\"}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("enter, transition, failure, event, column"), r.body());
        assertEquals(0, get("/api/breakpoints").size(), "nothing was added");
    }

    @Test
    void columnBreakpointsOfAnyAgentAreCapped() throws Exception {
        int cap = Breakpoints.MAX_SCANNING;
        for (int i = 0; i < cap; i++) {
            post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":" + (10 + i) + "}");
        }
        HttpResponse<String> r = send("POST", "/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":1}");
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(r.body().contains(cap + " column breakpoints of any agent"), r.body());
        // one agent's column costs one value a tick: not capped so
        post("/api/breakpoints", "{\"kind\":\"column\",\"column\":\"distance\",\"crosses\":1,\"agent\":3}");
        assertEquals(cap + 1, get("/api/breakpoints").size());
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** The agents whose {@code column} lies in [min, max] after tick {@code t} in the independent run. */
    private static TreeSet<Integer> expectedAt(int t, String column, double min, double max) {
        TreeSet<Integer> out = new TreeSet<>();
        for (int a = 0; a < GuardColumns.AGENTS; a++) {
            double v = expected.column(t, a, column);
            if (v >= min && v <= max) {
                out.add(a);
            }
        }
        return out;
    }

    private double agentColumn(int agent, String column) throws Exception {
        return get("/api/agent?id=" + agent).path("columns").path(column).asDouble();
    }

    /** Goes to tick {@code tick}: steps up to it when it was not run yet, else travels there. */
    private void seek(int tick) throws Exception {
        JsonNode s = get("/api/status");
        if (s.path("head").asInt() < tick) {
            for (long t = s.path("tick").asLong(); t < tick; t++) {
                post("/api/step");
            }
        }
        assertEquals(tick, post("/api/seek?tick=" + tick).path("tick").asInt());
    }

    /** Continues and waits for the pause; checks its tick and returns its reason. */
    private String continueToPause(int tick) throws Exception {
        long from = get("/api/status").path("tick").asLong();
        post("/api/continue");
        DebuggerTest.waitFor(() -> {
            JsonNode s = get("/api/status");
            return s.path("paused").asBoolean() && s.path("tick").asLong() > from;
        });
        JsonNode s = get("/api/status");
        assertEquals(tick, s.path("tick").asInt(), s.toString());
        return s.path("reason").asText();
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

    private JsonNode post(String path) throws Exception {
        return post(path, null);
    }

    private JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> r = send("POST", path, body);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}
