package dev.crowdtree.bench.trees;

import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.definition.TreeDef;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;

/**
 * The sleepy variant of the benchmark logic, for the comparison harness: a crowd that mostly waits.
 * Four delay-only leaves under the root, chained by completion transitions (the last back to the
 * first), and one {@code onEvent} transition on the root ({@value #EVENT} -> {@code Blink}) that the
 * host fires for a few agents per tick. No evaluators, no {@code onTick} transitions, no task with a
 * tick: an agent only has something to do when its delay runs out or it receives the event, so a
 * runtime that lets agents sleep (docs/SEMANTICS.md section 11) touches a small share of them per
 * tick.
 *
 * <pre>
 *   Blink (5 s +- 2) -> Nap (15 s +- 5) -> Doze (30 s +- 10) -> Sleep (50 s +- 10) -> Blink
 *   any leaf --Poke--&gt; Blink (re-entered, a new delay drawn, when already there)
 * </pre>
 *
 * The root's event transition is checked after the leaf's completion transition (leaf to root), so
 * an event arriving in the tick a delay runs out loses: the agent moves on to the next leaf and the
 * event is dropped at the end of the tick.
 */
public final class SleepyTrees {
    /** The event the host sends ({@code onEvent} on the root, to {@code Blink}). */
    public static final String EVENT = "Poke";
    private static final String[] LEAVES = {"Blink", "Nap", "Doze", "Sleep"};
    private static final double[][] DELAYS = {{5.0, 2.0}, {15.0, 5.0}, {30.0, 10.0}, {50.0, 10.0}};

    private SleepyTrees() {
    }

    /** The sleepy benchmark tree. */
    public static TreeDef sleepy() {
        StateTreeBuilder.State root = state("Root").transition(on("onEvent").event(EVENT).to(LEAVES[0]));
        for (int l = 0; l < LEAVES.length; l++) {
            root.child(state(LEAVES[l])
                    .task(node("delay").with("duration", DELAYS[l][0]).with("randomDeviation", DELAYS[l][1]))
                    .transition(on("onStateCompleted").to(LEAVES[(l + 1) % LEAVES.length])));
        }
        return tree("Sleepy").root(root).build();
    }
}
