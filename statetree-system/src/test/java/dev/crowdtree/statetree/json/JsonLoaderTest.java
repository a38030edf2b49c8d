package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.internal.TreeFingerprint;
import dev.crowdtree.statetree.node.ValueType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLoaderTest {

    /** JSON written with single quotes for readability. */
    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    @Test
    void completeAssetUsingEveryFeatureLoadsAndCompiles() throws Exception {
        Path file = TestAssets.path("soldier.json");
        CompiledStateTree t = StateTreeJson.compile(file, TestAssets.compiler());

        assertEquals("Soldier", t.name);
        assertEquals(file.toString(), t.source);
        // states in DFS pre-order, the linked subtree inlined under its linked state
        assertEquals(List.of("Root", "Root/Danger", "Root/Danger/Fight", "Root/Danger/Reload",
            "Root/Danger/Flee", "Root/Danger/Flee/Escape", "Root/Danger/Flee/Escape/Run",
            "Root/Danger/Flee/Escape/Hide", "Root/Calm", "Root/Calm/Idle"), t.statePaths());
        assertEquals(CompiledStateTree.GROUP, t.stateType(t.stateByPath("Root/Danger")));
        assertEquals(CompiledStateTree.LINKED, t.stateType(t.stateByPath("Root/Danger/Flee")));
        assertEquals(CompiledStateTree.SUBTREE, t.stateType(t.stateByPath("Root/Danger/Flee/Escape")));
        assertEquals(CompiledStateTree.TRY_ENTER, t.stateSelection(t.stateByPath("Root/Calm")));

        // parameters in file order, with their defaults
        assertEquals(List.of("alert", "ammo", "courage"), t.paramNames());
        assertArrayEquals(new ValueType[] {ValueType.BOOL, ValueType.INT, ValueType.FLOAT},
                IntStream.range(0, t.paramCount()).mapToObj(t::paramType).toArray());
        assertArrayEquals(new double[] {0, 30, 0.75}, IntStream.range(0, t.paramCount()).mapToDouble(t::paramDefault).toArray());
        assertEquals(3, t.evaluatorCount());
        assertEquals("perception", t.evaluator(1).name());

        // tasks: names, reselect, enter conditions
        int fight = t.stateByPath("Root/Danger/Fight");
        assertEquals(2, t.stateTasksNum(fight));
        assertEquals("aim", t.taskName(t.stateTasksBegin(fight)));
        assertEquals("sendEvent", t.taskName(t.stateTasksBegin(fight) + 1));
        assertFalse(t.taskReselect(t.stateTasksBegin(fight) + 1));
        assertTrue(t.taskReselect(t.stateTasksBegin(fight)));
        assertEquals(2, t.stateEnterConditionsNum(fight));
        assertEquals(2, t.stateLinkedParamsNum(t.stateByPath("Root/Danger/Flee")));

        // transitions: targets by path, by unique name, @next, specials, events and gates
        assertEquals(List.of("@failed", "@succeeded"), targets(t, "Root"));
        assertEquals(List.of("Root/Danger/Reload", "Root/Danger/Flee"), targets(t, "Root/Danger/Fight"));
        assertEquals(List.of("Root/Danger/Fight"), targets(t, "Root/Danger/Reload"));
        assertEquals(List.of("Root/Danger", "@none"), targets(t, "Root/Calm"));
        assertEquals(List.of("Root/Danger/Flee/Escape/Hide"), targets(t, "Root/Danger/Flee/Escape/Run"));
        int extract = t.stateTransitionsBegin(0) + 1;
        assertEquals(CompiledStateTree.TRIGGER_EVENT, t.transitionTrigger(extract));
        assertEquals("extract", t.tagName(t.transitionEvent(extract)));
        assertEquals(2.0f, t.transitionDelay(extract));
        assertEquals(0.5f, t.transitionDelayVariance(extract));
        for (String tag : List.of("die", "extract", "shot", "alarm")) {
            assertTrue(t.tagId(tag) >= 0, tag);
        }
    }

    private static List<String> targets(CompiledStateTree t, String path) {
        int s = t.stateByPath(path);
        List<String> out = new ArrayList<>();
        for (int i = t.stateTransitionsBegin(s); i < t.stateTransitionsBegin(s) + t.stateTransitionsNum(s); i++) {
            out.add(t.transitionTargetName(i));
        }
        return out;
    }

    @Test
    void everyTestAssetCompiles() throws Exception {
        for (String name : TestAssets.NAMES) {
            CompiledStateTree t = StateTreeJson.compile(name, TestAssets.text(name), TestAssets.compiler());
            assertEquals(name, t.source);
        }
        CompiledStateTree shopper = StateTreeJson.compile(TestAssets.path("shopper.json"), TestAssets.compiler());
        // a subtree linking another subtree: both inlined
        assertTrue(shopper.stateByPath("Root/Shop/Buy/Pay/Count") > 0);
    }

    @Test
    void readKeepsTheAuthoredModelInFileOrder() throws Exception {
        TreeDef def = StateTreeJson.read(TestAssets.path("soldier.json"));
        assertEquals(TestAssets.path("soldier.json").toString(), def.source());
        assertEquals(List.of("alert", "ammo", "courage"), def.parameters().stream().map(ParameterDef::name).toList());
        assertEquals(30L, def.parameters().get(1).defaultValue());
        assertEquals(Boolean.FALSE, def.parameters().get(0).defaultValue());
        StateDef flee = def.root().children().get(0).children().get(2);
        assertEquals("linked", flee.type());
        assertEquals("Escape", flee.linkedSubtree());
        assertEquals(List.of("speed", "far"), new ArrayList<>(flee.linkedParameters().keySet()));
        assertEquals(Map.of("param", "courage"), flee.linkedParameters().get("speed"));
        NodeDef aim = def.root().children().get(0).children().get(0).tasks().get(0);
        assertEquals("delay", aim.type());
        assertEquals("aim", aim.name());
        assertEquals(Map.of("task", "claim.slotX"), aim.properties().get("duration"));
        assertEquals("subtree", def.subtrees().get(0).type());
        assertEquals(List.of("speed", "far"),
                def.subtrees().get(0).parameters().stream().map(ParameterDef::name).toList());
    }

    @Test
    void numbersConvertToLongWhenIntegralAndFittingElseDouble() throws Exception {
        TreeDef def = StateTreeJson.read("numbers.json", json("{'name': 'N', 'root': {'name': 'R', 'tasks': [{'type': 'x',"
                + " 'int': 42, 'neg': -7, 'zero': 0, 'max': 9223372036854775807, 'min': -9223372036854775808,"
                + " 'twoTo63': 9223372036854775808, 'belowMin': -9223372036854775809,"
                + " 'float': 1.5, 'intAsFloat': 2.0, 'exp': 1e3, 'huge': 1e308, 'tooHuge': 1e400, 'tiny': 4.9e-324,"
                + " 'list': [1, 2.5, 'x', true, {'param': 'a'}], 'nested': {'z': 1, 'a': 2, 'm': 3}}]}}"));
        Map<String, Object> p = def.root().tasks().get(0).properties();
        assertEquals(42L, p.get("int"));
        assertEquals(-7L, p.get("neg"));
        assertEquals(0L, p.get("zero"));
        assertEquals(Long.MAX_VALUE, p.get("max"));
        assertEquals(Long.MIN_VALUE, p.get("min"));
        assertEquals(9.223372036854775808e18, p.get("twoTo63"));
        assertEquals(-9.223372036854775809e18, p.get("belowMin"));
        assertEquals(1.5, p.get("float"));
        assertEquals(2.0, p.get("intAsFloat"));
        assertEquals(1000.0, p.get("exp"));
        assertEquals(1e308, p.get("huge"));
        assertEquals(Double.POSITIVE_INFINITY, p.get("tooHuge"));
        assertEquals(4.9e-324, p.get("tiny"));
        List<?> list = (List<?>) p.get("list");
        assertEquals(List.of(1L, 2.5, "x", true, Map.of("param", "a")), list);
        assertInstanceOf(LinkedHashMap.class, list.get(4));
        Object nested = p.get("nested");
        assertInstanceOf(LinkedHashMap.class, nested);
        assertEquals(List.of("z", "a", "m"), new ArrayList<>(((Map<?, ?>) nested).keySet()));
    }

    @Test
    void numbersReachTheCompilerAsTheSchemaExpects() throws Exception {
        // an integral double is a valid int constant; 2^63 is out of range; 1e400 is not finite
        CompiledStateTree t = StateTreeJson.compile("ok.json", json("{'name': 'N', 'root': {'name': 'R',"
                + " 'tasks': [{'type': 'succeed', 'afterTicks': 2.0}, {'type': 'delay', 'duration': 3}]}}"),
                TestAssets.compiler());
        assertEquals(2, t.taskCount());
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.compile(
                "bad.json", json("{'name': 'N', 'root': {'name': 'R', 'tasks': [{'type': 'succeed', 'afterTicks': "
                        + "9223372036854775808}, {'type': 'delay', 'duration': 1e400}, {'type': 'succeed', "
                        + "'afterTicks': -1}]}}"), TestAssets.compiler()));
        assertEquals(List.of("tasks[0].afterTicks", "tasks[1].duration", "tasks[2].afterTicks"),
                e.errors().stream().map(CompileError::field).toList());
        assertTrue(e.errors().get(0).message().contains("out of range"), e.getMessage());
        assertTrue(e.errors().get(1).message().contains("finite"), e.getMessage());
    }

    @Test
    void writeThenReadGivesAnEquivalentTree() throws Exception {
        for (String name : TestAssets.NAMES) {
            TreeDef def = StateTreeJson.read(name, TestAssets.text(name));
            String written = StateTreeJson.write(def);
            TreeDef again = StateTreeJson.read(name, written);
            DefEquivalence.assertEquivalent(def, again);
            assertEquals(written, StateTreeJson.write(again), "writing is stable");
            CompiledStateTree a = StateTreeJson.compile(name, TestAssets.text(name), TestAssets.compiler());
            CompiledStateTree b = StateTreeJson.compile(name, written, TestAssets.compiler());
            assertEquals(a.statePaths(), b.statePaths());
            assertEquals(a.taskNames(), b.taskNames());
            assertArrayEquals(IntStream.range(0, a.transitionCount).map(a::transitionTarget).toArray(),
                    IntStream.range(0, b.transitionCount).map(b::transitionTarget).toArray());
        }
    }

    @Test
    void writeIsPrettyAndKeepsTheDocumentedKeyOrder() throws Exception {
        String written = StateTreeJson.write(StateTreeJson.read("guard.json", TestAssets.text("guard.json")));
        assertTrue(written.startsWith("{\n  \"name\": \"Guard\",\n  \"parameters\": {\n"), written);
        assertTrue(written.indexOf("\"evaluators\"") < written.indexOf("\"root\""), written);
        assertTrue(written.contains("\"duration\": 2,"), written);
        assertTrue(written.contains("\"randomDeviation\": 0.5"), written);
    }

    /** A small tree, under {@code rules} (null: the key left out). */
    private static TreeDef underRules(String rules) {
        StateTreeBuilder b = StateTreeBuilder.tree("U").param("f", "float", 0.5);
        if (rules != null) {
            b.rules(rules);
        }
        return b.root(state("Root")
                .child(state("Wait").task(node("delay").with("duration", 1.0).reselect(false))
                        .transition(on("onTick").to("Wait").delay(0.5, 0.0)))
                .child(state("Off").enabled(false).task(node("run"))))
                .build();
    }

    @Test
    void theRulesKeyIsReadWrittenAndReadBack() throws Exception {
        TreeDef built = underRules("unreal-5.8");
        TreeDef read = StateTreeJson.read("u.json", json("{'name': 'U', 'rules': 'unreal-5.8', 'parameters': {'f': {'type': 'float',"
                + " 'default': 0.5}}, 'root': {'name': 'Root', 'children': [{'name': 'Wait', 'tasks': [{'type': 'delay',"
                + " 'duration': 1.0, 'reselect': false}], 'transitions': [{'trigger': 'onTick', 'to': 'Wait',"
                + " 'delay': 0.5, 'delayVariance': 0.0}]}, {'name': 'Off', 'enabled': false, 'tasks': [{'type': 'run'}]}]}}"));
        DefEquivalence.assertEquivalent(built, read); // the builder mirrors the JSON key
        assertEquals("unreal-5.8", read.rules());
        String written = StateTreeJson.write(read);
        assertTrue(written.startsWith("{\n  \"name\": \"U\",\n  \"rules\": \"unreal-5.8\",\n  \"parameters\""), written);
        TreeDef again = StateTreeJson.read("again.json", written);
        DefEquivalence.assertEquivalent(read, again);
        assertEquals("unreal-5.8", again.rules());
        assertEquals(written, StateTreeJson.write(again), "writing is stable");
        // the tree that runs (a disabled state pruned, rules N1-N5) keeps the rules
        assertTrue(TestAssets.compiler().compile(again).unreal.on);

        // after transitionScan, in the documented order
        String both = StateTreeJson.write(StateTreeBuilder.tree("B").transitionScan("leafFirst").rules("unreal-5.8")
                .root(state("Root").task(node("run"))).build());
        assertTrue(both.startsWith("{\n  \"name\": \"B\",\n  \"transitionScan\": \"leafFirst\",\n"
                + "  \"rules\": \"unreal-5.8\",\n"), both);
        // the default: left out when absent, written back when said
        String absent = StateTreeJson.write(underRules(null));
        assertFalse(absent.contains("\"rules\""), absent);
        assertFalse(TestAssets.compiler().compile(StateTreeJson.read("a.json", absent)).unreal.on);
        String seed = StateTreeJson.write(underRules("seed"));
        assertTrue(seed.contains("\n  \"rules\": \"seed\",\n"), seed);
        assertEquals("seed", StateTreeJson.read("s.json", seed).rules());
        assertFalse(TestAssets.compiler().compile(StateTreeJson.read("s.json", seed)).unreal.on);
        // a value the compiler refuses is still read and written as it is (the compiler reports it)
        String unknown = StateTreeJson.write(underRules("unreal-5.9"));
        assertEquals("unreal-5.9", StateTreeJson.read("x.json", unknown).rules());
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("x.json", unknown, TestAssets.compiler()));
        assertEquals("rules", e.errors().get(0).field());
    }

    @Test
    void theFingerprintTellsTheRuleSetsApart() throws Exception {
        long absent = TreeFingerprint.of(TestAssets.compiler().compile(underRules(null)));
        long seed = TreeFingerprint.of(TestAssets.compiler().compile(underRules("seed")));
        long unreal = TreeFingerprint.of(TestAssets.compiler().compile(underRules("unreal-5.8")));
        assertEquals(absent, seed, "seed is the default");
        assertNotEquals(seed, unreal);
        // read from JSON, written and read back: the same fingerprints
        assertEquals(unreal, TreeFingerprint.of(StateTreeJson.compile("u.json", StateTreeJson.write(underRules("unreal-5.8")),
                TestAssets.compiler())));
        // a tree under the seeds' rules keeps the fingerprint it had before the key existed
        // (HistoryAssetTest pins the same tree's: d604b72)
        TreeDef robot = StateTreeBuilder.tree("Robot").root(state("Root")
                .child(state("Clean").child(state("Search").task(node("run"))).child(state("Carry").task(node("run"))))
                .child(state("Refuel").task(node("run")))).build();
        assertEquals("51a1d0aab25f35ae", TreeFingerprint.hex(TreeFingerprint.of(TestAssets.compiler().compile(robot))));
        TreeDef unrealRobot = new TreeDef(robot.source(), robot.name(), robot.parameters(), robot.evaluators(), robot.root(),
                robot.subtrees(), robot.globalTasks(), robot.transitionScan(), "unreal-5.8");
        assertNotEquals("51a1d0aab25f35ae", TreeFingerprint.hex(TreeFingerprint.of(TestAssets.compiler().compile(unrealRobot))));
    }

    @Test
    void builderTreesRoundTripThroughJson() throws Exception {
        TreeDef def = dev.crowdtree.statetree.definition.StateTreeBuilder.tree("Built")
                .param("threat", "float", 0.25)
                .param("count", "int", 3)
                .evaluator(node("wave").named("w").with("period", 4.0))
                .root(state("Root")
                        .child(state("Idle").task(node("delay").with("duration", Binding.param("count")))
                                .transition(on("onStateCompleted").to("Patrol")))
                        .child(state("Patrol").task(node("run").reselect(false))
                                .transition(on("onTick").to("Idle").delay(1.0, 0.25)
                                        .when(node("not").with("condition",
                                                node("compare").with("param", "threat").with("op", ">")
                                                        .with("value", 0.5))))
                                .child(state("Look").linked("Look").linkedParam("range", Binding.eval("w.value")))))
                .subtree(state("Look").param("range", "float", 10.0).task(node("succeed").with("onEnter", true)))
                .build();
        TreeDef again = StateTreeJson.read("built.json", StateTreeJson.write(def));
        DefEquivalence.assertEquivalent(def, again);
        // both compile to the same tree
        CompiledStateTree a = TestAssets.compiler().compile(def);
        CompiledStateTree b = TestAssets.compiler().compile(again);
        assertEquals(a.statePaths(), b.statePaths());
        assertArrayEquals(IntStream.range(0, a.transitionCount).mapToDouble(a::transitionDelayVariance).toArray(),
                IntStream.range(0, b.transitionCount).mapToDouble(b::transitionDelayVariance).toArray());
    }

    @Test
    void globalTasksFromTheBuilderAndFromJsonAreTheSame() throws Exception {
        TreeDef built = dev.crowdtree.statetree.definition.StateTreeBuilder.tree("Camp")
                .param("patience", "float", 30.0)
                .globalTask(node("claim").named("camp"))
                .globalTask(node("delay").named("lifetime").with("duration", Binding.param("patience"))
                        .with("considerForCompletion", false))
                .root(state("Root").task(node("delay").with("duration", Binding.task("@global:camp.slotX"))))
                .build();
        TreeDef read = StateTreeJson.read("camp.json", "{\"name\": \"Camp\", \"parameters\": {\"patience\":"
                + " {\"type\": \"float\", \"default\": 30.0}}, \"globalTasks\": [{\"type\": \"claim\", \"name\": \"camp\"},"
                + " {\"type\": \"delay\", \"name\": \"lifetime\", \"duration\": {\"param\": \"patience\"},"
                + " \"considerForCompletion\": false}], \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"delay\","
                + " \"duration\": {\"task\": \"@global:camp.slotX\"}}]}}");
        DefEquivalence.assertEquivalent(built, read);
        String written = StateTreeJson.write(built);
        assertTrue(written.indexOf("\"evaluators\"") < 0 && written.indexOf("\"globalTasks\"") < written.indexOf("\"root\""),
                written);
        DefEquivalence.assertEquivalent(built, StateTreeJson.read("camp.json", written));
        CompiledStateTree t = TestAssets.compiler().compile(built);
        assertEquals(2, t.globalTaskCount);
        assertEquals(List.of("camp", "lifetime", "delay"), t.taskNames());
        assertEquals(CompiledStateTree.INVALID, t.taskState(1));
        assertFalse(t.taskConsidered(1));
        assertEquals(2, t.stateTasksBegin(0));
    }

    @Test
    void infiniteNumbersSurviveWriting() throws Exception {
        TreeDef def = StateTreeJson.read("inf.json", json("{'name': 'N', 'root': {'name': 'R', "
                + "'transitions': [{'trigger': 'onTick', 'to': '@none', 'delay': 1e400, 'delayVariance': -1e999}]}}"));
        String written = StateTreeJson.write(def);
        assertTrue(written.contains("\"delay\": 1e999"), written);
        DefEquivalence.assertEquivalent(def, StateTreeJson.read("inf.json", written));
    }

    @Test
    void compileReportsReaderErrorsThenCompilerErrorsWithoutRepeats() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.compile(
                "mixed.json", json("{'name': 'M', 'root': {'name': 'R', 'colour': 'red', 'children': ["
                        + "{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 5}]},"
                        + "{'name': 'B', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 'Nowhere'}]}]}}"),
                TestAssets.compiler()));
        List<String> where = e.errors().stream().map(x -> x.statePath() + " " + x.field()).toList();
        // the reader's errors first; the compiler's "needs a target" for A is the same problem and left out
        assertEquals(List.of("R colour", "R/A transitions[0].to", "R/B transitions[0].to"), where, e.getMessage());
        assertTrue(e.errors().get(2).message().contains("unknown target state 'Nowhere'"), e.getMessage());
    }

    @Test
    void unreadableFilesAreReportedAsCompileErrors(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing.json");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read(missing));
        assertEquals(1, e.errors().size());
        assertEquals(missing.toString(), e.errors().get(0).source());
        assertTrue(e.errors().get(0).message().contains("does not exist"), e.getMessage());

        Path latin1 = dir.resolve("latin1.json");
        Files.write(latin1, "{\"name\": \"Caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1));
        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.compile(latin1, TestAssets.compiler()));
        assertTrue(e.errors().get(0).message().contains("not valid UTF-8"), e.getMessage());

        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read(dir));
        assertEquals(dir.toString(), e.errors().get(0).source());
        assertTrue(e.errors().get(0).message().startsWith("cannot read the file"), e.getMessage());
    }

    @Test
    void theCompleteExampleInTheFormatDocumentationCompiles() throws Exception {
        // Surefire runs in the module directory; the docs are at the repository root.
        String doc = Files.readString(Path.of("..", "docs", "ASSET_FORMAT.md"));
        String section = doc.substring(doc.indexOf("## Complete example"));
        int begin = section.indexOf("```json\n") + "```json\n".length();
        String example = section.substring(begin, section.indexOf("```", begin));
        CompiledStateTree t = StateTreeJson.compile("ASSET_FORMAT.md", example,
                dev.crowdtree.statetree.compiler.StateTreeCompiler.withBuiltins());
        assertEquals(List.of("Root", "Root/Flee", "Root/Life", "Root/Life/Eat", "Root/Life/Eat/Meal",
            "Root/Life/Eat/Meal/Queue", "Root/Life/Eat/Meal/Pay", "Root/Life/Rest", "Root/Life/Wander",
            "Root/Life/Wander/Gaze"), t.statePaths());
        assertEquals(List.of(), t.warnings, "an example without authoring warnings");
        DefEquivalence.assertEquivalent(StateTreeJson.read("a", example),
                StateTreeJson.read("b", StateTreeJson.write(StateTreeJson.read("a", example))));
    }

    @Test
    void aSchemaKeyAtTheTopLevelIsAcceptedAndIgnored() throws Exception {
        String without = TestAssets.text("soldier.json");
        assertTrue(without.startsWith("{"), "soldier.json is an object");
        String with = "{\n  \"$schema\": \"../docs/statetree-asset.schema.json\"," + without.substring(1);

        DefEquivalence.assertEquivalent(StateTreeJson.read("soldier.json", without),
                StateTreeJson.read("soldier.json", with));
        CompiledStateTree a = StateTreeJson.compile("soldier.json", without, TestAssets.compiler());
        CompiledStateTree b = StateTreeJson.compile("soldier.json", with, TestAssets.compiler());
        assertEquals(a.statePaths(), b.statePaths());
        assertEquals(DotWriter.toDot(a), DotWriter.toDot(b));
        // ignored: writing the tree back leaves it out
        assertEquals(StateTreeJson.write(StateTreeJson.read("a", without)),
                StateTreeJson.write(StateTreeJson.read("b", with)));
    }

    @Test
    void theSchemaKeyMustBeAStringAndIsOnlyAcceptedAtTheTopLevel() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.read("a.json", json("{'$schema': 7, 'name': 'T', 'root': {'name': 'R'}}")));
        assertEquals(1, e.errors().size(), e.getMessage());
        assertEquals("$schema", e.errors().get(0).field());
        assertEquals("expected a string, got 7 (a number)", e.errors().get(0).message());

        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read("a.json",
                json("{'name': 'T', 'root': {'name': 'R', '$schema': 'x.json'}}")));
        assertEquals(1, e.errors().size(), e.getMessage());
        assertEquals("R", e.errors().get(0).statePath());
        assertTrue(e.errors().get(0).message().startsWith("unknown key '$schema' in a state; valid keys are name, "),
                e.getMessage());

        // other unknown top-level keys keep their error, which does not list $schema
        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read("a.json",
                json("{'$schema': 'x.json', 'name': 'T', 'root': {'name': 'R'}, 'schema': 'x.json'}")));
        assertEquals(1, e.errors().size(), e.getMessage());
        assertEquals("schema", e.errors().get(0).field());
        assertEquals("unknown key 'schema' at the top level; valid keys are name, transitionScan, rules, parameters,"
                + " evaluators, globalTasks, root, subtrees, hostEvents", e.errors().get(0).message());
    }

    @Test
    void aByteOrderMarkIsAccepted(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bom.json");
        Files.writeString(f, "\uFEFF" + TestAssets.text("guard.json"));
        assertEquals("Guard", StateTreeJson.compile(f, TestAssets.compiler()).name);
        assertEquals("Guard", StateTreeJson.read("bom", "\uFEFF" + TestAssets.text("guard.json")).name());
    }
}
