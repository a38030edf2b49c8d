package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.StandaloneHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 1: opening an agent re-simulated the whole history on the session thread, so on
 * {@code serve --debug --agents 100000} each open stalled the run for seconds. Now the history is
 * re-simulated on a copy of the world on a thread of its own ({@link Backfill}): the run goes on
 * meanwhile, the trace it fills is the trace the run wrote, and the agents waiting for one are capped.
 */
@Timeout(120)
class DebugBackfillTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theRunGoesOnWhileTheHistoryIsReSimulated() throws Exception {
        DebuggerTest.Independent ind = new DebuggerTest.Independent();
        int agent = -1; // one with explained lines in ticks 1..30 (the history when it is opened)
        for (String l : ind.trace) {
            String[] w = l.split(" ");
            if (Long.parseLong(w[1]) >= 1 && Long.parseLong(w[1]) <= 30) {
                agent = Integer.parseInt(w[0].substring(1));
                break;
            }
        }
        assertTrue(agent >= 0);
        CountDownLatch release = new CountDownLatch(1);
        try (Debugger d = held(release)) {
            for (int i = 0; i < 30; i++) {
                post(d, "api/step");
            }
            JsonNode a = post(d, "api/agent/open?id=" + agent);
            assertEquals("running", a.path("backfill").asText(), a.toString());
            // the re-simulation is held inside its copy; the run steps and answers meanwhile
            for (int i = 0; i < 20; i++) {
                post(d, "api/step");
            }
            assertEquals(50, get(d, "api/status").path("tick").asLong());
            assertEquals("running", get(d, "api/agent?id=" + agent).path("backfill").asText());
            release.countDown();
            int id = agent;
            DebuggerTest.waitFor(() -> get(d, "api/agent?id=" + id).path("backfill").asText().equals("done"));
            // the lines of ticks 1..50 as the independent run wrote them (why lines aside)
            List<String> expected = new ArrayList<>();
            for (String l : ind.trace) {
                String[] w = l.split(" ", 3);
                if (w[0].equals("a" + agent) && Long.parseLong(w[1]) >= 1 && Long.parseLong(w[1]) <= 50) {
                    expected.add(w[1] + " " + w[2]);
                }
            }
            List<String> filled = new ArrayList<>();
            for (String l : trace(get(d, "api/agent?id=" + agent))) {
                if (!l.matches("^\\d+ why .*")) {
                    filled.add(l);
                }
            }
            assertEquals(expected, filled, "agent " + agent + "'s trace: filled for ticks 1..30, collected after");
        }
    }

    @Test
    void agentsWaitingForTheirTraceAreCapped() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Debugger d = held(release)) {
            for (int i = 0; i < 30; i++) {
                post(d, "api/step");
            }
            int cap = Backfill.MAX_WAITING;
            for (int a = 0; a < cap; a++) {
                String state = post(d, "api/agent/open?id=" + a).path("backfill").asText();
                assertEquals(a == 0 ? "running" : "queued", state, "agent " + a);
            }
            HttpResponse<String> r = send(d, "POST", "api/agent/open?id=" + cap);
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("Retry-After").isPresent(), "503 without Retry-After");
            assertTrue(r.body().contains("(" + cap + ")"), r.body());
            assertFalse(get(d, "api/agent?id=" + cap).path("watched").asBoolean(), "a refused open changed something");
            release.countDown();
            // one re-simulation fills all the agents that waited for it
            DebuggerTest.waitFor(() -> {
                for (int a = 0; a < cap; a++) {
                    if (!get(d, "api/agent?id=" + a).path("backfill").asText().equals("done")) {
                        return false;
                    }
                }
                return true;
            });
            String state = post(d, "api/agent/open?id=" + cap).path("backfill").asText();
            assertTrue(state.matches("queued|running|done"), "room again: " + state);
        }
    }

    /**
     * The crowd with LOD, as {@code serve --debug} runs it: agent 7 is watched from tick 0, then
     * closed and opened again at tick 90, its trace filled by re-simulating the history on a copy
     * loaded from the oldest snapshot; the lines are those the run wrote while it was watched.
     */
    @Test
    void aTraceFilledOnACopyIsTheTraceTheRunWrote() throws Exception {
        RunnableModel crowd = Models.builtIn().byDefault();
        CompiledStateTree tree = crowd.compile(null, 1 << 24);
        Simulation sim = crowd.open(new SimSettings(3000, 5, 2, crowd.defaultDt()), tree, null, crowd.lodBands(tree), null);
        try (Debugger d = Debugger.openSimulation(sim, crowd, NodeErrorPolicy.FAIL,
                Debugger.Options.defaults().port(0).paused(true).ticksPerSecond(0).history(300, 30))) {
            DebuggerTest.waitFor(() -> get(d, "api/status").path("tick").asLong(-1) == 0);
            // sixteen agents watched from tick 0; the first with lines in the 90 ticks is checked
            for (int a = 7; a < 23; a++) {
                JsonNode opened = post(d, "api/agent/open?id=" + a);
                assertTrue(opened.path("backfill").asText().startsWith("none: the history holds no tick before"),
                        opened.toString());
            }
            for (int i = 0; i < 90; i++) {
                post(d, "api/step");
            }
            int agent = -1;
            List<String> live = List.of();
            for (int a = 7; a < 23 && live.isEmpty(); a++) {
                agent = a;
                live = trace(get(d, "api/agent?id=" + a));
            }
            assertFalse(live.isEmpty(), "none of agents 7..22 has trace lines in 90 ticks");
            long from = get(d, "api/status").path("historyFrom").asLong();
            List<String> expected = new ArrayList<>();
            for (String l : live) {
                if (Long.parseLong(l.split(" ")[0]) > from) {
                    expected.add(l);
                }
            }

            post(d, "api/agent/close?id=" + agent);
            assertFalse(get(d, "api/agent?id=" + agent).path("watched").asBoolean());
            JsonNode reopened = post(d, "api/agent/open?id=" + agent);
            assertTrue(trace(reopened).isEmpty(), "a reopened agent starts with no lines: " + reopened);
            int id = agent;
            DebuggerTest.waitFor(() -> !get(d, "api/agent?id=" + id).path("backfill").asText().matches("queued|running"));
            JsonNode filled = get(d, "api/agent?id=" + agent);
            assertEquals("done", filled.path("backfill").asText(), filled.toString());
            assertEquals(expected, trace(filled), "the trace filled on a copy of the world");
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** examples/debug-guards whose copies wait for {@code release} before they re-simulate; paused at tick 0. */
    private static Debugger held(CountDownLatch release) throws Exception {
        NodeRegistry nodes = DemoNodes.registry();
        Scenario s = Scenario.load(DebuggerTest.SCENARIO);
        String text = Files.readString(DebuggerTest.SCENARIO, StandardCharsets.UTF_8);
        CompiledStateTree tree = StateTreeJson.compile(s.resolveTree(), new StateTreeCompiler(nodes));
        ScenarioTarget target = new ScenarioTarget(s, text, tree, StandaloneHost.factory(StateTreeSystem::create, nodes));
        Debugger.Options options = Debugger.Options.defaults().port(0).paused(true).ticksPerSecond(0);
        Debugger d = Debugger.open(new Held(target, release), options.settings(s.dt()), options, null, null);
        DebuggerTest.waitFor(() -> get(d, "api/status").path("tick").asLong(-1) == 0);
        return d;
    }

    /** A target whose copier waits for a latch (the re-simulation is "running" until it opens). */
    private static final class Held implements DebugTarget {
        private final DebugTarget t;
        private final CountDownLatch release;

        Held(DebugTarget t, CountDownLatch release) {
            this.t = t;
            this.release = release;
        }

        @Override
        public Copier copier() {
            Copier c = t.copier();
            return (snapshot, tick) -> {
                try {
                    if (!release.await(60, TimeUnit.SECONDS)) {
                        throw new IOException("not released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
                return c.open(snapshot, tick);
            };
        }

        @Override
        public StateTreeRuntime runtime() {
            return t.runtime();
        }

        @Override
        public long tick() {
            return t.tick();
        }

        @Override
        public long lastTick() {
            return t.lastTick();
        }

        @Override
        public String step() {
            return t.step();
        }

        @Override
        public List<HostEvent> nextEvents() {
            return t.nextEvents();
        }

        @Override
        public boolean canSnapshot() {
            return t.canSnapshot();
        }

        @Override
        public byte[] snapshot() throws IOException {
            return t.snapshot();
        }

        @Override
        public void restore(byte[] snapshot, long tick) throws IOException {
            t.restore(snapshot, tick);
        }

        @Override
        public long worldHash() throws IOException {
            return t.worldHash();
        }

        @Override
        public String describe() {
            return t.describe();
        }

        @Override
        public void close() {
            t.close();
        }
    }

    private static List<String> trace(JsonNode agent) {
        List<String> out = new ArrayList<>();
        agent.path("trace").forEach(l -> out.add(l.asText()));
        return out;
    }

    private static HttpResponse<String> send(Debugger d, String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + path)).method(method,
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode get(Debugger d, String path) throws Exception {
        HttpResponse<String> r = send(d, "GET", path);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static JsonNode post(Debugger d, String path) throws Exception {
        HttpResponse<String> r = send(d, "POST", path);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}
