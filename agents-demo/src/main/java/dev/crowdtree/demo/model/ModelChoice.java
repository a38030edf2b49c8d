package dev.crowdtree.demo.model;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.util.Collections;
import java.util.List;

/**
 * What {@code --model} and {@code --nodes} resolved to ({@link Models#resolve}): one model given, or
 * the class path's models (the crowd) to choose from by the tree, with the plain model when a tree
 * uses none of their node types.
 */
public final class ModelChoice {
    private final RunnableModel given;
    private final List<RunnableModel> classPath;
    private final RunnableModel plain;

    ModelChoice(RunnableModel given, List<RunnableModel> classPath, RunnableModel plain) {
        this.given = given;
        this.classPath = List.copyOf(classPath);
        this.plain = plain;
    }

    /** Whether one model was given ({@code --model}, or {@code --nodes}: the plain model). */
    public boolean given() {
        return given != null;
    }

    /**
     * The node types trees are compiled with: the given model's, or, without one, the built-ins and
     * every class path model's (so that any of their trees compiles).
     */
    public NodeRegistry registry() {
        return given != null ? given.registry() : plain.registry();
    }

    /** The model that runs {@code tree}: the given one, else the first class path model whose node types it uses, else the plain model. */
    public RunnableModel forTree(CompiledStateTree tree) {
        if (given != null) {
            return given;
        }
        for (RunnableModel m : classPath) {
            if (!Collections.disjoint(tree.nodeTypes, m.ownNodeTypes())) {
                return m;
            }
        }
        return plain;
    }

    /** The model that runs when no tree is named: the given one, else the first class path model (the crowd). */
    public RunnableModel byDefault() {
        if (given != null) {
            return given;
        }
        return classPath.isEmpty() ? plain : classPath.get(0);
    }

    /**
     * The model a snapshot or recording of kind {@code kind} is loaded with: the first candidate whose
     * snapshots are of that kind (a model's own snapshot then checks the model's name and fingerprint).
     *
     * @throws SnapshotException naming the kind and what this run can load
     */
    public RunnableModel forSnapshot(String kind) throws SnapshotException {
        List<String> kinds = new java.util.ArrayList<>();
        for (RunnableModel m : candidates()) {
            if (m.snapshotKind().equals(kind)) {
                return m;
            }
            kinds.add(m.snapshotKind() + " (" + m.describe() + ")");
        }
        throw new SnapshotException("it is a snapshot of kind '" + kind + "'; this run loads kinds " + kinds
                + (kind.equals("crowd") ? "; the crowd's snapshots load without --model or with --model crowd"
                : "; a model's snapshots load with the --model (and --nodes) they were saved with"));
    }

    /** Every model a snapshot or recording may be of: the given one, or the class path's and the plain one. */
    public List<RunnableModel> candidates() {
        if (given != null) {
            return List.of(given);
        }
        List<RunnableModel> all = new java.util.ArrayList<>(classPath);
        all.add(plain);
        return all;
    }
}
