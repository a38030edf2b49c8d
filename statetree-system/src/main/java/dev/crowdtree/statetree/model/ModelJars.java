package dev.crowdtree.statetree.model;

import dev.crowdtree.statetree.internal.ClassPathEntries;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * Models found with {@link ServiceLoader}: those a class loader sees ({@link #onClassPath}) and
 * those of a jar or class directory named at run time ({@link #load}, the command line's
 * {@code --model PATH}), and the fingerprint that tells two copies of a jar apart
 * ({@link #fingerprint}: the members of a cluster must run the same bytes).
 */
public final class ModelJars {
    /** Where a jar lists its models. */
    public static final String SERVICES_FILE = "META-INF/services/dev.crowdtree.statetree.model.SimulationModel";

    private ModelJars() {
    }

    /**
     * A model loaded from a jar: its definition, the class that defined it, its jar and the jar's
     * fingerprint, and the class loader that holds its classes (close it only when nothing of the
     * model runs any more).
     */
    public static final class Loaded implements AutoCloseable {
        private final ModelDefinition definition;
        private final String className;
        private final Path source;
        private final String fingerprint;
        private final URLClassLoader loader;

        Loaded(ModelDefinition definition, String className, Path source, String fingerprint, URLClassLoader loader) {
            this.definition = definition;
            this.className = className;
            this.source = source;
            this.fingerprint = fingerprint;
            this.loader = loader;
        }

        public ModelDefinition definition() {
            return definition;
        }

        /** The {@link SimulationModel} implementation's class name. */
        public String className() {
            return className;
        }

        /** The jar or directory it came from. */
        public Path source() {
            return source;
        }

        /** {@link #fingerprint(Path)} of the source. */
        public String fingerprint() {
            return fingerprint;
        }

        /** The class loader of the jar (its parent is the one given to {@link #load}). */
        public ClassLoader loader() {
            return loader;
        }

        @Override
        public void close() throws IOException {
            loader.close();
        }
    }

    /**
     * The models {@code loader} sees (its class path's services files, or modules' {@code provides}),
     * in class name order, each defined once.
     *
     * @throws ModelException naming the model class whose loading or definition failed
     */
    public static List<ModelDefinition> onClassPath(ClassLoader loader) throws ModelException {
        List<ServiceLoader.Provider<SimulationModel>> found = new ArrayList<>();
        try {
            ServiceLoader.load(SimulationModel.class, loader).stream().forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new ModelException("the class path: a model it lists cannot be loaded: " + why(e), e);
        }
        found.sort(Comparator.comparing(p -> p.type().getName()));
        List<ModelDefinition> out = new ArrayList<>();
        for (ServiceLoader.Provider<SimulationModel> p : found) {
            out.add(define(p, "the class path"));
        }
        return out;
    }

    /**
     * The model of the jar or class directory {@code path} (exactly one listed in its
     * {@value #SERVICES_FILE}), loaded with a class loader whose parent is {@code parent}.
     *
     * @throws ModelException one line naming the path (and the class) when it does not exist, is not a
     *                        jar or directory, lists no model or several, or its model cannot be
     *                        loaded or its definition fails
     */
    public static Loaded load(Path path, ClassLoader parent) throws ModelException {
        URL url = url(path);
        URLClassLoader loader = new URLClassLoader(new URL[] {url}, parent);
        boolean ok = false;
        try {
            List<ServiceLoader.Provider<SimulationModel>> own = new ArrayList<>();
            try {
                ServiceLoader.load(SimulationModel.class, loader).stream()
                        .filter(p -> p.type().getClassLoader() == loader)
                        .forEach(own::add);
            } catch (ServiceConfigurationError | LinkageError e) {
                throw new ModelException(path + ": a model it lists cannot be loaded: " + why(e), e);
            }
            if (own.isEmpty()) {
                throw new ModelException(path + ": no model in it; a jar or directory lists its model's class name in "
                        + SERVICES_FILE + " (a class implementing dev.crowdtree.statetree.model.SimulationModel)");
            }
            if (own.size() > 1) {
                List<String> names = new ArrayList<>();
                own.forEach(p -> names.add(p.type().getName()));
                throw new ModelException(path + ": lists " + own.size() + " models (" + String.join(", ", names)
                        + "); a model jar lists one");
            }
            ServiceLoader.Provider<SimulationModel> p = own.get(0);
            String fingerprint = fingerprint(path); // after the checks: a directory that is no model is not read through
            Loaded l = new Loaded(define(p, path.toString()), p.type().getName(), path, fingerprint, loader);
            ok = true;
            return l;
        } finally {
            if (!ok) {
                try {
                    loader.close();
                } catch (IOException ignored) {
                    // the error being thrown says more
                }
            }
        }
    }

    private static ModelDefinition define(ServiceLoader.Provider<SimulationModel> p, String where) throws ModelException {
        String name = p.type().getName();
        try {
            ModelDefinition d = p.get().define();
            if (d == null) {
                throw new ModelException(where + ": model " + name + ".define() returned null");
            }
            return d;
        } catch (RuntimeException | ServiceConfigurationError | LinkageError | StackOverflowError e) {
            throw new ModelException(where + ": model " + name + " failed: " + why(e), e);
        }
    }

    /**
     * The SHA-256 of a jar's bytes (of a directory: of its files' relative paths and bytes, in path
     * order), as 64 hex digits: the same bytes, the same fingerprint, on any machine.
     *
     * @throws ModelException when it cannot be read
     */
    public static String fingerprint(Path path) throws ModelException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            if (Files.isDirectory(path)) {
                List<Path> files = new ArrayList<>();
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
                files.sort(Comparator.comparing(f -> path.relativize(f).toString().replace('\\', '/')));
                for (Path f : files) {
                    sha.update(path.relativize(f).toString().replace('\\', '/').getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                    digest(sha, f);
                }
            } else {
                digest(sha, path);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (IOException e) {
            throw new ModelException(path + ": cannot be read: " + why(e), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    private static void digest(MessageDigest sha, Path file) throws IOException {
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                sha.update(buf, 0, n);
            }
        }
    }

    /** The class path URL of a jar or directory, after checking that it is one. */
    private static URL url(Path path) throws ModelException {
        try {
            return ClassPathEntries.url(path);
        } catch (IllegalArgumentException e) {
            throw new ModelException(e.getMessage());
        }
    }

    static String why(Throwable e) {
        return ClassPathEntries.why(e);
    }
}
