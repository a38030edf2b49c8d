package dev.crowdtree.demo.model;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelException;
import dev.crowdtree.statetree.model.ModelJars;
import dev.crowdtree.statetree.model.SimulationModel;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviderException;
import dev.crowdtree.statetree.nodes.NodeProviders;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Finds and loads the models the tools run, with the node types each brings:
 * <ul>
 *   <li>{@code --model PATH}: the model of a jar (or class directory) listing a
 *       {@code SimulationModel}; {@code --model NAME}: a model on the class path by name
 *       ({@code crowd});</li>
 *   <li>{@code --nodes PATH} without {@code --model}: the plain model (a tree of yours, no host
 *       systems, the node providers' standalone column values);</li>
 *   <li>neither: the class path's models (the crowd), the one whose node types a tree uses, else the
 *       plain model.</li>
 * </ul>
 * A registry holds the built-in node types, the class path's node providers, the model's node types
 * and the {@code --nodes} jars', in that order; a name registered twice is refused naming both
 * providers (class and jar). The class loaders of jars stay open for the process's life: the
 * compiled trees' nodes are their classes.
 */
public final class Models {
    /** The plain model's name. */
    public static final String PLAIN = "plain";
    /** The plain model's world, when the tree's nodes use float columns x and y: agents on a grid over it. */
    static final float PLAIN_WORLD = 2000f;
    /** The plain model's mode line. */
    public static final String PLAIN_MODE = "the tree alone (no model: only its node types): agents start on a grid, "
            + "no host systems";

    private Models() {
    }

    /**
     * What {@code --model} ({@code model}, null: not given) and {@code --nodes} ({@code nodes})
     * resolve to, with class loaders whose parent is {@code parent}.
     *
     * @throws ModelException one line naming the path, the provider or the model that failed
     */
    public static ModelChoice resolve(String model, List<Path> nodes, ClassLoader parent) throws ModelException {
        if (model != null) {
            return new ModelChoice(load(model, nodes, parent), List.of(), null);
        }
        if (!nodes.isEmpty()) {
            return new ModelChoice(plain(base(parent), nodes, parent), List.of(), null);
        }
        List<RunnableModel> classPath = new ArrayList<>();
        NodeRegistry union = base(parent);
        for (SimulationModel m : classPathModels(parent)) {
            ModelDefinition d = define(m, "the class path");
            classPath.add(runnable(m, d, "built in", builtInPrint(m), nodes, parent, parent));
            register(union, d, "built in");
        }
        return new ModelChoice(null, classPath, plain(union, List.of(), parent));
    }

    /**
     * The built-in models (the crowd, and the plain model of the built-in and the crowd's node types),
     * as a command without {@code --model} or {@code --nodes} has them.
     *
     * @throws IllegalStateException when the class path's models cannot be loaded (a broken build)
     */
    public static ModelChoice builtIn() {
        try {
            return resolve(null, List.of(), Models.class.getClassLoader());
        } catch (ModelException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The model named by {@code --model}: a class path model of that name, else a jar or directory. */
    private static RunnableModel load(String model, List<Path> nodes, ClassLoader parent) throws ModelException {
        List<SimulationModel> builtIn = classPathModels(parent);
        for (SimulationModel m : builtIn) {
            ModelDefinition d = define(m, "the class path");
            if (d.name().equals(model)) {
                return runnable(m, d, "built in", builtInPrint(m), nodes, parent, parent);
            }
        }
        Path path = Path.of(model);
        if (!Files.exists(path)) {
            List<String> names = new ArrayList<>();
            for (SimulationModel m : builtIn) {
                names.add(define(m, "the class path").name());
            }
            throw new ModelException("--model " + model + ": no such file or directory, and no built-in model of that "
                    + "name (built in: " + String.join(", ", names) + "); give a model jar's path or a built-in name");
        }
        ModelJars.Loaded loaded;
        try {
            loaded = ModelJars.load(path, parent);
        } catch (ModelException e) {
            throw new ModelException("--model " + e.getMessage(), e);
        }
        return runnable(null, loaded.definition(), path.toString(), loaded.fingerprint(), nodes, parent, loaded.loader());
    }

    /**
     * A model's runnable form: its engine's, or the library's ModelWorld. The registry starts from
     * {@code parent}'s node providers (not the model jar's own services file, which may list the same
     * types for {@code --nodes}); the {@code --nodes} jars load with the model's {@code loader} as parent.
     */
    private static RunnableModel runnable(SimulationModel m, ModelDefinition d, String source, String fingerprint,
                                          List<Path> nodes, ClassLoader parent, ClassLoader loader) throws ModelException {
        NodeRegistry r = base(parent);
        Set<String> before = new LinkedHashSet<>(r.types().keySet());
        register(r, d, source);
        Set<String> own = new LinkedHashSet<>(r.types().keySet());
        own.removeAll(before);
        r = withNodes(r, nodes, loader);
        String print = withNodesPrint(fingerprint, nodes);
        if (m instanceof ModelEngine) {
            return ((ModelEngine) m).runnable(d, r, print);
        }
        ModelDefinition.Tree tree = d.trees().get(0);
        String mode = "model '" + d.name() + "'" + (d.description().isEmpty() ? "" : ": " + d.description());
        return new DeclaredModel(d.name(), source, print, r, own, (t, agents) -> d, tree, d.defaultAgents(),
                d.defaultDt(), mode);
    }

    /**
     * The plain model: the tree it is given, with the node types of {@code registry} plus
     * {@code nodes}; agents on a square grid over a {@value #PLAIN_WORLD} m world when the tree's
     * nodes use float columns {@code x} and {@code y} (its positions), every other column at its
     * standalone value.
     */
    private static RunnableModel plain(NodeRegistry registry, List<Path> nodes, ClassLoader loader) throws ModelException {
        NodeRegistry r = withNodes(registry, nodes, loader);
        return new DeclaredModel(PLAIN, nodes.isEmpty() ? "built-in node types" : "--nodes " + nodes, withNodesPrint(
                PLAIN, nodes), r, Set.of(), Models::plainDefinition, null, 100_000, CrowdModel.DT, PLAIN_MODE);
    }

    /** The plain model's definition for {@code tree} and {@code agents}. */
    static ModelDefinition plainDefinition(CompiledStateTree tree, int agents) {
        ModelDefinition.Builder b = ModelDefinition.builder(PLAIN).agents(Math.max(1, Math.min(agents,
                ModelDefinition.MAX_DEFAULT_AGENTS))).dt(CrowdModel.DT).tree(tree.name, () -> "");
        boolean xy = isFloat(tree, "x") && isFloat(tree, "y");
        if (xy) {
            final int side = (int) Math.ceil(Math.sqrt(agents));
            final float spacing = PLAIN_WORLD / side;
            b.column("x", HostColumn.Type.FLOAT, (seed, id, i) -> (id % side + 0.5f) * spacing);
            b.column("y", HostColumn.Type.FLOAT, (seed, id, i) -> (id / side + 0.5f) * spacing);
            b.positions("x", "y", PLAIN_WORLD, PLAIN_WORLD);
        }
        return b.build();
    }

    private static boolean isFloat(CompiledStateTree tree, String column) {
        for (HostColumn c : tree.hostColumns) {
            if (c.name().equals(column)) {
                return c.type() == HostColumn.Type.FLOAT;
            }
        }
        return false;
    }

    /** The built-in node types and the class path's node providers. */
    private static NodeRegistry base(ClassLoader loader) throws ModelException {
        try {
            return NodeProviders.registry(loader);
        } catch (RuntimeException | ServiceConfigurationError | StackOverflowError e) {
            throw new ModelException("the class path: " + e.getMessage(), e);
        }
    }

    /** Registers {@code d}'s node providers in {@code r}, each named as the origin of its types. */
    private static void register(NodeRegistry r, ModelDefinition d, String source) throws ModelException {
        for (NodeProvider p : d.nodes()) {
            r.origin("model '" + d.name() + "' (node provider " + p.getClass().getName() + ", " + source + ")");
            try {
                p.register(r);
            } catch (RuntimeException | LinkageError | StackOverflowError e) {
                throw new ModelException("model '" + d.name() + "' (" + source + "): node provider "
                        + p.getClass().getName() + " failed: " + e.getMessage(), e);
            }
        }
        r.origin("the program");
    }

    /** {@code r} with the node types of the {@code --nodes} jars. */
    private static NodeRegistry withNodes(NodeRegistry r, List<Path> nodes, ClassLoader loader) throws ModelException {
        if (nodes.isEmpty()) {
            return r;
        }
        try {
            @SuppressWarnings("resource") // the loaders must outlive every tree compiled with the registry
            NodeProviders.Loaded loaded = NodeProviders.load(r, nodes, loader);
            return loaded.registry();
        } catch (NodeProviderException e) {
            throw new ModelException("--nodes " + e.getMessage(), e);
        }
    }

    /** {@code print} combined with the fingerprints of the {@code --nodes} jars (none: {@code print} itself). */
    private static String withNodesPrint(String print, List<Path> nodes) throws ModelException {
        if (nodes.isEmpty()) {
            return print;
        }
        StringBuilder all = new StringBuilder(print);
        for (Path p : nodes) {
            all.append(';').append(ModelJars.fingerprint(p));
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(all.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** A built-in model's fingerprint: its name and the version of the jar it is in. */
    private static String builtInPrint(SimulationModel m) {
        String v = m.getClass().getPackage().getImplementationVersion();
        return "built-in:" + m.getClass().getName() + "@" + (v == null ? "dev" : v);
    }

    /** The models on {@code loader}'s class path, by class name. */
    static List<SimulationModel> classPathModels(ClassLoader loader) throws ModelException {
        List<ServiceLoader.Provider<SimulationModel>> found = new ArrayList<>();
        try {
            ServiceLoader.load(SimulationModel.class, loader).stream().forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new ModelException("the class path: a model it lists cannot be loaded: " + e.getMessage(), e);
        }
        found.sort(Comparator.comparing(p -> p.type().getName()));
        List<SimulationModel> out = new ArrayList<>();
        for (ServiceLoader.Provider<SimulationModel> p : found) {
            try {
                out.add(p.get());
            } catch (ServiceConfigurationError e) {
                throw new ModelException("the class path: model " + p.type().getName() + " cannot be made: "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    private static ModelDefinition define(SimulationModel m, String where) throws ModelException {
        try {
            return m.define();
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            throw new ModelException(where + ": model " + m.getClass().getName() + " failed: " + e.getMessage(), e);
        }
    }
}
