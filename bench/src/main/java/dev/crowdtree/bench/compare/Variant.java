package dev.crowdtree.bench.compare;

import dev.crowdtree.bench.FlatTrees;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.fixtures.CrowdTrees;

import java.util.Locale;

/** The two shapes of the same decision logic the harness compares. */
public enum Variant {
    /** {@code CrowdTrees.crowd()}: 3 levels, 13 states, a gated OnTick transition, completion chains. */
    HIERARCHICAL,
    /** {@code FlatTrees.flat()}: root plus 5 timed states, what a plain FSM expresses. */
    FLAT;

    /** The option value ({@code hierarchical}, {@code flat}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Variant parse(String s) {
        for (Variant v : values()) {
            if (v.id().equals(s.trim().toLowerCase(Locale.ROOT))) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + s + "' (hierarchical, flat)");
    }

    public TreeDef definition() {
        return this == HIERARCHICAL ? CrowdTrees.crowd() : FlatTrees.flat();
    }

    public CompiledStateTree compile() {
        try {
            return StateTreeCompiler.withBuiltins().compile(definition());
        } catch (StateTreeCompileException e) {
            throw new IllegalStateException(e);
        }
    }
}
