package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.record.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code debug --record} and {@code debug --replay} (issue 21 item 4): a scenario's run recorded
 * from the debugger replays to the same world hash on its own (the recording carries the scenario
 * and the tree), opens in the debugger with the whole recording as history, and a damaged
 * recording is refused with one line; the crowd's {@code run --record} verifies with
 * {@code debug --replay --verify}.
 */
@Timeout(180)
class DebugRecordingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void aRecordedScenarioReplaysToItsWorldHashAndOpensWithEveryTickInItsHistory() throws Exception {
        Path rec = dir.resolve("guards.rec");
        long endHash;
        try (Debugger d = Debugger.openScenario(DebuggerTest.SCENARIO, null, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).ticksPerSecond(0).history(1000, 25), 16L << 20, rec)) {
            DebuggerTest.waitFor(() -> d.session().status().contains("\"paused\":true")
                    && d.session().status().contains("end of the scenario"));
            endHash = d.session().call(() -> { // on the session thread
                try {
                    return d.session().target().worldHash();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        Recording r = Recording.read(rec, 1L << 30);
        assertEquals("scenario", r.header().kind());
        assertEquals(1, r.firstTick());
        assertEquals(240, r.lastTick());
        assertEquals(endHash, r.finalHash());
        assertTrue(r.snapshotTicks().contains(25L) && r.snapshotTicks().contains(225L), r.snapshotTicks().toString());
        assertTrue(r.inputs(40).contains("\"energy\""), r.inputs(40)); // tick 40's inputs as the scenario wrote them

        // the CLI verifies it, on another worker count
        Result v = run("debug", "--replay", rec.toString(), "--verify", "--workers", "2");
        assertEquals(0, v.code, v.err);
        assertEquals(String.format("replayed 240 ticks to tick 240: world hash %016x, as recorded%n", endHash), v.out);

        // and opens it: the whole recording is the history; seeking lands where the live run was
        try (Debugger d = Debugger.openReplay(r, Models.builtIn(), 1,
                Debugger.Options.defaults().port(0).paused(true))) {
            JsonNode st = JSON.readTree(get(d, "api/status"));
            assertTrue(st.path("replay").asBoolean());
            assertEquals(0, st.path("historyFrom").asLong());
            assertEquals(240, st.path("head").asLong());
            st = JSON.readTree(post(d, "api/seek?tick=131"));
            assertEquals(131, st.path("tick").asLong());
            DebuggerTest.Independent ind = new DebuggerTest.Independent();
            for (int a = 0; a < 150; a += 11) {
                assertEquals(ind.paths.get(131L)[a], JSON.readTree(get(d, "api/agent?id=" + a)).path("activePath").asText());
            }
            st = JSON.readTree(post(d, "api/continue"));
            DebuggerTest.waitFor(() -> d.session().status().contains("end of the recording"));
            assertTrue(d.session().status().contains("\"tick\":240"), d.session().status());
        }
    }

    @Test
    void aDamagedRecordingIsRefusedWithOneLine() throws Exception {
        Path rec = dir.resolve("short.rec");
        try (Debugger d = Debugger.openScenario(DebuggerTest.SCENARIO, null, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).ticksPerSecond(0), 16L << 20, rec)) {
            DebuggerTest.waitFor(() -> d.session().status().contains("end of the scenario"));
        }
        byte[] bytes = Files.readAllBytes(rec);
        bytes[bytes.length / 2] ^= 0x10;
        Path bad = dir.resolve("bad.rec");
        Files.write(bad, bytes);
        Result r = run("debug", "--replay", bad.toString(), "--verify");
        assertEquals(2, r.code);
        assertEquals(1, r.err.lines().count(), r.err);
        assertTrue(r.err.startsWith("error: ") && r.err.contains(bad.toString()), r.err);
        r = run("debug", "--replay", bad.toString(), "examples/debug-guards/scenario.json");
        assertEquals(2, r.code, r.err);
        assertTrue(r.err.contains("--replay opens a recording"), r.err);
    }

    @Test
    void aRecordedCrowdRunVerifiesToItsWorldHash() throws Exception {
        Path rec = dir.resolve("crowd.rec");
        Result run = run("run", "--agents", "3000", "--ticks", "90", "--workers", "2", "--quiet", "--record",
                rec.toString(), "--record-every", "30");
        assertEquals(0, run.code, run.err);
        String hash = run.out.lines().filter(l -> l.startsWith("world hash: ")).findFirst().orElseThrow().substring(12);
        Result v = run("debug", "--replay", rec.toString(), "--verify");
        assertEquals(0, v.code, v.err);
        assertEquals("replayed 90 ticks to tick 90: world hash " + hash + ", as recorded", v.out.strip());

        // opened in the debugger: the whole recording is the history, and the end is the recorded world
        try (Debugger d = Debugger.openReplay(Recording.read(rec, 1L << 30), Models.builtIn(), 1,
                Debugger.Options.defaults().port(0).paused(true))) {
            JsonNode st = JSON.readTree(get(d, "api/status"));
            assertEquals(0, st.path("historyFrom").asLong());
            assertEquals(90, st.path("head").asLong());
            assertEquals(3000, st.path("agents").asInt());
            st = JSON.readTree(post(d, "api/seek?tick=90"));
            assertEquals(90, st.path("tick").asLong());
            String finalHash = d.session().call(() -> { // on the session thread
                try {
                    return String.format("%016x", d.session().target().worldHash());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(hash, finalHash);
            st = JSON.readTree(post(d, "api/seek?tick=45"));
            assertEquals(45, st.path("tick").asLong());
            assertTrue(JSON.readTree(get(d, "api/find?state=Root")).path("total").asInt() > 0);
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private static String get(Debugger d, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static String post(Debugger d, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(d.url() + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
