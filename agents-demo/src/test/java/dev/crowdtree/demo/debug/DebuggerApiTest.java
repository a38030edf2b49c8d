package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.nodes.DemoNodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, items 1 and 6, on the debugger's JSON API (examples/debug-guards, 150 agents, paused at
 * tick 0): a GET changes nothing ({@code open=1} is refused, opening is a POST); opening an agent
 * twice and closing it once closes it; the watched agents and the breakpoints are capped, with a
 * refusal that names the cap.
 */
@Timeout(120)
class DebuggerApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Debugger debugger;

    @BeforeEach
    void open() throws Exception {
        debugger = Debugger.openScenario(DebuggerTest.SCENARIO, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).paused(true).ticksPerSecond(0));
        DebuggerTest.waitFor(() -> JSON.readTree(send("GET", "api/status", null).body()).path("tick").asLong(-1) == 0);
    }

    @AfterEach
    void close() {
        debugger.close();
    }

    @Test
    void aGetWithOpenChangesNothingAndSaysToPost() throws Exception {
        String before = send("GET", "api/status", null).body();
        for (String open : new String[]{"open=1", "open=true", "open=0"}) {
            HttpResponse<String> r = send("GET", "api/agent?id=3&" + open, null);
            assertEquals(400, r.statusCode(), r.body());
            assertTrue(r.body().contains("POST /api/agent/open?id=3"), r.body());
        }
        assertFalse(agent(3).path("watched").asBoolean(), "agent 3 is watched after GETs");
        assertEquals(before, send("GET", "api/status", null).body(), "the status changed");
        // the POST opens it; a GET shows it as it is
        assertTrue(post("api/agent/open?id=3").path("watched").asBoolean());
        assertTrue(agent(3).path("watched").asBoolean());
        // opening is refused from a page of another origin, like every other change
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(debugger.url() + "api/agent/open?id=4"))
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode(), r.body());
        assertFalse(agent(4).path("watched").asBoolean());
        assertEquals(405, send("GET", "api/agent/open?id=4", null).statusCode(), "a GET of the open path");
    }

    @Test
    void openingTwiceAndClosingOnceClosesTheAgent() throws Exception {
        post("api/agent/open?id=5");
        post("api/agent/open?id=5");
        JsonNode closed = post("api/agent/close?id=5");
        assertFalse(closed.path("watched").asBoolean(), closed.toString());
        assertFalse(agent(5).path("watched").asBoolean(), "agent 5 is still watched after one close");

        // a breakpoint naming the agent keeps it watched past a close, until it is removed
        JsonNode list = post("api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigate\",\"agent\":5}");
        int id = list.get(list.size() - 1).path("id").asInt();
        post("api/agent/open?id=5");
        post("api/agent/close?id=5");
        assertTrue(agent(5).path("watched").asBoolean(), "agent 5 unwatched while a breakpoint names it");
        assertEquals(200, send("DELETE", "api/breakpoints?id=" + id, null).statusCode());
        assertFalse(agent(5).path("watched").asBoolean(), "agent 5 watched after its breakpoint went");
    }

    @Test
    void watchedAgentsAreCapped() throws Exception {
        int cap = WatchedLines.MAX_WATCHED;
        for (int a = 0; a < cap; a++) {
            post("api/agent/open?id=" + a);
        }
        post("api/agent/open?id=0"); // open already: not one more
        HttpResponse<String> r = send("POST", "api/agent/open?id=" + cap, null);
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(r.body().contains(cap + " agents are watched"), r.body());
        assertFalse(agent(cap).path("watched").asBoolean());
        r = send("POST", "api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigate\",\"agent\":" + (cap + 1) + "}");
        assertEquals(409, r.statusCode(), "a breakpoint naming one more agent: " + r.body());
        assertEquals(0, post("api/breakpoints", null, "GET").size(), "the refused breakpoint was kept");
        post("api/agent/close?id=3");
        assertTrue(post("api/agent/open?id=" + cap).path("watched").asBoolean(), "room after a close");
    }

    @Test
    void breakpointsAreCappedAndAPostAnswersABoundedList() throws Exception {
        int cap = Breakpoints.MAX_BREAKPOINTS;
        JsonNode list = null;
        for (int i = 0; i < cap; i++) {
            list = post("api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigate\"}");
        }
        assertEquals(cap, list.size());
        HttpResponse<String> r = send("POST", "api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/Investigate\"}");
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(r.body().contains(cap + " breakpoints"), r.body());
        assertEquals(cap, post("api/breakpoints", null, "GET").size());
        // removing one makes room
        assertEquals(200, send("DELETE", "api/breakpoints?id=1", null).statusCode());
        assertEquals(cap, post("api/breakpoints", "{\"kind\":\"failure\"}").size());
    }

    @Test
    void numbersInQueriesAreIntegersInRangeNeverWrapped() throws Exception {
        // 4294967301 = 2^32 + 5 was agent 5
        assertRefused("GET", "api/agent?id=4294967301", null, "id = '4294967301' is out of range; valid range is 0..149");
        assertRefused("POST", "api/agent/open?id=4294967301", null, "valid range is 0..149");
        assertFalse(agent(5).path("watched").asBoolean(), "agent 5 opened by id 4294967301");
        assertRefused("GET", "api/agent?id=5.0", null, "id = '5.0' is not an integer; valid range is 0..149");
        assertRefused("GET", "api/agent?id=1e2", null, "is not an integer");
        assertRefused("GET", "api/agent?id=-1", null, "valid range is 0..149");
        assertRefused("POST", "api/agent/close?id=150", null, "valid range is 0..149");
        assertRefused("POST", "api/seek?tick=1.5", null, "tick = '1.5' is not an integer");
        assertRefused("POST", "api/seek?tick=99999999999999999999", null, "is out of range");
        assertRefused("DELETE", "api/breakpoints?id=4294967297", null, "valid range is 1..2147483647");
        assertRefused("GET", "api/find?state=Root&limit=1.9", null, "limit = '1.9' is not an integer; valid range is 1..100000");
        assertRefused("GET", "api/find?state=Root&limit=0", null, "valid range is 1..100000");
        assertRefused("GET", "api/find?param=energy&min=NaN", null, "min = 'NaN' is not a number");
        assertEquals(5, post("api/find?state=Root&limit=5", null, "GET").path("agents").size());
        assertEquals(5, agent(5).path("id").asInt());
    }

    @Test
    void jsonFieldsAreTyped() throws Exception {
        String enter = "{\"kind\":\"enter\",\"state\":\"Root/Investigate\",\"agent\":";
        assertRefused("POST", "api/breakpoints", enter + "\"abc\"}", "agent = \\\"abc\\\" is not an integer: give an agent id, 0..149, or -1");
        assertRefused("POST", "api/breakpoints", enter + "\"5\"}", "is not an integer");
        assertRefused("POST", "api/breakpoints", enter + "2.5}", "agent = 2.5 is not an integer");
        assertRefused("POST", "api/breakpoints", enter + "4294967301}", "agent = 4294967301 is out of range");
        assertRefused("POST", "api/breakpoints", enter + "true}", "is not an integer");
        assertRefused("POST", "api/breakpoints", "{\"kind\":\"transition\",\"transition\":1.9}",
                "transition = 1.9 is not an integer: give a transition id");
        assertRefused("POST", "api/breakpoints", "{\"kind\":5}", "kind = 5 is not a string");
        assertRefused("POST", "api/breakpoints", "{\"kind\":\"event\",\"tag\":[\"a\"]}", "tag = [\\\"a\\\"] is not a string");
        assertEquals(0, post("api/breakpoints", null, "GET").size(), "a refused breakpoint was kept");
        // integers written with a zero fraction are integers
        JsonNode list = post("api/breakpoints", enter + "3.0}");
        assertEquals(3, list.get(0).path("agent").asInt());
        list = post("api/breakpoints", "{\"kind\":\"transition\",\"transition\":1}");
        assertEquals(1, list.get(1).path("transition").asInt());
        assertEquals(-1, post("api/breakpoints", "{\"kind\":\"failure\",\"agent\":null}").get(2).path("agent").asInt());
    }

    @Test
    void bidiAndOtherFormatCharactersAreEscapedInTheJson() throws Exception {
        // right-to-left override, left-to-right isolate, zero-width space, the tag character U+E0001, a C1 control
        String tag = "go\u202Eevil\u2066x\u200By\uDB40\uDC01z\u0085";
        String body = "{\"kind\":\"event\",\"tag\":\"go\\u202Eevil\\u2066x\\u200By\\uDB40\\uDC01z\\u0085\"}";
        HttpResponse<String> r = send("POST", "api/breakpoints", body);
        assertEquals(200, r.statusCode(), r.body());
        for (HttpResponse<String> answer : List.of(r, send("GET", "api/breakpoints", null))) {
            assertRaw(answer.body());
            assertTrue(answer.body().contains("go\\u202eevil\\u2066x\\u200by\\udb40\\udc01z\\u0085"), answer.body());
            JsonNode b = JSON.readTree(answer.body()).get(0);
            assertEquals(tag, b.path("tag").asText(), "the escapes read back as the tag");
            assertTrue(b.path("text").asText().contains(tag), b.toString());
        }
        // an error that quotes the request
        r = send("POST", "api/breakpoints", "{\"kind\":\"enter\",\"state\":\"Root/\\u202Eliart\"}");
        assertEquals(400, r.statusCode(), r.body());
        assertRaw(r.body());
        assertTrue(JSON.readTree(r.body()).path("error").asText().contains("Root/\u202Eliart"), r.body());
    }

    /** No character the JSON must escape is in {@code body} raw. */
    private static void assertRaw(String body) {
        for (int i = 0; i < body.length(); i++) {
            int cp = body.codePointAt(i);
            assertFalse(Character.getType(cp) == Character.FORMAT || (cp >= 0x7F && cp <= 0x9F)
                            || Character.isSurrogate(body.charAt(i)) && !Character.isSupplementaryCodePoint(cp),
                    String.format("U+%04X raw in %s", cp, body));
            if (Character.isSupplementaryCodePoint(cp)) {
                i++;
            }
        }
    }

    private void assertRefused(String method, String path, String body, String says) throws Exception {
        HttpResponse<String> r = send(method, path, body);
        assertEquals(400, r.statusCode(), method + " " + path + " " + body + ": " + r.body());
        assertTrue(r.body().contains(says), method + " " + path + " " + body + ": " + r.body());
    }

    // ---- helpers --------------------------------------------------------------------------------

    private JsonNode agent(int id) throws Exception {
        return post("api/agent?id=" + id, null, "GET");
    }

    private JsonNode post(String path) throws Exception {
        return post(path, null, "POST");
    }

    private JsonNode post(String path, String body) throws Exception {
        return post(path, body, "POST");
    }

    /** {@code method} on {@code path}, which must answer 200; its JSON. */
    private JsonNode post(String path, String body, String method) throws Exception {
        HttpResponse<String> r = send(method, path, body);
        assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(debugger.url() + path));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
