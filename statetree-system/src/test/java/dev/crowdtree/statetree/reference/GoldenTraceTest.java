package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden traces: every case under {@code src/test/resources/golden/<case>/} (and every example under
 * the repository's {@code examples/<case>/}) has a tree asset
 * ({@code tree.json}), a scenario ({@code scenario.json}), notes on how the expectation was derived
 * by hand from the seed code and docs/SEMANTICS.md ({@code notes.md}), and either the expected trace
 * ({@code expected.trace}) or, for a tree that must not compile, {@code expected.error} (fragments the
 * compile error must contain, one per line).
 *
 * <p>Trees are compiled with the built-in node types and the test ones of {@link TestNodes}. Every
 * trace case runs on every runtime in {@link #RUNTIMES}. On a mismatch the failure shows a
 * unified diff. {@code -Dgolden.update=true} rewrites {@code expected.trace} from the REFERENCE
 * runtime (review the diff before committing: the expectations are hand-derived).
 */
class GoldenTraceTest {
    private static final String UPDATE_FLAG = "golden.update";
    private static final Path GOLDEN = moduleDir().resolve("src/test/resources/golden");

    /** A runtime under test, by name. */
    record NamedRuntime(String name, RuntimeFactory factory) {
    }

    /** Every runtime must reproduce every golden trace. */
    static final List<NamedRuntime> RUNTIMES = List.of(
            new NamedRuntime("reference", ScenarioRunner.REFERENCE),
            new NamedRuntime("reference-scheduled", ScenarioRunner.REFERENCE_SCHEDULED),
            // The batched runtime, with the scenario's worker count and with 3 workers.
            new NamedRuntime("batched", StateTreeSystem::create),
            new NamedRuntime("batched-3-workers", (tree, agents, seed, workers) ->
                    StateTreeSystem.create(tree, agents, seed, 3)));

    private static Path moduleDir() {
        String basedir = System.getProperty("basedir");
        return basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
    }

    /** The repository's examples (examples/, which docs/guides/bt-and-fsm.md maps), run like golden cases. */
    private static final Path EXAMPLES = moduleDir().resolve("../examples").normalize();

    static List<Path> cases() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(GOLDEN, EXAMPLES)) {
            try (Stream<Path> s = Files.list(dir)) {
                // a directory with a pom.xml is a Maven project (examples/embedding), not a case
                out.addAll(s.filter(d -> Files.isDirectory(d) && !Files.exists(d.resolve("pom.xml"))).sorted().toList());
            }
        }
        return out;
    }

    @Test
    void everyCaseIsComplete() throws IOException {
        List<Path> cases = cases();
        assertFalse(cases.isEmpty(), "no golden cases under " + GOLDEN);
        for (Path c : cases) {
            for (String f : List.of("tree.json", "scenario.json", "notes.md")) {
                assertTrue(Files.isRegularFile(c.resolve(f)), c.getFileName() + " lacks " + f);
            }
            assertTrue(Files.isRegularFile(c.resolve("expected.trace")) ^ Files.isRegularFile(c.resolve("expected.error")),
                    c.getFileName() + " needs exactly one of expected.trace, expected.error");
        }
    }

    @TestFactory
    List<DynamicTest> goldenTraces() throws IOException {
        boolean update = Boolean.getBoolean(UPDATE_FLAG);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path c : cases()) {
            String name = c.getFileName().toString();
            if (Files.isRegularFile(c.resolve("expected.error"))) {
                tests.add(DynamicTest.dynamicTest(name + " [compile error]", () -> checkCompileError(c)));
                continue;
            }
            for (NamedRuntime r : RUNTIMES) {
                if (update && r.factory() != ScenarioRunner.REFERENCE) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(name + " [" + r.name() + "]", () -> checkTrace(c, r, update)));
            }
        }
        return tests;
    }

    private static void checkCompileError(Path c) throws IOException {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(c.resolve("tree.json"), TestNodes.compiler()));
        for (String fragment : Files.readAllLines(c.resolve("expected.error"), StandardCharsets.UTF_8)) {
            if (!fragment.isBlank()) {
                assertTrue(e.getMessage().contains(fragment.strip()),
                        "compile error lacks '" + fragment.strip() + "':\n" + e.getMessage());
            }
        }
    }

    private static void checkTrace(Path c, NamedRuntime runtime, boolean update) throws Exception {
        Path expectedFile = c.resolve("expected.trace");
        List<String> actual = ScenarioRunner.run(Scenario.load(c.resolve("scenario.json")), TestNodes.compiler(),
                runtime.factory());
        if (update) {
            Files.writeString(expectedFile, String.join("\n", actual) + "\n", StandardCharsets.UTF_8);
            return;
        }
        List<String> expected = withoutWhy(Files.readAllLines(expectedFile, StandardCharsets.UTF_8));
        actual = withoutWhy(actual);
        if (!expected.equals(actual)) {
            fail("golden trace mismatch: case " + c.getFileName() + ", runtime " + runtime.name() + "\n"
                    + unifiedDiff("expected.trace", "actual", expected, actual)
                    + "\nIf the new trace is right, regenerate with -D" + UPDATE_FLAG + "=true "
                    + "(rewrites expected.trace from the reference runtime) and review the diff.");
        }
    }

    /**
     * {@code lines} without their {@code why} lines (docs/SEMANTICS.md section 10: golden comparisons
     * ignore them) and trailing empty lines.
     */
    static List<String> withoutWhy(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            if (!ExplainTest.WHY.matcher(line).matches()) {
                out.add(line);
            }
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /** A unified diff (LCS based, 3 lines of context); the traces are small. */
    static String unifiedDiff(String fromName, String toName, List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // edit script: ' ' keep, '-' delete from a, '+' insert from b
        StringBuilder ops = new StringBuilder();
        List<int[]> idx = new ArrayList<>(); // {index in a, index in b} per op
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(i).equals(b.get(j))) {
                ops.append(' ');
                idx.add(new int[] {i++, j++});
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.append('-');
                idx.add(new int[] {i++, j});
            } else {
                ops.append('+');
                idx.add(new int[] {i, j++});
            }
        }
        StringBuilder sb = new StringBuilder("--- " + fromName + "\n+++ " + toName + "\n");
        final int context = 3;
        int k = 0;
        while (k < ops.length()) {
            if (ops.charAt(k) == ' ') {
                k++;
                continue;
            }
            int start = Math.max(0, k - context);
            int end = k;
            // extend the hunk while changes are within 2 * context of each other
            int lastChange = k;
            while (end < ops.length() && end - lastChange <= 2 * context) {
                if (ops.charAt(end) != ' ') {
                    lastChange = end;
                }
                end++;
            }
            end = Math.min(ops.length(), lastChange + context + 1);
            int aStart = idx.get(start)[0];
            int bStart = idx.get(start)[1];
            int aLen = 0;
            int bLen = 0;
            StringBuilder body = new StringBuilder();
            for (int h = start; h < end; h++) {
                char op = ops.charAt(h);
                int[] p = idx.get(h);
                String line = op == '+' ? b.get(p[1]) : a.get(p[0]);
                body.append(op).append(line).append('\n');
                if (op != '+') {
                    aLen++;
                }
                if (op != '-') {
                    bLen++;
                }
            }
            sb.append("@@ -").append(aStart + 1).append(',').append(aLen)
                    .append(" +").append(bStart + 1).append(',').append(bLen).append(" @@\n").append(body);
            k = end;
        }
        return sb.toString();
    }
}
