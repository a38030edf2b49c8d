package dev.crowdtree.bench.soak;

import dev.crowdtree.bench.compare.Variant;
import dev.crowdtree.bench.trees.SleepyTrees;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;

import java.util.ArrayList;
import java.util.List;

/**
 * The trees the soak runs: {@code compare}'s benchmark tree of a {@link Variant}, with, where the
 * tree has none, one more transition on its root, {@code onEvent} {@value #EVENT} to a state of the
 * variant's danger branch ({@code Danger} for the hierarchical tree, {@code Flee} for the flat one),
 * or for the aborts tree to {@code Idle} (its Flee and Serve have enter conditions, so an event to
 * them would mostly find nothing to select and never be consumed).
 * The host's events then take the path real events take (queued with the target's generation,
 * sorted into chunks, consumed by a transition) instead of being dropped at send time for an unknown
 * tag. The sleepy tree already reacts to {@value #EVENT} and is run unchanged.
 */
final class SoakTrees {
    /** The event the soak's host sends (the sleepy tree's own). */
    static final String EVENT = SleepyTrees.EVENT;

    private SoakTrees() {
    }

    /** The state the added root transition goes to, or null where the tree already takes the event. */
    static String eventTarget(Variant v) {
        switch (v) {
            case HIERARCHICAL:
                return "Danger";
            case FLAT:
                return "Flee";
            case ABORTS:
                return "Idle";
            default:
                return null;
        }
    }

    /** The soak tree's definition for {@code v}. */
    static TreeDef definition(Variant v) {
        TreeDef def = v.definition();
        String target = eventTarget(v);
        if (target == null) {
            return def;
        }
        StateDef r = def.root();
        List<TransitionDef> transitions = new ArrayList<>(r.transitions());
        transitions.add(new TransitionDef("onEvent", EVENT, target, null, null, null));
        return def.withRoot(r.withTransitions(transitions));
    }

    /** {@link #definition} compiled with the built-in nodes. */
    static CompiledStateTree compile(Variant v) {
        try {
            return StateTreeCompiler.withBuiltins().compile(definition(v));
        } catch (StateTreeCompileException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How the soak describes the tree of {@code v} in its header. */
    static String describe(Variant v) {
        String target = eventTarget(v);
        return v.id() + " (" + v.title() + (target == null ? "" : " + root onEvent " + EVENT + " -> " + target) + ")";
    }
}
