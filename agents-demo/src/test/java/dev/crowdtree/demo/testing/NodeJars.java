package dev.crowdtree.demo.testing;

import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.node.NodeProvider;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Node provider jars and class directories for the command line's {@code --nodes}, made the way a
 * user makes them: Java sources compiled against the library, a services file, a jar. The
 * embedding example's node types ({@code examples/embedding}) are compiled from the repository's
 * sources, so the tests exercise exactly what the guides tell users to build.
 */
public final class NodeJars {
    /** The repository's root. */
    public static final Path REPO = repo();
    /** The embedding example's project directory, its tree and its scenario. */
    public static final Path EMBEDDING = REPO.resolve("examples/embedding");
    public static final Path GUARDS_TREE = EMBEDDING.resolve("guards.json");
    public static final Path GUARDS_SCENARIO = EMBEDDING.resolve("scenario.json");
    /** The example's sources the node types need (not its model or its host program). */
    private static final List<String> GUARD_NODE_SOURCES = List.of("Intruder.java", "Steps.java",
            "CanSeeCondition.java", "PatrolTask.java", "MoveTowardsTask.java", "GuardNodes.java");
    /** The example's model: its node types' sources and the model's (not the host program nor the demo). */
    private static final List<String> GUARD_MODEL_SOURCES = List.of("GuardsModel.java", "IntruderSystem.java",
            "SightSystem.java", "MovementSystem.java");
    private static final String SERVICES = "META-INF/services/" + NodeProvider.class.getName();
    private static final String MODEL_SERVICES = "META-INF/services/dev.crowdtree.statetree.model.SimulationModel";

    private NodeJars() {
    }

    private static Path repo() {
        String basedir = System.getProperty("basedir");
        return (basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath()).resolve("..").normalize();
    }

    /** The embedding example's node types compiled into {@code dir/classes}, with its services file. */
    public static Path guardClasses(Path dir) throws IOException {
        Path src = EMBEDDING.resolve("src/main/java/dev/crowdtree/examples/guards");
        Path out = dir.resolve("guard-classes");
        List<Path> files = new ArrayList<>();
        for (String f : GUARD_NODE_SOURCES) {
            files.add(src.resolve(f));
        }
        compile(files, out);
        Path services = out.resolve(SERVICES);
        Files.createDirectories(services.getParent());
        Files.copy(EMBEDDING.resolve("src/main/resources").resolve(SERVICES), services);
        return out;
    }

    /**
     * The embedding example's model as a jar, {@code dir/guards-model.jar}, as {@code mvn package}
     * makes {@code target/guards.jar}: its node types, its model and host systems, the tree
     * {@code guards.json} and both services files.
     */
    public static Path guardModelJar(Path dir) throws IOException {
        Path src = EMBEDDING.resolve("src/main/java/dev/crowdtree/examples/guards");
        Path out = dir.resolve("guard-model-classes");
        List<Path> files = new ArrayList<>();
        for (String f : GUARD_NODE_SOURCES) {
            files.add(src.resolve(f));
        }
        for (String f : GUARD_MODEL_SOURCES) {
            files.add(src.resolve(f));
        }
        compile(files, out);
        for (String services : List.of(SERVICES, MODEL_SERVICES)) {
            Path to = out.resolve(services);
            Files.createDirectories(to.getParent());
            Files.copy(EMBEDDING.resolve("src/main/resources").resolve(services), to);
        }
        Files.copy(GUARDS_TREE, out.resolve("guards.json"));
        return jar(out, dir.resolve("guards-model.jar"));
    }

    /** The embedding example's node types as a jar, {@code dir/guards.jar}. */
    public static Path guardJar(Path dir) throws IOException {
        return jar(guardClasses(dir), dir.resolve("guards.jar"));
    }

    /**
     * Compiles {@code sources} (class name to Java source) into {@code out}, and writes a services
     * file listing {@code providers} (none: no services file).
     */
    public static Path classes(Path out, Map<String, String> sources, String... providers) throws IOException {
        Path src = Files.createDirectories(out.resolveSibling(out.getFileName() + "-src"));
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f);
        }
        compile(files, out);
        if (providers.length > 0) {
            Path services = out.resolve(SERVICES);
            Files.createDirectories(services.getParent());
            Files.writeString(services, String.join("\n", providers) + "\n");
        }
        return out;
    }

    /** Packs the directory {@code classes} into the jar {@code jar}. */
    public static Path jar(Path classes, Path jar) throws IOException {
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
             Stream<Path> walk = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                j.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(p));
                j.closeEntry();
            }
        }
        return jar;
    }

    private static void compile(List<Path> files, Path out) throws IOException {
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "--release", "17", "-proc:none",
                "-cp", classPath()));
        for (Path f : files) {
            args.add(f.toString());
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, args.toArray(new String[0]));
        if (code != 0) {
            throw new IllegalStateException("javac failed:\n" + errors.toString(StandardCharsets.UTF_8));
        }
    }

    /** Where the library's classes and what their signatures refer to are, for javac. */
    private static String classPath() {
        List<String> entries = new ArrayList<>();
        for (Class<?> c : List.of(NodeProvider.class, World.class, org.jctools.queues.MpscUnboundedArrayQueue.class,
                org.HdrHistogram.Histogram.class, dev.dominion.ecs.api.Dominion.class)) {
            entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }
}
