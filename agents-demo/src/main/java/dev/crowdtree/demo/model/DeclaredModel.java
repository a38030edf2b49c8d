package dev.crowdtree.demo.model;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.sim.IdBlocks;
import dev.crowdtree.demo.sim.ModelSim;
import dev.crowdtree.demo.sim.Partition;
import dev.crowdtree.demo.sim.RegionGrid;
import dev.crowdtree.demo.sim.RegionalSim;
import dev.crowdtree.demo.sim.SavedTree;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelWorld;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A model a {@link ModelDefinition} declares (a {@code SimulationModel} from a jar, or the plain
 * model of {@code --nodes} alone), run by the library's {@link ModelWorld} through {@link ModelSim}.
 * The definition may depend on the tree and the agent count ({@code definitionFor}): the plain model
 * places agents on a grid when the tree's nodes use float columns {@code x} and {@code y}.
 */
final class DeclaredModel extends RunnableModel {
    private final BiFunction<CompiledStateTree, Integer, ModelDefinition> definitionFor;
    private final ModelDefinition.Tree tree;
    private final int defaultAgents;
    private final float defaultDt;
    private final String mode;

    /**
     * @param definitionFor the definition for a tree and an agent count (a fixed one for a model of a jar)
     * @param tree          the model's own tree, or null
     */
    DeclaredModel(String name, String source, String fingerprint, NodeRegistry registry, Set<String> ownNodeTypes,
                  BiFunction<CompiledStateTree, Integer, ModelDefinition> definitionFor, ModelDefinition.Tree tree,
                  int defaultAgents, float defaultDt, String mode) {
        super(name, source, fingerprint, registry, ownNodeTypes);
        this.definitionFor = definitionFor;
        this.tree = tree;
        this.defaultAgents = defaultAgents;
        this.defaultDt = defaultDt;
        this.mode = mode;
    }

    @Override
    public ModelDefinition.Tree defaultTree() {
        return tree;
    }

    @Override
    public int defaultAgents() {
        return defaultAgents;
    }

    @Override
    public float defaultDt() {
        return defaultDt;
    }

    @Override
    public String mode() {
        return mode;
    }

    private ModelDefinition definition(CompiledStateTree t, int agents) {
        return definitionFor.apply(t, agents);
    }

    @Override
    public float[] bounds(CompiledStateTree t) {
        ModelDefinition d = definition(t, defaultAgents);
        return d.hasPositions() ? new float[] {d.width(), d.height()} : null;
    }

    @Override
    public LodBands lodBands(CompiledStateTree t) {
        ModelDefinition d = definition(t, defaultAgents);
        return d.allowsLod() ? LodBands.scaledTo(Math.max(d.width(), d.height())) : null;
    }

    private ModelSim.Origin origin(Path treeFile) {
        return new ModelSim.Origin(name(), fingerprint(), treeFile, mode);
    }

    private ModelWorld.Settings settings(ModelDefinition d, SimSettings s) {
        return ModelWorld.Settings.of(d).withAgents(s.agents()).withSeed(s.seed()).withWorkers(s.workers())
                .withDt(s.dt());
    }

    @Override
    public Simulation open(SimSettings s, CompiledStateTree t, Path treeFile, LodBands lod, float[] observer) {
        ModelDefinition d = definition(t, s.agents());
        ModelWorld.Settings ws = settings(d, s);
        if (lod != null) {
            ws = ws.withLod(lod, observer == null ? d.width() / 2 : observer[0], observer == null ? d.height() / 2 : observer[1]);
        } else if (observer != null) {
            ws = ws.withLod(null, observer[0], observer[1]);
        }
        return new ModelSim(origin(treeFile), ModelWorld.create(d, t, registry(), ws));
    }

    /** A fingerprint as a message gives it: its first digits, or "none (no jar)" for a model with no jar of its own. */
    private static String printOrNone(String fingerprint) {
        return fingerprint.equals(Models.PLAIN) ? "none (no jar)" : ModelSim.shortPrint(fingerprint);
    }

    @Override
    public Simulation load(SnapshotReader snapshot, Path snapshotFile, int workers, Path treeOverride, long maxTreeBytes)
            throws IOException, StateTreeCompileException {
        ModelSim.Header h = ModelSim.header(snapshot, workers);
        if (!h.model().equals(name())) {
            throw new SnapshotException("it is a snapshot of model '" + h.model() + "', and this run has "
                    + describe() + "; load it with --model giving the jar of model '" + h.model() + "' (and the --nodes "
                    + "it was saved with)");
        }
        if (!h.fingerprint().equals(fingerprint())) {
            throw new SnapshotException("it is a snapshot of model '" + h.model() + "' saved with other jars (fingerprint "
                    + printOrNone(h.fingerprint()) + "; this run's " + describe() + " has " + printOrNone(fingerprint())
                    + "); load it with the jars (--model, --nodes) it was saved with");
        }
        ModelSim.checkSystem(snapshot, h, true); // before the world is built: its agents are in the file
        Path treeFile = SavedTree.resolve(snapshotFile, h.treeFile(), treeOverride);
        CompiledStateTree t;
        try {
            t = compile(treeFile, maxTreeBytes);
        } catch (dev.crowdtree.statetree.json.InputFileException e) {
            throw new SnapshotException("its tree asset cannot be read: " + e.getMessage());
        }
        ModelSim sim = (ModelSim) open(h.settings(), t, treeFile, h.lod(), null);
        boolean ok = false;
        try {
            sim.restore(snapshot);
            ok = true;
            return sim;
        } finally {
            if (!ok) {
                sim.close();
            }
        }
    }

    @Override
    public String snapshotKind() {
        return ModelWorld.SNAPSHOT_KIND;
    }

    @Override
    public Partition partition(int regions, SimSettings s, CompiledStateTree t) {
        ModelDefinition d = definition(t, s.agents());
        return d.hasPositions() ? new RegionGrid(regions, d.width(), d.height(), d.reach())
                : new IdBlocks(regions, s.agents());
    }

    @Override
    public RegionalSim openRegion(SimSettings s, CompiledStateTree t, Partition partition, int index) {
        ModelDefinition d = definition(t, s.agents());
        ModelWorld.Settings ws = settings(d, s.withWorkers(1))
                .holding((agent, x, y) -> partition.regionOf(agent, x, y) == index);
        return new ModelSim(origin(null), ModelWorld.create(d, t, registry(), ws), partition, index);
    }

    @Override
    public List<String> summaryLines(long[] counters, SimSettings settings) {
        return List.of();
    }
}
