package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.Models;
import dev.crowdtree.statetree.model.ModelException;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --model PATH|NAME} and {@code --nodes PATH} (repeatable): the model to run (a jar with a
 * {@code dev.crowdtree.statetree.model.SimulationModel}, or a built-in model by name) and jars or
 * class directories whose node providers ({@code dev.crowdtree.statetree.node.NodeProvider}) add node
 * types. Without {@code --model}: {@code --nodes} alone runs the plain model (a tree of yours, no
 * host systems); neither runs the crowd, or, for a tree that uses none of its node types, the plain
 * model. A picocli mixin of every command that reads a tree.
 */
public final class ModelOptions {
    @Option(names = "--model", paramLabel = "PATH|NAME",
            description = "The model to run: a jar (or directory of classes) listing a dev.crowdtree.statetree.model."
                    + "SimulationModel in META-INF/services, or a built-in model's name (crowd). Default: the crowd, or "
                    + "the plain model for a tree that uses none of the crowd's node types.")
    String model;

    @Option(names = "--nodes", paramLabel = "PATH",
            description = "A jar or a directory of classes with node providers (META-INF/services/"
                    + "dev.crowdtree.statetree.node.NodeProvider) whose node types the tree uses; repeatable. Without "
                    + "--model it runs the plain model: your tree, no host systems, the providers' standalone values.")
    List<Path> paths = new ArrayList<>();

    private ModelChoice choice;

    /** Whether {@code --model} was given. */
    public boolean hasModel() {
        return model != null;
    }

    /** Whether {@code --model} or {@code --nodes} was given. */
    public boolean given() {
        return model != null || !paths.isEmpty();
    }

    /**
     * What the options resolve to (loaded once).
     *
     * @throws ModelException one line naming the path, the provider or the model that failed
     */
    public ModelChoice choice() throws ModelException {
        if (choice == null) {
            choice = Models.resolve(model, paths, ModelOptions.class.getClassLoader());
        }
        return choice;
    }

    /** The options as arguments again (for a message that says what to type). */
    List<String> arguments() {
        List<String> out = new ArrayList<>();
        if (model != null) {
            out.add("--model");
            out.add(model);
        }
        for (Path p : paths) {
            out.add("--nodes");
            out.add(p.toString());
        }
        return out;
    }
}
