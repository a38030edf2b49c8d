package dev.crowdtree.bench.trees;

import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.definition.TreeDef;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;

/**
 * The flat variant of the benchmark logic, for the comparison harness: what a plain finite state
 * machine can express. One level under the root, 5 timed states (6 states with the root), the same
 * per-agent "threat" triangle wave as {@link dev.crowdtree.statetree.fixtures.CrowdTrees#crowd()},
 * completion transitions chaining the timed states, and the OnTick threat transition
 * ({@code threat > 0.8 -> Flee}) on each calm state, declared before its completion transition (so
 * the threat wins when both hold in the same tick). No gates, no groups.
 *
 * <pre>
 *   Wander (3 s +- 1) -> Graze (4 s +- 2) -> Rest (2 s +- 1) -> Wander      calm cycle
 *   any calm state --threat &gt; 0.8--&gt; Flee (2 s +- 0.5) -> Hide (3 s +- 1) -> Wander
 * </pre>
 */
public final class FlatTrees {
    private FlatTrees() {
    }

    /** The flat benchmark tree. */
    public static TreeDef flat() {
        return tree("Flat")
                .evaluator(node("wave").named("threat").with("period", 20.0).with("shape", "triangle"))
                .root(state("Root")
                        .child(calm("Wander", 3.0, 1.0, "Graze"))
                        .child(calm("Graze", 4.0, 2.0, "Rest"))
                        .child(calm("Rest", 2.0, 1.0, "Wander"))
                        .child(state("Flee").task(node("delay").with("duration", 2.0).with("randomDeviation", 0.5))
                                .transition(on("onStateCompleted").to("Hide")))
                        .child(state("Hide").task(node("delay").with("duration", 3.0).with("randomDeviation", 1.0))
                                .transition(on("onStateCompleted").to("Wander"))))
                .build();
    }

    private static StateTreeBuilder.State calm(String name, double duration, double deviation, String next) {
        StateTreeBuilder.Node threatHigh = node("compare").with("input", Binding.eval("threat.value")).with("op", ">").with("value", 0.8);
        return state(name).task(node("delay").with("duration", duration).with("randomDeviation", deviation))
                .transition(on("onTick").to("Flee").when(threatHigh))
                .transition(on("onStateCompleted").to(next));
    }
}
