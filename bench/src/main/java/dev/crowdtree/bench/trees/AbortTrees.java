package dev.crowdtree.bench.trees;

import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.StateTreeBuilder;
import dev.crowdtree.statetree.definition.TreeDef;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;

/**
 * The aborts variant of the benchmark logic, for the comparison harness: a behavior tree with
 * observer aborts as a game developer draws it, a "merchant". The root is a selector over three
 * branches in priority order; Flee and Serve are sequences whose children are not wired to each
 * other (the composites pass completions on, docs/SEMANTICS.md section 4.1), and the BT's
 * "abort lower priority" decorators are {@code onTick} transitions on the lower-priority branches
 * with a priority (section 4, P1-P4), as in {@code examples/bt-selector-with-aborts}:
 *
 * <pre>
 * Root  (selector)
 *   Flee   (sequence)  enter: threat &gt; 0.8
 *     Run      delay 2 s +- 0.5
 *     Hide     delay 3 s +- 1
 *   Serve  (sequence)  enter: customer &gt; 0.5
 *                      onTick threat &gt; 0.8 -&gt; Flee    priority high   (abort lower priority: Flee's decorator)
 *     Greet    delay 1 s +- 0.5
 *     Trade    delay 4 s +- 2
 *     Farewell delay 1 s +- 0.5
 *   Idle               delay 3 s +- 1
 *                      onTick customer &gt; 0.5 -&gt; Serve priority medium (Serve's decorator)
 *                      onTick threat &gt; 0.8 -&gt; Flee     priority high   (Flee's decorator)
 * </pre>
 *
 * Two per-agent triangle waves are the blackboard: {@code threat} (period 20 s, as in
 * {@link FlatTrees}) and {@code customer} (period 13 s, its own phase). What happens:
 * <ul>
 *   <li>a leaf's delay runs out: in a sequence the next child is entered (K4); after the last
 *       child (Hide, Farewell) the sequence succeeds, so does the selector (K5, K6), and the tree
 *       restarts from the root, which selects Flee, Serve or Idle anew by their enter conditions
 *       (Idle's own completion goes the same way: Idle again, a new delay);</li>
 *   <li>Serve's abort sits on Serve, an ancestor of the running leaf, with priority {@code high}:
 *       in a tick where Greet or Trade completes and the threat rises, the sequence's rule finds
 *       the next child at priority normal (K3), and the abort, strictly above it, still fires
 *       (with {@code normal} it would be skipped: the merchant would enter the next step and
 *       flee one tick later);</li>
 *   <li>on Idle the customer transition is declared first, but the threat one outranks it when
 *       both hold; and neither fires while fleeing: Flee has no abort on it, so a running Flee
 *       finishes Run and Hide whatever the waves do (the BT's "lower priority", not "self").</li>
 * </ul>
 * The threat abort is on Serve and Idle rather than on the root: on the root it would also fire
 * while Flee runs (a transition to an active state re-enters it), sending a hiding agent back to
 * Run at every tick of the threat; a StateTree transition has no "only from lower branches" scope.
 */
public final class AbortTrees {
    /** The threat wave's name (an evaluator, period 20 s). */
    public static final String THREAT = "threat";
    /** The customer wave's name (an evaluator, period 13 s). */
    public static final String CUSTOMER = "customer";

    private AbortTrees() {
    }

    /** The aborts benchmark tree. */
    public static TreeDef aborts() {
        return aborts("high", "medium", "high");
    }

    /**
     * The same tree with other priorities on the aborts: {@code serveThreat} on Serve's threat
     * abort, {@code idleCustomer} and {@code idleThreat} on Idle's two (declared in this order).
     * With {@code "normal"} on Serve's, its abort is skipped in a tick where the sequence's rule
     * found the next child; with the same priority on both of Idle's, the customer, declared
     * first, wins when both hold. Tests use these to show that the priorities decide.
     */
    public static TreeDef aborts(String serveThreat, String idleCustomer, String idleThreat) {
        return tree("Aborts")
                .evaluator(node("wave").named(THREAT).with("period", 20.0).with("shape", "triangle"))
                .evaluator(node("wave").named(CUSTOMER).with("period", 13.0).with("shape", "triangle"))
                .root(state("Root").selector()
                        .child(state("Flee").sequence().enterCondition(above(THREAT, 0.8))
                                .child(leaf("Run", 2.0, 0.5))
                                .child(leaf("Hide", 3.0, 1.0)))
                        .child(state("Serve").sequence().enterCondition(above(CUSTOMER, 0.5))
                                .transition(on("onTick").to("Flee").when(above(THREAT, 0.8)).priority(serveThreat))
                                .child(leaf("Greet", 1.0, 0.5))
                                .child(leaf("Trade", 4.0, 2.0))
                                .child(leaf("Farewell", 1.0, 0.5)))
                        .child(leaf("Idle", 3.0, 1.0)
                                .transition(on("onTick").to("Serve").when(above(CUSTOMER, 0.5)).priority(idleCustomer))
                                .transition(on("onTick").to("Flee").when(above(THREAT, 0.8)).priority(idleThreat))))
                .build();
    }

    private static StateTreeBuilder.State leaf(String name, double duration, double deviation) {
        return state(name).task(node("delay").with("duration", duration).with("randomDeviation", deviation));
    }

    private static StateTreeBuilder.Node above(String evaluator, double value) {
        return node("compare").with("input", Binding.eval(evaluator + ".value")).with("op", ">").with("value", value);
    }
}
