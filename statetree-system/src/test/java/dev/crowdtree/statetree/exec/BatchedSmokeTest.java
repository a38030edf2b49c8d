package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;

class BatchedSmokeTest {
    @Test
    void printsATrace() throws Exception {
        CompiledStateTree t = StateTreeCompiler.withBuiltins().compile(tree("D1")
                .param("threat", "float", 0.0)
                .root(state("Root")
                        .transition(on("onTick").to("Flee")
                                .when(node("compare").with("param", "threat").with("op", ">").with("value", 0.5)))
                        .child(state("Peaceful")
                                .child(state("Wander").task(node("delay").with("duration", 0.3))
                                        .transition(on("onStateCompleted").to("@next")))
                                .child(state("Graze").task(node("succeed").with("afterTicks", 2)))
                                .child(state("Idle").task(node("run"))))
                        .child(state("Danger")
                                .enterCondition(node("compare").with("param", "threat").with("op", ">").with("value", 100))
                                .child(state("Flee").task(node("delay").with("duration", 0.2))
                                        .transition(on("onStateSucceeded").to("@succeeded")))
                                .child(state("AssessSituation").task(node("run")))))
                .build());
        List<String> lines = new ArrayList<>();
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 2, 1, 2, 1)) {
            sys.setTrace((a, l) -> lines.add("a" + a + " " + l));
            sys.startAll(0);
            for (int k = 1; k <= 12; k++) {
                if (k == 8) {
                    sys.setParameter(1, "threat", 0.9);
                }
                sys.tickAll(k, 0.1f);
            }
        }
        lines.forEach(System.out::println);
    }
}
