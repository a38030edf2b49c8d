package dev.crowdtree.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@code compare} for real (forked JVMs) on a tiny population, every variant (sleepy with its
 * host events, aborts with its priorities), and checks its three outputs.
 */
class CompareHarnessSmokeTest {
    @Test
    void compareWritesWellFormedMarkdownJsonAndSvg(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            status = CompareHarness.main(new String[] {"--impls", "ours-1w,reference-scheduled,floor", "--agents", "2000",
                "--variants", "hierarchical,flat,sleepy,aborts", "--warmup", "50", "--ticks", "10", "--out", dir.toString()}, out);
        }
        String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(log.contains("[12/12]"), log);

        // JSON: one result per run, the like-for-like check passed, the aims evaluated
        JsonNode doc = new ObjectMapper().readTree(dir.resolve("compare.json").toFile());
        JsonNode results = doc.get("results");
        assertEquals(12, results.size());
        Set<String> variants = new HashSet<>();
        for (JsonNode r : results) {
            variants.add(r.get("variant").asText());
            // the awake share: our runtimes tell (every running agent while nothing sleeps, fewer once agents sleep), the floor cannot
            double awake = r.get("awakeShare").asDouble();
            if (r.get("impl").asText().equals("floor")) {
                assertEquals(-1.0, awake, r.toString());
            } else {
                assertTrue(awake > 0 && awake <= 1, r.toString());
            }
            assertEquals(2000, r.get("agents").asInt());
            int measured = r.get("measuredTicks").asInt();
            assertTrue(measured >= 10 && measured <= 200, "fast runs measure 10 ticks or more, for up to 2 s: " + measured);
            assertTrue(r.get("nsPerAgentTick").asDouble() > 0);
            assertTrue(r.get("p50Ms").asDouble() <= r.get("maxMs").asDouble());
            assertTrue(r.get("heapBytesPerAgent").asDouble() > 0, r.toString());
        }
        assertEquals(Set.of("hierarchical", "flat", "sleepy", "aborts"), variants);
        assertEquals(4, doc.get("equivalence").size());
        for (JsonNode e : doc.get("equivalence")) {
            assertTrue(e.get("identical").asBoolean(), e.toString());
            assertEquals(50, e.get("tick").asInt());
        }
        Set<String> aimVariants = new HashSet<>();
        for (JsonNode a : doc.get("aims")) {
            aimVariants.add(a.get("variant").asText());
        }
        assertEquals(Set.of("hierarchical", "flat", "sleepy", "aborts"), aimVariants, doc.get("aims").toString());
        assertEquals(0, doc.get("failures").size());

        // Markdown: the results table has a header, a separator and one row per run
        List<String> md = Files.readAllLines(dir.resolve("compare.md"));
        int header = -1;
        for (int i = 0; i < md.size(); i++) {
            if (md.get(i).startsWith("| variant | implementation | agents | ns/agent-tick")) {
                header = i;
                break;
            }
        }
        assertTrue(header >= 0, String.join("\n", md));
        int columns = md.get(header).split("\\|", -1).length;
        assertTrue(md.get(header + 1).startsWith("|---"));
        assertTrue(md.get(header).contains("| awake |"), md.get(header));
        for (int i = header + 2; i < header + 14; i++) {
            assertEquals(columns, md.get(i).split("\\|", -1).length, md.get(i));
            assertTrue(md.get(i).contains("2,000"), md.get(i));
            assertTrue(md.get(i).contains("floor") == md.get(i).contains("| - |"), "awake '-' exactly for the floor: " + md.get(i));
        }
        assertFalse(md.get(header + 14).startsWith("| "), "12 rows expected");

        // SVG: well-formed XML, one line per implementation and variant, a marker per result, labelled axes
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("compare.svg").toFile());
        assertEquals("svg", svg.getDocumentElement().getTagName());
        assertEquals(12, svg.getElementsByTagName("path").getLength());
        assertEquals(12, svg.getElementsByTagName("circle").getLength());
        String text = Files.readString(dir.resolve("compare.svg"));
        assertTrue(text.contains("ns per agent-tick (log scale)") && text.contains("agents (log scale)"));
        assertTrue(text.contains("floor (hand-written switch)"));
        assertTrue(text.contains("Sleepy (SleepyTrees.sleepy()"), "a panel per variant");
        assertTrue(text.contains("Aborts (AbortTrees.aborts()"), "a panel per variant");
    }

    @Test
    void optionsAreParsedAndCheckedUp() {
        CompareHarness.Options o = CompareHarness.parse(new String[] {"--agents", "10k,1M", "--impls", "gdx-ai", "--variants=flat", "--budget", "3"});
        assertEquals(List.of(10_000, 1_000_000), o.agents);
        assertEquals(List.of(Impl.GDX_AI), o.impls);
        assertEquals(List.of(Variant.FLAT), o.variants);
        assertEquals(3.0, o.budget);
        CompareHarness.Options d = CompareHarness.parse(new String[0]);
        assertEquals(List.of(Variant.HIERARCHICAL, Variant.FLAT, Variant.SLEEPY, Variant.ABORTS), d.variants,
                "the default run covers every variant");
        assertTrue(d.impls.contains(Impl.REFERENCE_SCHEDULED));
        CompareHarness.Options s = CompareHarness.parse(new String[] {"--variants", "sleepy", "--impls", "reference-scheduled,floor"});
        assertEquals(List.of(Variant.SLEEPY), s.variants);
        assertEquals(List.of(Impl.REFERENCE_SCHEDULED, Impl.FLOOR), s.impls);
        assertThrows(IllegalArgumentException.class, () -> CompareHarness.parse(new String[] {"--variants", "sleeping"}));
        assertEquals(null, CompareHarness.parse(new String[] {"--help"}));
        assertThrows(IllegalArgumentException.class, () -> CompareHarness.parse(new String[] {"--impls", "jbt"}));
        assertThrows(IllegalArgumentException.class, () -> CompareHarness.parse(new String[] {"--ticks"}));
        CompareHarness.Options j = CompareHarness.parse(new String[] {"--jvm-opt=-XX:+UseTransparentHugePages", "--jvm-opt", "-Dx=1"});
        assertEquals(List.of("-XX:+UseTransparentHugePages", "-Dx=1"), j.jvmOpts, "in the order given, '=' kept in the value");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> CompareHarness.parse(new String[] {"--jvm-opt", "XX:+UseTransparentHugePages"}));
        assertTrue(bad.getMessage().contains("starts with '-'"), bad.getMessage());
    }
}
