package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.internal.TreeFingerprint;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The enabled flags (docs/SEMANTICS.md section 15, rules N1-N5) beyond the golden cases
 * {@code enabled_flags} and {@code enabled_errors}: the builder mirrors the JSON key, the writer
 * round-trips it, the tree that runs is the asset without its disabled elements, and {@code dot}
 * draws disabled states in grey.
 */
class EnabledFlagsTest {
    private static final Path GOLDEN = Path.of(System.getProperty("basedir", "."))
            .resolve("src/test/resources/golden/enabled_flags");

    /** The golden case's tree, written with the builder. */
    private static TreeDef built() {
        return tree("EnabledFlags")
                .param("wait", "bool", false)
                .evaluator(node("evalSend").named("pinger").with("tag", "Ping").enabled(false))
                .globalTask(node("fail").named("doom").with("afterTicks", 1).enabled(false))
                .globalTask(node("run").named("keep"))
                .root(state("Root")
                        .transition(on("onEvent").event("Ping").to("@failed"))
                        .child(state("Off").enabled(false).task(node("run"))
                                .child(state("Inner").task(node("run"))))
                        .child(state("Empty").child(state("OnlyOff").enabled(false).task(node("run"))))
                        .child(state("Work")
                                .task(node("succeed").named("quick").with("afterTicks", 1).enabled(false))
                                .task(node("run").named("busy"))
                                .task(node("run").named("busy"))
                                .transition(on("onEvent").event("Go").to("Root/Off/Inner"))
                                .transition(on("onEvent").event("Go").to("Done").enabled(false))
                                .transition(on("onEvent").event("Go").to("Empty"))
                                .transition(on("onEvent").event("Go").to("Next")))
                        .child(state("Next").task(node("run"))
                                .transition(on("onTick").to("Off").delay(0.5, 0)
                                        .when(node("bool").with("param", "wait")))
                                .transition(on("onTick").to("Done").when(node("bool").with("param", "wait"))))
                        .child(state("Done").task(node("run"))))
                .build();
    }

    @Test
    void theBuilderMirrorsTheJsonKey() throws Exception {
        CompiledStateTree fromJson = StateTreeJson.compile(GOLDEN.resolve("tree.json"), TestNodes.compiler());
        CompiledStateTree fromBuilder = TestNodes.compile(built());
        assertEquals(TreeFingerprint.of(fromJson), TreeFingerprint.of(fromBuilder));
        String scenario = Files.readString(GOLDEN.resolve("scenario.json")).replace("\"tree\": \"tree.json\",", "");
        assertEquals(Files.readAllLines(GOLDEN.resolve("expected.trace")), TestNodes.run(fromBuilder, scenario));
    }

    @Test
    void theTreeThatRunsKeepsTheScanOrderAndTheCompositesOfTheAsset() {
        // the pruned asset (rules N1-N5) is the asset in every other respect: rules H1 and K1 still hold
        CompiledStateTree rootFirst = TestNodes.compile(tree("R").rootFirst().root(state("Root")
                .child(state("A").task(node("run")))
                .child(state("B").enabled(false).task(node("run")))).build());
        assertTrue(rootFirst.scanRules.rootFirst, "transitionScan rootFirst survives the pruning");
        CompiledStateTree sequence = TestNodes.compile(tree("S").root(state("Root")
                .child(state("Seq").sequence()
                        .child(state("A").task(node("succeed")))
                        .child(state("B").enabled(false).task(node("run")))
                        .child(state("C").task(node("run"))))).build());
        assertTrue(sequence.scanRules.hasComposites, "the composite survives the pruning");
    }

    @Test
    void theWriterRoundTripsTheKey() throws Exception {
        String json = StateTreeJson.write(built());
        assertTrue(json.contains("\"enabled\": false"), json);
        TreeDef back = StateTreeJson.read("back.json", json);
        assertEquals(json, StateTreeJson.write(back));
        assertEquals(TreeFingerprint.of(TestNodes.compile(built())), TreeFingerprint.of(TestNodes.compile(back)));
    }

    @Test
    void disabledNodesAndTransitionsAreLeftOutAsIfDeleted() {
        // rules N3, N4: the tree that runs is the asset without them (same nodes, slots, streams)
        TreeDef with = tree("T")
                .evaluator(node("random").named("dice").enabled(false))
                .evaluator(node("time").named("clock"))
                .globalTask(node("delay").named("limit").with("duration", 2.0).enabled(false))
                .globalTask(node("run").named("keep"))
                .root(state("Root")
                        .child(state("A").task(node("delay").named("d").with("duration", 1.0).enabled(false))
                                .task(node("run").named("r").enabled(true))
                                .transition(on("onTick").to("B").enabled(false)
                                        .when(node("randomChance").with("probability", 0.5)))
                                .transition(on("onTick").to("B").when(node("compare")
                                        .with("input", Binding.eval("clock.elapsed")).with("op", ">").with("value", 2))))
                        .child(state("B").task(node("run"))))
                .build();
        TreeDef without = tree("T")
                .evaluator(node("time").named("clock"))
                .globalTask(node("run").named("keep"))
                .root(state("Root")
                        .child(state("A").task(node("run").named("r").enabled(true))
                                .transition(on("onTick").to("B").when(node("compare")
                                        .with("input", Binding.eval("clock.elapsed")).with("op", ">").with("value", 2))))
                        .child(state("B").task(node("run"))))
                .build();
        CompiledStateTree a = TestNodes.compile(with);
        CompiledStateTree b = TestNodes.compile(without);
        assertEquals(TreeFingerprint.of(b), TreeFingerprint.of(a));
        assertEquals(b.taskCount(), a.taskCount());
        assertEquals(b.conditionCount(), a.conditionCount());
        assertEquals(b.evaluatorCount(), a.evaluatorCount());
    }

    @Test
    void aDisabledStateStaysAsAnUnselectablePlaceholderWithItsChildren() {
        CompiledStateTree t = TestNodes.compile(built());
        for (int s = 0; s < t.stateCount; s++) {
            boolean off = t.statePath(s).startsWith("Root/Off") || t.statePath(s).equals("Root/Empty/OnlyOff");
            assertEquals(!off, t.stateEnabled(s), t.statePath(s));
            if (off) {
                assertEquals(0, t.stateTasksNum(s) + t.stateTransitionsNum(s) + t.stateEnterConditionsNum(s),
                        t.statePath(s) + " keeps nothing but its place");
            }
        }
    }

    @Test
    void dotDrawsDisabledStatesInGrey() {
        String dot = DotWriter.toDot(TestNodes.compile(built()));
        assertTrue(dot.contains("label=\"Off\\n(disabled)\", color=gray, fontcolor=gray, style=\"rounded,dashed\""), dot);
        assertTrue(dot.contains("target disabled: never fires"), dot);
        assertFalse(dot.contains("quick"), "a disabled task is not drawn:\n" + dot);
        assertFalse(dot.contains("pinger"), "a disabled evaluator is not drawn:\n" + dot);
    }

    @Test
    void anErrorInsideADisabledStateIsReported() {
        TreeDef def = tree("T").root(state("Root")
                .child(state("A").task(node("run")))
                .child(state("B").enabled(false).task(node("delay").with("duration", -1.0)))).build();
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> TestNodes.compiler().compile(def));
        assertTrue(e.getMessage().contains("state 'Root/B': tasks[0].duration"), e.getMessage());
    }
}
