package dev.crowdtree.statetree.nodes;

import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.internal.ClassPathEntries;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Registries filled by {@link NodeProvider}s, found with {@link ServiceLoader}: those on a class
 * path ({@link #registry(ClassLoader)}) and those in jars or class directories named at run time
 * ({@link #load}, the command line's {@code --nodes PATH}).
 *
 * <p>Order, so that the same inputs give the same registry: the built-in types, then the class
 * path's providers by class name, then each path's providers in the order its services file lists
 * them, path after path. Each path gets a class loader of its own whose parent is the previous
 * path's, so a later jar may use an earlier one's classes.
 */
public final class NodeProviders {
    /** Where a jar lists its providers. */
    public static final String SERVICES_FILE = "META-INF/services/dev.crowdtree.statetree.node.NodeProvider";

    private NodeProviders() {
    }

    /**
     * A provider that was loaded, and from where.
     *
     * @param source    the jar or directory, or null for the class path
     * @param className the provider's class
     */
    public record Source(Path source, String className) {
    }

    /**
     * The registry of the jars and directories given to {@link #load}, with the class loaders that
     * hold their classes: close it only when no tree compiled with the registry runs any more.
     */
    public static final class Loaded implements AutoCloseable {
        private final NodeRegistry registry;
        private final List<Source> providers;
        private final List<URLClassLoader> loaders;

        private Loaded(NodeRegistry registry, List<Source> providers, List<URLClassLoader> loaders) {
            this.registry = registry;
            this.providers = List.copyOf(providers);
            this.loaders = loaders;
        }

        /** The registry: the base one's types and every loaded provider's. */
        public NodeRegistry registry() {
            return registry;
        }

        /** The providers loaded, in registration order. */
        public List<Source> providers() {
            return providers;
        }

        @Override
        public void close() throws IOException {
            for (int i = loaders.size() - 1; i >= 0; i--) {
                loaders.get(i).close();
            }
        }
    }

    /**
     * The built-in types plus those of every provider {@code loader} sees (on the class path, or
     * declared with {@code provides} by a module), in class name order.
     *
     * @throws IllegalArgumentException naming the provider whose registration failed
     * @throws ServiceConfigurationError when a listed provider cannot be loaded
     */
    public static NodeRegistry registry(ClassLoader loader) {
        NodeRegistry r = BuiltinNodes.registry();
        List<ServiceLoader.Provider<NodeProvider>> found = new ArrayList<>();
        ServiceLoader.load(NodeProvider.class, loader).stream().forEach(found::add);
        found.sort(Comparator.comparing(p -> p.type().getName()));
        for (ServiceLoader.Provider<NodeProvider> p : found) {
            try {
                r.origin("node provider " + p.type().getName() + " (the class path)");
                p.get().register(r);
            } catch (RuntimeException | StackOverflowError e) {
                throw new IllegalArgumentException("node provider " + p.type().getName() + " failed: " + why(e), e);
            }
        }
        return r;
    }

    /**
     * A copy of {@code base} with the types of every provider in {@code paths} (jars or directories
     * of classes, each listing its providers in {@value #SERVICES_FILE}), loaded with class loaders
     * whose first parent is {@code parent}.
     *
     * @throws NodeProviderException one line naming the path (and the provider class) when a path
     *                               does not exist, is not a jar or a directory, lists no provider,
     *                               or a provider cannot be loaded or fails in {@code register}
     */
    public static Loaded load(NodeRegistry base, List<Path> paths, ClassLoader parent) throws NodeProviderException {
        NodeRegistry r = base.copy();
        List<Source> sources = new ArrayList<>();
        List<URLClassLoader> loaders = new ArrayList<>();
        ClassLoader previous = parent;
        boolean ok = false;
        try {
            for (int i = 0; i < paths.size(); i++) {
                Path path = paths.get(i);
                for (Path earlier : paths.subList(0, i)) {
                    if (sameFile(path, earlier)) {
                        throw new NodeProviderException(path + ": given twice" + (path.equals(earlier) ? ""
                                : " (the same file as " + earlier + ")") + "; give each jar or directory once");
                    }
                }
                URLClassLoader loader = new URLClassLoader(new URL[] {url(path)}, previous);
                loaders.add(loader);
                previous = loader;
                List<ServiceLoader.Provider<NodeProvider>> own = new ArrayList<>();
                try {
                    ServiceLoader.load(NodeProvider.class, loader).stream()
                            .filter(p -> p.type().getClassLoader() == loader)
                            .forEach(own::add);
                } catch (ServiceConfigurationError | LinkageError e) {
                    throw new NodeProviderException(path + ": a node provider it lists cannot be loaded: " + why(e));
                }
                if (own.isEmpty()) {
                    alreadyLoaded(path, loader, paths, loaders);
                    throw new NodeProviderException(path + ": no node provider in it; a jar or directory lists its "
                            + "providers' class names in " + SERVICES_FILE);
                }
                for (ServiceLoader.Provider<NodeProvider> p : own) {
                    String name = p.type().getName();
                    try {
                        r.origin("node provider " + name + " (" + path + ")");
                        p.get().register(r);
                    } catch (RuntimeException | ServiceConfigurationError | LinkageError | StackOverflowError e) {
                        throw new NodeProviderException(path + ": node provider " + name + " failed: " + why(e));
                    }
                    sources.add(new Source(path, name));
                }
            }
            ok = true;
            return new Loaded(r, sources, loaders);
        } finally {
            if (!ok) {
                for (URLClassLoader l : loaders) {
                    try {
                        l.close();
                    } catch (IOException ignored) {
                        // the error being thrown says more
                    }
                }
            }
        }
    }

    /**
     * Throws when a provider that {@code path} lists is defined by an earlier loader (a copy of an
     * earlier jar's classes, or of the class path's): the class is loaded from there, not from
     * {@code path}.
     */
    private static void alreadyLoaded(Path path, URLClassLoader loader, List<Path> paths, List<URLClassLoader> loaders)
            throws NodeProviderException {
        URL listing = loader.findResource(SERVICES_FILE);
        if (listing == null) {
            return;
        }
        List<String> names = new ArrayList<>();
        try (InputStream in = listing.openStream()) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String name = line.replaceFirst("#.*", "").trim();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new NodeProviderException(path + ": its " + SERVICES_FILE + " cannot be read: " + e.getMessage());
        }
        for (String name : names) {
            ClassLoader from;
            try {
                from = Class.forName(name, false, loader).getClassLoader();
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (from != loader) {
                int i = loaders.indexOf(from);
                throw new NodeProviderException(path + ": its node provider " + name + " is already loaded from "
                        + (i >= 0 ? paths.get(i).toString() : "the class path") + "; give each provider's classes once");
            }
        }
    }

    /** Whether two paths are one file or directory (links resolved); by their text when one cannot be read. */
    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException | RuntimeException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    /** The class path URL of a jar or directory, after checking that it is one. */
    private static URL url(Path path) throws NodeProviderException {
        try {
            return ClassPathEntries.url(path);
        } catch (IllegalArgumentException e) {
            throw new NodeProviderException(e.getMessage());
        }
    }

    private static String why(Throwable e) {
        return ClassPathEntries.why(e);
    }
}
