package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve --debug} from the command line (its own JVM, as a user starts it): the debugger's
 * page on the crowd comes up with every view: the tree with counts, pause and step, a transition
 * breakpoint, the finder and an agent's panel, and time travel (issue 21 "Done when").
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("browser") // drives headless Chromium: -DexcludedGroups=browser leaves it out, .ci/run runs it
class ServeDebugBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Pattern URL = Pattern.compile("debugging on (http://\\S+) ");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String base;

    @Test
    void theCrowdsDebuggerComesUpWithEveryView() throws Exception {
        Path chromium = Cdp.chromiumOrSkip();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process serve = new ProcessBuilder(java.toString(), "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "dev.crowdtree.demo.Main", "serve", "--debug", "--port", "0", "--agents", "4000", "--seed", "5",
                "--workers", "2", "--snapshot-every", "10").redirectErrorStream(true).start();
        try (Cdp cdp = Cdp.launch(chromium)) {
            base = readUrl(serve);
            cdp.navigate(base);
            cdp.waitFor("document.body.dataset.ready === '1'", WAIT);

            // pause, then the tree's counts are the API's
            cdp.eval("document.querySelector('#pause').click()");
            cdp.waitFor("document.querySelector('#run-state').textContent === 'paused'", WAIT);
            JsonNode status = api("api/status");
            cdp.waitFor("document.querySelector('#tick').textContent === '" + status.get("tick").asText() + "'", WAIT);
            assertEquals(4000, status.get("running").asInt(), status.toString());
            assertEquals("4000", cdp.eval("document.querySelector('g.state[data-path=\"Root\"]').dataset.count"));
            JsonNode tree = api("api/tree");
            int busiest = 1;
            for (int s = 1; s < tree.get("states").size(); s++) {
                if (status.get("occupancy").get(s).asInt() > status.get("occupancy").get(busiest).asInt()) {
                    busiest = s;
                }
            }
            String busiestPath = tree.get("states").get(busiest).get("path").asText();
            assertEquals(status.get("occupancyBelow").get(busiest).asText(),
                    cdp.eval("document.querySelector('g.state[data-path=\"" + busiestPath + "\"]').dataset.count"));

            // step one tick
            long tick = status.get("tick").asLong();
            cdp.eval("document.querySelector('#step').click()");
            cdp.waitFor("document.querySelector('#tick').textContent === '" + (tick + 1) + "'", WAIT);

            // the finder lists the busiest state's agents; one of them opens in the panel
            cdp.eval("(() => { const e = document.querySelector('#find-state'); e.value = " + JSON.writeValueAsString(busiestPath)
                    + "; document.querySelector('#find-go').click(); return 1; })()");
            status = api("api/status");
            cdp.waitFor("document.querySelector('#find-total').textContent === '"
                    + status.get("occupancyBelow").get(busiest).asText() + "'", WAIT);
            cdp.eval("document.querySelector('#find-results li').click()");
            cdp.waitFor("document.querySelector('#agent-path').textContent.startsWith("
                    + JSON.writeValueAsString(busiestPath) + ")", WAIT);

            // a breakpoint on the transition that fires most, then continue: it pauses there
            int best = 0;
            for (int tr = 0; tr < tree.get("transitions").size(); tr++) {
                if (status.get("rate").get(tr).asDouble() > status.get("rate").get(best).asDouble()) {
                    best = tr;
                }
            }
            final int chosen = best;
            cdp.eval("(() => { const k = document.querySelector('#bp-kind'); k.value = 'transition';"
                    + " k.dispatchEvent(new Event('change')); document.querySelector('#bp-transition').value = '" + chosen
                    + "'; document.querySelector('#bp-add').click(); return 1; })()");
            cdp.waitFor("document.querySelectorAll('#bp-list li').length === 1", WAIT);
            long before = api("api/status").get("tick").asLong();
            cdp.eval("document.querySelector('#continue').click()");
            cdp.waitFor("document.querySelector('#run-state').textContent === 'paused'"
                    + " && +document.querySelector('#tick').textContent > " + before, WAIT);
            status = api("api/status");
            assertTrue(status.get("reason").asText().contains("fired"), status.get("reason").asText());
            assertTrue(status.get("fired").get(chosen).asLong() > 0, status.toString());

            // time travel: three ticks back
            long now = status.get("tick").asLong();
            long back = Math.max(status.get("historyFrom").asLong(), now - 3);
            cdp.eval("(() => { document.querySelector('#seek-tick').value = '" + back + "';"
                    + " document.querySelector('#seek').click(); return 1; })()");
            cdp.waitFor("document.querySelector('#tick').textContent === '" + back + "'", WAIT);
            assertEquals(back, api("api/status").get("tick").asLong());
            screenshot(cdp, "debugger-crowd.png");
        } finally {
            serve.destroy();
            if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
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
