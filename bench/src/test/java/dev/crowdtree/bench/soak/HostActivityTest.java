package dev.crowdtree.bench.soak;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import org.junit.jupiter.api.Test;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23, item 9: the soak expected to see dropped only the events sent to an agent in the step
 * it was despawned in, but an agent with tick period 2 also holds the events that arrived for a step
 * it did not take part in; when it is despawned before its next step they are dropped too. The
 * expected count is what the runtime has queued for the agent when it goes.
 */
class HostActivityTest {
    @Test
    void everyEventHeldForADespawnedAgentIsExpectedToBeDropped() throws Exception {
        CompiledStateTree t = StateTreeCompiler.withBuiltins().compile(tree("T")
                .root(state("Root").transition(on("onEvent").event(SoakTrees.EVENT).to("B"))
                        .child(state("A").task(node("delay").with("duration", 100.0)))
                        .child(state("B").task(node("delay").with("duration", 100.0))))
                .build());
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 8, 1, 1, 4096)) {
            sys.startAll(0);
            int agent = 3;
            sys.setTickPeriod(agent, 2);
            long tick = 1;
            sys.tickAll(tick, 1f / 30);
            // send until an event is held over a step the agent skips
            int held = 0;
            for (int i = 0; i < 4 && held == 0; i++) {
                sys.sendEvent(agent, SoakTrees.EVENT, 0f, false);
                sys.tickAll(++tick, 1f / 30);
                held = HostActivity.queuedFor(sys, agent);
            }
            assertEquals(1, held, "an event is held for the period-2 agent");
            long before = sys.droppedEvents();
            sys.sendEvent(agent, SoakTrees.EVENT, 0f, false); // sent in the step it goes
            int expected = HostActivity.queuedFor(sys, agent);
            assertEquals(2, expected, "the one held and the one sent now");
            sys.despawn(agent, tick);
            sys.tickAll(++tick, 1f / 30);
            assertEquals(expected, sys.droppedEvents() - before, "the runtime drops exactly what was queued");
        }
    }
}
