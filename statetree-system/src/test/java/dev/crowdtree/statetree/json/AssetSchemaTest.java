package dev.crowdtree.statetree.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.PropertySpec;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/statetree-asset.schema.json: a valid draft 2020-12 schema that accepts every tree asset in
 * the repository, rejects broken ones the loader rejects too, and describes every built-in node type
 * exactly as {@link BuiltinNodes} registers it.
 *
 * <p>Assets are found by walking the repository (build output and hidden directories left out), so
 * new ones are covered without touching this test: every {@code *.json} file is an asset except
 * scenarios, which the repository names {@code scenario.json} (next to the {@code tree.json} they
 * run), and the files and directories listed in {@link #NOT_ASSETS}. The fenced {@code json}
 * blocks of the Markdown files that hold a whole asset (an object with a {@code root}) are assets
 * too.
 */
class AssetSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA_PATH = "docs/statetree-asset.schema.json";
    private static final String SCENARIO_FILE_NAME = "scenario.json";
    /** Files and directories (relative to the repository root) whose JSON files are not assets, and why. */
    private static final Map<String, String> NOT_ASSETS = Map.of(
            SCHEMA_PATH, "the schema itself",
            "bench/results", "benchmark reports written by the bench module");
    /** Fewer assets than this means the walk went wrong (the repository holds more). */
    private static final int MIN_ASSETS = 30;

    private static Path root;
    private static Schema schema;
    private static JsonNode schemaDoc;

    /** One asset: where it is (a path, or a path and line for a Markdown block) and its text. */
    record Asset(String where, String text) {
    }

    @BeforeAll
    static void loadSchema() throws IOException {
        root = repositoryRoot();
        String text = Files.readString(root.resolve(SCHEMA_PATH));
        schemaDoc = JSON.readTree(text);
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(text, InputFormat.JSON);
    }

    /** The module directory's parent; Surefire runs in the module directory. */
    private static Path repositoryRoot() {
        String basedir = System.getProperty("basedir");
        Path module = (basedir != null ? Path.of(basedir) : Path.of("")).toAbsolutePath().normalize();
        Path r = module.getParent();
        assertTrue(Files.isRegularFile(r.resolve("pom.xml")) && Files.isRegularFile(r.resolve(SCHEMA_PATH)),
                "repository root with pom.xml and " + SCHEMA_PATH + " expected at " + r);
        return r;
    }

    private static List<String> errors(String json) {
        List<String> out = new ArrayList<>();
        for (Error e : schema.validate(json, InputFormat.JSON)) {
            out.add(e.toString());
        }
        return out;
    }

    // ---- the schema itself -----------------------------------------------------------------------

    @Test
    void theSchemaIsAValidDraft202012Schema() throws IOException {
        assertEquals("https://json-schema.org/draft/2020-12/schema", schemaDoc.get("$schema").asText());
        assertTrue(schemaDoc.get("$id").asText().startsWith("https://"), "an absolute $id");
        Schema meta = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        List<Error> errors = meta.validate(Files.readString(root.resolve(SCHEMA_PATH)), InputFormat.JSON);
        assertEquals(List.of(), errors, "the schema against the draft 2020-12 meta-schema");
    }

    @Test
    void everyPropertyOfTheFormatHasADescription() {
        List<String> missing = new ArrayList<>();
        collectUndescribed(schemaDoc, "#", missing);
        assertEquals(List.of(), missing, "properties without a description (editors show it as help)");
    }

    /** Every property schema under a "properties" keyword is described, or is a bare restriction of one described elsewhere. */
    private static void collectUndescribed(JsonNode node, String at, List<String> missing) {
        if (!node.isObject()) {
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    collectUndescribed(node.get(i), at + "/" + i, missing);
                }
            }
            return;
        }
        JsonNode props = node.get("properties");
        boolean builtinDef = at.matches("#/\\$defs/(task|condition|evaluator)\\..*");
        if (props != null && props.isObject()) {
            for (Map.Entry<String, JsonNode> p : props.properties()) {
                JsonNode s = p.getValue();
                // A built-in type's "type", "name", "reselect", "considerForCompletion" and "enabled" are
                // described on task/condition/evaluator.
                boolean inherited = builtinDef && Set.of("type", "name", "reselect", "considerForCompletion", "enabled")
                        .contains(p.getKey());
                boolean restriction = at.contains("/if") || at.contains("/then") || at.contains("/else");
                if (!inherited && !restriction && (!s.isObject() || !s.has("description"))) {
                    missing.add(at + "/properties/" + p.getKey());
                }
            }
        }
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            collectUndescribed(f.getValue(), at + "/" + f.getKey(), missing);
        }
    }

    // ---- every asset in the repository -----------------------------------------------------------

    @Test
    void everyAssetInTheRepositoryMatchesTheSchema() throws IOException {
        List<Asset> assets = assets();
        Set<String> where = new TreeSet<>();
        for (Asset a : assets) {
            where.add(a.where());
        }
        assertTrue(assets.size() >= MIN_ASSETS, "only " + assets.size() + " assets found: " + where);
        // Each place that holds assets is reached (the walk covers the whole repository).
        for (String known : List.of("agents-demo/src/main/resources/trees/crowd.json",
                "statetree-system/src/test/resources/dev/crowdtree/statetree/json/soldier.json",
                "statetree-system/src/test/resources/golden/d7_guard/tree.json")) {
            assertTrue(where.contains(known), known + " is not among the assets found: " + where);
        }
        for (String doc : List.of("docs/guides/first-tree.md:", "docs/ASSET_FORMAT.md:")) {
            assertTrue(where.stream().anyMatch(w -> w.startsWith(doc)), "no asset found in " + doc + " " + where);
        }
        Map<String, List<String>> failures = new LinkedHashMap<>();
        for (Asset a : assets) {
            List<String> errors = errors(a.text());
            if (!errors.isEmpty()) {
                failures.put(a.where(), errors);
            }
        }
        assertEquals(Map.of(), failures, "assets the schema rejects (" + assets.size() + " checked)");
    }

    @Test
    void scenariosAreToldApartFromAssets() throws IOException {
        List<Path> scenarios = new ArrayList<>();
        for (Path f : jsonFiles()) {
            if (f.getFileName().toString().equals(SCENARIO_FILE_NAME)) {
                scenarios.add(f);
            }
        }
        assertTrue(scenarios.size() >= 20, "golden scenarios found: " + scenarios);
        Set<String> assetFiles = new LinkedHashSet<>();
        for (Asset a : assets()) {
            assetFiles.add(a.where());
        }
        for (Path s : scenarios) {
            JsonNode doc = JSON.readTree(Files.readString(s));
            String rel = relative(s);
            assertTrue(doc.isObject() && doc.path("tree").isTextual() && !doc.has("root"),
                    rel + " has the shape of a scenario ({\"tree\": \"...\", ...})");
            // The tree a scenario runs is an asset the schema checks (unless it is wrong on purpose).
            String tree = relative(s.resolveSibling(doc.get("tree").asText()).normalize());
            boolean wrongOnPurpose = Files.isRegularFile(s.resolveSibling("expected.error"));
            assertTrue(wrongOnPurpose || assetFiles.contains(tree), rel + " runs " + tree + ", which is not among the assets");
            assertFalse(errors(Files.readString(s)).isEmpty(), rel + ": the schema must not accept a scenario");
        }
    }

    /** Every asset in the repository: JSON files and whole assets in Markdown json blocks. */
    static List<Asset> assets() throws IOException {
        List<Asset> out = new ArrayList<>();
        for (Path f : jsonFiles()) {
            String rel = relative(f);
            boolean excluded = NOT_ASSETS.keySet().stream().anyMatch(d -> rel.equals(d) || rel.startsWith(d + "/"));
            // A golden case with an expected.error holds a tree that is wrong on purpose.
            boolean wrongOnPurpose = Files.isRegularFile(f.resolveSibling("expected.error"));
            if (!excluded && !wrongOnPurpose && !f.getFileName().toString().equals(SCENARIO_FILE_NAME)) {
                out.add(new Asset(rel, Files.readString(f)));
            }
        }
        for (Path md : files(".md")) {
            String text = Files.readString(md);
            int from = 0;
            while (true) {
                int open = text.indexOf("```json\n", from);
                if (open < 0) {
                    break;
                }
                int begin = open + "```json\n".length();
                int end = text.indexOf("\n```", begin);
                assertTrue(end >= 0, relative(md) + ": unclosed json block");
                String block = text.substring(begin, end + 1);
                from = end + 4;
                JsonNode doc;
                try {
                    doc = JSON.readTree(block);
                } catch (JsonProcessingException e) {
                    continue; // a fragment ("parameters": {...}), not a document
                }
                if (doc != null && doc.isObject() && doc.has("root")) {
                    int line = (int) text.substring(0, begin).chars().filter(c -> c == '\n').count() + 1;
                    out.add(new Asset(relative(md) + ":" + line, block));
                }
            }
        }
        return out;
    }

    private static List<Path> jsonFiles() throws IOException {
        return files(".json");
    }

    /** Files ending in {@code suffix}, outside build output ({@code target}) and hidden directories. */
    private static List<Path> files(String suffix) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String n = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = !dir.equals(root) && (n.startsWith(".") || n.equals("target") || n.equals("node_modules"));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(suffix)) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    private static String relative(Path p) {
        return root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    // ---- what the schema rejects and accepts -----------------------------------------------------

    /** A small valid tree using built-in nodes only; the cases below each break one thing. */
    private static final String BASE = json("{'name': 'T',"
            + " 'parameters': {'hungry': {'type': 'bool', 'default': true}, 'coins': {'type': 'int', 'default': 2}},"
            + " 'evaluators': [{'type': 'wave', 'name': 'danger', 'period': 30}],"
            + " 'root': {'name': 'Root', 'children': ["
            + "  {'name': 'Eat', 'type': 'linked', 'linkedSubtree': 'Meal', 'linkedParameters': {'budget': {'param': 'coins'}},"
            + "   'transitions': [{'trigger': 'onStateCompleted', 'to': '@next'}]},"
            + "  {'name': 'Idle', 'tasks': [{'type': 'delay', 'duration': 2, 'reselect': false}],"
            + "   'transitions': [{'trigger': 'onEvent', 'event': 'hit', 'to': 'Eat', 'delay': 0.5,"
            + "    'conditions': [{'type': 'compare', 'input': {'eval': 'danger.value'}, 'op': '>', 'value': 0.5}]}]}]},"
            + " 'subtrees': [{'name': 'Meal', 'type': 'subtree', 'parameters': {'budget': {'type': 'int'}},"
            + "  'tasks': [{'type': 'setParameter', 'param': 'hungry', 'value': false}]}]}");

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    /** {@link #BASE} with {@code from} replaced by {@code to} (which must occur). */
    private static String breaking(String from, String to) {
        String f = json(from);
        assertTrue(BASE.contains(f), "the base asset contains " + f);
        return BASE.replace(f, json(to));
    }

    @Test
    void theBaseAssetIsValidForBothTheSchemaAndTheLoader() throws Exception {
        assertEquals(List.of(), errors(BASE));
        StateTreeJson.compile("base", BASE, StateTreeCompiler.withBuiltins());
        String withSchemaKey = BASE.replaceFirst("\\{", json("{'\\$schema': '../docs/statetree-asset.schema.json', "));
        assertEquals(List.of(), errors(withSchemaKey));
        StateTreeJson.compile("base", withSchemaKey, StateTreeCompiler.withBuiltins());
    }

    @Test
    void wrongAssetsAreRejectedByTheSchemaAndByTheLoader() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("unknown key at the top level", breaking("'subtrees':", "'subtree':"));
        cases.put("unknown key in a state", breaking("'name': 'Idle', 'tasks'", "'name': 'Idle', 'taks'"));
        cases.put("unknown key in a transition", breaking("'delay': 0.5", "'delai': 0.5"));
        cases.put("unknown property of a built-in node", breaking("'duration': 2", "'durration': 2"));
        cases.put("wrong trigger name", breaking("'onStateCompleted'", "'onStateComplete'"));
        cases.put("wrong special target", breaking("'@next'", "'@nxt'"));
        cases.put("event with a trigger other than onEvent", breaking("'onEvent', 'event': 'hit'", "'onTick', 'event': 'hit'"));
        cases.put("onEvent without an event", breaking("'onEvent', 'event': 'hit'", "'onEvent'"));
        cases.put("wrong JSON type of a property", breaking("'duration': 2", "'duration': '2'"));
        cases.put("wrong JSON type of a state field", breaking("'linkedParameters': {'budget': {'param': 'coins'}}",
                "'linkedParameters': [{'param': 'coins'}]"));
        cases.put("a condition type as a task", breaking("{'type': 'delay', 'duration': 2, 'reselect': false}",
                "{'type': 'randomChance', 'probability': 0.5}"));
        cases.put("a task type as a condition", breaking("'type': 'compare'", "'type': 'delay'"));
        cases.put("unknown state type", breaking("'type': 'linked'", "'type': 'link'"));
        cases.put("unknown selection", breaking("'name': 'Idle',", "'name': 'Idle', 'selection': 'tryEnter',"));
        cases.put("unknown parameter type", breaking("'type': 'bool'", "'type': 'boolean'"));
        cases.put("int default that is not integral", breaking("'default': 2}", "'default': 2.5}"));
        cases.put("missing target", breaking(", 'to': '@next'", ""));
        cases.put("linked state without linkedSubtree", breaking("'linkedSubtree': 'Meal', ", ""));
        cases.put("subtree entry without type subtree", breaking("'type': 'subtree'", "'type': 'state'"));
        cases.put("null value", breaking("'period': 30", "'period': null"));
        cases.put("out of range", breaking("'period': 30", "'period': 0"));
        cases.put("compare with both param and input", breaking("'input': {'eval': 'danger.value'}",
                "'param': 'coins', 'input': {'eval': 'danger.value'}"));
        cases.put("binding with two keys", breaking("{'param': 'coins'}", "{'param': 'coins', 'eval': 'danger.value'}"));
        cases.put("state name with a slash", breaking("'name': 'Idle'", "'name': 'Id/le'"));
        cases.put("reselect on a condition", breaking("'op': '>'", "'op': '>', 'reselect': true"));
        cases.put("non-string $schema", BASE.replaceFirst("\\{", "{\"\\$schema\": 7, "));
        cases.put("$schema inside a state", breaking("'name': 'Idle',", "'name': 'Idle', '$schema': 'x',"));
        cases.put("reselect on a global task", breaking("'evaluators':",
                "'globalTasks': [{'type': 'run', 'reselect': false}], 'evaluators':"));
        cases.put("a condition type as a global task", breaking("'evaluators':",
                "'globalTasks': [{'type': 'randomChance', 'probability': 0.5}], 'evaluators':"));
        cases.put("unknown property of a built-in global task", breaking("'evaluators':",
                "'globalTasks': [{'type': 'delay', 'duration': 2, 'durration': 2}], 'evaluators':"));
        cases.put("enabled that is not a boolean on a state", breaking("'name': 'Idle',", "'name': 'Idle', 'enabled': 'no',"));
        cases.put("enabled that is not a boolean on a transition", breaking("'delay': 0.5", "'delay': 0.5, 'enabled': 0"));
        cases.put("enabled that is not a boolean on a task", breaking("'reselect': false}", "'reselect': false, 'enabled': 1}"));
        cases.put("enabled that is not a boolean on an evaluator", breaking("'period': 30", "'period': 30, 'enabled': 'yes'"));
        cases.put("enabled on a condition", breaking("'op': '>'", "'op': '>', 'enabled': false"));
        cases.put("unknown composite", breaking("'name': 'Root',", "'name': 'Root', 'composite': 'parallel',"));
        cases.put("a composite on a leaf", breaking("'name': 'Idle',", "'name': 'Idle', 'composite': 'sequence',"));
        cases.put("a composite on a linked state", breaking("'name': 'Eat',", "'name': 'Eat', 'composite': 'selector',"));
        cases.put("a composite with another selection", breaking("'name': 'Root',",
                "'name': 'Root', 'composite': 'sequence', 'selection': 'tryEnterState',"));
        cases.put("unknown history", breaking("'name': 'Root',", "'name': 'Root', 'history': 'full',"));
        cases.put("history on a leaf", breaking("'name': 'Idle',", "'name': 'Idle', 'history': 'shallow',"));
        cases.put("history on a linked state", breaking("'name': 'Eat',", "'name': 'Eat', 'history': 'deep',"));
        cases.put("unknown transitionScan", breaking("{'name': 'T',", "{'name': 'T', 'transitionScan': 'depthFirst',"));
        cases.put("unknown rules", breaking("{'name': 'T',", "{'name': 'T', 'rules': 'unreal-5.9',"));
        cases.put("rules that are not a string", breaking("{'name': 'T',", "{'name': 'T', 'rules': 5.8,"));
        cases.put("rules in a state", breaking("'name': 'Idle',", "'name': 'Idle', 'rules': 'unreal-5.8',"));
        cases.put("a tick period that is not a power of two", breaking("'name': 'Idle',", "'name': 'Idle', 'tickPeriod': 3,"));
        cases.put("a tick period above 64", breaking("'name': 'Idle',", "'name': 'Idle', 'tickPeriod': 128,"));
        cases.put("a tick period as a string", breaking("'name': 'Idle',", "'name': 'Idle', 'tickPeriod': '4',"));
        cases.put("a state parameter with a value and a default", breaking("'name': 'Idle',",
                "'name': 'Idle', 'parameters': {'p': {'type': 'int', 'default': 1, 'value': {'param': 'coins'}}},"));
        cases.put("a value on a tree parameter", breaking("'default': 2}", "'value': 2}"));
        cases.put("a value on a subtree parameter", breaking("'budget': {'type': 'int'}", "'budget': {'type': 'int', 'value': 1}"));
        for (Map.Entry<String, String> c : cases.entrySet()) {
            assertFalse(errors(c.getValue()).isEmpty(), c.getKey() + ": the schema accepts " + c.getValue());
            assertThrows(StateTreeCompileException.class,
                    () -> StateTreeJson.compile(c.getKey(), c.getValue(), StateTreeCompiler.withBuiltins()),
                    c.getKey() + ": the loader accepts it");
        }
    }

    @Test
    void edgeCasesTheLoaderAcceptsAreAcceptedByTheSchemaToo() throws Exception {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("integral float literal for an int", breaking("'default': 2}", "'default': 2.0}"));
        cases.put("int constant written as a float", breaking("{'type': 'delay', 'duration': 2, 'reselect': false}",
                "{'type': 'succeed', 'afterTicks': 3.0, 'onEnter': true}, {'type': 'fail', 'afterTicks': 2147483647}"));
        cases.put("empty fields that are only allowed elsewhere", breaking("'name': 'Idle',", "'name': 'Idle', 'type': 'state',"
                + " 'selection': 'tryEnterState', 'parameters': {}, 'linkedParameters': {}, 'children': [],"
                + " 'enterConditions': [{'type': 'bool', 'param': 'coins'}, {'type': 'bool', 'input': {'param': 'hungry'}},"
                + "  {'type': 'floatRange', 'param': 'hungry', 'min': -1e30, 'max': {'param': 'coins'}},"
                + "  {'type': 'not', 'name': 'n', 'condition': {'type': 'and', 'conditions': []}},"
                + "  {'type': 'or', 'conditions': [{'type': 'randomChance', 'probability': 1}]}],"));
        cases.put("a group without tasks", breaking("'name': 'Idle', 'tasks': [{'type': 'delay', 'duration': 2, 'reselect': false}],",
                "'name': 'Idle', 'type': 'group', 'tasks': [], 'children': [{'name': 'In', 'tasks': [{'type': 'run'}]}],"));
        cases.put("special targets and gates", breaking("'to': '@next'}", "'to': '@next'}, {'trigger': 'onTick', 'to': '@none',"
                + " 'delay': 0, 'delayVariance': 1e9}, {'trigger': 'onStateSucceeded', 'to': '@succeeded'},"
                + " {'trigger': 'onStateFailed', 'to': '@failed'}, {'trigger': 'onTick', 'to': 'Root/Idle'}"));
        cases.put("every property of the other built-ins", breaking("'period': 30", "'period': 1e-6, 'amplitude': -2,"
                + " 'offset': 0.5, 'shape': 'triangle'}, {'type': 'time'}, {'type': 'random', 'name': 'dice'"));
        cases.put("task inputs bound", breaking("{'type': 'delay', 'duration': 2, 'reselect': false}",
                "{'type': 'delay', 'name': 'wait', 'duration': {'param': 'coins'}, 'randomDeviation': {'eval': 'danger.value'}},"
                        + " {'type': 'sendEvent', 'tag': 'x', 'payload': {'param': 'coins'}},"
                        + " {'type': 'setParameter', 'param': 'coins', 'value': 7},"
                        + " {'type': 'waitUntil', 'condition': {'type': 'bool', 'param': 'hungry'}}"));
        cases.put("global tasks", breaking("'evaluators':", "'globalTasks': [{'type': 'delay', 'name': 'limit',"
                + " 'duration': {'param': 'coins'}, 'considerForCompletion': false}, {'type': 'run'}], 'evaluators':"));
        cases.put("enabled flags", breaking("'to': '@next'}",
                "'to': '@next', 'enabled': true}, {'trigger': 'onTick', 'to': 'Idle', 'enabled': false}")
                .replace(json("{'name': 'Idle',"), json("{'name': 'Off', 'enabled': false, 'tasks': [{'type': 'run',"
                        + " 'enabled': false}]}, {'name': 'Idle', 'enabled': true,"))
                .replace(json("'evaluators': ["), json("'globalTasks': [{'type': 'run', 'enabled': false}],"
                        + " 'evaluators': [{'type': 'time', 'enabled': false}, ")));
        cases.put("a composite", breaking("'name': 'Root',", "'name': 'Root', 'composite': 'selector',"));
        cases.put("history", breaking("'name': 'Root',", "'name': 'Root', 'history': 'deep',"));
        cases.put("a root-first scan", breaking("{'name': 'T',", "{'name': 'T', 'transitionScan': 'rootFirst',"));
        cases.put("Unreal 5.8's rules", breaking("{'name': 'T',", "{'name': 'T', 'rules': 'unreal-5.8',"));
        cases.put("the seeds' rules said out loud", breaking("{'name': 'T',", "{'name': 'T', 'rules': 'seed',"));
        cases.put("tick periods and state parameters", breaking("'name': 'Idle',", "'name': 'Idle', 'tickPeriod': 4,"
                + " 'parameters': {'wait': {'type': 'float', 'value': {'fn': 'mul', 'args': [{'param': 'coins'}, 2]}},"
                + " 'left': {'type': 'int', 'default': 3}, 'mode': {'type': 'enum', 'values': ['A', 'B'], 'value': 'B'}},")
                .replace(json("'name': 'Root',"), json("'name': 'Root', 'tickPeriod': 64.0,")));
        for (Map.Entry<String, String> c : cases.entrySet()) {
            StateTreeJson.compile(c.getKey(), c.getValue(), StateTreeCompiler.withBuiltins());
            assertEquals(List.of(), errors(c.getValue()), c.getKey());
        }
    }

    @Test
    void hostRegisteredNodeTypesStayAllowed() {
        // The demo's node types (agents-demo DemoNodes) and the test assets' claim task are unknown to the schema.
        String host = breaking("{'type': 'delay', 'duration': 2, 'reselect': false}",
                "{'type': 'claim', 'name': 'c', 'capacity': 3, 'reselect': true},"
                        + " {'type': 'moveTo', 'x': {'task': 'c.slotX'}, 'y': {'task': 'Root/Idle:c.slotX'}, 'speed': 1.5,"
                        + "  'options': {'avoid': ['water', 2]}},"
                        + " {'type': 'waitUntil', 'condition': {'type': 'isDark', 'threshold': 0.2}}");
        host = host.replace(json("'evaluators': ["), json("'evaluators': [{'type': 'perception', 'hitTag': 'Hit'}, "));
        assertEquals(List.of(), errors(host));
        // ... but their common keys are still checked, and null stays invalid.
        assertFalse(errors(host.replace(json("'reselect': true"), json("'reselect': 'yes'"))).isEmpty());
        assertFalse(errors(host.replace(json("'name': 'c'"), json("'name': ''"))).isEmpty());
        assertFalse(errors(host.replace(json("'threshold': 0.2"), json("'threshold': null"))).isEmpty());
    }

    // ---- the built-in node types -----------------------------------------------------------------

    @Test
    void everyBuiltinNodeTypeIsDescribedInTheSchemaAsRegistered() {
        JsonNode defs = schemaDoc.get("$defs");
        Map<String, NodeType> builtins = BuiltinNodes.registry().types();
        Set<String> described = new TreeSet<>();
        for (Iterator<String> it = defs.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (k.matches("(task|condition|evaluator)\\..+")) {
                described.add(k);
            }
        }
        Set<String> expected = new TreeSet<>();
        for (NodeType t : builtins.values()) {
            expected.add(t.category().word() + "." + t.name());
        }
        assertEquals(expected, described, "$defs <category>.<type> for exactly the built-in node types");

        for (NodeType t : builtins.values()) {
            String cat = t.category().word();
            String key = cat + "." + t.name();
            JsonNode def = defs.get(key);
            JsonNode props = def.get("properties");
            assertEquals(t.name(), props.path("type").path("const").asText(), key + ": type const");
            assertTrue(def.path("description").isTextual() && def.path("title").isTextual(), key + ": title, description");
            assertFalse(def.path("additionalProperties").asBoolean(true), key + ": additionalProperties false");

            Set<String> keys = new TreeSet<>(t.properties().keySet());
            keys.add("type");
            keys.add("name");
            if (t.category() == NodeType.Category.TASK) {
                keys.add("reselect");
                keys.add("considerForCompletion");
            }
            if (t.category() != NodeType.Category.CONDITION) {
                keys.add("enabled"); // rules N1-N5: tasks and evaluators, not conditions
            }
            assertEquals(keys, fieldNames(props), key + ": properties");

            Set<String> required = new TreeSet<>();
            for (PropertySpec p : t.properties().values()) {
                if (p.required()) {
                    required.add(p.name());
                }
                JsonNode ps = props.get(p.name());
                if (p.kind() == PropertySpec.Kind.CHOICE) {
                    assertEquals(p.choices(), texts(ps.get("enum")), key + "." + p.name() + ": choices");
                }
                if (p.defaultValue() != null) {
                    assertTrue(ps.has("default"), key + "." + p.name() + ": default " + p.defaultValue());
                    JsonNode d = ps.get("default");
                    Object schemaDefault = d.isNumber() ? (Object) d.asDouble() : d.isBoolean() ? d.asBoolean() : d.asText();
                    Object registered = p.defaultValue() instanceof Number ? ((Number) p.defaultValue()).doubleValue()
                            : p.defaultValue();
                    assertEquals(registered, schemaDefault, key + "." + p.name() + ": default");
                }
            }
            assertEquals(required, new TreeSet<>(texts(def.get("required"))), key + ": required");

            List<Set<String>> oneOf = new ArrayList<>();
            for (List<String> g : t.oneOf()) {
                oneOf.add(new TreeSet<>(g));
            }
            Set<String> schemaOneOf = new TreeSet<>();
            if (def.has("oneOf")) {
                for (JsonNode alt : def.get("oneOf")) {
                    schemaOneOf.addAll(texts(alt.get("required")));
                }
            }
            assertEquals(oneOf.isEmpty() ? Set.of() : oneOf.get(0), schemaOneOf, key + ": exactly one of");
            assertTrue(oneOf.size() <= 1, key + ": the schema describes one 'exactly one of' group per type");

            // The category's node object applies the definition to this type ...
            boolean applied = false;
            for (JsonNode rule : defs.get(cat).get("allOf")) {
                if (t.name().equals(rule.path("if").path("properties").path("type").path("const").asText())) {
                    applied = ("#/$defs/" + key).equals(rule.path("then").path("$ref").asText());
                }
            }
            assertTrue(applied, cat + " applies #/$defs/" + key + " when type is " + t.name());
            // ... offers the name to editors, and the other categories refuse it.
            assertTrue(texts(defs.get(cat).get("properties").get("type").get("examples")).contains(t.name()),
                    cat + " type examples list " + t.name());
            for (NodeType.Category other : NodeType.Category.values()) {
                List<String> refused = texts(defs.get(other.word()).get("properties").get("type").path("not").get("enum"));
                assertEquals(other != t.category(), refused.contains(t.name()),
                        other.word() + " type refuses " + t.name() + ": " + refused);
            }
        }
        for (NodeType.Category c : NodeType.Category.values()) {
            JsonNode type = defs.get(c.word()).get("properties").get("type");
            assertEquals(builtins.size(), texts(type.get("examples")).size() + texts(type.get("not").get("enum")).size(),
                    c.word() + ": examples and refused names are exactly the built-ins");
        }
    }

    private static Set<String> fieldNames(JsonNode o) {
        Set<String> out = new TreeSet<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            for (JsonNode n : array) {
                out.add(n.asText());
            }
        }
        return out;
    }
}
