package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve --debug --model JAR} from the command line (its own JVM, as a user starts it) on the
 * embedding example's guards model: the page's agent panel shows the model's columns (its own, not
 * only the tree's) with the agent's values, {@code /api/agent} answers them, and time travel gives
 * an agent's earlier values of those columns back. Chromium missing: a failure under {@code CI=true},
 * a skip otherwise ({@link Cdp#chromiumOrSkip}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("browser") // drives headless Chromium: -DexcludedGroups=browser leaves it out, .ci/run runs it
class ServeDebugModelBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Pattern URL = Pattern.compile("debugging on (http://\\S+) ");
    /** The guards model's columns, in the order it declares them. */
    private static final List<String> COLUMNS = List.of("homeX", "homeY", "x", "y", "vx", "vy", "distance");
    /** A guard at post (20, 20): the second post of the second row (100 posts to a row, 20 m apart). */
    private static final int GUARD = 101;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String base;

    @TempDir
    Path dir;

    @Test
    void theModelsColumnsAreShownForAnAgentAndTimeTravelGivesTheirEarlierValues() throws Exception {
        Path chromium = Cdp.chromiumOrSkip();
        Path jar = NodeJars.guardModelJar(dir);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process serve = new ProcessBuilder(java.toString(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "dev.crowdtree.demo.Main", "serve", "--debug", "--model", jar.toString(), "--agents", "400", "--port", "0",
                "--workers", "1", "--snapshot-every", "5").redirectErrorStream(true).start();
        try (Cdp cdp = Cdp.launch(chromium)) {
            base = readUrl(serve);
            cdp.navigate(base);
            cdp.waitFor("document.body.dataset.ready === '1'", WAIT);
            cdp.eval("document.querySelector('#pause').click()");
            cdp.waitFor("document.querySelector('#run-state').textContent === 'paused'", WAIT);

            // the API: the model's columns, and the guard's values of them
            List<String> listed = new ArrayList<>();
            api("api/tree").get("columns").forEach(c -> listed.add(c.asText()));
            assertEquals(COLUMNS, listed, "/api/tree's columns: the model's, in its order");
            JsonNode status = api("api/status");
            long t0 = status.get("tick").asLong();
            Map<String, Double> at0 = columns(GUARD);
            assertEquals(COLUMNS, List.copyOf(at0.keySet()), "/api/agent's columns");
            assertEquals(20.0, at0.get("homeX"), "the guard's post, from the model's initial values");
            assertEquals(20.0, at0.get("homeY"));

            // the page: the agent's Columns table
            type(cdp, "#agent-id", Integer.toString(GUARD));
            cdp.eval("document.querySelector('#agent-open').click()");
            cdp.waitFor("document.querySelectorAll('table#agent-columns tr[data-column]').length === " + COLUMNS.size(),
                    WAIT);
            List<String> rows = new ArrayList<>();
            cdp.evalJson("[...document.querySelectorAll('table#agent-columns tr[data-column] > td:first-child')]"
                    + ".map(e => e.textContent.trim())").forEach(r -> rows.add(r.asText()));
            assertEquals(COLUMNS, rows, "a row per column of the model, named, in order");
            for (String c : List.of("distance", "vx", "homeX")) {
                assertEquals(at0.get(c).floatValue(), Float.parseFloat(shown(cdp, c)), "the guard's " + c + " at tick " + t0);
            }
            screenshot(cdp, "debugger-model-columns.png");

            // time travel: four steps on, the guard has walked; back to t0 + 1 in the page, then t0 in the API
            List<Map<String, Double>> history = new ArrayList<>();
            history.add(at0);
            for (int i = 1; i <= 4; i++) {
                cdp.eval("document.querySelector('#step').click()");
                cdp.waitFor("document.querySelector('#tick').textContent === '" + (t0 + i) + "'", WAIT);
                history.add(columns(GUARD));
            }
            assertNotEquals(history.get(1).get("x"), history.get(4).get("x"), "the guard walks: " + history);
            long back = t0 + 1;
            assertTrue(api("api/status").get("historyFrom").asLong() <= t0, "tick " + t0 + " is in the history");
            type(cdp, "#seek-tick", Long.toString(back));
            cdp.eval("document.querySelector('#seek').click()");
            cdp.waitFor("document.querySelector('#tick').textContent === '" + back + "'", WAIT);
            cdp.waitFor("+document.querySelector(\"table#agent-columns tr[data-column='x']\").dataset.value === "
                    + history.get(1).get("x"), WAIT);
            assertEquals(history.get(1), columns(GUARD), "the guard's columns at tick " + back + " after the seek");

            JsonNode sought = post("api/seek?tick=" + t0);
            assertEquals(t0, sought.get("tick").asLong());
            assertEquals(at0, columns(GUARD), "the guard's columns at tick " + t0 + " after the seek");
        } finally {
            serve.destroy();
            if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    /** Agent {@code id}'s columns from /api/agent, in the order given. */
    private Map<String, Double> columns(int id) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        JsonNode cols = api("api/agent?id=" + id).get("columns");
        cols.properties().forEach(e -> {
            assertTrue(e.getValue().isNumber(), "column " + e.getKey() + ": " + cols);
            out.put(e.getKey(), e.getValue().asDouble());
        });
        return out;
    }

    /** The value the page's Columns table holds for {@code column} (its data-value). */
    private static String shown(Cdp cdp, String column) {
        return cdp.eval("document.querySelector(\"table#agent-columns tr[data-column='" + column + "']\").dataset.value");
    }

    private static void type(Cdp cdp, String selector, String value) {
        cdp.eval("(() => { const e = document.querySelector('" + selector + "'); e.value = '" + value + "';"
                + " e.dispatchEvent(new Event('input', {bubbles: true}));"
                + " e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()");
    }

    private static String readUrl(Process p) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        long end = System.nanoTime() + 60_000_000_000L;
        String line;
        while (System.nanoTime() < end && (line = r.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = URL.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (r.readLine() != null) {
                            // keep the pipe flowing
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                }, "serve-debug-output");
                drain.setDaemon(true);
                drain.start();
                assertTrue(seen.toString().contains("model guards: 400 agents"), "the header names the model:\n" + seen);
                return m.group(1);
            }
        }
        throw new AssertionError("serve --debug printed no address:\n" + seen);
    }

    private JsonNode api(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private JsonNode post(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static void screenshot(Cdp cdp, String name) {
        String dir = System.getenv("CROWDTREE_SCREENSHOTS");
        if (dir != null) {
            try {
                cdp.screenshot(Path.of(dir).resolve(name));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
