package dev.crowdtree.statetree;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.TreeDef;
import org.junit.jupiter.api.Test;
import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compiled layout: DFS order, ranges, task order, linked inlining and slot sharing per depth. */
class CompilerLayoutTest {

    static CompiledStateTree compile(TreeDef d) throws StateTreeCompileException {
        return StateTreeCompiler.withBuiltins().compile(d);
    }

    @Test
    void statesAreInDfsPreOrderWithSubtreeRanges() throws Exception {
        CompiledStateTree t = compile(tree("T")
                .root(state("Root")
                        .child(state("Peaceful").task(node("run"))
                                .child(state("Wander").task(node("delay").with("duration", 1.0)))
                                .child(state("Graze").task(node("delay").with("duration", 2.0)).task(node("run")))
                                .child(state("Idle").task(node("run"))))
                        .child(state("Danger")
                                .child(state("Flee").task(node("run")))
                                .child(state("AssessSituation").task(node("run")))))
                .build());
        assertEquals(List.of("Root", "Root/Peaceful", "Root/Peaceful/Wander", "Root/Peaceful/Graze",
                "Root/Peaceful/Idle", "Root/Danger", "Root/Danger/Flee", "Root/Danger/AssessSituation"), t.statePaths());
        assertEquals(8, t.stateSubtreeEnd(0));
        assertEquals(5, t.stateSubtreeEnd(1));
        assertEquals(3, t.stateSubtreeEnd(2));
        assertEquals(1, t.stateParent(2));
        assertTrue(t.isAncestorOrSelf(1, 3));
        assertTrue(!t.isAncestorOrSelf(5, 3));
        assertEquals(1, t.ancestorAt(4, 1));
        // tasks in DFS order: Peaceful.run, Wander.delay, Graze.delay, Graze.run, Idle.run, Flee.run, Assess.run
        assertEquals(7, t.taskCount());
        assertEquals(3, t.taskState(2));
        assertEquals(3, t.taskState(3));
        assertEquals(2, t.stateTasksBegin(3));
        // Wander's and Graze's delays are at the same depth: they share the 'remaining' slot.
        assertTrue(t.floatSlots >= 1);
    }

    @Test
    void linkedStatesGetAPrivateCopyOfTheirSubtree() throws Exception {
        CompiledStateTree t = compile(tree("T")
                .subtree(state("Patrol").param("speed", "float", 1.0)
                        .child(state("Walk").task(node("run")))
                        .child(state("Look").task(node("run"))))
                .root(state("Root")
                        .child(state("A").linked("Patrol").linkedParam("speed", 2.0))
                        .child(state("B").linked("Patrol")))
                .build());
        assertEquals(List.of("Root", "Root/A", "Root/A/Patrol", "Root/A/Patrol/Walk", "Root/A/Patrol/Look",
                "Root/B", "Root/B/Patrol", "Root/B/Patrol/Walk", "Root/B/Patrol/Look"), t.statePaths());
        assertEquals(CompiledStateTree.LINKED, t.stateType(1));
        assertEquals(1, t.stateLinkedParamsNum(1));
        assertEquals(1, t.stateLinkedParamsNum(5));
        // each copy has its own parameter slot
        assertNotEquals(t.linkedParamSlot(t.stateLinkedParamsBegin(1)), t.linkedParamSlot(t.stateLinkedParamsBegin(5)));
        assertEquals(2.0, t.linkedParamValue(t.stateLinkedParamsBegin(1)).constantValue());
        assertEquals(1.0, t.linkedParamValue(t.stateLinkedParamsBegin(5)).constantValue());
    }

    @Test
    void transitionsResolveTargetsAndNext() throws Exception {
        CompiledStateTree t = compile(tree("T")
                .param("threat", "float", 0.0)
                .root(state("Root")
                        .child(state("A").task(node("run"))
                                .transition(on("onStateCompleted").to("@next"))
                                .transition(on("onTick").to("Root/C")
                                        .when(node("compare").with("param", "threat").with("op", ">").with("value", 0.5))))
                        .child(state("B").task(node("run")).transition(on("onEvent").event("Alarm").to("C").delay(1.0, 0.5)))
                        .child(state("C").task(node("run")).transition(on("onStateFailed").to("@failed"))))
                .build());
        assertEquals(4, t.transitionCount);
        assertEquals(2, t.transitionTarget(0));
        assertEquals(3, t.transitionTarget(1));
        assertEquals(CompiledStateTree.TRIGGER_COMPLETED, t.transitionTrigger(0));
        assertEquals(CompiledStateTree.TRIGGER_EVENT, t.transitionTrigger(2));
        assertEquals(t.tagId("Alarm"), t.transitionEvent(2));
        assertEquals(1.0f, t.transitionDelay(2));
        assertEquals(0.5f, t.transitionDelayVariance(2));
        assertEquals(CompiledStateTree.TO_FAILED, t.transitionType(3));
        assertEquals(1, t.transitionConditionsNum(1));
    }

    @Test
    void taskOutputsBindAcrossDepths() throws Exception {
        CompiledStateTree t = compile(tree("T")
                .param("x", "float", 3.0)
                .evaluator(node("time").named("clock"))
                .root(state("Root").task(node("delay").named("outer").with("duration", Binding.param("x")))
                        .child(state("Leaf").task(node("delay").with("duration", Binding.eval("clock.elapsed")))))
                .build());
        assertEquals(2, t.taskCount());
        assertEquals("outer", t.taskName(0));
        assertEquals(1, t.evaluatorCount());
    }
}
