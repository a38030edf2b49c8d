package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.sim.BehaviourSim;
import dev.crowdtree.demo.sim.CrowdSetup;
import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The options every command that builds a crowd shares ({@code run}, {@code serve}), as a picocli
 * mixin, and the one way to turn them into a simulation.
 */
public final class CrowdOptions {
    @Option(names = "--agents", description = "Number of agents (default: ${DEFAULT-VALUE}).", defaultValue = "100000")
    int agents;

    @Option(names = "--workers", description = "Worker threads (default: all processors).")
    Integer workers;

    @Option(names = "--seed", description = "Seed of all randomness (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    long seed;

    @Option(names = "--tree", description = "A StateTree asset to use instead of the embedded crowd tree.")
    Path tree;

    @Option(names = "--observer", paramLabel = "X,Y",
            description = "Where the LOD observer stands, in metres (default: the world's centre).")
    String observer;

    /**
     * The configuration these options describe, with seconds per tick {@code dt}.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid range
     */
    public CrowdConfig config(float dt) {
        CrowdConfig d = CrowdConfig.defaults();
        return d.withAgents(agents).withSeed(seed).withDt(dt).withWorkers(workers == null ? d.workers() : workers);
    }

    /**
     * The observer point {@code --observer} names, or the centre of a world of side {@code worldSize}.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid range
     */
    public float[] observer(float worldSize) {
        if (observer == null) {
            return new float[] {worldSize / 2, worldSize / 2};
        }
        String[] xy = observer.split(",", -1);
        float[] p = new float[2];
        boolean ok = xy.length == 2;
        for (int i = 0; ok && i < 2; i++) {
            try {
                p[i] = Float.parseFloat(xy[i].strip());
                ok = p[i] >= 0 && p[i] <= worldSize;
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("--observer = " + Printable.clean(observer, 100) + " is not a point of the "
                    + "world; give X,Y in metres, each in 0.." + (int) worldSize);
        }
        return p;
    }

    @Option(names = "--on-node-error", paramLabel = "fail|isolate", defaultValue = "isolate",
            description = "What a node that throws does: isolate (default: only the agents it was processing fail; "
                    + "the failure is recorded and printed) or fail (the run ends with the exception).")
    String onNodeError;

    /** The policy {@code --on-node-error} names (docs/SEMANTICS.md section 14). */
    public NodeErrorPolicy nodeErrorPolicy() {
        switch (onNodeError) {
            case "isolate":
                return NodeErrorPolicy.ISOLATE;
            case "fail":
                return NodeErrorPolicy.FAIL;
            default:
                throw new IllegalArgumentException("--on-node-error = " + onNodeError + " is not valid; give fail or isolate");
        }
    }

    /** The tree in use, for messages (control characters escaped). */
    public String treeName() {
        return Printable.escape(tree == null ? "embedded " + CrowdSim.EMBEDDED_TREE : tree.toString());
    }

    @Mixin
    NodeOptions nodes;

    /**
     * Builds the simulation, with LOD by {@code lod} (null: off) around {@code observer} (x, y), or
     * prints why the tree cannot be used (one line when the file cannot be read, the compile errors
     * otherwise) to {@code err} and returns null (the caller exits with 2). The tree's authoring
     * warnings go to {@code err} too, and do not stop it. When LOD was asked for
     * but the runtime cannot do it, warns on {@code err} and runs without. The tree file may have
     * at most 16 MB.
     */
    public Simulation open(CrowdConfig config, LodBands lod, float[] observer, PrintStream err) {
        return open(config, lod, observer, err, InputFiles.DEFAULT_MAX_BYTES);
    }

    /**
     * As {@link #open(CrowdConfig, LodBands, float[], PrintStream)}, with a tree file of at most
     * {@code maxTreeBytes}. A tree that uses the crowd's node types runs in the crowd
     * ({@link CrowdSim}); any other runs alone ({@link BehaviourSim}, without LOD). Either is bound
     * only to the columns and externals it needs; one whose needs nothing gives (no loaded node
     * provider has a standalone value) is refused with one line naming the column or external and
     * the node that needs it.
     */
    public Simulation open(CrowdConfig config, LodBands lod, float[] observer, PrintStream err, long maxTreeBytes) {
        NodeRegistry registry = TreeFiles.registry(nodes, err);
        if (registry == null) {
            return null;
        }
        try {
            CompiledStateTree t = compile(registry, maxTreeBytes);
            Problems.warnings(err, t);
            Simulation sim = DemoNodes.usedBy(t) ? new CrowdSim(CrowdSetup.of(config).tree(tree).compiled(t, registry).lod(lod).observer(observer[0], observer[1]))
                    : new BehaviourSim(config, t, registry);
            sim.system().setNodeErrorPolicy(nodeErrorPolicy());
            return sim;
        } catch (InputFileException | IllegalArgumentException e) {
            Problems.usage(err, e.getMessage());
            return null;
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(err, tree == null ? CrowdSim.EMBEDDED_TREE : tree, e);
            return null;
        }
    }

    /**
     * The tree {@code --tree} names, or the embedded crowd tree, compiled with {@code registry}.
     *
     * @throws InputFileException        when the file cannot be read
     * @throws StateTreeCompileException when it does not compile
     */
    CompiledStateTree compile(NodeRegistry registry, long maxTreeBytes) throws InputFileException, StateTreeCompileException {
        StateTreeCompiler compiler = new StateTreeCompiler(registry);
        if (tree == null) {
            return StateTreeJson.compile(CrowdSim.EMBEDDED_TREE, CrowdSim.embeddedTreeText(), compiler);
        }
        InputFiles.check(tree, maxTreeBytes);
        return StateTreeJson.compile(tree, compiler, maxTreeBytes);
    }
}
