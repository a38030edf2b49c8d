package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.internal.TreeFingerprint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code "history"} on states (docs/SEMANTICS.md, rule Y1) through the builder, the loader, the
 * writer, the pruning of disabled elements, linked assets and the compiler. Its behaviour is in the
 * golden cases {@code hist_*} and its errors in {@code hist_errors}.
 */
class HistoryAssetTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    @TempDir
    Path dir;

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static StateTreeBuilder hsm(String history) {
        StateTreeBuilder.State clean = state("Clean").child(state("Search").task(node("run")))
                .child(state("Carry").task(node("run")));
        if (history != null) {
            clean.history(history);
        }
        return tree("Robot").root(state("Root").child(clean).child(state("Refuel").task(node("run"))));
    }

    @Test
    void theBuilderMirrorsTheJsonKey() throws Exception {
        TreeDef built = tree("H").root(state("Root").deepHistory()
                .child(state("A").shallowHistory().child(state("A1").task(node("run"))))
                .child(state("B").task(node("run")))).build();
        TreeDef read = StateTreeJson.read("h.json", json("{'name': 'H', 'root': {'name': 'Root', 'history': 'deep',"
                + " 'children': [{'name': 'A', 'history': 'shallow', 'children': [{'name': 'A1', 'tasks': [{'type': 'run'}]}]},"
                + " {'name': 'B', 'tasks': [{'type': 'run'}]}]}}"));
        DefEquivalence.assertEquivalent(built, read);
        CompiledStateTree t = COMPILER.compile(read);
        assertEquals(2, t.history.count());
        assertEquals(HistoryStates.DEEP, t.history.kind(t.stateByPath("Root")));
        assertEquals(HistoryStates.SHALLOW, t.history.kind(t.stateByPath("Root/A")));
        assertEquals(HistoryStates.NONE, t.history.kind(t.stateByPath("Root/B")));
        assertEquals(1, t.history.index(t.stateByPath("Root/A")));
        assertEquals(-1, t.history.index(t.stateByPath("Root/B")));
        assertEquals(t.stateByPath("Root/A"), t.history.state(1));
    }

    @Test
    void theWriterRoundTripsTheKey() throws Exception {
        TreeDef def = hsm("deep").build();
        String written = StateTreeJson.write(def);
        assertTrue(written.contains("\"name\": \"Clean\",\n        \"history\": \"deep\""), written);
        TreeDef again = StateTreeJson.read("again.json", written);
        DefEquivalence.assertEquivalent(def, again);
        assertEquals(written, StateTreeJson.write(again), "writing is stable");
    }

    @Test
    void theTreeThatRunsKeepsTheHistoryOfTheAsset() throws Exception {
        // the pruned asset (rules N1-N5) keeps the history of its enabled states
        CompiledStateTree t = COMPILER.compile(tree("P").root(state("Root")
                .child(state("H").shallowHistory().child(state("A").task(node("run")))
                        .child(state("B").enabled(false).task(node("run"))))
                .child(state("Off").enabled(false).deepHistory().child(state("C").task(node("run"))))).build());
        assertEquals(HistoryStates.SHALLOW, t.history.kind(t.stateByPath("Root/H")));
        assertEquals(1, t.history.count(), "a disabled state is never selected and keeps no memory");
    }

    @Test
    void aLinkedAssetsRootKeepsItsHistoryInEachCopy() throws Exception {
        Files.writeString(dir.resolve("main.json"), json("{'name': 'Main', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'type': 'linkedAsset', 'asset': 'part.json'},"
                + "{'name': 'B', 'type': 'linkedAsset', 'asset': 'part.json'}]}}"));
        Files.writeString(dir.resolve("part.json"), json("{'name': 'Part', 'root': {'name': 'PartRoot', 'history': 'deep',"
                + " 'children': [{'name': 'X', 'tasks': [{'type': 'run'}]}]}}"));
        CompiledStateTree t = StateTreeJson.compile(dir.resolve("main.json"), COMPILER);
        assertEquals(2, t.history.count(), "one memory per linked copy");
        assertTrue(t.history.has(t.stateByPath("Root/A/Part")));
        assertTrue(t.history.has(t.stateByPath("Root/B/Part")));
    }

    @Test
    void onlyTreesWithHistoryChangeTheirFingerprints() throws Exception {
        long without = TreeFingerprint.of(COMPILER.compile(hsm(null).build()));
        long shallow = TreeFingerprint.of(COMPILER.compile(hsm("shallow").build()));
        long deep = TreeFingerprint.of(COMPILER.compile(hsm("deep").build()));
        assertNotEquals(without, shallow);
        assertNotEquals(shallow, deep);
        // the fingerprint of a tree without history is the one it had before the key existed (d604b72)
        assertEquals("51a1d0aab25f35ae", TreeFingerprint.hex(without));
    }
}
