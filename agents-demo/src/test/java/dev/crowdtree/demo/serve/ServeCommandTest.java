package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.http.Access;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.Chromium;
import dev.crowdtree.statetree.exec.PayloadMismatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve} end to end: the real command on port 0 with a few thousand agents, driven over HTTP
 * (meta, binary frames, play/pause, the agent inspector), then the page in headless Chromium when it
 * is installed (required when {@code CI=true}). Also: a port in use, a bad tree, bad options.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServeCommandTest {
    private static final int AGENTS = 3000;

    private static ServeUnderTest serve;
    private static String base;
    private static HttpClient http;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void startServer() throws Exception {
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        serve = ServeUnderTest.start("--port", "0", "--agents", Integer.toString(AGENTS), "--workers", "2", "--seed", "7");
        base = serve.base;
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (serve != null) {
            serve.stop();
        }
    }

    // ---- HTTP ---------------------------------------------------------------------------------

    @Test
    void metaDescribesTheCrowdAndTheTree() throws Exception {
        HttpResponse<String> r = get("meta");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
        JsonNode meta = JSON.readTree(r.body());
        assertEquals(AGENTS, meta.get("agents").asInt());
        assertEquals(2000.0, meta.get("worldSize").asDouble());
        JsonNode states = meta.get("states");
        assertTrue(states.size() > 3, "states: " + states);
        for (JsonNode s : states) {
            assertTrue(s.get("color").asText().matches("#[0-9a-f]{6}"), "colour of " + s);
            assertTrue(s.get("path").asText().startsWith("Root"), "path of " + s);
        }
        JsonNode objects = meta.get("smartObjects");
        assertTrue(objects.get("count").asInt() > 0);
        assertEquals(objects.get("count").asInt(), objects.get("x").size());
        assertEquals(objects.get("count").asInt(), objects.get("y").size());

        HttpResponse<String> page = get("");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<canvas id=\"map\""), page.body());
        assertEquals(200, get("viewer.js").statusCode());
        assertEquals(200, get("viewer.css").statusCode());
        assertEquals(404, get("nothing-here").statusCode());
    }

    @Test
    void framesCarryEveryAgentWithAValidState() throws Exception {
        int stateCount = JSON.readTree(get("meta").body()).get("states").size();
        ByteBuffer f = frame(-1);
        assertEquals(FrameFormat.MAGIC, f.getInt(0));
        assertEquals(FrameFormat.VERSION, f.getShort(4));
        assertEquals(FrameFormat.HEADER_BYTES, f.getShort(6));
        int n = f.getInt(20);
        int s = f.getShort(24);
        int t = f.getShort(26);
        int o = f.getInt(28);
        assertEquals(AGENTS, n);
        assertEquals(stateCount, s);
        assertEquals(FrameFormat.frameBytes(n, s, t, o), f.capacity(), "frame length");
        int stOff = FrameFormat.statesOffset(n, s, t);
        int[] counted = new int[s];
        for (int i = 0; i < n; i++) {
            int st = f.get(stOff + i) & 0xFF;
            assertTrue(st < s, "agent row " + i + " has state byte " + st);
            counted[st]++;
        }
        int running = 0;
        for (int k = 0; k < s; k++) {
            int occ = f.getInt(FrameFormat.HEADER_BYTES + 4 * k);
            assertEquals(counted[k], occ, "occupancy of state " + k);
            running += occ;
        }
        assertEquals(running, f.getInt(60));
        assertEquals(2000f, f.getFloat(32));
        // positions spread over the world, not all zero
        int posOff = FrameFormat.positionsOffset(s, t);
        int minX = 65535;
        int maxX = 0;
        for (int i = 0; i < n; i++) {
            int x = f.getShort(posOff + 4 * i) & 0xFFFF;
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
        }
        assertTrue(maxX - minX > 30000, "x spread " + minX + ".." + maxX);

        // ?after=<seq> answers with a newer frame while the crowd runs
        long seq = f.getInt(16) & 0xFFFFFFFFL;
        ByteBuffer next = frame(seq);
        assertTrue((next.getInt(16) & 0xFFFFFFFFL) > seq, "a newer frame");
        assertTrue(next.getLong(8) >= f.getLong(8), "tick does not go back");
    }

    @Test
    void pauseStopsTheTicksAndPlayResumesThem() throws Exception {
        try {
            JsonNode paused = JSON.readTree(post("pause").body());
            assertTrue(paused.get("paused").asBoolean(), paused.toString());
            long tick = paused.get("tick").asLong();
            ByteBuffer f = frame(-1);
            assertEquals(tick, f.getLong(8), "the frame published on pause");
            assertEquals(FrameFormat.FLAG_PAUSED, f.get(44) & FrameFormat.FLAG_PAUSED);
            Thread.sleep(500);
            assertEquals(tick, frame(-1).getLong(8), "ticks while paused");

            JsonNode sped = JSON.readTree(post("speed=2").body());
            assertEquals(2.0, sped.get("speed").asDouble());
            assertEquals(2.0f, frame(-1).getFloat(40));

            JsonNode playing = JSON.readTree(post("action=play").body());
            assertFalse(playing.get("paused").asBoolean());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long now;
            do {
                ByteBuffer g = frame(f.getInt(16) & 0xFFFFFFFFL);
                now = g.getLong(8);
            } while (now <= tick && System.nanoTime() < deadline);
            assertTrue(now > tick, "the crowd runs again after play");
        } finally {
            post("play&speed=1");
        }
    }

    @Test
    void controlRejectsWhatItDoesNotKnow() throws Exception {
        HttpResponse<String> r = post("jump");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("unknown control 'jump'"), r.body());
        r = post("speed=100");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("out of range"), r.body());
        r = post("speed=fast");
        assertEquals(400, r.statusCode());
        assertEquals(405, get("control").statusCode());
        r = http.send(HttpRequest.newBuilder(URI.create(base + "control")).timeout(Duration.ofSeconds(10))
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.ofString("pause")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode(), "a control request from another origin");
    }

    /** A request to {@code path} with {@code method} and, when not null, an Origin header. */
    private static HttpResponse<String> send(String method, String path, String origin) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (origin != null) {
            b.header("Origin", origin);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Issue 23, defect 3: a cross-site GET /agent changed the selected agent (and the LOD observer)
     * for every viewer. Reading an agent no longer selects it; selecting is a POST of the page's origin.
     */
    @Test
    void onlyASameOriginPostChangesTheSharedSelection() throws Exception {
        String before = JSON.readTree(post("speed=1").body()).get("selected").asText();
        HttpResponse<String> r = get("agent?x=10&y=10");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode a = JSON.readTree(r.body());
        assertEquals(before, JSON.readTree(post("speed=1").body()).get("selected").asText(), "a GET selects nothing");
        assertTrue(a.get("trace").isEmpty() || a.get("selected").asBoolean(), a.toString());
        r = send("POST", "agent?id=" + a.get("id").asInt(), "http://evil.example");
        assertEquals(403, r.statusCode(), r.body());
        assertTrue(r.body().contains("selection requests from another origin (http://evil.example) are refused"), r.body());
        assertEquals(before, JSON.readTree(post("speed=1").body()).get("selected").asText(), "a cross-site POST selects nothing");
        r = send("POST", "agent?id=" + a.get("id").asInt(), base.substring(0, base.length() - 1));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(a.get("id").asInt(), JSON.readTree(post("speed=1").body()).get("selected").asInt(), "a same-origin POST selects");
        assertTrue(JSON.readTree(r.body()).get("selected").asBoolean());
        assertEquals(405, send("PUT", "agent?id=1", null).statusCode());
    }

    @Test
    void theAgentInspectorShowsThePathAndTheTrace() throws Exception {
        HttpResponse<String> r = send("POST", "agent?x=1000&y=1000", null);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode a = JSON.readTree(r.body());
        int id = a.get("id").asInt();
        assertTrue(a.get("path").asText().startsWith("Root/"), a.toString());
        assertTrue(a.get("state").asInt() >= 0);
        assertTrue(a.get("x").isNumber() && a.get("y").isNumber());
        assertTrue(a.get("trace").isArray());
        // the selection shows in the frames
        ByteBuffer f = frame(-1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (f.getInt(48) != id && System.nanoTime() < deadline) {
            f = frame(f.getInt(16) & 0xFFFFFFFFL);
        }
        assertEquals(id, f.getInt(48), "selected agent in the frame header");
        // poll by id; trace lines arrive as it ticks (each begins with its tick)
        JsonNode polled = JSON.readTree(get("agent?id=" + id).body());
        assertEquals(id, polled.get("id").asInt());
        for (JsonNode line : polled.get("trace")) {
            assertTrue(line.asText().matches("\\d+ .+"), line.asText());
        }
        assertEquals(404, get("agent?id=" + (AGENTS + 1000)).statusCode());
        assertEquals(400, get("agent?id=abc").statusCode());
        assertEquals(400, get("agent?x=nan&y=1").statusCode());
        assertEquals(400, get("agent").statusCode());
    }

    @Test
    void statsListThePayloadMismatchesAsJson() throws Exception {
        String json = SimLoop.payloadMismatchesJson(new StringBuilder(), List.of(
                new PayloadMismatch("Alarm", "level", "missing", 2),
                new PayloadMismatch("Alarm", "level", "wrong type (sent float, declared int)", 3))).toString();
        assertEquals("[{\"tag\":\"Alarm\",\"field\":\"level\",\"reason\":\"missing\",\"count\":2},"
                + "{\"tag\":\"Alarm\",\"field\":\"level\",\"reason\":\"wrong type (sent float, declared int)\","
                + "\"count\":3}]", json);
        assertEquals(2, JSON.readTree(json).size());
        assertEquals("[]", SimLoop.payloadMismatchesJson(new StringBuilder(), List.of()).toString());
    }

    @Test
    void statsShowTheAwakeShareAndTheLodBands() throws Exception {
        HttpResponse<String> r = get("stats");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
        JsonNode s = JSON.readTree(r.body());
        assertEquals(AGENTS, s.get("running").asInt(), s.toString());
        double share = s.get("awakeShare").asDouble();
        assertTrue(share >= 0 && share <= 1, s.toString());
        assertTrue(s.get("awake").asInt() <= AGENTS);
        JsonNode lod = s.get("lod");
        assertTrue(lod.get("observer").get("x").isNumber() && lod.get("observer").get("y").isNumber(), lod.toString());
        assertTrue(lod.get("enabled").asBoolean(), "LOD is on by default in serve: " + lod);
        int sum = 0;
        for (JsonNode b : lod.get("bands")) {
            sum += b.get("agents").asInt();
            assertTrue(b.get("label").asText().startsWith("period " + b.get("period").asInt()), b.toString());
        }
        assertEquals(4, lod.get("bands").size(), lod.toString());
        assertEquals(AGENTS, sum, lod.toString());
        assertTrue(s.get("payloadMismatches").isArray() && s.get("payloadMismatches").isEmpty(),
                "the crowd tree declares no payload fields: " + s);
        assertTrue(serve.out().contains(", LOD on,"));
        assertEquals(405, http.send(HttpRequest.newBuilder(URI.create(base + "stats")).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void lodIsOnByDefaultAndNoLodSwitchesItOff() {
        ServeCommand c = new ServeCommand();
        new CommandLine(c).parseArgs();
        assertTrue(c.lod);
        c = new ServeCommand();
        new CommandLine(c).parseArgs("--no-lod");
        assertFalse(c.lod);
        c = new ServeCommand();
        new CommandLine(c).parseArgs("--lod");
        assertTrue(c.lod);
    }

    @Test
    void loopbackHostsOnly() {
        assertTrue(Access.loopbackHost("127.0.0.1:8080"));
        assertTrue(Access.loopbackHost("localhost:1"));
        assertTrue(Access.loopbackHost("[::1]:8080"));
        assertFalse(Access.loopbackHost("evil.example:8080"));
        assertFalse(Access.loopbackHost("127.0.0.1.evil.example"));
        assertFalse(Access.loopbackHost(null));
    }

    // ---- the page in headless Chromium ----------------------------------------------------------

    @Tag("browser")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void thePageDrawsTheCrowdInHeadlessChromium() throws Exception {
        Path chromium = Chromium.orSkip();
        Path profile = Files.createTempDirectory("crowdtree-chromium-");
        Path dom = Files.createTempFile("crowdtree-dom-", ".html");
        Path log = Files.createTempFile("crowdtree-chromium-", ".log");
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                "--window-size=1000,700", "--virtual-time-budget=8000", "--dump-dom", base));
        Process p = null;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
            boolean done = p.waitFor(90, TimeUnit.SECONDS);
            assertTrue(done, "chromium did not finish within 90 s; log:\n" + tail(log));
            String html = Files.readString(dom);
            int frames = intAttribute(html, "data-frames");
            int agentPixels = intAttribute(html, "data-agent-pixels");
            assertTrue(frames >= 2, "frames drawn: " + frames + "\n" + tail(log));
            assertTrue(agentPixels > 100, "agent pixels in the last frame: " + agentPixels);
        } finally {
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            Chromium.deleteTree(profile);
            Files.deleteIfExists(dom);
            Files.deleteIfExists(log);
        }
    }

    private static int intAttribute(String html, String name) {
        Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(html);
        assertTrue(m.find(), name + " is missing from the dumped DOM:\n" + html.substring(0, Math.min(2000, html.length())));
        return Integer.parseInt(m.group(1));
    }

    private static String tail(Path log) throws IOException {
        String s = Files.readString(log, StandardCharsets.UTF_8);
        return s.length() <= 3000 ? s : s.substring(s.length() - 3000);
    }

    // ---- the command's errors -------------------------------------------------------------------

    @Test
    void aPortInUseSaysSoAndExits2() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Result r = serve("--port", Integer.toString(port), "--agents", "100");
            assertEquals(2, r.code, r.err);
            assertTrue(r.err.contains("error: port " + port + " is already in use on 127.0.0.1; choose another with --port"),
                    r.err);
            assertFalse(r.out.contains("serving"), r.out);
        }
    }

    @Test
    void aTreeThatDoesNotCompileExits2WithTheCompilersErrors() throws Exception {
        Path bad = Files.createTempFile("bad-tree-", ".json");
        try {
            Files.writeString(bad, "{\"name\":\"X\",\"root\":{\"name\":\"Root\",\"tasks\":[{\"type\":\"nope\"}]}}");
            Result r = serve("--port", "0", "--agents", "100", "--tree", bad.toString());
            assertEquals(2, r.code, r.err);
            assertTrue(r.err.contains("does not compile"), r.err);
            assertTrue(r.err.contains("unknown task type \"nope\""), r.err);
        } finally {
            Files.deleteIfExists(bad);
        }
    }

    @Test
    void badOptionsExit2() {
        Result r = serve("--speed", "0", "--port", "0");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("--speed = 0.0 is out of range"), r.err);
        r = serve("--port", "70000");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("--port = 70000 is out of range"), r.err);
        r = serve("--agents", "0", "--port", "0");
        assertEquals(2, r.code);
        r = serve("--observer", "2500,10", "--port", "0");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("--observer = 2500,10 is not a point of the world"), r.err);
        r = serve("--bind", "no-such-host.invalid", "--port", "0");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("is not a known host"), r.err);
    }

    @Test
    void mainKnowsServe() {
        assertTrue(new CommandLine(new Main()).getSubcommands().containsKey("serve"));
    }

    // ---- helpers --------------------------------------------------------------------------------

    private record Result(int code, String out, String err) {
    }

    private static Result serve(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        CommandLine cl = new CommandLine(new ServeCommand(new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8)));
        cl.setErr(new java.io.PrintWriter(e, true, StandardCharsets.UTF_8));
        int code = cl.execute(args);
        return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + "control")).timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The latest frame, or the first newer than {@code afterSeq} (-1: the latest). */
    private static ByteBuffer frame(long afterSeq) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "frame"
                        + (afterSeq >= 0 ? "?after=" + afterSeq : ""))).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals("application/octet-stream", r.headers().firstValue("Content-Type").orElse(""));
        assertNotNull(r.body());
        return ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
    }
}
