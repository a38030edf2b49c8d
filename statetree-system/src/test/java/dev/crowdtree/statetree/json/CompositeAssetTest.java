package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code "composite"} on states and {@code "transitionScan"} on trees (docs/SEMANTICS.md, rules K1
 * and H1) through the builder, the loader, the writer and the compiler. Their behaviour is in the
 * golden cases {@code comp_*} and {@code scan_*}.
 */
class CompositeAssetTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    @Test
    void theBuilderMirrorsTheJsonOfComposites() throws Exception {
        TreeDef built = tree("Bt")
                .root(state("Root").selector()
                        .child(state("Seq").sequence()
                                .child(state("A").task(node("run")))
                                .child(state("B").task(node("run"))))
                        .child(state("C").composite("selector").child(state("D").task(node("run")))))
                .build();
        TreeDef read = StateTreeJson.read("bt.json", json("{'name': 'Bt', 'root': {'name': 'Root', 'composite': 'selector',"
                + " 'children': [{'name': 'Seq', 'composite': 'sequence', 'children': ["
                + "  {'name': 'A', 'tasks': [{'type': 'run'}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]},"
                + " {'name': 'C', 'composite': 'selector', 'children': [{'name': 'D', 'tasks': [{'type': 'run'}]}]}]}}"));
        DefEquivalence.assertEquivalent(built, read);
        CompiledStateTree t = COMPILER.compile(read);
        assertEquals(ScanRules.SELECTOR, t.scanRules.composite(t.stateByPath("Root")));
        assertEquals(ScanRules.SEQUENCE, t.scanRules.composite(t.stateByPath("Root/Seq")));
        assertEquals(ScanRules.NONE, t.scanRules.composite(t.stateByPath("Root/Seq/A")));
        assertTrue(t.scanRules.hasComposites);
        assertFalse(t.scanRules.rootFirst);
    }

    @Test
    void theBuilderMirrorsTheJsonOfTheScanOrder() throws Exception {
        TreeDef built = tree("Hsm").rootFirst()
                .root(state("Root").transition(on("onTick").to("@none")).child(state("A").task(node("run"))))
                .build();
        TreeDef read = StateTreeJson.read("hsm.json", json("{'name': 'Hsm', 'transitionScan': 'rootFirst', 'root':"
                + " {'name': 'Root', 'transitions': [{'trigger': 'onTick', 'to': '@none'}],"
                + " 'children': [{'name': 'A', 'tasks': [{'type': 'run'}]}]}}"));
        DefEquivalence.assertEquivalent(built, read);
        CompiledStateTree t = COMPILER.compile(built);
        assertTrue(t.scanRules.rootFirst);
        assertFalse(t.scanRules.hasComposites);
        CompiledStateTree leafFirst = COMPILER.compile(tree("Hsm").transitionScan("leafFirst")
                .root(state("Root").task(node("run"))).build());
        assertFalse(leafFirst.scanRules.rootFirst);
    }

    @Test
    void bothKeysAreWrittenWhereTheFormatListsThemAndReadBack() throws Exception {
        for (TreeDef def : List.of(
                tree("Bt").root(state("Root").sequence().selection("trySelectChildrenInOrder")
                        .child(state("A").task(node("run")))).build(),
                tree("Hsm").rootFirst().param("x", "float", 1.0).root(state("Root").task(node("run"))).build())) {
            String written = StateTreeJson.write(def);
            TreeDef again = StateTreeJson.read("again.json", written);
            DefEquivalence.assertEquivalent(def, again);
            assertEquals(written, StateTreeJson.write(again), "writing is stable");
            COMPILER.compile(again);
        }
        String bt = StateTreeJson.write(tree("Bt").root(state("Root").selection("trySelectChildrenInOrder").selector()
                .child(state("A").task(node("run")))).build());
        assertTrue(bt.contains("\"selection\": \"trySelectChildrenInOrder\",\n    \"composite\": \"selector\""), bt);
        String hsm = StateTreeJson.write(tree("Hsm").rootFirst().root(state("Root").task(node("run"))).build());
        assertTrue(hsm.startsWith("{\n  \"name\": \"Hsm\",\n  \"transitionScan\": \"rootFirst\",\n"), hsm);
    }

    @Test
    void anUnknownScanOrderIsAnError() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.compile("t.json",
                json("{'name': 'T', 'transitionScan': 'depthFirst', 'root': {'name': 'R', 'tasks': [{'type': 'run'}]}}"),
                COMPILER));
        assertEquals(1, e.errors().size(), e.getMessage());
        CompileError err = e.errors().get(0);
        assertEquals("transitionScan", err.field());
        assertEquals("unknown transitionScan \"depthFirst\"; valid values are leafFirst, rootFirst", err.message());
        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read("t.json",
                json("{'name': 'T', 'transitionScan': true, 'root': {'name': 'R'}}")));
        assertTrue(e.getMessage().contains("transitionScan: expected a string, got"), e.getMessage());
    }

    @Test
    void aCompositeInAnUnlinkedSubtreeOfARootFirstTreeIsAnError() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> COMPILER.compile(tree("T")
                .rootFirst()
                .root(state("Root").task(node("run")))
                .subtree(state("Sub").sequence().child(state("A").task(node("run"))))
                .build()));
        assertTrue(e.getMessage().contains("state 'subtree Sub': composite: composite \"sequence\" cannot be used in a"
                + " tree with \"transitionScan\": \"rootFirst\""), e.getMessage());
    }
}
