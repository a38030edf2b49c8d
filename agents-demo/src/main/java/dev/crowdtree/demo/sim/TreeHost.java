package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds a tree to a simulation's agent table with nothing more than it needs: the columns the
 * table already has (the crowd's), the crowd itself as the external {@value CrowdWorld#EXTERNAL}
 * when the tree's nodes ask for it, and, for what else its nodes declare, the standalone values
 * the node providers gave ({@link NodeRegistry#standaloneColumn}, {@link NodeRegistry#standaloneExternal}):
 * such columns are added to the table and every spawned agent gets the value.
 */
final class TreeHost {
    private final CompiledStateTree tree;
    private final NodeRegistry registry;
    private final List<Column> added = new ArrayList<>();
    private final List<HostColumn> addedSpecs = new ArrayList<>();
    private final double[] addedValues;

    /**
     * Adds to {@code table} the host columns {@code tree} needs and it lacks.
     *
     * @throws IllegalArgumentException naming what is unmet ({@link #unmet})
     */
    TreeHost(SoaTable table, CompiledStateTree tree, NodeRegistry registry, boolean crowd) {
        this.tree = tree;
        this.registry = registry;
        List<String> unmet = unmet(tree, registry, columnNames(table), crowd);
        if (!unmet.isEmpty()) {
            throw new IllegalArgumentException(StandaloneHost.unmetMessage(tree, unmet));
        }
        for (HostColumn c : tree.hostColumns) {
            if (table.column(c.name()) == null) {
                added.add(c.addTo(table));
                addedSpecs.add(c);
            }
        }
        addedValues = new double[added.size()];
        for (int i = 0; i < addedValues.length; i++) {
            addedValues[i] = registry.standaloneColumnValue(addedSpecs.get(i).name());
        }
    }

    /**
     * What {@code tree} needs that neither the host (the columns {@code hostColumns}, and the crowd
     * when {@code crowd}) nor the registry's standalone values give, one sentence each.
     */
    static List<String> unmet(CompiledStateTree tree, NodeRegistry registry, Set<String> hostColumns, boolean crowd) {
        return StandaloneHost.unmet(tree, registry, hostColumns::contains,
                external -> crowd && external.equals(CrowdWorld.EXTERNAL));
    }

    /** The names of {@code table}'s columns. */
    static Set<String> columnNames(SoaTable table) {
        Set<String> names = new HashSet<>();
        for (Column c : table.columns()) {
            names.add(c.name());
        }
        return names;
    }

    /** {@code next}, then the standalone values of the added columns for the new row. */
    SpawnInitializer initializer(SpawnInitializer next) {
        if (added.isEmpty()) {
            return next;
        }
        return (table, row, id, arg) -> {
            next.initialize(table, row, id, arg);
            for (int i = 0; i < addedValues.length; i++) {
                addedSpecs.get(i).type().set(added.get(i).array(), row, addedValues[i]);
            }
        };
    }

    /** Binds the externals the tree needs: the crowd to {@code crowd} (when it needs it), others from the registry. */
    void bindExternals(StateTreeSystem system, CrowdWorld crowd) {
        for (External<?> e : tree.externals) {
            if (crowd != null && e.name().equals(CrowdWorld.EXTERNAL)) {
                system.bindExternal(e.name(), crowd);
            } else {
                system.bindExternal(e.name(), registry.standaloneExternal(e.name()).create());
            }
        }
    }
}
