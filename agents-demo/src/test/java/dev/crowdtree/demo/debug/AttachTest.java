package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.StandaloneHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Debugger#attach}: a host's own loop ticks the runtime and calls {@code afterTick}; the
 * page pauses it (afterTick blocks), steps it one tick, finds agents and continues; time travel is
 * refused, saying why.
 */
@Timeout(120)
class AttachTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theHostsLoopPausesStepsAndContinuesFromThePage() throws Exception {
        NodeRegistry nodes = DemoNodes.registry();
        CompiledStateTree tree = StateTreeJson.compile(DebuggerTest.SCENARIO.resolveSibling("tree.json"),
                new StateTreeCompiler(nodes));
        StateTreeRuntime runtime = StandaloneHost.factory(StateTreeSystem::create, nodes).create(tree, 50, 3, 2);
        AtomicLong done = new AtomicLong(-1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (Debugger d = Debugger.attach(runtime, Debugger.Options.defaults().port(0))) {
            Thread host = new Thread(() -> {
                try {
                    runtime.startAll(0);
                    d.afterTick(0);
                    done.set(0);
                    for (long k = 1; k <= 100_000; k++) {
                        runtime.tickAll(k, 0.1f);
                        d.afterTick(k);
                        done.set(k);
                        Thread.sleep(1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "host-loop");
            host.setDaemon(true);
            host.start();
            DebuggerTest.waitFor(() -> done.get() >= 20);

            JsonNode st = post(d, "api/pause");
            DebuggerTest.waitFor(() -> JSON.readTree(get(d, "api/status")).path("paused").asBoolean());
            long paused = JSON.readTree(get(d, "api/status")).path("tick").asLong();
            Thread.sleep(200);
            assertEquals(paused - 1, done.get(), "the host's loop waits inside afterTick(" + paused + ") while paused");
            assertEquals(paused, JSON.readTree(get(d, "api/status")).path("tick").asLong());

            // a step: exactly one more tick, then paused again
            post(d, "api/step");
            DebuggerTest.waitFor(() -> JSON.readTree(get(d, "api/status")).path("tick").asLong() == paused + 1
                    && JSON.readTree(get(d, "api/status")).path("paused").asBoolean());
            Thread.sleep(200);
            assertEquals(paused, done.get());

            // the finder and the panel read the host's runtime between its ticks
            JsonNode found = JSON.readTree(get(d, "api/find?state=Root"));
            assertEquals(50, found.path("total").asInt());
            JsonNode agent = JSON.readTree(get(d, "api/agent?id=7&open=1"));
            assertEquals(runtime.activePath(7), agent.path("activePath").asText());

            // no time travel
            HttpResponse<String> r = send(d, "POST", "api/seek?tick=" + (paused - 1));
            assertEquals(400, r.statusCode());
            assertTrue(r.body().contains("attached"), r.body());

            // continue: the loop runs on
            post(d, "api/continue");
            DebuggerTest.waitFor(() -> done.get() > paused + 20);
            assertTrue(JSON.readTree(get(d, "api/status")).path("running").asInt() > 0);
            host.interrupt();
        }
        assertNull(failed.get());
        runtime.close();
    }

    private static HttpResponse<String> send(Debugger d, String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String get(Debugger d, String path) throws Exception {
        HttpResponse<String> r = send(d, "GET", path);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static JsonNode post(Debugger d, String path) throws Exception {
        HttpResponse<String> r = send(d, "POST", path);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}
