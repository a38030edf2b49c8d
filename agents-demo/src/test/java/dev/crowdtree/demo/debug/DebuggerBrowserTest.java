package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.testing.Chromium;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.node.NodeRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The live debugger's page end to end in headless Chromium (issue 21, item 3): {@code debug} on
 * examples/debug-guards, opened in-process and paused after the start, driven through the page's own
 * controls (DOM clicks and inputs; the JSON API is only read, for the values the page must show).
 * What the page shows is checked against the same scenario run independently on the reference
 * interpreter ({@link ScenarioTimeline}). The four behaviours, in order on one run:
 * <ol>
 *   <li>the tree appears with counts;</li>
 *   <li>a breakpoint on a state pauses the run at the tick the trace says;</li>
 *   <li>the finder lists exactly the agents the runtime reports;</li>
 *   <li>scrubbing back shows the state the trace had at that tick;</li>
 *   <li>on a tree whose node types use host columns (the embedding example's guards,
 *       {@link GuardColumns}, in a second debugger), a column breakpoint set in the form pauses,
 *       the agent panel's Columns table shows the agent's columns, and the finder filters by one.</li>
 * </ol>
 * With {@code CROWDTREE_SCREENSHOTS=<dir>} each step saves a screenshot there (for docs/images).
 * Chromium missing: a failure under {@code CI=true}, a skip otherwise ({@link Cdp#chromiumOrSkip}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("browser") // drives headless Chromium: -DexcludedGroups=browser leaves it out, .ci/run runs it
class DebuggerBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String REST = "Root/Rest";
    private static final String INVESTIGATE = "Root/Investigate";
    private static final String PATROL = "Root/Patrol";
    private static final Pattern TRACE_TICK = Pattern.compile("(?:a\\d+ )?(\\d+) .*");

    private ScenarioTimeline expected;
    private Debugger debugger;
    private Cdp cdp;
    private String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path screenshots = System.getenv("CROWDTREE_SCREENSHOTS") == null ? null
            : Path.of(System.getenv("CROWDTREE_SCREENSHOTS"));

    @RegisterExtension
    final TestWatcher chromiumLogOnFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            printLog(context.getDisplayName());
        }
    };

    @BeforeAll
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void open() throws Exception {
        Path chromium = Cdp.chromiumOrSkip();
        Path scenario = repoRoot().resolve("examples/debug-guards/scenario.json");
        NodeRegistry nodes = StateTreeCompiler.withBuiltins().registry();
        expected = ScenarioTimeline.run(scenario, nodes);
        debugger = Debugger.openScenario(scenario, nodes, Debugger.Options.defaults().port(0).paused(true));
        base = debugger.url();
        assertTrue(base.matches("http://127\\.0\\.0\\.1:\\d+/"), base);
        cdp = Cdp.launch(chromium);
        try {
            cdp.navigate(base);
            cdp.waitFor("document.body.dataset.ready === '1'", WAIT);
        } catch (Throwable t) {
            printLog("opening the page");
            throw t;
        }
    }

    @AfterAll
    void close() {
        if (cdp != null) {
            cdp.close();
        }
        if (debugger != null) {
            debugger.close();
        }
    }

    // ---- (a) the tree appears with counts -------------------------------------------------------

    @Test
    @Order(1)
    void theTreeAppearsWithCounts() throws Exception {
        waitText("#run-state", "paused");
        int tick = shownTick();
        assertEquals(0, tick, "paused at tick 0, after the start");
        JsonNode status = api("api/status");
        assertEquals(tick, status.get("tick").asInt(), "the page shows the tick the API reports");
        JsonNode tree = api("api/tree");

        // every state drawn, its count the API's occupancy below it, and the independent run's
        Map<String, Integer> drawn = new HashMap<>();
        for (JsonNode g : cdp.evalJson("[...document.querySelectorAll('svg#tree g.state')]"
                + ".map(g => ({path: g.dataset.path, count: g.dataset.count}))")) {
            drawn.put(g.get("path").asText(), Integer.parseInt(g.get("count").asText()));
        }
        JsonNode states = tree.get("states");
        assertEquals(expected.tree.stateCount, states.size(), "states in /api/tree");
        assertEquals(states.size(), drawn.size(), "a g.state per state: " + drawn);
        for (int i = 0; i < states.size(); i++) {
            String path = states.get(i).get("path").asText();
            assertTrue(drawn.containsKey(path), "no g.state[data-path=" + path + "] in " + drawn.keySet());
            assertEquals(status.get("occupancyBelow").get(i).asInt(), drawn.get(path), "data-count of " + path);
            assertEquals(expected.occupancyBelow(tick, path), drawn.get(path), "agents below " + path
                    + " at tick " + tick + " in the reference run");
        }
        int running = status.get("running").asInt();
        assertEquals(expected.agents(), running, "every guard runs");
        assertEquals(running, drawn.get("Root"), "Root's count is the running agents");

        // every transition drawn, with the API's fired count
        JsonNode transitions = tree.get("transitions");
        assertTrue(transitions.size() > 0);
        Map<String, JsonNode> edges = new HashMap<>();
        for (JsonNode g : cdp.evalJson("[...document.querySelectorAll('svg#tree g.transition')]"
                + ".map(g => ({id: g.dataset.id, fired: g.dataset.fired, rate: g.dataset.rate}))")) {
            edges.put(g.get("id").asText(), g);
        }
        for (int i = 0; i < transitions.size(); i++) {
            String id = transitions.get(i).get("id").asText();
            JsonNode g = edges.get(id);
            assertNotNull(g, "no g.transition[data-id=" + id + "] in " + edges.keySet());
            assertEquals(status.get("fired").get(i).asInt(), Integer.parseInt(g.get("fired").asText()),
                    "data-fired of transition " + id);
        }
        screenshot("debugger-tree.png");
    }

    // ---- (b) a breakpoint on a state pauses at the tick the trace says ---------------------------

    @Test
    @Order(2)
    void aBreakpointOnAStatePausesAtTheTickTheTraceSays() throws Exception {
        waitText("#run-state", "paused");
        // step one tick first
        int from = shownTick();
        click("#step");
        waitText("#tick", Integer.toString(from + 1));
        assertEquals("paused", text("#run-state"), "a step pauses again");
        from++;

        int expectedTick = expected.firstEnter(REST, from, -1).orElseThrow(
                () -> new AssertionError("no agent enters " + REST + " after tick " + shownTick()));
        int listed = count("ul#bp-list > li[data-id]");
        select("#bp-kind", "enter");
        type("#bp-state", REST);
        type("#bp-agent", "");
        click("#bp-add");
        cdp.waitFor("document.querySelectorAll('ul#bp-list > li[data-id]').length === " + (listed + 1), WAIT);
        assertTrue(cdp.eval("[...document.querySelectorAll('ul#bp-list > li[data-id]')].map(li => li.textContent)"
                + ".join('\\n')").contains(REST), "the breakpoint is listed");
        JsonNode bps = api("api/breakpoints");
        assertTrue(bps.toString().contains(REST), "the API holds the breakpoint: " + bps);

        click("#continue");
        cdp.waitFor("document.querySelector('#run-state').textContent.trim() === 'paused'"
                + " && document.querySelector('#tick').textContent.trim() !== '" + from + "'", WAIT);
        assertEquals(expectedTick, shownTick(), "the first tick after " + from + " at which an agent enters " + REST
                + " in the reference trace");
        assertTrue(text("#reason").contains(REST), "the reason names the state: " + text("#reason"));
        assertEquals(expectedTick, api("api/status").get("tick").asInt());
        screenshot("debugger-breakpoint.png");

        // removed through its button; then a transition breakpoint, chosen in its select, pauses further on
        click("ul#bp-list > li[data-id] button");
        cdp.waitFor("document.querySelectorAll('ul#bp-list > li[data-id]').length === " + listed, WAIT);
        from = expectedTick;
        int transition = -1;
        for (JsonNode t : api("api/tree").get("transitions")) {
            if (t.get("statePath").asText().equals(INVESTIGATE) && t.get("target").asText().equals(PATROL)) {
                transition = t.get("id").asInt();
            }
        }
        assertTrue(transition >= 0, "a transition " + INVESTIGATE + " -> " + PATROL + " in /api/tree");
        String fires = "transition " + INVESTIGATE + " -> " + PATROL;
        expectedTick = expected.firstLine(from, -1, fires::equals).orElseThrow(
                () -> new AssertionError("no '" + fires + "' after tick " + shownTick()));
        select("#bp-kind", "transition");
        select("#bp-transition", Integer.toString(transition));
        type("#bp-agent", "");
        click("#bp-add");
        cdp.waitFor("document.querySelectorAll('ul#bp-list > li[data-id]').length === " + (listed + 1), WAIT);
        click("#continue");
        cdp.waitFor("document.querySelector('#run-state').textContent.trim() === 'paused'"
                + " && document.querySelector('#tick').textContent.trim() !== '" + from + "'", WAIT);
        assertEquals(expectedTick, shownTick(), "the first tick after " + from + " with '" + fires
                + "' in the reference trace");
        assertTrue(text("#reason").contains(INVESTIGATE), "the reason names the transition: " + text("#reason"));
        click("ul#bp-list > li[data-id] button");
        cdp.waitFor("document.querySelectorAll('ul#bp-list > li[data-id]').length === " + listed, WAIT);
    }

    // ---- (c) the finder lists exactly the agents the runtime reports ----------------------------

    @Test
    @Order(3)
    void theFinderListsExactlyTheAgentsTheRuntimeReports() throws Exception {
        waitText("#run-state", "paused");
        int t = shownTick();
        List<Integer> inInvestigate = find(INVESTIGATE, "", "", "");
        assertEquals(expected.agentsAt(a -> ScenarioTimeline.passesThrough(expected.path(t, a), INVESTIGATE)),
                inInvestigate, "agents in " + INVESTIGATE + " at tick " + t);

        double min = 20.25;
        double max = 45.25;
        IntPredicate inRange = a -> {
            double e = expected.param(t, a, "energy");
            return e >= min && e <= max;
        };
        List<Integer> energetic = find("", "energy", Double.toString(min), Double.toString(max));
        List<Integer> want = expected.agentsAt(inRange);
        assertFalse(want.isEmpty(), "the range finds someone");
        assertEquals(want, energetic, "agents with energy in [" + min + ", " + max + "] at tick " + t);

        List<Integer> both = find(PATROL, "energy", Double.toString(min), Double.toString(max));
        assertEquals(expected.agentsAt(a -> inRange.test(a)
                        && ScenarioTimeline.passesThrough(expected.path(t, a), PATROL)), both,
                "agents in " + PATROL + " with energy in [" + min + ", " + max + "] at tick " + t);

        // picking one opens its panel
        int agent = energetic.get(energetic.size() / 2);
        find("", "energy", Double.toString(min), Double.toString(max));
        click("ul#find-results > li[data-agent='" + agent + "']");
        waitText("#agent-path", expected.path(t, agent));
        cdp.waitFor("document.querySelector(\"table#agent-params tr[data-param='energy']\") !== null", WAIT);
        double shown = Double.parseDouble(cdp.eval(
                "document.querySelector(\"table#agent-params tr[data-param='energy']\").dataset.value"));
        assertEquals(expected.param(t, agent, "energy"), shown, 1e-4, "agent " + agent + "'s energy");
        screenshot("debugger-finder.png");
    }

    // ---- (d) scrubbing back shows the state the trace had at that tick --------------------------

    @Test
    @Order(4)
    void scrubbingBackShowsTheStateTheTraceHadAtThatTick() throws Exception {
        waitText("#run-state", "paused");
        int t = shownTick();
        JsonNode status = api("api/status");
        int historyFrom = status.get("historyFrom").asInt();
        int head = status.get("head").asInt();
        assertTrue(head >= t && historyFrom <= t, "history " + historyFrom + ".." + head + " around " + t);
        assertEquals(Integer.toString(historyFrom), cdp.eval("document.querySelector('input#scrub').min"));
        assertEquals(Integer.toString(head), cdp.eval("document.querySelector('input#scrub').max"));

        // the scrubber once
        int scrubbed = Math.max(historyFrom, t - 2);
        cdp.eval("(() => { const s = document.querySelector('input#scrub'); s.value = '" + scrubbed + "';"
                + " s.dispatchEvent(new Event('input', {bubbles: true}));"
                + " s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()");
        waitText("#tick", Integer.toString(scrubbed));

        // then the tick typed in
        int t0 = Math.max(historyFrom, t - 7);
        type("#seek-tick", Integer.toString(t0));
        click("#seek");
        waitText("#tick", Integer.toString(t0));
        assertFalse(text("#history").isEmpty(), "#history says what is kept");

        // an agent whose path then differs from its path now and that has trace lines in the history
        // before t0 (the history starts after tick 0), if there is one
        int agent = 0;
        for (int a = 0; a < expected.agents(); a++) {
            OptionalInt line = expected.firstLine(historyFrom, a, rest -> true);
            if (!expected.path(t0, a).equals(expected.path(t, a)) && line.isPresent() && line.getAsInt() <= t0) {
                agent = a;
                break;
            }
        }
        type("#agent-id", Integer.toString(agent));
        click("#agent-open");
        waitText("#agent-path", expected.path(t0, agent));
        // the trace over the history is filled off the run's thread; the page shows it when done
        cdp.waitFor("document.querySelector('#agent-backfill').dataset.state === 'done'", WAIT);
        List<String> trace = texts("ol#agent-trace > li");
        assertFalse(trace.isEmpty(), "agent " + agent + "'s trace");
        for (String line : trace) {
            Matcher m = TRACE_TICK.matcher(line);
            assertTrue(m.matches(), "a trace line that begins with its tick: " + line);
            assertTrue(Integer.parseInt(m.group(1)) <= t0, "a line after tick " + t0 + " in the trace shown at "
                    + t0 + ": " + line);
        }
        screenshot("debugger-timetravel.png");
    }

    // ---- (e) host columns: the breakpoint form, the agent's Columns table, the finder ------------

    @Test
    @Order(5)
    void anAgentsHostColumnsAreShownAndUsedByTheFinderAndABreakpoint() throws Exception {
        Path dir = Files.createTempDirectory("crowdtree-columns-");
        try (GuardColumns guards = GuardColumns.create(dir);
             Debugger columns = Debugger.openScenario(guards.scenario, guards.registry(),
                     Debugger.Options.defaults().port(0).paused(true))) {
            ScenarioTimeline timeline = ScenarioTimeline.run(guards.scenario, guards.registry());
            String url = columns.url();
            cdp.navigate(url);
            cdp.waitFor("document.body.dataset.ready === '1'", WAIT);
            waitText("#run-state", "paused");
            assertEquals(0, shownTick());
            List<String> names = new ArrayList<>();
            for (JsonNode c : get(url, "api/tree").get("columns")) {
                names.add(c.asText());
            }
            assertTrue(names.contains(GuardColumns.DISTANCE), names.toString());
            for (String select : List.of("#find-column", "#bp-column")) {
                List<String> offered = new ArrayList<>();
                for (JsonNode o : cdp.evalJson("[...document.querySelectorAll('" + select + " option')]"
                        + ".map(o => o.value).filter(v => v !== '')")) {
                    offered.add(o.asText());
                }
                assertEquals(names, offered, select + " offers the columns");
            }

            // a column breakpoint from the form: agent 0's distance goes 1000 -> 12.5 at tick 2
            select("#bp-kind", "column");
            select("#bp-column", GuardColumns.DISTANCE);
            type("#bp-crosses", "15");
            type("#bp-agent", "");
            click("#bp-add");
            cdp.waitFor("document.querySelectorAll('ul#bp-list > li[data-id]').length === 1", WAIT);
            assertTrue(text("ul#bp-list > li[data-id]").contains("column distance of any agent crosses 15"),
                    text("ul#bp-list > li[data-id]"));
            click("#continue");
            cdp.waitFor("document.querySelector('#run-state').textContent.trim() === 'paused'"
                    + " && document.querySelector('#tick').textContent.trim() !== '0'", WAIT);
            assertEquals(2, shownTick(), "agent 0's distance crosses 15 at tick 2");
            assertEquals("breakpoint 1: column distance crossed 15 (downward) at tick 2: agent 0 (1 agent)",
                    text("#reason"));

            // the agent panel's Columns table
            type("#agent-id", "0");
            click("#agent-open");
            waitText("#agent-path", timeline.path(2, 0));
            cdp.waitFor("document.querySelectorAll('table#agent-columns tr[data-column]').length === " + names.size(), WAIT);
            List<String> rows = texts("table#agent-columns tr[data-column] > td:first-child");
            assertEquals(names, rows, "a row per column, named, in order");
            assertEquals("12.5", text("table#agent-columns tr[data-column='distance'] > td:last-child"),
                    "agent 0's distance, set to 12.5 at tick 2");
            for (String c : names) {
                String shown = cdp.eval("document.querySelector(\"table#agent-columns tr[data-column='" + c
                        + "']\").dataset.value");
                assertEquals((float) timeline.column(2, 0, c), Float.parseFloat(shown), "agent 0's " + c + " at tick 2");
            }
            screenshot("debugger-columns.png");

            // the finder's column filter
            select("#find-column", GuardColumns.DISTANCE);
            type("#find-cmin", "10");
            type("#find-cmax", "13");
            assertEquals(List.of(0), find("", "", "", ""), "the guards with distance in [10, 13] at tick 2");
            select("#find-column", "");
        } finally {
            Chromium.deleteTree(dir);
        }
    }

    // ---- the page's controls --------------------------------------------------------------------

    /** Runs the finder through its form; returns the agents listed, checked against {@code #find-total}. */
    private List<Integer> find(String state, String param, String min, String max) throws Exception {
        type("#find-state", state);
        select("#find-param", param);
        type("#find-min", min);
        type("#find-max", max);
        // forget the last answer so that the wait below sees this one
        cdp.eval("(() => { document.querySelector('#find-total').textContent = '';"
                + " document.querySelector('ul#find-results').replaceChildren(); return true; })()");
        click("#find-go");
        cdp.waitFor("document.querySelector('#find-total').textContent.trim() !== ''", WAIT);
        Matcher m = Pattern.compile("\\d+").matcher(text("#find-total"));
        assertTrue(m.find(), "#find-total: " + text("#find-total"));
        int total = Integer.parseInt(m.group());
        List<Integer> listed = new ArrayList<>();
        for (JsonNode id : cdp.evalJson("[...document.querySelectorAll('ul#find-results > li[data-agent]')]"
                + ".map(li => li.dataset.agent)")) {
            listed.add(Integer.parseInt(id.asText()));
        }
        assertEquals(total, listed.size(), "#find-total and the agents listed (a limit smaller than the matches?)");
        return listed;
    }

    private int shownTick() {
        return Integer.parseInt(text("#tick"));
    }

    private String text(String selector) {
        return cdp.eval("(() => { const e = document.querySelector(" + js(selector) + ");"
                + " if (!e) throw new Error('no element ' + " + js(selector) + "); return e.textContent.trim(); })()");
    }

    private List<String> texts(String selector) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : cdp.evalJson("[...document.querySelectorAll(" + js(selector) + ")].map(e => e.textContent.trim())")) {
            out.add(s.asText());
        }
        return out;
    }

    private int count(String selector) {
        return Integer.parseInt(cdp.eval("document.querySelectorAll(" + js(selector) + ").length"));
    }

    /** Waits until {@code selector}'s text is {@code want}; on time-out, fails showing what it was. */
    private void waitText(String selector, String want) throws InterruptedException {
        try {
            cdp.waitFor("(() => { const e = document.querySelector(" + js(selector) + ");"
                    + " return e !== null && e.textContent.trim() === " + js(want) + "; })()", WAIT);
        } catch (AssertionError e) {
            assertEquals(want, text(selector), selector + " after " + WAIT.toSeconds() + " s");
            throw e;
        }
    }

    private void click(String selector) {
        cdp.eval("(() => { const e = document.querySelector(" + js(selector) + ");"
                + " if (!e) throw new Error('no element ' + " + js(selector) + ");"
                + " if (e.disabled) throw new Error(" + js(selector) + " + ' is disabled'); e.click(); return true; })()");
    }

    /** Types {@code value} into an input, as a user would: the value, then input and change events. */
    private void type(String selector, String value) {
        cdp.eval("(() => { const e = document.querySelector(" + js(selector) + ");"
                + " if (!e) throw new Error('no element ' + " + js(selector) + ");"
                + " e.focus(); e.value = " + js(value) + ";"
                + " e.dispatchEvent(new Event('input', {bubbles: true}));"
                + " e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()");
    }

    /** Picks the option whose value is {@code value}. */
    private void select(String selector, String value) {
        cdp.eval("(() => { const e = document.querySelector(" + js(selector) + ");"
                + " if (!e) throw new Error('no element ' + " + js(selector) + ");"
                + " if (![...e.options].some(o => o.value === " + js(value) + "))"
                + "   throw new Error(" + js(selector) + " + ' has no option ' + " + js(value)
                + " + ': ' + [...e.options].map(o => o.value).join(','));"
                + " e.value = " + js(value) + "; e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()");
    }

    private static String js(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- reading the API, screenshots, the log --------------------------------------------------

    private JsonNode api(String path) throws IOException, InterruptedException {
        return get(base, path);
    }

    private JsonNode get(String server, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private void screenshot(String name) throws IOException {
        if (screenshots != null) {
            cdp.screenshot(screenshots.resolve(name));
        }
    }

    private void printLog(String when) {
        if (cdp != null) {
            System.err.println("---- chromium and page log (" + when + ") ----\n" + cdp.logTail() + "\n----");
        }
    }

    private static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("examples/debug-guards"))) {
                return p;
            }
        }
        fail("examples/debug-guards not found above " + Path.of("").toAbsolutePath());
        return null;
    }
}
