package dev.crowdtree.statetree.reference;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.JsonDocs;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.crowdtree.statetree.json.JsonDocs.collect;
import static dev.crowdtree.statetree.json.JsonDocs.corrupt;
import static dev.crowdtree.statetree.json.JsonDocs.deepCopy;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The sibling of {@code json.HostileAssetTest} for scenarios: thousands of mutations of the golden
 * cases' scenarios (value types, deleted and renamed keys, extreme numbers, hostile tree names,
 * control characters, duplicated inputs, truncated and corrupted text), each read, checked against
 * its tree and run (a few hundred ticks at most). Every one must be accepted or refused with a
 * {@link ScenarioException} or {@link StateTreeCompileException} whose message is one printable
 * line; nothing else may be thrown, no trace line may hold a control character, and none may take
 * more than 2 s.
 *
 * <p>The seed is fixed, so a failure reproduces; the failing scenario is printed.
 */
class HostileScenarioTest {
    private static final long SEED = 0x5CE7_A710L;
    private static final int MUTATIONS = 5000;
    /** A mutated scenario may ask for 2 billion ticks: the run is cut after this many. */
    private static final int MAX_TICKS_RUN = 300;
    /** ... and after this many trace lines. */
    private static final int MAX_LINES = 20_000;
    /** ... and not started at all with more agents than this (parsing and checks still run). */
    private static final int MAX_AGENTS_RUN = 2000;
    private static final long MAX_MILLIS = 2000;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static final String[] KEYS = {"tree", "dt", "ticks", "seed", "agents", "workers", "inputs", "tick",
        "agent", "set", "event", "payload", "period", "stop", "start", "despawn", "tag", "volume", "value", "threat", ""};
    private static final String[] STRINGS = {"", " ", "tree.json", "../tree.json", "/etc/passwd", "tree.json\u0000",
        "tr\u001b[2Jee.json", "sub/../tree.json", "..", ".", "notes.md", "expected.trace", "C:\\x.json", "Alarm",
        "Noise", "Hit", "\u0000", "\ud800", "ünïcödé", "a\nb", "\u009b31m", "x".repeat(5000)};
    private static final Object[] NUMBERS = {0, -1, 1, 2, 3, 64, 65, 255, 256, 257, 1e308, -1e308, 0.5, 1e-320,
        Integer.MAX_VALUE, Integer.MAX_VALUE - 1L, Integer.MAX_VALUE + 1L, 1_073_741_824, 10_000_000, 10_000_001,
        100_000, Long.MAX_VALUE, Long.MIN_VALUE, new BigInteger("9223372036854775808"),
        new BigInteger("1" + "0".repeat(400)), 3.5e38, -0.0};

    @TempDir
    Path tmp;

    private int runs;
    private int accepted;
    private int rejected;
    private long slowest;
    private String slowestLabel = "";

    /** A golden case: its directory, scenario document and compiled tree (null if it does not compile). */
    private record Case(Path dir, Object scenario, CompiledStateTree tree) {
    }

    @Test
    void randomMutationsOfTheGoldenScenariosFailCleanly() throws Exception {
        List<Case> cases = new ArrayList<>();
        for (Path dir : GoldenTraceTest.cases()) {
            CompiledStateTree tree;
            try {
                tree = StateTreeJson.compile(dir.resolve("tree.json"), TestNodes.compiler());
            } catch (StateTreeCompileException e) {
                tree = null; // an expected.error case: the scenario is still read
            }
            cases.add(new Case(dir, MAPPER.readValue(Files.readString(dir.resolve("scenario.json")), Object.class), tree));
        }
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < MUTATIONS && failures.size() < 3; i++) {
            Case c = cases.get(rnd.nextInt(cases.size()));
            Object doc = deepCopy(c.scenario());
            StringBuilder ops = new StringBuilder();
            int n = 1 + rnd.nextInt(4);
            for (int k = 0; k < n; k++) {
                doc = mutate(doc, rnd, ops);
            }
            String text = MAPPER.writeValueAsString(doc);
            double r = rnd.nextDouble();
            if (r < 0.06) {
                int cut = rnd.nextInt(text.length() + 1);
                text = text.substring(0, cut);
                ops.append("truncate@").append(cut).append(' ');
            } else if (r < 0.12) {
                text = corrupt(text, rnd);
                ops.append("corrupt ");
            }
            boolean fromFile = rnd.nextInt(8) == 0;
            check(c, c.dir().getFileName() + " #" + i + " [" + ops.toString().trim() + "]", text, fromFile,
                    rnd.nextBoolean(), failures);
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000;
        System.out.println("HostileScenarioTest: " + runs + " mutated scenarios, " + accepted + " accepted and run, "
                + rejected + " rejected cleanly, slowest " + slowest + " ms (" + slowestLabel + "), " + seconds + " s");
        assertTrue(runs >= MUTATIONS || !failures.isEmpty(), "ran " + runs);
        if (!failures.isEmpty()) {
            fail(failures.size() + " hostile scenarios broke the reader or runner:\n\n" + String.join("\n\n", failures));
        }
    }

    private static final RuntimeException ENOUGH = new RuntimeException("enough of this run");

    private void check(Case c, String label, String text, boolean fromFile, boolean batched, List<String> failures) {
        runs++;
        long t0 = System.nanoTime();
        String problem = attempt(c, text, fromFile, batched);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        if (millis > MAX_MILLIS) {
            // once more, to tell a slow case from a busy machine
            t0 = System.nanoTime();
            attempt(c, text, fromFile, batched);
            millis = Math.min(millis, (System.nanoTime() - t0) / 1_000_000);
            if (millis > MAX_MILLIS) {
                problem = (problem == null ? "" : problem + "; ") + "took " + millis + " ms";
            }
        }
        if (millis > slowest) {
            slowest = millis;
            slowestLabel = label;
        }
        if (problem != null) {
            String shown = text.length() > 5000 ? text.substring(0, 5000) + "...(" + text.length() + " chars)" : text;
            failures.add("--- " + label + ": " + problem + "\n--- scenario (seed " + SEED + "):\n" + shown);
        }
    }

    /** Reads, checks and runs one scenario; null if all went cleanly, else what went wrong. */
    private String attempt(Case c, String text, boolean fromFile, boolean batched) {
        try {
            Scenario s;
            if (fromFile) {
                Path dir = Files.createDirectories(tmp.resolve("s" + runs));
                Files.copy(c.dir().resolve("tree.json"), dir.resolve("tree.json"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Path file = dir.resolve("scenario.json");
                Files.write(file, text.getBytes(StandardCharsets.UTF_8)); // a lone surrogate becomes '?'
                s = Scenario.load(file);
            } else {
                s = Scenario.parse(text, "hostile.json", c.dir());
            }
            CompiledStateTree tree = c.tree();
            Path treeFile = s.resolveTree();
            if (!treeFile.getFileName().toString().equals("tree.json") || tree == null) {
                tree = StateTreeJson.compile(treeFile, TestNodes.compiler());
            }
            int[] lines = {0};
            String[] bad = {null};
            CompiledStateTree t = tree;
            RuntimeFactory base = batched ? StateTreeSystem::create : ScenarioRunner.REFERENCE;
            RuntimeFactory cut = (tr, agents, seed, workers) -> {
                if (agents > MAX_AGENTS_RUN) {
                    throw ENOUGH;
                }
                return cutAfter(base.create(tr, agents, seed, Math.min(workers, 4)), MAX_TICKS_RUN);
            };
            try {
                ScenarioRunner.run(s, t, cut, line -> {
                    if (line.chars().anyMatch(ch -> ch < 0x20 || ch >= 0x7f && ch <= 0x9f) && bad[0] == null) {
                        bad[0] = "a trace line with a control character: " + line;
                    }
                    if (++lines[0] > MAX_LINES) {
                        throw ENOUGH;
                    }
                });
            } catch (RuntimeException e) {
                if (e != ENOUGH && !(s.onNodeError() == NodeErrorPolicy.FAIL && thrownByATestNode(e))) {
                    throw e; // (under "onNodeError": "fail" a test node that throws ends the run: rule R1)
                }
            }
            accepted++;
            return bad[0];
        } catch (ScenarioException | StateTreeCompileException e) {
            rejected++;
            String m = e.getMessage();
            if (m == null || m.isBlank()) {
                return "an exception without a message";
            }
            if (e instanceof ScenarioException && (m.contains("\n") || m.chars().anyMatch(ch -> ch < 0x20))) {
                return "a message that is not one printable line: " + m;
            }
            if (m.contains("Exception") || m.contains("`") || m.contains("internal")) {
                return "a message with Java names or an internal error: " + m;
            }
            return null;
        } catch (Throwable t) {
            StringBuilder sb = new StringBuilder("threw " + t + "\n");
            StackTraceElement[] st = t.getStackTrace();
            for (int i = 0; i < Math.min(12, st.length); i++) {
                sb.append("    at ").append(st[i]).append('\n');
            }
            return sb.toString();
        }
    }

    /** Whether {@code e} or a cause is the deliberate throw of a {@code boomTask} or {@code boomCondition}. */
    private static boolean thrownByATestNode(Throwable e) {
        for (Throwable x = e; x != null; x = x.getCause()) {
            if (x.getMessage() != null && x.getMessage().contains("IllegalStateException: boom in ")
                    || x instanceof IllegalStateException && x.getMessage() != null && x.getMessage().startsWith("boom in ")) {
                return true;
            }
        }
        return false;
    }

    /** {@code inner}, whose {@code tickAll} ends the run after {@code ticks} ticks. */
    private static StateTreeRuntime cutAfter(StateTreeRuntime inner, int ticks) {
        int[] count = {0};
        return (StateTreeRuntime) Proxy.newProxyInstance(StateTreeRuntime.class.getClassLoader(),
                new Class<?>[] {StateTreeRuntime.class}, (proxy, method, args) -> {
                    if (method.getName().equals("tickAll") && ++count[0] > ticks) {
                        throw ENOUGH;
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    // ---- mutations -------------------------------------------------------------------------------


    @SuppressWarnings("unchecked")
    private static Object mutate(Object doc, SplittableRandom rnd, StringBuilder ops) {
        List<JsonDocs.Slot> slots = new ArrayList<>();
        collect(doc, slots);
        if (slots.isEmpty()) {
            ops.append("replace-doc ");
            return randomValue(rnd, 0);
        }
        JsonDocs.Slot s = slots.get(rnd.nextInt(slots.size()));
        switch (rnd.nextInt(9)) {
            case 0:
                ops.append("retype:").append(s.key()).append(' ');
                s.set(randomValue(rnd, 0));
                break;
            case 1:
                ops.append("delete:").append(s.key()).append(' ');
                if (s.container() instanceof Map) {
                    ((Map<?, ?>) s.container()).remove(s.key());
                } else {
                    ((List<?>) s.container()).remove((int) (Integer) s.key());
                }
                break;
            case 2:
            case 3:
                ops.append("number:").append(s.key()).append(' ');
                s.set(NUMBERS[rnd.nextInt(NUMBERS.length)]);
                break;
            case 4:
                if (s.container() instanceof Map) {
                    ops.append("rename:").append(s.key()).append(' ');
                    Map<String, Object> m = (Map<String, Object>) s.container();
                    String nk = KEYS[rnd.nextInt(KEYS.length)];
                    Map<String, Object> copy = new LinkedHashMap<>(m);
                    m.clear();
                    copy.forEach((k, v) -> m.put(k.equals(s.key()) ? nk : k, v));
                }
                break;
            case 5:
                if (s.container() instanceof List) {
                    ops.append("dup:").append(s.key()).append(' ');
                    int times = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 2000 : 3);
                    for (int i = 0; i < times; i++) {
                        ((List<Object>) s.container()).add((Integer) s.key(), deepCopy(s.get()));
                    }
                }
                break;
            case 6:
                ops.append("string:").append(s.key()).append(' ');
                s.set(STRINGS[rnd.nextInt(STRINGS.length)]);
                break;
            case 7:
                if (s.get() instanceof Map) {
                    String k = KEYS[rnd.nextInt(KEYS.length)];
                    ops.append("insert:").append(k).append(' ');
                    ((Map<String, Object>) s.get()).put(k, randomValue(rnd, 0));
                }
                break;
            default: // top-level fields: the ones with limits
                if (doc instanceof Map) {
                    String k = new String[] {"agents", "workers", "ticks", "tree", "dt", "seed"}[rnd.nextInt(6)];
                    Object v = rnd.nextBoolean() ? NUMBERS[rnd.nextInt(NUMBERS.length)] : STRINGS[rnd.nextInt(STRINGS.length)];
                    ops.append("top:").append(k).append('=').append(String.valueOf(v), 0,
                            Math.min(20, String.valueOf(v).length())).append(' ');
                    ((Map<String, Object>) doc).put(k, v);
                }
        }
        return doc;
    }

    private static Object randomValue(SplittableRandom rnd, int depth) {
        switch (rnd.nextInt(depth > 1 ? 4 : 6)) {
            case 0:
                return STRINGS[rnd.nextInt(STRINGS.length)];
            case 1:
                return NUMBERS[rnd.nextInt(NUMBERS.length)];
            case 2:
                return rnd.nextBoolean();
            case 3:
                return null;
            case 4: {
                List<Object> l = new ArrayList<>();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    l.add(randomValue(rnd, depth + 1));
                }
                return l;
            }
            default: {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    m.put(KEYS[rnd.nextInt(KEYS.length)], randomValue(rnd, depth + 1));
                }
                return m;
            }
        }
    }



}
