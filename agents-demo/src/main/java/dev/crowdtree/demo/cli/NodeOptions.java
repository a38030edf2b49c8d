package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviderException;
import dev.crowdtree.statetree.nodes.NodeProviders;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --nodes PATH} (repeatable): jars or class directories whose node providers
 * ({@code dev.crowdtree.statetree.node.NodeProvider}, found with {@link java.util.ServiceLoader})
 * add node types to the built-ins and the crowd's. A picocli mixin of {@code validate}, {@code dot},
 * {@code trace}, {@code run} and {@code serve}.
 */
public final class NodeOptions {
    @Option(names = "--nodes", paramLabel = "PATH",
            description = "A jar or a directory of classes with node providers (META-INF/services/"
                    + "dev.crowdtree.statetree.node.NodeProvider) whose node types the tree uses; repeatable.")
    List<Path> paths = new ArrayList<>();

    private NodeRegistry registry;

    /** Whether {@code --nodes} was given. */
    public boolean given() {
        return !paths.isEmpty();
    }

    /**
     * The built-in node types, the crowd's and those of every provider on the class path and in the
     * {@code --nodes} paths, in that order. The class loaders of the paths stay open for the
     * process's life: the compiled trees' nodes are their classes.
     *
     * @throws NodeProviderException one line naming the path (and the provider) that failed
     */
    public NodeRegistry registry() throws NodeProviderException {
        if (registry == null) {
            ClassLoader app = NodeOptions.class.getClassLoader();
            NodeRegistry base;
            try {
                base = NodeProviders.registry(app);
            } catch (RuntimeException | java.util.ServiceConfigurationError e) {
                throw new NodeProviderException("the class path: " + e.getMessage());
            }
            @SuppressWarnings("resource") // the loaders must outlive every tree compiled with the registry
            NodeProviders.Loaded loaded;
            try {
                loaded = NodeProviders.load(base, paths, app);
            } catch (NodeProviderException e) {
                throw new NodeProviderException("--nodes " + e.getMessage());
            }
            registry = loaded.registry();
        }
        return registry;
    }
}
