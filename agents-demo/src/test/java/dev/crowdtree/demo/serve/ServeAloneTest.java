package dev.crowdtree.demo.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve} with the plain model: the embedding example's tree with its node types from
 * {@code --nodes} and no model. Its agents stand on a grid (their x and y), coloured by active state.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServeAloneTest {
    private static final int AGENTS = 2500;

    @TempDir
    static Path dir;

    private static ServeUnderTest serve;
    private static String base;
    private static HttpClient http;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void startServer() throws Exception {
        Path jar = NodeJars.guardJar(dir);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        serve = ServeUnderTest.start("--port", "0", "--agents", Integer.toString(AGENTS), "--workers", "2", "--nodes",
                jar.toString(), "--tree", NodeJars.GUARDS_TREE.toString());
        base = serve.base;
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (serve != null) {
            serve.stop();
        }
    }

    @Test
    void theHeaderSaysTheTreeRunsAloneInThePlainModel() {
        String o = serve.out();
        assertTrue(o.contains("tree " + NodeJars.GUARDS_TREE + " (5 states)"), o);
        assertTrue(o.contains("LOD on"), o); // the tree's nodes use float columns x and y: its positions
        assertTrue(o.contains("mode: the tree alone (no model: only its node types)"), o);
        assertTrue(o.contains("serving model plain on http://127.0.0.1:"), o);
    }

    @Test
    void metaNamesTheTreeAndHasNoThreatsOrObjects() throws Exception {
        JsonNode meta = JSON.readTree(get("meta").body());
        assertEquals("Guards", meta.get("tree").asText());
        assertEquals(AGENTS, meta.get("agents").asInt());
        assertEquals(0, meta.get("threats").get("count").asInt());
        assertEquals(0, meta.get("smartObjects").get("count").asInt());
    }

    @Test
    void framesShowEveryAgentOnAGridColouredByItsState() throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "frame")).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        ByteBuffer f = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
        int n = f.getInt(20);
        int s = f.getShort(24);
        int t = f.getShort(26);
        assertEquals(AGENTS, n);
        assertEquals(5, s);
        assertEquals(0, t);
        int posOff = FrameFormat.positionsOffset(s, t);
        Set<Integer> columns = new HashSet<>();
        for (int i = 0; i < n; i++) {
            columns.add((f.getShort(posOff + 4 * i) & 0xFFFF) / 1000);
        }
        assertTrue(columns.size() > 20, "agents spread over the grid: " + columns.size() + " x bands");
        int patrol = f.getInt(FrameFormat.HEADER_BYTES + 4); // state 1: Root/Patrol
        assertEquals(AGENTS, patrol, "far from the standalone intruder, every guard patrols");
        int stOff = FrameFormat.statesOffset(n, s, t);
        for (int i = 0; i < n; i++) {
            assertEquals(1, f.get(stOff + i), "state byte of row " + i);
        }
    }

    @Test
    void statsAnswer() throws Exception {
        JsonNode stats = JSON.readTree(get("stats").body());
        assertEquals(AGENTS, stats.get("running").asInt());
        assertTrue(stats.get("lod").get("enabled").asBoolean(), "the plain model has positions: LOD by distance");
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
