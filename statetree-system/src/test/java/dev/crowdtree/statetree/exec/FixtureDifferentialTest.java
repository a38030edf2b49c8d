package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.fixtures.CrowdTrees;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** The reference trees give identical traces on the batched runtime and the reference interpreter. */
class FixtureDifferentialTest {

    static List<String> run(StateTreeRuntime rt, int ticks) {
        List<String> lines = new ArrayList<>();
        rt.setTrace((a, l) -> lines.add("a" + a + " " + l));
        int agents = rt.agentCount();
        boolean hasAlert = rt.tree().paramIndex("alert") >= 0;
        rt.startAll(0);
        for (int k = 1; k <= ticks; k++) {
            for (int a = 0; a < agents; a++) {
                if (CounterRng.uniform(3, a, k, 1) < 0.03f) {
                    rt.sendEvent(a, "Alarm", 1f, true);
                }
            }
            if (k % 17 == 0 && hasAlert) {
                rt.setParameter(k % agents, "alert", k % 2);
            }
            if (k == ticks / 2) {
                rt.stop(1 % agents, k);
            }
            rt.tickAll(k, 0.1f);
        }
        rt.close();
        return lines;
    }

    @Test
    void referenceTreesMatchTheReferenceInterpreter() throws Exception {
        for (var def : List.of(CrowdTrees.crowd(), CrowdTrees.everything())) {
            CompiledStateTree tree = StateTreeCompiler.withBuiltins().compile(def);
            List<String> ref = run(new ReferenceInterpreter(tree, 200, 7), 150);
            List<String> bat = run(StateTreeSystem.standalone(tree, 200, 7, 2, 16), 150);
            for (int i = 0; i < Math.min(ref.size(), bat.size()); i++) {
                if (!ref.get(i).equals(bat.get(i))) {
                    fail(tree.name + ": first difference at line " + i + "\n reference: " + ref.get(i) + "\n batched:   "
                            + bat.get(i) + "\n context: " + ref.subList(Math.max(0, i - 8), i));
                }
            }
            assertEquals(ref.size(), bat.size(), tree.name + " trace length");
        }
    }
}
