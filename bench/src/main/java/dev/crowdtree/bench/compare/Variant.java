package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.fixtures.AbortTrees;
import dev.crowdtree.bench.trees.FlatTrees;
import dev.crowdtree.bench.trees.SleepyTrees;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.fixtures.CrowdTrees;

import java.util.Locale;

/** The decision logics the harness compares, each run by every implementation. */
public enum Variant {
    /** {@code CrowdTrees.crowd()}: 3 levels, 13 states, a gated OnTick transition, completion chains. */
    HIERARCHICAL,
    /** {@code FlatTrees.flat()}: root plus 5 timed states, what a plain FSM expresses. */
    FLAT,
    /**
     * {@code SleepyTrees.sleepy()}: root plus 4 delay-only states of 5 to 60 s and an event the host
     * sends to about 0.1% of the agents per tick ({@link Logic#hostEvents}): a crowd that mostly waits.
     */
    SLEEPY,
    /**
     * {@code AbortTrees.aborts()}: a behavior tree with observer aborts (a merchant): a selector
     * root over two sequences and a leaf, 6 delay leaves (10 states), two waves, completions passed
     * on by the composites, {@code high} / {@code medium} priority {@code onTick} aborts on the
     * lower-priority branches.
     */
    ABORTS;

    /** The option value ({@code hierarchical}, {@code flat}, {@code sleepy}, {@code aborts}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The variant with id {@code s} (case-insensitive). */
    public static Variant parse(String s) {
        for (Variant v : values()) {
            if (v.id().equals(s.trim().toLowerCase(Locale.ROOT))) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + s + "' (" + ids() + ")");
    }

    /** Every variant's id, comma-separated. */
    public static String ids() {
        StringBuilder b = new StringBuilder();
        for (Variant v : values()) {
            b.append(b.length() == 0 ? "" : ",").append(v.id());
        }
        return b.toString();
    }

    /** The tree definition of this variant. */
    public TreeDef definition() {
        switch (this) {
            case HIERARCHICAL:
                return CrowdTrees.crowd();
            case FLAT:
                return FlatTrees.flat();
            case SLEEPY:
                return SleepyTrees.sleepy();
            default:
                return AbortTrees.aborts();
        }
    }

    /** A short description for the chart: where the tree comes from and its size. */
    public String title() {
        switch (this) {
            case HIERARCHICAL:
                return "Hierarchical (CrowdTrees.crowd(), 13 states)";
            case FLAT:
                return "Flat (FlatTrees.flat(), 6 states)";
            case SLEEPY:
                return "Sleepy (SleepyTrees.sleepy(), 5 states, events)";
            default:
                return "Aborts (AbortTrees.aborts(), 10 states, BT aborts)";
        }
    }

    /** {@link #definition()} compiled with the built-in nodes. */
    public CompiledStateTree compile() {
        try {
            return StateTreeCompiler.withBuiltins().compile(definition());
        } catch (StateTreeCompileException e) {
            throw new IllegalStateException(e);
        }
    }
}
