package dev.crowdtree.demo.model;

import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.sim.Partition;
import dev.crowdtree.demo.sim.RegionalSim;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A model as every tool runs it, whatever it is: its name, where it came from and its fingerprint
 * (the members of a cluster must load the same bytes), the node types it brings, its own tree, its
 * defaults, and the simulations it opens: a whole world ({@link #open}), one loaded from a snapshot
 * ({@link #load}), or one region of a split world ({@link #openRegion}). The tools know models only
 * through this class; the crowd is one ({@link CrowdModel}).
 *
 * <p>THREADING: immutable once made; its methods may be called from any thread.
 */
public abstract class RunnableModel {
    private final String name;
    private final String source;
    private final String fingerprint;
    private final NodeRegistry registry;
    private final Set<String> ownNodeTypes;

    protected RunnableModel(String name, String source, String fingerprint, NodeRegistry registry, Set<String> ownNodeTypes) {
        this.name = name;
        this.source = source;
        this.fingerprint = fingerprint;
        this.registry = registry;
        this.ownNodeTypes = Set.copyOf(ownNodeTypes);
    }

    /** The model's name ({@code crowd}, {@code guards}, {@code plain}). */
    public final String name() {
        return name;
    }

    /** Where it came from, for messages: "built in", a jar's path. */
    public final String source() {
        return source;
    }

    /** The SHA-256 of its jar and of the {@code --nodes} jars loaded with it (a built-in model: its name and version). */
    public final String fingerprint() {
        return fingerprint;
    }

    /** The node types trees are compiled with: the built-ins, the model's, the {@code --nodes} jars'. */
    public final NodeRegistry registry() {
        return registry;
    }

    /** The names of the node types the model itself brings (a tree using one runs in this model by default). */
    public final Set<String> ownNodeTypes() {
        return ownNodeTypes;
    }

    /** The model's own tree, or null (the plain model runs the tree it is given). */
    public abstract ModelDefinition.Tree defaultTree();

    /** Agents when the tools are not told how many. */
    public abstract int defaultAgents();

    /** Seconds per tick when the tools are not told. */
    public abstract float defaultDt();

    /** One line on what runs, for the tools' headers ("mode: ..."). */
    public abstract String mode();

    /**
     * The world's width and height for {@code tree}, or null when agents have no positions (the
     * observer and LOD need them).
     */
    public abstract float[] bounds(CompiledStateTree tree);

    /** The LOD bands of {@code --lod} for {@code tree}, or null when the model has no LOD. */
    public abstract LodBands lodBands(CompiledStateTree tree);

    /**
     * A whole world of this model running {@code tree} ({@code treeFile}: its asset, null for the
     * model's own), with LOD by {@code lod} (null: off) around {@code observer} (null: the centre).
     *
     * @throws IllegalArgumentException naming what the tree needs that nothing gives, or a bad setting
     */
    public abstract Simulation open(SimSettings settings, CompiledStateTree tree, Path treeFile, LodBands lod,
                                    float[] observer);

    /**
     * The simulation saved in {@code snapshot} (read from {@code snapshotFile}, null for bytes in
     * memory), with {@code workers} workers. Its tree is {@code treeOverride} when given, else the
     * asset it recorded (read only when it is inside the snapshot file's directory), else the model's.
     *
     * @throws IOException               when it is not a snapshot of this model, or is malformed
     * @throws StateTreeCompileException when its tree does not compile
     */
    public abstract Simulation load(SnapshotReader snapshot, Path snapshotFile, int workers, Path treeOverride,
                                    long maxTreeBytes) throws IOException, StateTreeCompileException;

    /** The snapshot kind of this model's simulations. */
    public abstract String snapshotKind();

    /**
     * The split of a run of {@code tree} into {@code regions} regions: by position when the model has
     * positions, else by agent id.
     *
     * @throws IllegalArgumentException when the world cannot be split so
     */
    public abstract Partition partition(int regions, SimSettings settings, CompiledStateTree tree);

    /** Region {@code index} of {@code partition}: its agents spawned and started at tick 0, one worker. */
    public abstract RegionalSim openRegion(SimSettings settings, CompiledStateTree tree, Partition partition, int index);

    /** Lines for a run's summary from the model's counters summed over regions ({@link RegionalSim#counters()}). */
    public abstract List<String> summaryLines(long[] counters, SimSettings settings);

    /**
     * {@code treeFile} compiled with {@link #registry()}, or the model's own tree when null.
     *
     * @throws IllegalArgumentException when null and the model has no tree of its own
     */
    public CompiledStateTree compile(Path treeFile, long maxBytes) throws InputFileException, StateTreeCompileException {
        StateTreeCompiler compiler = new StateTreeCompiler(registry);
        if (treeFile == null) {
            ModelDefinition.Tree t = defaultTree();
            if (t == null) {
                throw new IllegalArgumentException("model '" + name + "' has no tree of its own: give --tree FILE");
            }
            return StateTreeJson.compile(t.name(), t.text().get(), compiler);
        }
        InputFiles.check(treeFile, maxBytes);
        return StateTreeJson.compile(treeFile, compiler, maxBytes);
    }

    /** A tree's text (shipped to cluster members) compiled with {@link #registry()}. */
    public CompiledStateTree compileText(String treeName, String text) throws StateTreeCompileException {
        return StateTreeJson.compile(treeName, text, new StateTreeCompiler(registry));
    }

    /** "model 'guards' (examples/embedding/target/guards.jar)". */
    public String describe() {
        return "model '" + name + "' (" + source + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
