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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Debugger#attach}: a host's own loop ticks the runtime and calls {@code afterTick}; the
 * page pauses it (afterTick blocks), steps it one tick, finds agents and continues; time travel is
 * refused, saying why. Started paused ({@code Options.paused(true)}), the first afterTick waits for
 * the page.
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
            JsonNode agent = post(d, "api/agent/open?id=7");
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

    @Test
    void startedPausedTheFirstAfterTickWaitsUntilContinue() throws Exception {
        StateTreeRuntime runtime = runtime();
        AtomicLong done = new AtomicLong(0); // the last tick whose afterTick returned
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (Debugger d = Debugger.attach(runtime, Debugger.Options.defaults().port(0).paused(true))) {
            JsonNode before = JSON.readTree(get(d, "api/status"));
            assertTrue(before.path("paused").asBoolean(), "paused before the first tick: " + before);
            Thread host = hostLoop(runtime, d, done, failed);

            // afterTick(1) ran the session's bookkeeping, then holds the host's loop
            DebuggerTest.waitFor(() -> JSON.readTree(get(d, "api/status")).path("tick").asLong() == 1);
            Thread.sleep(300);
            assertEquals(0, done.get(), "afterTick(1) still blocks 300 ms later");
            assertTrue(host.isAlive());
            JsonNode held = JSON.readTree(get(d, "api/status"));
            assertTrue(held.path("paused").asBoolean(), held.toString());
            assertEquals(1, held.path("tick").asLong());

            JsonNode continued = post(d, "api/continue");
            assertFalse(continued.path("paused").asBoolean(), continued.toString());
            DebuggerTest.waitFor(() -> done.get() >= 20);
            JsonNode after = JSON.readTree(get(d, "api/status"));
            assertFalse(after.path("paused").asBoolean(), "running after continue: " + after);
            assertTrue(after.path("tick").asLong() >= 20, after.toString());
            host.interrupt();
            host.join(10_000);
        }
        assertNull(failed.get());
        runtime.close();
    }

    @Test
    void startedPausedEachStepReleasesExactlyOneAfterTick() throws Exception {
        StateTreeRuntime runtime = runtime();
        AtomicLong done = new AtomicLong(0);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (Debugger d = Debugger.attach(runtime, Debugger.Options.defaults().port(0).paused(true))) {
            Thread host = hostLoop(runtime, d, done, failed);
            DebuggerTest.waitFor(() -> JSON.readTree(get(d, "api/status")).path("tick").asLong() == 1);
            Thread.sleep(300);
            assertEquals(0, done.get(), "afterTick(1) blocks until the page continues or steps");

            for (long k = 1; k <= 3; k++) {
                long next = k + 1;
                post(d, "api/step");
                // afterTick(k) returned; the host ran tick k + 1, whose afterTick blocks again
                DebuggerTest.waitFor(() -> JSON.readTree(get(d, "api/status")).path("tick").asLong() == next);
                Thread.sleep(300);
                assertEquals(k, done.get(), "one step releases afterTick(" + k + ") and no more");
                JsonNode st = JSON.readTree(get(d, "api/status"));
                assertTrue(st.path("paused").asBoolean(), st.toString());
                assertEquals(next, st.path("tick").asLong());
                assertTrue(st.path("reason").asText().contains("stepped to tick " + next), st.toString());
            }

            post(d, "api/continue");
            DebuggerTest.waitFor(() -> done.get() >= 20);
            host.interrupt();
            host.join(10_000);
        }
        assertNull(failed.get());
        runtime.close();
    }

    /** 50 agents of the debug-guards tree, standalone, on the batched runtime. */
    private static StateTreeRuntime runtime() throws Exception {
        NodeRegistry nodes = DemoNodes.registry();
        CompiledStateTree tree = StateTreeJson.compile(DebuggerTest.SCENARIO.resolveSibling("tree.json"),
                new StateTreeCompiler(nodes));
        return StandaloneHost.factory(StateTreeSystem::create, nodes).create(tree, 50, 3, 2);
    }

    /**
     * A host's loop on its own thread: starts the trees (tick 0), then ticks 1, 2, ... calling
     * {@code afterTick} after each; {@code done} is the last tick whose afterTick returned.
     */
    private static Thread hostLoop(StateTreeRuntime runtime, Debugger d, AtomicLong done,
                                   AtomicReference<Throwable> failed) {
        Thread host = new Thread(() -> {
            try {
                runtime.startAll(0);
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
        return host;
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
