package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.model.LodBands;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The options every command that builds a simulation shares ({@code run}, {@code serve},
 * {@code sweep}), as a picocli mixin, and the one way to turn them into a model, a tree and a
 * simulation: the model of {@code --model}/{@code --nodes} (else the crowd, or the plain model for a
 * tree that uses none of the crowd's node types), {@code --agents} and {@code --dt} defaulting to the
 * model's.
 */
public final class SimOptions {
    @Option(names = "--agents", description = "Number of agents (default: the model's; the crowd's 100,000).")
    Integer agents;

    @Option(names = "--workers", description = "Worker threads (default: all processors).")
    Integer workers;

    @Option(names = "--seed", description = "Seed of all randomness (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    long seed;

    @Option(names = "--tree", description = "A StateTree asset to run instead of the model's own tree.")
    Path tree;

    @Option(names = "--observer", paramLabel = "X,Y",
            description = "Where the LOD observer stands, in the model's units (default: the world's centre).")
    String observer;

    @Option(names = "--on-node-error", paramLabel = "fail|isolate", defaultValue = "isolate",
            description = "What a node that throws does: isolate (default: only the agents it was processing fail; "
                    + "the failure is recorded and printed) or fail (the run ends with the exception).")
    String onNodeError;

    @Mixin
    ModelOptions models;

    /** A model, its tree compiled, and the settings: what a simulation is opened from. */
    public record Plan(RunnableModel model, CompiledStateTree tree, Path treeFile, SimSettings settings,
                       float[] observer) {
        /** The tree for messages: its file, or the model's own tree (control characters escaped). */
        public String treeName() {
            return Printable.escape(treeFile == null ? "embedded " + model.defaultTree().name()
                    : treeFile.toString());
        }
    }

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

    /** Whether {@code --model} or {@code --nodes} was given. */
    public boolean modelGiven() {
        return models.given();
    }

    /** The model options (for commands that pass them on: the cluster's members, sweeps). */
    public ModelOptions models() {
        return models;
    }

    /**
     * The model, the tree (compiled; its authoring warnings printed on {@code err}) and the settings
     * ({@code dt}: seconds per tick, null for the model's), or null after printing why not on
     * {@code err}: one line for a bad option, model or file, the compile errors for a tree that does
     * not compile (the caller exits with 2).
     */
    public Plan plan(Float dt, PrintStream err, long maxTreeBytes) {
        ModelChoice choice = TreeFiles.choice(models, err);
        if (choice == null) {
            return null;
        }
        RunnableModel model;
        CompiledStateTree t;
        try {
            nodeErrorPolicy();
            if (tree == null) {
                model = choice.byDefault();
                t = model.compile(null, maxTreeBytes);
            } else {
                InputFiles.check(tree, maxTreeBytes);
                t = StateTreeJson.compile(tree, new StateTreeCompiler(choice.registry()), maxTreeBytes);
                model = choice.forTree(t);
            }
            Problems.warnings(err, t);
            SimSettings settings = new SimSettings(agents == null ? model.defaultAgents() : agents, seed,
                    workers == null ? Runtime.getRuntime().availableProcessors() : workers,
                    dt == null ? model.defaultDt() : dt);
            return new Plan(model, t, tree, settings, observer(model, t));
        } catch (InputFileException | IllegalArgumentException e) {
            Problems.usage(err, e.getMessage());
            return null;
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(err, tree == null ? "of the model" : tree, e);
            return null;
        }
    }

    /**
     * The simulation of {@code plan}, with LOD when {@code lod} (warning on {@code err} and running
     * without when the model has none), or null after printing why not (exit 2).
     */
    public Simulation open(Plan plan, boolean lod, PrintStream err) {
        LodBands bands = null;
        if (lod) {
            bands = plan.model().lodBands(plan.tree());
            if (bands == null) {
                err.println("warning: --lod is off: " + plan.model().describe() + " has no positions to measure a "
                        + "distance from (LOD needs a model with positions)");
            }
        }
        try {
            Simulation sim = plan.model().open(plan.settings(), plan.tree(), plan.treeFile(), bands, plan.observer());
            sim.system().setNodeErrorPolicy(nodeErrorPolicy());
            return sim;
        } catch (IllegalArgumentException e) {
            Problems.usage(err, e.getMessage());
            return null;
        }
    }

    /**
     * The observer point {@code --observer} names (null: the world's centre, the model's choice).
     *
     * @throws IllegalArgumentException naming the option, the value and the valid range
     */
    private float[] observer(RunnableModel model, CompiledStateTree t) {
        if (observer == null) {
            return null;
        }
        float[] bounds = model.bounds(t);
        if (bounds == null) {
            throw new IllegalArgumentException("--observer: " + model.describe() + " has no positions; the observer "
                    + "is where LOD measures distances from");
        }
        String[] xy = observer.split(",", -1);
        float[] p = new float[2];
        boolean ok = xy.length == 2;
        for (int i = 0; ok && i < 2; i++) {
            try {
                p[i] = Float.parseFloat(xy[i].strip());
                ok = p[i] >= 0 && p[i] <= bounds[i];
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("--observer = " + Printable.clean(observer, 100) + " is not a point of the "
                    + "world; give X,Y " + (bounds[0] == bounds[1] ? "in metres, each in 0.." + RunCommand.metres(bounds[0])
                    : "with X in 0.." + RunCommand.metres(bounds[0]) + " and Y in 0.." + RunCommand.metres(bounds[1])));
        }
        return p;
    }
}
