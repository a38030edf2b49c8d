package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.RequiredEventDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.internal.TreeFingerprint;
import dev.crowdtree.statetree.node.ValueType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.requiredEvent;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code "requiredEvent"} on states (docs/SEMANTICS.md section 18, rules V1-V6) through the builder,
 * the loader, the writer, the pruning of disabled elements, linked assets, the slot layout, the
 * fingerprint and the dot picture. Its behaviour is in the golden cases {@code reqevent_*}.
 */
class RequiredEventAssetTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    /** Respond requires an Alarm with x and y (floats), not consumed, and its task reads x. */
    private static final String ASSET = json("{'name': 'Guard', 'root': {'name': 'Root', 'children': ["
            + "{'name': 'Patrol', 'tasks': [{'type': 'run'}]},"
            + "{'name': 'Respond', 'requiredEvent': {'tag': 'Alarm', 'payloadFields': {'x': 'float', 'y': 'float'},"
            + " 'consumeEvent': false}, 'tasks': [{'type': 'delay', 'duration': {'event': 'x'}}]}]}}");

    private static TreeDef built() {
        return tree("Guard").root(state("Root")
                .child(state("Patrol").task(node("run")))
                .child(state("Respond").requiredEvent(requiredEvent("Alarm").payloadField("x", ValueType.FLOAT)
                                .payloadField("y", ValueType.FLOAT).consumeEvent(false))
                        .task(node("delay").with("duration", dev.crowdtree.statetree.definition.Binding.event("x")))))
                .build();
    }

    @Test
    void theBuilderMirrorsTheJson() throws Exception {
        TreeDef read = StateTreeJson.read("guard.json", ASSET);
        DefEquivalence.assertEquivalent(built(), read);
        assertEquals(new RequiredEventDef("Alarm", Map.of("x", "float", "y", "float"), false),
                read.root().children().get(1).requiredEvent());
        CompiledStateTree t = COMPILER.compile(read);
        assertEquals(TreeFingerprint.of(t), TreeFingerprint.of(COMPILER.compile(built())));
        int respond = t.stateByPath("Root/Respond");
        assertTrue(t.requiredEvents.any);
        assertTrue(t.requiredEvents.has(respond));
        assertFalse(t.requiredEvents.has(t.stateByPath("Root/Patrol")));
        assertEquals("Alarm", t.tagName(t.requiredEvents.tag(respond)));
        assertFalse(t.requiredEvents.consumes(respond));
        assertEquals(2, t.payloads.requirementsNum(t.requiredEvents.payloadSet(respond)));
        // a tag only as a required event is a tag of the tree: events with it (or below it) are carried
        assertEquals(t.tagId("Alarm"), t.eventTagId("Alarm.Fire"));
        assertTrue(COMPILER.compile(tree("T").root(state("Root").child(state("A").requiredEvent("Go")
                .task(node("run")))).build()).requiredEvents.consumes(1), "consumed by default");
    }

    @Test
    void theWriterRoundTripsTheKey() throws Exception {
        String written = StateTreeJson.write(built());
        assertTrue(written.contains("\"name\": \"Respond\",\n        \"requiredEvent\": {\n          \"tag\": \"Alarm\",\n"),
                written);
        TreeDef back = StateTreeJson.read("back.json", written);
        DefEquivalence.assertEquivalent(built(), back);
        assertEquals(written, StateTreeJson.write(back), "writing is stable");
        assertEquals(TreeFingerprint.of(COMPILER.compile(built())), TreeFingerprint.of(COMPILER.compile(back)));
    }

    @Test
    void theHelpersAndThePruningOfDisabledElementsKeepTheKey() throws Exception {
        StateDef respond = built().root().children().get(1);
        RequiredEventDef e = respond.requiredEvent();
        assertEquals(e, respond.withTasks(List.of()).requiredEvent());
        assertEquals(e, respond.withChildren(List.of()).requiredEvent());
        assertEquals(e, respond.withTransitions(List.of()).requiredEvent());
        assertEquals(null, respond.withRequiredEvent(null).requiredEvent());
        // the tree that runs (rules N1-N5) is the asset in every other respect
        CompiledStateTree pruned = COMPILER.compile(StateTreeJson.read("p.json", ASSET.replace(
                "{\"name\": \"Patrol\", \"tasks\": [{\"type\": \"run\"}]}",
                "{\"name\": \"Patrol\", \"tasks\": [{\"type\": \"run\", \"enabled\": false}, {\"type\": \"run\"}]}")));
        assertTrue(pruned.requiredEvents.has(pruned.stateByPath("Root/Respond")), "the required event survives the pruning");
        // a disabled state's required event is checked (N1), and gone from the tree that runs
        CompiledStateTree off = COMPILER.compile(StateTreeJson.read("off.json", ASSET.replace("\"name\": \"Respond\",",
                "\"name\": \"Respond\", \"enabled\": false,")));
        assertFalse(off.requiredEvents.any);
    }

    @Test
    void theKeptPayloadTakesSlotsSharedPerDepth() throws Exception {
        CompiledStateTree without = COMPILER.compile(StateTreeJson.read("w.json", ASSET.replace(
                ", 'requiredEvent': {'tag': 'Alarm', 'payloadFields': {'x': 'float', 'y': 'float'}, 'consumeEvent': false}"
                        .replace('\'', '"'), "").replace("{\"event\": \"x\"}", "1")));
        CompiledStateTree with = COMPILER.compile(StateTreeJson.read("g.json", ASSET));
        assertEquals(without.floatSlots + 2, with.floatSlots, "x and y: 8 bytes per agent");
        // two states at one depth share the slots, as task fields do: the larger decides
        CompiledStateTree two = COMPILER.compile(tree("T").root(state("Root")
                .child(state("A").requiredEvent(requiredEvent("E").payloadField("x", ValueType.FLOAT)).task(node("run")))
                .child(state("B").requiredEvent(requiredEvent("E").payloadField("n", ValueType.INT)
                        .payloadField("f", ValueType.FLOAT).payloadField("b", ValueType.BOOL)).task(node("run"))))
                .build());
        assertEquals(List.of(1, 1, 1), List.of(two.floatSlots, two.intSlots, two.boolSlots));
    }

    @Test
    void aLinkedAssetsRootKeepsItsRequiredEvent(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("main.json"), json("{'name': 'Main', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'Idle', 'tasks': [{'type': 'run'}]}, {'name': 'Help', 'type': 'linkedAsset', 'asset': 'part.json'}]}}"));
        Files.writeString(dir.resolve("part.json"), json("{'name': 'Part', 'root': {'name': 'Root',"
                + " 'requiredEvent': {'tag': 'Call'}, 'tasks': [{'type': 'run'}]}}"));
        CompiledStateTree t = StateTreeJson.compile(dir.resolve("main.json"), COMPILER);
        assertTrue(t.requiredEvents.has(t.stateByPath("Root/Help/Part")));
        assertFalse(t.requiredEvents.has(t.stateByPath("Root/Help")));
    }

    @Test
    void dotShowsTheRequiredEvent() throws Exception {
        String dot = DotWriter.toDot(COMPILER.compile(built()));
        assertTrue(dot.contains("s2 [label=\"Respond\\ntasks: delay\\nrequires Alarm {x: float, y: float} (kept)\"];"), dot);
        String consumed = DotWriter.toDot(COMPILER.compile(tree("T").root(state("Root").child(state("A")
                .requiredEvent("Go").task(node("run")))).build()));
        assertTrue(consumed.contains("s1 [label=\"A\\ntasks: run\\nrequires Go\"];"), consumed);
        assertNotEquals(TreeFingerprint.of(COMPILER.compile(built())), TreeFingerprint.of(COMPILER.compile(
                StateTreeJson.read("c.json", ASSET.replace("\"consumeEvent\": false", "\"consumeEvent\": true")))),
                "the fingerprint tells a consumed required event from a kept one");
    }
}
