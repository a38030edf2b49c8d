package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.statetree.model.ModelException;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.io.PrintStream;
import java.util.List;

/** The node types the command line compiles with, and the check that a tree can run standalone. */
final class TreeFiles {
    private TreeFiles() {
    }

    /**
     * The registry {@code models} describes (built-ins, the class path's providers, the model's node
     * types and the {@code --nodes} jars'; without --model or --nodes, every class path model's), or
     * null after printing the one-line error on {@code err} (exit 2).
     */
    static NodeRegistry registry(ModelOptions models, PrintStream err) {
        ModelChoice c = choice(models, err);
        return c == null ? null : c.registry();
    }

    /** What {@code models} resolve to, or null after printing the one-line error on {@code err} (exit 2). */
    static ModelChoice choice(ModelOptions models, PrintStream err) {
        try {
            return models.choice();
        } catch (ModelException e) {
            Problems.usage(err, e.getMessage());
            return null;
        }
    }

    /**
     * Whether {@code tree} can run standalone with {@code registry}'s values for its host columns and
     * externals; if not, prints one line naming each missing column or external and the node that
     * needs it on {@code err} and returns false (exit 2).
     */
    static boolean runsStandalone(CompiledStateTree tree, NodeRegistry registry, PrintStream err) {
        List<String> unmet = StandaloneHost.unmet(tree, registry);
        if (unmet.isEmpty()) {
            return true;
        }
        Problems.usage(err, StandaloneHost.unmetMessage(tree, unmet));
        return false;
    }
}
