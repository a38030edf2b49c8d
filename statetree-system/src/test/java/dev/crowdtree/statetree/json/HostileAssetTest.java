package dev.crowdtree.statetree.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.crowdtree.statetree.json.JsonDocs.castList;
import static dev.crowdtree.statetree.json.JsonDocs.castMap;
import static dev.crowdtree.statetree.json.JsonDocs.collect;
import static dev.crowdtree.statetree.json.JsonDocs.corrupt;
import static dev.crowdtree.statetree.json.JsonDocs.deepCopy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds the loader and compiler thousands of broken assets: random structural mutations of the
 * valid test assets (value types, deleted and renamed keys, extreme numbers, linked cycles, deep
 * hierarchies, random targets), truncated text, random characters and bytes, and pathological
 * nesting. Whatever happens, the outcome must be a compiled tree or a
 * {@link StateTreeCompileException} whose errors all name their source and none of which is a
 * safety-net "internal ... error" or names a Java exception, each printed as one line without
 * control characters, and none may take more than 2 s. Assets that read cleanly must also survive
 * write/read. With {@code reference.HostileScenarioTest} this makes over 10,000 hostile inputs.
 *
 * <p>The seed is fixed, so a failure reproduces; the failing asset is printed.
 */
class HostileAssetTest {
    private static final long SEED = 0x5EED_7EE5L;
    private static final int MUTATIONS_PER_ASSET = 1100;
    private static final String SOURCE = "hostile.json";

    /** {@code -Dhostile.verbose=true} prints every mutated asset's errors. */
    private static final boolean VERBOSE = Boolean.getBoolean("hostile.verbose");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final StateTreeCompiler COMPILER = TestAssets.compiler();

    private static final String[] KEYS = {"name", "type", "selection", "linkedSubtree", "linkedParameters",
        "parameters", "enterConditions", "tasks", "transitions", "children", "trigger", "event", "to",
        "conditions", "delay", "delayVariance", "priority", "asset", "consumeEvent", "considerForCompletion",
        "weight", "considerations", "values", "fn", "args", "root", "subtrees", "evaluators", "default", "param", "eval",
        "task", "input", "value", "op", "duration", "condition", "reselect", "afterTicks", "probability",
        "payloadFields", "payload", "volume", "completion", "globalTasks", "enabled", "composite", "transitionScan",
        "history", "requiredEvent", "tag", "tickPeriod", "rules", ""};
    private static final String[] STRINGS = {"", " ", "Root", "Idle", "Danger", "Root/Danger/Flee", "Root//X",
        "@next", "@none", "@succeeded", "@failed", "@bogus", "onTick", "onEvent", "onStateCompleted", "group",
        "linked", "subtree", "tryEnterState", "bool", "int", "float", "delay", "compare", "not", "and", "time",
        "low", "normal", "high", "critical", "urgent", "linkedAsset", "../x.json", "/etc/passwd",
        "claim.slotX", "perception.value", "a/b", "x:y", "volume", "sendEvent", "all", "any", "@global:camp.slotX",
        "@global", "sequence", "selector", "leafFirst", "rootFirst", "shallow", "deep", "Alarm", "Alarm.Fire",
        "seed", "unreal-5.8", "Unreal-5.8", "unreal-5.9",
        "\"quoted\\\"", "ünïcödé", "\u0000", "\ud800"};
    /** Values of the top-level {@code rules} key (rule U1): the valid ones, near misses, other JSON types. */
    private static final Object[] RULES = {"seed", "unreal-5.8", "unreal-5.8", "unreal", "Unreal-5.8", "unreal-5.80",
        " unreal-5.8", "", 5.8, true, null, List.of("unreal-5.8"), Map.of("rules", "seed")};
    private static final Object[] NUMBERS = {0, -1, 1, 2, 1e308, -1e308, new BigInteger("9223372036854775808"),
        new BigInteger("-9223372036854775809"), Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE + 1L, 0.5,
        1e-320, 3.5e38, -0.0, 255, 256, 32767, 32768, new BigInteger("1" + "0".repeat(400)), 4, 64, 128};

    private int runs;
    private int compiled;
    private int rejected;
    private long slowest;
    private static int roundTrips;

    @Test
    void randomMutationsOfValidAssetsFailCleanly() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<String> failures = new ArrayList<>();
        for (String name : TestAssets.NAMES) {
            Object original = MAPPER.readValue(TestAssets.text(name), Object.class);
            for (int i = 0; i < MUTATIONS_PER_ASSET && failures.size() < 3; i++) {
                Object doc = deepCopy(original);
                int n = 1 + rnd.nextInt(4);
                StringBuilder ops = new StringBuilder();
                if (rnd.nextInt(3) == 0) { // the tree's rule set (rule U1), valid or not, before the mutations
                    Object rules = RULES[rnd.nextInt(RULES.length)];
                    castMap(doc).put("rules", deepCopy(rules));
                    ops.append("rules:").append(rules).append(' ');
                }
                for (int k = 0; k < n; k++) {
                    doc = mutate(doc, rnd, ops);
                }
                String text = MAPPER.writeValueAsString(doc);
                double r = rnd.nextDouble();
                if (r < 0.08) {
                    int cut = rnd.nextInt(text.length() + 1);
                    text = text.substring(0, cut);
                    ops.append("truncate@").append(cut).append(' ');
                } else if (r < 0.16) {
                    text = corrupt(text, rnd);
                    ops.append("corrupt ");
                } else if (r < 0.22) {
                    text = numberText(text, rnd, ops);
                }
                check(name + " #" + i + " [" + ops.toString().trim() + "]", text, failures);
            }
        }
        System.out.println("HostileAssetTest: " + runs + " mutated assets, " + compiled + " compiled, " + rejected
                + " rejected cleanly, " + roundTrips + " write/read round trips, slowest " + slowest + " ms");
        assertTrue(runs >= 3000, "ran " + runs + " mutations");
        if (!failures.isEmpty()) {
            fail(failures.size() + " hostile assets broke the loader/compiler:\n\n" + String.join("\n\n", failures));
        }
    }

    @Test
    void randomBytesAndNonObjectsFailCleanly() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        List<String> failures = new ArrayList<>();
        for (String s : List.of("", " ", "null", "[]", "{}", "123", "\"root\"", "true", "{\"name\"", "{,}", "{}}",
                "\uFEFF{}", "{\"name\": \"T\", \"root\": {\"name\": \"R\"}} {}", "[{\"name\": \"T\"}]")) {
            check("literal " + s, s, failures);
        }
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[rnd.nextInt(200)];
            for (int k = 0; k < bytes.length; k++) {
                bytes[k] = (byte) rnd.nextInt(256);
            }
            if (bytes.length > 0 && rnd.nextBoolean()) {
                bytes[0] = '{';
            }
            check("random bytes #" + i, new String(bytes, StandardCharsets.ISO_8859_1), failures);
            check("random utf8 #" + i, new String(bytes, StandardCharsets.UTF_8), failures);
        }
        assertTrue(failures.isEmpty(), String.join("\n\n", failures));
    }

    @Test
    void childrenNested5000DeepIsAnErrorWithALocation() {
        String text = "{\"name\": \"Deep\", \"root\": " + "{\"name\": \"S\", \"children\": [".repeat(5000)
                + "]}".repeat(5000) + "}";
        CompileError e = onlyError(text);
        assertTrue(e.message().contains("nesting depth"), e.toString());
        assertTrue(e.message().contains("line 1, column "), e.toString());
        assertEquals(SOURCE, e.source());
        assertTrue(e.statePath().startsWith("S/S/S/"), e.toString());
    }

    @Test
    void conditionsNested5000DeepAreAnErrorWithALocation() {
        String not = "{\"name\": \"Deep\", \"parameters\": {\"p\": {\"type\": \"bool\"}}, \"root\": {\"name\": \"R\", "
                + "\"enterConditions\": [" + "{\"type\": \"not\", \"condition\": ".repeat(5000)
                + "{\"type\": \"bool\", \"param\": \"p\"}" + "}".repeat(5000) + "]}}";
        CompileError e = onlyError(not);
        assertTrue(e.message().contains("nesting depth"), e.toString());
        assertEquals("R", e.statePath());
        assertTrue(e.field().startsWith("enterConditions[0].condition.condition"), e.toString());

        String and = "{\"name\": \"Deep\", \"parameters\": {\"p\": {\"type\": \"bool\"}}, \"root\": {\"name\": \"R\", "
                + "\"tasks\": [{\"type\": \"run\"}], \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"@none\", "
                + "\"conditions\": [" + "{\"type\": \"and\", \"conditions\": [".repeat(5000)
                + "{\"type\": \"bool\", \"param\": \"p\"}" + "]}".repeat(5000) + "]}]}}";
        e = onlyError(and);
        assertTrue(e.message().contains("nesting depth"), e.toString());
        assertEquals("R", e.statePath());
    }

    @Test
    void nestingJustBelowTheParserLimitIsCompiledIntoCleanErrors() {
        // 400 levels of states (800 JSON levels) and 900 nested conditions: parsed, then the compiler's
        // own limits (8 states per path, 32 nested conditions) report them.
        String states = "{\"name\": \"Deep\", \"root\": " + "{\"name\": \"S\", \"children\": [".repeat(400)
                + "]}".repeat(400) + "}";
        List<CompileError> errors = errors(states);
        assertTrue(errors.stream().anyMatch(x -> x.message().contains("deeper than 8")), errors.toString());

        String conds = "{\"name\": \"Deep\", \"parameters\": {\"p\": {\"type\": \"bool\"}}, \"root\": {\"name\": \"R\", "
                + "\"enterConditions\": [" + "{\"type\": \"not\", \"condition\": ".repeat(900)
                + "{\"type\": \"bool\", \"param\": \"p\"}" + "}".repeat(900) + "]}}";
        errors = errors(conds);
        assertTrue(errors.stream().anyMatch(x -> x.message().contains("nested deeper than")), errors.toString());
    }

    @Test
    void thousandsOfErrorsAreReportedQuickly() {
        StringBuilder sb = new StringBuilder("{\"name\": \"Many\", \"root\": {\"name\": \"R\"");
        for (int i = 0; i < 5000; i++) {
            sb.append(", \"junk").append(i).append("\": ").append(i);
        }
        sb.append(", \"tasks\": [");
        for (int i = 0; i < 5000; i++) {
            sb.append(i == 0 ? "" : ", ").append(i % 2 == 0 ? "7" : "{\"type\": \"nope\"}");
        }
        sb.append("]}}");
        long start = System.nanoTime();
        List<CompileError> errors = errors(sb.toString());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 30_000, "took " + millis + " ms"); // generous: the machine may be busy
        // the reader keeps its first 1000 errors (all about junk keys) and counts the other 6500; the
        // compiler adds one error per task (unknown type, or missing type for the non-objects the reader
        // no longer lists), keeps 1000 and counts 4000
        assertEquals(2 * StateTreeCompileException.MAX_KEPT, errors.size());
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(SOURCE, sb.toString(), COMPILER));
        assertEquals(7500 + 5000, e.errorCount());
        assertTrue(e.getMessage().endsWith("... and 12400 more errors"), e.getMessage());
    }

    @Test
    void hugeInlinedTreesAreCompiledOrRejectedQuickly() throws Exception {
        // 300 linked copies of a 100-state subtree with 50 transitions per state: 1.5 million
        // transitions after inlining, from a 200 KB asset.
        long start = System.nanoTime();
        List<CompileError> errors = errors(inlined(300, 100, 50));
        assertTrue(errors.get(0).message().contains("too many conditions, tasks or transitions"), errors.toString());
        // just under the limits: 32641 states, 32000 transitions
        assertEquals(32641, StateTreeJson.compile(SOURCE, inlined(320, 100, 1), COMPILER).stateCount);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 30_000, "took " + millis + " ms"); // was minutes before targets were indexed
    }

    private static String inlined(int links, int states, int transitions) {
        StringBuilder sb = new StringBuilder("{\"name\": \"Big\", \"root\": {\"name\": \"R\", \"children\": [");
        for (int i = 0; i < links; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"name\": \"L").append(i)
                    .append("\", \"type\": \"linked\", \"linkedSubtree\": \"S\"}");
        }
        sb.append("]}, \"subtrees\": [{\"name\": \"S\", \"type\": \"subtree\", \"children\": [");
        for (int j = 0; j < states; j++) {
            sb.append(j == 0 ? "" : ",").append("{\"name\": \"C").append(j)
                    .append("\", \"tasks\": [{\"type\": \"run\"}], \"transitions\": [");
            for (int k = 0; k < transitions; k++) {
                sb.append(k == 0 ? "" : ",").append("{\"trigger\": \"onTick\", \"to\": \"C")
                        .append((j + k + 1) % states).append("\"}");
            }
            sb.append("]}");
        }
        return sb.append("]}]}").toString();
    }

    @Test
    void linkedCyclesAreReportedNotFollowed() {
        String text = "{\"name\": \"Cyc\", \"root\": {\"name\": \"R\", \"children\": [{\"name\": \"L\", \"type\": \"linked\", "
                + "\"linkedSubtree\": \"A\"}]}, \"subtrees\": ["
                + "{\"name\": \"A\", \"type\": \"subtree\", \"children\": [{\"name\": \"ToB\", \"type\": \"linked\", \"linkedSubtree\": \"B\"}]},"
                + "{\"name\": \"B\", \"type\": \"subtree\", \"children\": [{\"name\": \"ToA\", \"type\": \"linked\", \"linkedSubtree\": \"A\"}]},"
                + "{\"name\": \"C\", \"type\": \"subtree\", \"children\": [{\"name\": \"ToC\", \"type\": \"linked\", \"linkedSubtree\": \"C\"}]}]}";
        List<CompileError> errors = errors(text);
        assertTrue(errors.stream().anyMatch(x -> x.message().contains("cycle of linked states: A -> B -> A")),
                errors.toString());
        assertTrue(errors.stream().anyMatch(x -> x.message().contains("cycle of linked states: C -> C")),
                errors.toString());
    }

    // ---- checking one asset ----------------------------------------------------------------------

    private CompileError onlyError(String text) {
        List<CompileError> errors = errors(text);
        assertEquals(1, errors.size(), errors.toString());
        return errors.get(0);
    }

    private List<CompileError> errors(String text) {
        List<String> failures = new ArrayList<>();
        List<CompileError> errors = check("fixed case", text, failures);
        assertTrue(failures.isEmpty(), String.join("\n\n", failures));
        assertNotNull(errors, "expected errors");
        return errors;
    }

    /**
     * Compiles {@code text}; records a failure (with the asset) if anything but a clean outcome
     * happens, or if it takes more than 2 s twice in a row (once could be a busy machine).
     */
    private List<CompileError> check(String label, String text, List<String> failures) {
        long t0 = System.nanoTime();
        List<CompileError> errors = checkOnce(label, text, failures);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        if (millis > 2000) {
            t0 = System.nanoTime();
            checkOnce(label, text, new ArrayList<>());
            millis = Math.min(millis, (System.nanoTime() - t0) / 1_000_000);
            if (millis > 2000) {
                failures.add(describe(label, "took " + millis + " ms", text));
            }
        }
        slowest = Math.max(slowest, millis);
        return errors;
    }

    private List<CompileError> checkOnce(String label, String text, List<String> failures) {
        runs++;
        try {
            StateTreeJson.compile(SOURCE, text, COMPILER);
        } catch (StateTreeCompileException e) {
            rejected++;
            if (VERBOSE) {
                System.out.println("=== " + label + "\n" + e.getMessage());
            }
            String problem = checkErrors(e.errors());
            if (problem != null) {
                failures.add(describe(label, problem + "\n" + e.getMessage(), text));
            }
            checkRoundTrip(label, text, failures);
            return e.errors();
        } catch (Throwable t) {
            failures.add(describe(label, "threw " + t + "\n" + stack(t), text));
            return null;
        }
        compiled++;
        checkRoundTrip(label, text, failures);
        return null;
    }

    private static String checkErrors(List<CompileError> errors) {
        if (errors.isEmpty()) {
            return "an exception without errors";
        }
        for (CompileError e : errors) {
            if (e.source() == null) {
                return "an error without source: " + e;
            }
            if (!e.source().equals(SOURCE)) {
                return "an error with the wrong source: " + e;
            }
            if (e.message() == null) {
                return "an error without message: " + e;
            }
            if (e.message().contains("internal compiler error") || e.message().contains("internal loader error")) {
                return "an internal error: " + e;
            }
            // a backtick the input itself holds is named as such ("Unexpected character ('`' (code 96))"),
            // not as Jackson quotes a class name
            String printed = e.toString().replace("('`' (code 96))", "");
            if (printed.contains("Exception") || printed.contains("java.") || printed.contains("`")) {
                return "an error that names Java classes: " + e;
            }
            if (printed.chars().anyMatch(c -> c < 0x20 || c >= 0x7f && c <= 0x9f)) {
                return "an error with a control character: " + e;
            }
        }
        return null;
    }

    /** An asset that reads without errors must read back the same after write. */
    private static void checkRoundTrip(String label, String text, List<String> failures) {
        TreeDef def;
        try {
            def = StateTreeJson.read(SOURCE, text);
        } catch (StateTreeCompileException e) {
            return;
        } catch (Throwable t) {
            failures.add(describe(label, "read threw " + t + "\n" + stack(t), text));
            return;
        }
        String written = null;
        try {
            written = StateTreeJson.write(def);
            DefEquivalence.assertEquivalent(def, StateTreeJson.read(SOURCE, written));
            roundTrips++;
        } catch (Throwable t) {
            failures.add(describe(label, "write/read round trip failed: " + t + "\nwritten:\n" + written, text));
        }
    }

    private static String describe(String label, String problem, String text) {
        String shown = text.length() > 20_000 ? text.substring(0, 20_000) + "...(" + text.length() + " chars)" : text;
        return "--- " + label + ": " + problem + "\n--- asset (seed " + SEED + "):\n" + shown;
    }

    private static String stack(Throwable t) {
        StringBuilder sb = new StringBuilder();
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(12, st.length); i++) {
            sb.append("    at ").append(st[i]).append('\n');
        }
        return sb.toString();
    }

    // ---- mutations -------------------------------------------------------------------------------


    private static Object mutate(Object doc, SplittableRandom rnd, StringBuilder ops) {
        List<JsonDocs.Slot> slots = new ArrayList<>();
        collect(doc, slots);
        if (slots.isEmpty()) {
            ops.append("replace-doc ");
            return randomValue(rnd, 0);
        }
        JsonDocs.Slot s = slots.get(rnd.nextInt(slots.size()));
        int op = rnd.nextInt(11);
        switch (op) {
            case 0: // change the value's type
                ops.append("retype:").append(s.key()).append(' ');
                s.set(randomValue(rnd, 0));
                break;
            case 1: // delete a key / element
                ops.append("delete:").append(s.key()).append(' ');
                if (s.container() instanceof Map) {
                    ((Map<?, ?>) s.container()).remove(s.key());
                } else {
                    ((List<?>) s.container()).remove((int) (Integer) s.key());
                }
                break;
            case 2: // extreme numbers
                ops.append("number:").append(s.key()).append(' ');
                s.set(NUMBERS[rnd.nextInt(NUMBERS.length)]);
                break;
            case 3: // rename a key
                if (s.container() instanceof Map) {
                    ops.append("rename:").append(s.key()).append(' ');
                    renameKey(castMap(s.container()), s.key(), rnd);
                }
                break;
            case 4: // duplicate a list element (duplicate siblings, repeated nodes)
                if (s.container() instanceof List) {
                    ops.append("dup:").append(s.key()).append(' ');
                    castList(s.container()).add((Integer) s.key(), deepCopy(s.get()));
                }
                break;
            case 5: // random string (targets, names, types, triggers)
                ops.append("string:").append(s.key()).append(' ');
                s.set(STRINGS[rnd.nextInt(STRINGS.length)]);
                break;
            case 6: // linked cycles and bad links
                ops.append("link ");
                linkCycle(doc, rnd);
                break;
            case 7: { // swap two values
                JsonDocs.Slot t = slots.get(rnd.nextInt(slots.size()));
                ops.append("swap:").append(s.key()).append('/').append(t.key()).append(' ');
                Object a = s.get();
                Object b = t.get();
                if (!contains(a, t.container()) && !contains(b, s.container())) {
                    s.set(deepCopy(b));
                    t.set(deepCopy(a));
                }
                break;
            }
            case 8: { // deepen: wrap a value in 3..12 states
                int depth = 3 + rnd.nextInt(10);
                ops.append("deepen:").append(depth).append(' ');
                Object v = s.get();
                for (int d = 0; d < depth; d++) {
                    Map<String, Object> st = new LinkedHashMap<>();
                    st.put("name", "W" + d);
                    st.put("children", new ArrayList<>(java.util.Collections.singletonList(v))); // v may be null
                    v = st;
                }
                s.set(v);
                break;
            }
            case 9: // insert a random key into an object
                if (s.get() instanceof Map) {
                    String k = KEYS[rnd.nextInt(KEYS.length)];
                    ops.append("insert:").append(k).append(' ');
                    castMap(s.get()).put(k, randomValue(rnd, 0));
                }
                break;
            default: // a binding or node object where something else was
                ops.append("binding:").append(s.key()).append(' ');
                s.set(rnd.nextBoolean() ? bindingLike(rnd) : nodeLike(rnd));
                break;
        }
        return doc;
    }

    private static boolean contains(Object haystack, Object needle) {
        if (haystack == needle) {
            return true;
        }
        if (haystack instanceof Map) {
            for (Object v : ((Map<?, ?>) haystack).values()) {
                if (contains(v, needle)) {
                    return true;
                }
            }
        } else if (haystack instanceof List) {
            for (Object v : (List<?>) haystack) {
                if (contains(v, needle)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void renameKey(Map<String, Object> m, Object key, SplittableRandom rnd) {
        String k = (String) key;
        String nk;
        switch (rnd.nextInt(4)) {
            case 0:
                nk = k + "x";
                break;
            case 1:
                nk = k.toUpperCase(java.util.Locale.ROOT);
                break;
            case 2:
                nk = k.isEmpty() ? "_" : k.substring(1);
                break;
            default:
                nk = KEYS[rnd.nextInt(KEYS.length)];
        }
        // Rebuild to keep the order; a rename onto an existing key replaces it.
        Map<String, Object> copy = new LinkedHashMap<>(m);
        m.clear();
        copy.forEach((kk, v) -> m.put(kk.equals(k) ? nk : kk, v));
    }

    /** Points a state at a subtree so that subtrees link each other in a cycle (or at a missing one). */
    private static void linkCycle(Object doc, SplittableRandom rnd) {
        if (!(doc instanceof Map)) {
            return;
        }
        Map<String, Object> top = castMap(doc);
        Object st = top.get("subtrees");
        List<Object> subtrees = st instanceof List ? castList(st) : new ArrayList<>();
        if (!(st instanceof List)) {
            top.put("subtrees", subtrees);
        }
        String a = "Cyc" + rnd.nextInt(3);
        String b = rnd.nextBoolean() ? a : "Cyc" + rnd.nextInt(3);
        subtrees.add(subtree(a, b));
        subtrees.add(subtree(b, a));
        Object root = top.get("root");
        if (root instanceof Map) {
            Object ch = castMap(root).get("children");
            if (ch instanceof List) {
                Map<String, Object> link = new LinkedHashMap<>();
                link.put("name", "Link" + rnd.nextInt(1000));
                link.put("type", "linked");
                link.put("linkedSubtree", rnd.nextInt(5) == 0 ? "Missing" : a);
                castList(ch).add(link);
            }
        }
    }

    private static Map<String, Object> subtree(String name, String linksTo) {
        Map<String, Object> link = new LinkedHashMap<>();
        link.put("name", "To" + linksTo);
        link.put("type", "linked");
        link.put("linkedSubtree", linksTo);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", name);
        s.put("type", "subtree");
        s.put("children", new ArrayList<>(List.of(link)));
        return s;
    }

    private static Object bindingLike(SplittableRandom rnd) {
        Map<String, Object> m = new LinkedHashMap<>();
        String[] kinds = {"param", "eval", "task", "bogus"};
        m.put(kinds[rnd.nextInt(kinds.length)], rnd.nextInt(4) == 0 ? randomValue(rnd, 1)
                : new String[] {"ammo", "courage", "alert", "perception.value", "claim.slotX", "claim.granted",
                    "Root:claim.slotX", "aim.remaining", "x", "noise.value", "clock.elapsed", "budget", "camp.granted",
                    "@global:camp.slotX"}[rnd.nextInt(14)]);
        if (rnd.nextInt(6) == 0) {
            m.put("eval", "time.elapsed");
        }
        return m;
    }

    private static Object nodeLike(SplittableRandom rnd) {
        String[] types = {"delay", "succeed", "fail", "run", "setParameter", "sendEvent", "compare", "floatRange",
            "bool", "not", "and", "or", "randomChance", "time", "random", "wave", "claim", "nope"};
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", types[rnd.nextInt(types.length)]);
        int props = rnd.nextInt(3);
        for (int i = 0; i < props; i++) {
            m.put(KEYS[rnd.nextInt(KEYS.length)], randomValue(rnd, 1));
        }
        return m;
    }

    private static Object randomValue(SplittableRandom rnd, int depth) {
        switch (rnd.nextInt(depth > 2 ? 4 : 7)) {
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
                int n = rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    l.add(randomValue(rnd, depth + 1));
                }
                return l;
            }
            case 5:
                return bindingLike(rnd);
            default:
                return nodeLike(rnd);
        }
    }

    /** Replaces a number in the text with something number-like that JSON does not allow (or barely allows). */
    private static String numberText(String text, SplittableRandom rnd, StringBuilder ops) {
        String[] weird = {"NaN", "Infinity", "-Infinity", "1e999", "-1e999", "-0", "0x10", "01", "1.", ".5", "+1",
            "1e", "4.9e-324", "18446744073709551616", "-9223372036854775808"};
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?").matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        if (spans.isEmpty()) {
            return text;
        }
        int[] sp = spans.get(rnd.nextInt(spans.size()));
        String w = weird[rnd.nextInt(weird.length)];
        ops.append("number-text:").append(w).append(' ');
        return text.substring(0, sp[0]) + w + text.substring(sp[1]);
    }






    /**
     * Rule U1 on every valid asset: each value of {@link #RULES} (and the key's absence) gives a
     * compiled tree or clean errors; a string other than the two names is an error at the field
     * listing them; {@code unreal-5.8} compiles the assets without composites and root-first scans
     * (completion all included, rules U9 and U10); a non-string (null
     * included) is a type error at the field. Every outcome that reads survives write/read.
     */
    @Test
    void everyRulesValueOnEveryValidAssetCompilesOrFailsCleanly() throws Exception {
        List<String> failures = new ArrayList<>();
        for (String name : TestAssets.NAMES) {
            Object original = MAPPER.readValue(TestAssets.text(name), Object.class);
            for (Object rules : RULES) {
                Map<String, Object> doc = castMap(deepCopy(original));
                doc.put("rules", rules);
                String text = MAPPER.writeValueAsString(doc);
                List<CompileError> errors = check(name + " rules=" + rules, text, failures);
                if ("seed".equals(rules) || "unreal-5.8".equals(rules)) {
                    assertEquals(null, errors, name + " with rules " + rules + " compiles");
                    assertEquals(rules, StateTreeJson.read(SOURCE, StateTreeJson.write(StateTreeJson.read(SOURCE, text)))
                            .rules(), name + ": the writer keeps the key");
                } else if (rules instanceof String) {
                    assertNotNull(errors, name + " with rules " + rules);
                    assertEquals(1, errors.size(), errors.toString());
                    assertEquals("rules", errors.get(0).field(), errors.toString());
                    assertTrue(errors.get(0).message().contains("valid values are seed, unreal-5.8"), errors.toString());
                } else { // null too
                    assertNotNull(errors, name + " with rules " + rules);
                    assertTrue(errors.stream().anyMatch(e -> "rules".equals(e.field())
                            && e.message().startsWith("expected a string, got")), errors.toString());
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n\n", failures));
    }

    @Test
    void theValidAssetsThemselvesCompile() throws Exception {
        for (String name : TestAssets.NAMES) {
            assertNotNull(StateTreeJson.compile(name, TestAssets.text(name), COMPILER), name);
            assertFalse(StateTreeJson.write(StateTreeJson.read(name, TestAssets.text(name))).isEmpty());
        }
    }
}
