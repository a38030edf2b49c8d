package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.model.ColumnInit;
import dev.crowdtree.statetree.model.ModelColumn;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelException;
import dev.crowdtree.statetree.model.ModelJars;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviderException;
import dev.crowdtree.statetree.nodes.NodeProviders;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;

/**
 * A user's tree in the harness, instead of the built-in {@link Variant}s:
 * <ul>
 *   <li>{@code compare --model PATH [--tree FILE]}: a model jar ({@link ModelJars#load}); the
 *       registry holds the built-in node types (and the class path's providers) plus the model's
 *       ({@link ModelDefinition#nodes()}); the tree is the model's own (its first) unless FILE names
 *       another; every agent's host columns that the model declares start at the model's initial
 *       values ({@link ColumnInit#initial}{@code (seed, agent, agent)}), the tree's other host columns
 *       at the node providers' standalone values, its externals are the model's
 *       ({@link ModelDefinition.External#create()}, a fresh one per runtime), else the providers'
 *       standalone ones;</li>
 *   <li>{@code compare --nodes PATH [--nodes PATH...] --tree FILE}: node-provider jars
 *       ({@link NodeProviders#load}) and a tree; every host column and external at the providers'
 *       standalone values ({@link StandaloneHost}). {@code --model} may come with {@code --nodes}
 *       too (their types are added to the model's), and {@code --tree FILE} alone compares a tree of
 *       built-in node types.</li>
 * </ul>
 * The model's host systems are not run: the reference interpreter has no place for them, and the
 * comparison is of the tree. Only our runtimes run a user's tree ({@link Impl#runsAnyTree()}); the
 * host sends no events. The harness loads it to check it and name it in the report, and every child
 * JVM ({@link CompareRun}) loads it again from the same paths ({@link Source#args()}).
 *
 * <p>THREADING: one thread (the harness's, or a child run's).
 */
public final class UserTree implements AutoCloseable {
    /** The first argument of {@link CompareRun} that names a user's tree instead of a variant. */
    public static final String RUN_ARG = "tree";

    /**
     * Where a user's tree comes from: the command line's paths.
     *
     * @param model the model jar or class directory ({@code --model}), or null
     * @param nodes the node-provider jars or class directories ({@code --nodes}), in order
     * @param tree  the tree file ({@code --tree}), or null for the model's own tree
     */
    public record Source(Path model, List<Path> nodes, Path tree) {
        /** Copies the list. */
        public Source {
            nodes = List.copyOf(nodes);
        }

        /** The options that name this source to a child JVM, with absolute paths. */
        public List<String> args() {
            List<String> out = new ArrayList<>();
            if (model != null) {
                out.add("--model");
                out.add(model.toAbsolutePath().toString());
            }
            for (Path p : nodes) {
                out.add("--nodes");
                out.add(p.toAbsolutePath().toString());
            }
            if (tree != null) {
                out.add("--tree");
                out.add(tree.toAbsolutePath().toString());
            }
            return out;
        }

        /**
         * The source named by {@code args} from index {@code from} on, as {@link #args()} writes it.
         *
         * @throws IllegalArgumentException for anything else
         */
        public static Source parse(String[] args, int from) {
            Path model = null;
            Path tree = null;
            List<Path> nodes = new ArrayList<>();
            for (int i = from; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                Path p = Path.of(args[i + 1]);
                switch (args[i]) {
                    case "--model":
                        model = p;
                        break;
                    case "--nodes":
                        nodes.add(p);
                        break;
                    case "--tree":
                        tree = p;
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option " + args[i] + "; valid: --model, --nodes, --tree");
                }
            }
            if (model == null && tree == null) {
                throw new IllegalArgumentException("a user's tree needs --model PATH or --tree FILE");
            }
            return new Source(model, nodes, tree);
        }
    }

    private final Source source;
    private final CompiledStateTree tree;
    private final NodeRegistry registry;
    private final ModelDefinition model;
    private final String modelFingerprint;
    private final String treeSource;
    private final ModelJars.Loaded modelJar;
    private final NodeProviders.Loaded nodeJars;

    private UserTree(Source source, CompiledStateTree tree, NodeRegistry registry, ModelDefinition model,
                     String modelFingerprint, String treeSource, ModelJars.Loaded modelJar, NodeProviders.Loaded nodeJars) {
        this.source = source;
        this.tree = tree;
        this.registry = registry;
        this.model = model;
        this.modelFingerprint = modelFingerprint;
        this.treeSource = treeSource;
        this.modelJar = modelJar;
        this.nodeJars = nodeJars;
    }

    /**
     * Loads the jars of {@code source}, compiles its tree and checks that every host column and
     * external the tree needs has a value (the model's, else a standalone one).
     *
     * @throws IllegalArgumentException one line naming what is wrong: a path that is not a model or
     *                                  node-provider jar, a model or provider that fails, a tree that
     *                                  does not compile (its first errors), a column or external
     *                                  nothing gives a value
     */
    public static UserTree load(Source source) {
        ClassLoader parent = UserTree.class.getClassLoader();
        ModelJars.Loaded jar = null;
        NodeProviders.Loaded nodes = null;
        boolean ok = false;
        try {
            NodeRegistry registry;
            try {
                registry = NodeProviders.registry(parent);
            } catch (RuntimeException | ServiceConfigurationError e) {
                throw new IllegalArgumentException("the class path's node providers: " + e.getMessage(), e);
            }
            ModelDefinition def = null;
            ClassLoader loader = parent;
            if (source.model() != null) {
                try {
                    jar = ModelJars.load(source.model(), parent);
                } catch (ModelException e) {
                    throw new IllegalArgumentException("--model " + e.getMessage(), e);
                }
                def = jar.definition();
                loader = jar.loader();
                for (NodeProvider p : def.nodes()) {
                    String name = p.getClass().getName();
                    registry.origin("model '" + def.name() + "' (node provider " + name + ", " + source.model() + ")");
                    try {
                        p.register(registry);
                    } catch (RuntimeException | LinkageError e) {
                        throw new IllegalArgumentException("--model " + source.model() + ": model '" + def.name()
                                + "': node provider " + name + " failed: " + e.getMessage(), e);
                    }
                }
                registry.origin("the program");
            }
            if (!source.nodes().isEmpty()) {
                try {
                    nodes = NodeProviders.load(registry, source.nodes(), loader);
                } catch (NodeProviderException e) {
                    throw new IllegalArgumentException("--nodes " + e.getMessage(), e);
                }
                registry = nodes.registry();
            }
            StateTreeCompiler compiler = new StateTreeCompiler(registry);
            CompiledStateTree tree;
            String treeSource;
            try {
                if (source.tree() != null) {
                    treeSource = source.tree().toString();
                    tree = StateTreeJson.compile(source.tree(), compiler);
                } else {
                    ModelDefinition.Tree own = def.trees().get(0);
                    treeSource = own.name() + ", the model's own tree";
                    String text;
                    try {
                        text = own.text().get();
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException("--model " + source.model() + ": model '" + def.name()
                                + "' cannot give its tree " + own.name() + ": " + e.getMessage(), e);
                    }
                    tree = StateTreeJson.compile(own.name(), text, compiler);
                }
            } catch (StateTreeCompileException e) {
                throw new IllegalArgumentException(compileErrors(source, def, e), e);
            }
            checkHost(def, tree, registry);
            ok = true;
            return new UserTree(source, tree, registry, def, jar == null ? null : jar.fingerprint(), treeSource, jar, nodes);
        } finally {
            if (!ok) {
                closeQuietly(jar, nodes);
            }
        }
    }

    /** One line for a tree that does not compile: which tree, the first errors, how many in all. */
    private static String compileErrors(Source source, ModelDefinition def, StateTreeCompileException e) {
        String which = source.tree() != null ? "--tree " + source.tree()
                : "the tree of model '" + def.name() + "' (" + source.model() + ")";
        List<String> lines = e.listing();
        int shown = Math.min(3, lines.size());
        String more = e.errorCount() > shown ? "; ... (" + e.errorCount() + " errors in all)" : "";
        String types = def == null ? "the built-in node types" : "the node types of the built-ins and model '" + def.name() + "'";
        if (!source.nodes().isEmpty()) {
            List<String> jars = new ArrayList<>();
            source.nodes().forEach(p -> jars.add(p.toString()));
            types += (def == null ? " and those" : " and") + " of --nodes " + String.join(", ", jars);
        }
        return which + " does not compile with " + types
                + ": " + String.join("; ", lines.subList(0, shown)) + more;
    }

    /**
     * Checks that the model's columns the tree uses have the tree's types and its externals the
     * tree's, and that every other host column and external has a standalone value
     * ({@link ModelDefinition#check}; without a model, {@link StandaloneHost#unmet}).
     */
    private static void checkHost(ModelDefinition def, CompiledStateTree tree, NodeRegistry registry) {
        if (def != null) {
            def.check(tree, registry);
            return;
        }
        List<String> unmet = StandaloneHost.unmet(tree, registry);
        if (!unmet.isEmpty()) {
            throw new IllegalArgumentException(StandaloneHost.unmetMessage(tree, unmet));
        }
    }

    /** The compiled tree. */
    public CompiledStateTree tree() {
        return tree;
    }

    /** The paths it was loaded from. */
    public Source source() {
        return source;
    }

    /** The model, or null ({@code --nodes}/{@code --tree} alone). */
    public ModelDefinition model() {
        return model;
    }

    /** What the results call it (their {@code variant}): the tree's name. */
    public String id() {
        return tree.name;
    }

    /** Seconds per tick: the model's ({@link ModelDefinition#defaultDt()}), else the harness's {@link CompareRun#DT}. */
    public float dt() {
        return model != null ? model.defaultDt() : CompareRun.DT;
    }

    /** {@link #dt()} for the report: the model's as Java prints it ({@code 0.1}), else {@code 1/30}. */
    public String dtText() {
        return model != null ? Float.toString(model.defaultDt()) : "1/30";
    }

    /**
     * Our batched runtime over {@code agents} agents running the tree on {@code workers} workers (chunks
     * of {@link Impl#CHUNK} rows), its host columns set and its externals bound ({@link #bind}), not
     * started: for profiling a user's tree ({@code bench.TickProfile}).
     */
    public StateTreeSystem system(int agents, int workers, long seed) {
        return bound(StateTreeSystem.standalone(tree, agents, seed, workers, Impl.CHUNK), seed);
    }

    /** {@code runtime} after {@link #bind}; closed when binding fails. */
    private <R extends StateTreeRuntime> R bound(R runtime, long seed) {
        try {
            bind(runtime, seed);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /**
     * A population of {@code agents} agents of {@code impl} running the tree, its host columns set and
     * its externals bound ({@link #bind}), not started.
     *
     * @throws IllegalArgumentException when {@code impl} does not {@link Impl#runsAnyTree() run any tree}
     */
    public Population create(Impl impl, int agents, long seed) {
        if (!impl.runsAnyTree()) {
            throw new IllegalArgumentException(impl.id() + " implements only the built-in variants; a user's tree runs on "
                    + Impl.ids(Impl.anyTree()));
        }
        return Impl.population(bound(impl.runtime(tree, agents, seed), seed));
    }

    /**
     * Sets every agent's host columns and binds the externals of {@code runtime}: a column the model
     * declares takes each agent's initial value ({@code initial(seed, agent, agent)}, converted to the
     * column's type as the model's world stores it), any other its standalone value; an external is
     * the model's (a fresh object) or else the standalone one.
     */
    void bind(StateTreeRuntime runtime, long seed) {
        int agents = runtime.agentCount();
        for (HostColumn c : tree.hostColumns) {
            ModelColumn m = model == null ? null : model.column(c.name());
            if (m == null) {
                double v = registry.standaloneColumnValue(c.name());
                if (v != 0) { // the runtime created the column zero-filled
                    runtime.setHostValue(StateTreeRuntime.ALL, c.name(), v);
                }
                continue;
            }
            ColumnInit init = m.init();
            for (int a = 0; a < agents; a++) {
                double v = stored(c.type(), init.initial(seed, a, a));
                try {
                    runtime.setHostValue(a, c.name(), v);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("model '" + model.name() + "': the initial value of column '" + c.name()
                            + "' for agent " + a + " does not fit: " + e.getMessage(), e);
                }
            }
        }
        for (External<?> e : tree.externals) {
            ModelDefinition.External m = model == null ? null : model.external(e.name());
            runtime.bindExternal(e.name(), m != null ? m.create() : registry.standaloneExternal(e.name()).create());
        }
    }

    /** {@code value} as a column of {@code type} stores it ({@link HostColumn.Type#set}: a cast). */
    private static double stored(HostColumn.Type type, double value) {
        switch (type) {
            case FLOAT:
                return (float) value;
            case INT:
                return (int) value;
            default:
                return (byte) value;
        }
    }

    /**
     * One line naming the tree and where it comes from, e.g. {@code tree 'Guards' (guards.json, the
     * model's own tree) of model 'guards' (target/guards.jar, SHA-256 0123456789ab...)}.
     */
    public String title() {
        StringBuilder b = new StringBuilder("tree '").append(tree.name).append("' (").append(treeSource).append(')');
        if (model != null) {
            b.append(" of model '").append(model.name()).append("' (").append(source.model()).append(", SHA-256 ")
                    .append(modelFingerprint, 0, 12).append("...)");
        }
        if (!source.nodes().isEmpty()) {
            b.append(model != null ? " and" : " with").append(" the node types of --nodes ");
            List<String> jars = new ArrayList<>();
            for (Path p : source.nodes()) {
                jars.add(p.toString());
            }
            b.append(String.join(", ", jars));
        } else if (model == null) {
            b.append(" with the built-in node types");
        }
        return b.toString();
    }

    /** A short name for the chart: {@code tree 'Guards' of model 'guards'}, {@code tree 'T' with --nodes a.jar}. */
    public String shortTitle() {
        String t = "tree '" + tree.name + "'";
        if (model != null) {
            t += " of model '" + model.name() + "'";
        }
        if (!source.nodes().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (Path p : source.nodes()) {
                names.add(String.valueOf(p.getFileName()));
            }
            t += (model != null ? " and" : " with") + " --nodes " + String.join(", ", names);
        }
        return t;
    }

    /**
     * Sentences on how the agents' host is set up: which columns take the model's initial values,
     * which the standalone values, where the externals come from, that the model's host systems are
     * not run, and dt.
     */
    public String hostText() {
        List<String> fromModel = new ArrayList<>();
        List<String> standalone = new ArrayList<>();
        for (HostColumn c : tree.hostColumns) {
            (model != null && model.column(c.name()) != null ? fromModel : standalone).add(c.name());
        }
        List<String> modelExternals = new ArrayList<>();
        List<String> standaloneExternals = new ArrayList<>();
        for (External<?> e : tree.externals) {
            (model != null && model.external(e.name()) != null ? modelExternals : standaloneExternals).add(e.name());
        }
        StringBuilder b = new StringBuilder();
        if (tree.hostColumns.isEmpty()) {
            b.append("The tree uses no host columns");
        } else {
            b.append("Host columns: ");
            List<String> parts = new ArrayList<>();
            if (!fromModel.isEmpty()) {
                parts.add(String.join(", ", fromModel) + " at the model's initial value of each agent");
            }
            if (!standalone.isEmpty()) {
                parts.add(String.join(", ", standalone) + " at the node providers' standalone values");
            }
            b.append(String.join("; ", parts));
        }
        if (!tree.externals.isEmpty()) {
            List<String> parts = new ArrayList<>();
            if (!modelExternals.isEmpty()) {
                parts.add(String.join(", ", modelExternals) + " from the model (a fresh one per runtime)");
            }
            if (!standaloneExternals.isEmpty()) {
                parts.add(String.join(", ", standaloneExternals) + " from the node providers' standalone factories");
            }
            b.append("; externals: ").append(String.join("; ", parts));
        }
        b.append(". ");
        if (model != null) {
            List<String> systems = new ArrayList<>();
            model.before().forEach(s -> systems.add(s.name()));
            model.after().forEach(s -> systems.add(s.name()));
            if (!systems.isEmpty()) {
                b.append("The model's host systems (").append(String.join(", ", systems)).append(") are not run: the "
                        + "reference interpreter has no place for them, and this compares the tree alone. ");
            }
        }
        b.append("dt = ").append(dtText()).append(model != null ? " s (the model's)" : " s").append("; the host sends no events.");
        return b.toString();
    }

    @Override
    public void close() {
        closeQuietly(modelJar, nodeJars);
    }

    private static void closeQuietly(ModelJars.Loaded jar, NodeProviders.Loaded nodes) {
        try {
            if (nodes != null) {
                nodes.close();
            }
            if (jar != null) {
                jar.close();
            }
        } catch (IOException ignored) {
            // nothing runs the tree any more; a loader that fails to close holds its jar open until exit
        }
    }
}
