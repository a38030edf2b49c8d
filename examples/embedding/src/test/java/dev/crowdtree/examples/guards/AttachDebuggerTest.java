package dev.crowdtree.examples.guards;

import dev.crowdtree.demo.debug.Debugger;
import dev.crowdtree.statetree.record.RecordingHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The browser debugger attached to the guards, as a user of the artifact
 * {@code dev.crowdtree:agents-demo} does it: {@code Debugger.attach} on the host's runtime,
 * {@code afterTick} after each tick, the page's JSON API answering. Hazelcast, an optional
 * dependency of agents-demo, is not on this project's paths, and attaching does not need it.
 */
@Timeout(120)
class AttachDebuggerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theDebuggerAttachesToTheGuardsWithoutHazelcast() throws Exception {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.hazelcast.core.HazelcastInstance"),
                "agents-demo's Hazelcast dependency is optional: it must not reach a debugger user");
        if (AttachDebuggerTest.class.getModule().isNamed()) {
            // on the module path (surefire's default with a module-info), agents-demo's jar is an
            // automatic module, named by its manifest
            assertEquals("dev.crowdtree.demo", Debugger.class.getModule().getName());
        }
        try (GuardPost post = new GuardPost(400, 1, 1);
             Debugger debugger = Debugger.attach(post.world(), Debugger.Options.defaults().port(0))) {
            long tick = -1;
            for (int i = 0; i < 5; i++) {
                post.tick();
                tick = post.brains().recorder().tick(); // attach turned the recorder on
                debugger.afterTick(tick);
            }

            String status = get(debugger, "api/status");
            assertTrue(status.contains("\"tick\":" + tick + ","), status);
            assertTrue(status.contains("\"paused\":false"), status);
            assertTrue(status.contains("\"agents\":400"), status);
            assertTrue(status.contains("attached"), status);

            String tree = get(debugger, "api/tree");
            assertTrue(tree.contains("\"name\":\"Guards\""), tree);
            assertTrue(tree.contains("\"path\":\"Root/Patrol\""), tree);

            // the model's columns, its own before the tree's: guard 45's post is (100, 40); attached, the
            // page's requests are answered between the host's ticks, in afterTick
            java.util.concurrent.CompletableFuture<HttpResponse<String>> pending = HTTP.sendAsync(HttpRequest.newBuilder(
                    URI.create(debugger.url() + "api/agent?id=45")).GET().build(), HttpResponse.BodyHandlers.ofString());
            while (!pending.isDone()) {
                post.tick();
                debugger.afterTick(post.brains().recorder().tick());
                Thread.sleep(20);
            }
            String agent = pending.get().body();
            assertEquals(200, pending.get().statusCode(), agent);
            assertTrue(agent.contains("\"columns\":{\"homeX\":100,\"homeY\":40,"), agent);
            assertTrue(agent.contains("\"distance\":"), agent);
        }
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.hazelcast.core.HazelcastInstance"),
                "attaching, ticking and answering the page loaded no Hazelcast class");
    }

    @Test
    void theRecordingApiIsExportedToModules() {
        // compiled as part of this module (the test classes patch it): the package must be exported
        RecordingHeader header = new RecordingHeader("scenario", "{}", 10);
        assertEquals(10, header.snapshotEvery());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RecordingHeader("scenario", "{}", 0));
        assertTrue(e.getMessage().contains("valid range is 1.."), e.getMessage());
    }

    private static String get(Debugger debugger, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(debugger.url() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }
}
