package dev.crowdtree.demo.model;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdSetup;
import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.demo.sim.CrowdSnapshot;
import dev.crowdtree.demo.sim.Partition;
import dev.crowdtree.demo.sim.RegionGrid;
import dev.crowdtree.demo.sim.RegionalSim;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.model.ColumnInit;
import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.SimulationModel;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The crowd as a model: found like any other ({@code META-INF/services/dev.crowdtree.statetree.model.SimulationModel}),
 * the tools' default. Its definition says what it is (its node types, its tree, agents at random
 * positions in a 2 km square world, reads of cell mates one grid cell away, LOD); its engine
 * ({@link ModelEngine}) is the hand-tuned {@link CrowdSim}: the grid, the smart objects, the threats
 * and the movement as kernels of their own, which the crowd's figures are measured on.
 */
public final class CrowdModel implements SimulationModel, ModelEngine {
    /** The crowd's seconds per tick: what the command line's {@code --dt} default (0.0333333) parses to. */
    public static final float DT = 0.0333333f;
    /** The crowd's agents by default. */
    public static final int AGENTS = 100_000;

    /** The model; ServiceLoader calls this. */
    public CrowdModel() {
    }

    @Override
    public ModelDefinition define() {
        CrowdConfig c = CrowdConfig.defaults();
        float size = c.worldSize();
        return ModelDefinition.builder(CrowdSim.CROWD)
                .description("agents wander, flee threats and use smart objects")
                .agents(AGENTS).dt(DT)
                .column(CrowdWorld.X, HostColumn.Type.FLOAT, (seed, id, i) -> CounterRng.range(0, size, seed, id, 0, 11, 0))
                .column(CrowdWorld.Y, HostColumn.Type.FLOAT, (seed, id, i) -> CounterRng.range(0, size, seed, id, 0, 11, 1))
                .column(CrowdWorld.VX, HostColumn.Type.FLOAT, ColumnInit.constant(0))
                .column(CrowdWorld.VY, HostColumn.Type.FLOAT, ColumnInit.constant(0))
                .positions(CrowdWorld.X, CrowdWorld.Y, size, size).reach(c.cellSize())
                .tree(CrowdSim.EMBEDDED_TREE, CrowdSim::embeddedTreeText)
                .nodes(new DemoNodes())
                .build();
    }

    @Override
    public RunnableModel runnable(ModelDefinition definition, NodeRegistry registry, String fingerprint) {
        return new Runnable(definition, registry, fingerprint);
    }

    /** The crowd as the tools run it. */
    private static final class Runnable extends RunnableModel {
        private final ModelDefinition def;

        Runnable(ModelDefinition def, NodeRegistry registry, String fingerprint) {
            super(def.name(), "built in", fingerprint, registry, DemoNodes.typeNames());
            this.def = def;
        }

        @Override
        public ModelDefinition.Tree defaultTree() {
            return def.trees().get(0);
        }

        @Override
        public int defaultAgents() {
            return def.defaultAgents();
        }

        @Override
        public float defaultDt() {
            return def.defaultDt();
        }

        @Override
        public String mode() {
            return CrowdSim.MODE;
        }

        @Override
        public float[] bounds(CompiledStateTree tree) {
            return new float[] {def.width(), def.height()};
        }

        @Override
        public LodBands lodBands(CompiledStateTree tree) {
            return LodBands.defaults();
        }

        private static CrowdConfig config(SimSettings s) {
            return CrowdConfig.defaults().withAgents(s.agents()).withSeed(s.seed()).withDt(s.dt()).withWorkers(s.workers());
        }

        @Override
        public Simulation open(SimSettings s, CompiledStateTree tree, Path treeFile, LodBands lod, float[] observer) {
            CrowdConfig c = config(s);
            float ox = observer == null ? c.worldSize() / 2 : observer[0];
            float oy = observer == null ? c.worldSize() / 2 : observer[1];
            try {
                return new CrowdSim(CrowdSetup.of(c).tree(treeFile).compiled(tree, registry()).lod(lod).observer(ox, oy));
            } catch (StateTreeCompileException e) {
                throw new IllegalStateException("a compiled tree does not compile: " + e.getMessage(), e);
            }
        }

        @Override
        public Simulation load(SnapshotReader snapshot, Path snapshotFile, int workers, Path treeOverride,
                               long maxTreeBytes) throws IOException, StateTreeCompileException {
            return CrowdSnapshot.load(snapshot, snapshotFile, workers, registry(), treeOverride);
        }

        @Override
        public String snapshotKind() {
            return CrowdSnapshot.KIND;
        }

        @Override
        public Partition partition(int regions, SimSettings s, CompiledStateTree tree) {
            CrowdConfig c = config(s);
            return new RegionGrid(regions, c.worldSize(), c.cellSize());
        }

        @Override
        public RegionalSim openRegion(SimSettings s, CompiledStateTree tree, Partition partition, int index) {
            try {
                return new CrowdSim(CrowdSetup.of(config(s.withWorkers(1)))
                        .region(tree.name, null, (RegionGrid) partition, index).compiled(tree, registry()));
            } catch (StateTreeCompileException e) {
                throw new IllegalStateException("a compiled tree does not compile: " + e.getMessage(), e);
            }
        }

        /** Counters: fire alarms heard, smart-object slots in use ({@link CrowdSim#counters()}). */
        @Override
        public List<String> summaryLines(long[] counters, SimSettings s) {
            CrowdConfig c = config(s);
            return List.of(String.format(Locale.ROOT, "smart-object slots in use: %d of %d; fire alarms heard: %d",
                    counters.length > 1 ? counters[1] : 0, (long) c.smartObjects() * c.slotsPerObject(),
                    counters.length > 0 ? counters[0] : 0));
        }
    }
}
