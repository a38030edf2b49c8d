package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The host of a standalone run (no host program: the scenario runner, the command line's headless
 * {@code run} and {@code serve}): the host columns a tree's nodes declare take the values the node
 * providers gave them ({@link NodeRegistry#standaloneColumn}), and each external the nodes need is
 * bound to an object made by the providers' factory ({@link NodeRegistry#standaloneExternal}).
 *
 * <p>A tree can run standalone only when every one of its host columns and externals has such a
 * value; {@link #unmet} says what is missing and which node needs it.
 */
public final class StandaloneHost {
    private StandaloneHost() {
    }

    /**
     * What {@code tree} needs that {@code registry} gives no standalone value for, one sentence per
     * host column or external (empty when the tree can run standalone), e.g. {@code host column
     * 'distance' (float, read), needed by condition 'canSee' (enterConditions[0] of state
     * 'Root/Chase'), has no standalone value}.
     */
    public static List<String> unmet(CompiledStateTree tree, NodeRegistry registry) {
        return unmet(tree, registry, column -> false, external -> false);
    }

    /**
     * As {@link #unmet(CompiledStateTree, NodeRegistry)}, for a host that gives the host columns
     * {@code hostColumn} accepts and the externals {@code hostExternal} accepts itself (those need
     * no standalone value).
     */
    public static List<String> unmet(CompiledStateTree tree, NodeRegistry registry, Predicate<String> hostColumn,
                                     Predicate<String> hostExternal) {
        List<String> out = new ArrayList<>();
        for (HostColumn c : tree.hostColumns) {
            if (hostColumn.test(c.name())) {
                continue;
            }
            Double v = registry.standaloneColumnValue(c.name());
            String needed = "host column " + quoted(c) + ", needed by " + tree.hostColumnUsers.get(c.name());
            if (v == null) {
                out.add(needed + ", has no standalone value: no loaded node provider declares it "
                        + "(NodeRegistry.standaloneColumn(\"" + c.name() + "\", value))");
            } else {
                try {
                    c.type().check(c.name(), v);
                } catch (IllegalArgumentException e) {
                    out.add(needed + ": its standalone value does not fit: " + e.getMessage());
                }
            }
        }
        for (External<?> e : tree.externals) {
            if (hostExternal.test(e.name())) {
                continue;
            }
            NodeRegistry.StandaloneExternal<?> f = registry.standaloneExternal(e.name());
            String needed = "external '" + e.name() + "' (" + e.type().getName() + "), needed by "
                    + tree.externalUsers.get(e.name());
            if (f == null) {
                out.add(needed + ", has no standalone value: no loaded node provider makes one "
                        + "(NodeRegistry.standaloneExternal(\"" + e.name() + "\", ...))");
            } else if (!e.type().isAssignableFrom(f.type())) {
                out.add(needed + ": the standalone factory makes a " + f.type().getName() + ", not a " + e.type().getName());
            }
        }
        return out;
    }

    /** One sentence for a non-empty {@link #unmet} list of {@code tree}. */
    public static String unmetMessage(CompiledStateTree tree, List<String> unmet) {
        return "tree '" + tree.name + "' needs what no loaded node provider gives: " + String.join("; ", unmet)
                + " (the command line loads node providers from jars with --nodes PATH)";
    }

    /**
     * Gives every agent of {@code runtime} the standalone value of each of its tree's host columns
     * and binds each external to a new standalone object.
     *
     * @throws IllegalArgumentException naming what is unmet ({@link #unmet}) before changing anything
     */
    public static void bind(StateTreeRuntime runtime, NodeRegistry registry) {
        CompiledStateTree tree = runtime.tree();
        List<String> unmet = unmet(tree, registry);
        if (!unmet.isEmpty()) {
            throw new IllegalArgumentException(unmetMessage(tree, unmet));
        }
        for (HostColumn c : tree.hostColumns) {
            double v = registry.standaloneColumnValue(c.name());
            if (v != 0) { // the runtime created the column zero-filled
                runtime.setHostValue(StateTreeRuntime.ALL, c.name(), v);
            }
        }
        for (External<?> e : tree.externals) {
            runtime.bindExternal(e.name(), registry.standaloneExternal(e.name()).create());
        }
    }

    /** {@code factory}, with every runtime it creates bound as a standalone host ({@link #bind}). */
    public static RuntimeFactory factory(RuntimeFactory factory, NodeRegistry registry) {
        return (tree, agents, seed, workers) -> {
            StateTreeRuntime runtime = factory.create(tree, agents, seed, workers);
            try {
                bind(runtime, registry);
            } catch (RuntimeException e) {
                runtime.close();
                throw e;
            }
            return runtime;
        };
    }

    private static String quoted(HostColumn c) {
        return "'" + c.name() + "' (" + c.type().word() + ", " + (c.access() == HostColumn.Access.WRITE ? "written" : "read") + ")";
    }
}
