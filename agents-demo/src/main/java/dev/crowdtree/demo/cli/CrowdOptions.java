package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.sim.CrowdConfig;
import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
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

    /**
     * The configuration these options describe, with seconds per tick {@code dt}.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid range
     */
    public CrowdConfig config(float dt) {
        CrowdConfig d = CrowdConfig.defaults();
        return d.withAgents(agents).withSeed(seed).withDt(dt).withWorkers(workers == null ? d.workers() : workers);
    }

    /** The tree in use, for messages. */
    public String treeName() {
        return tree == null ? "embedded " + CrowdSim.EMBEDDED_TREE : tree.toString();
    }

    /**
     * Builds the simulation, or prints the tree's compile errors to {@code err} and returns null
     * (the caller exits with 2).
     */
    public CrowdSim open(CrowdConfig config, PrintStream err) {
        try {
            return new CrowdSim(config, tree);
        } catch (StateTreeCompileException e) {
            err.println("error: the tree " + (tree == null ? CrowdSim.EMBEDDED_TREE : tree) + " does not compile:");
            e.errors().forEach(x -> err.println("  " + x));
            return null;
        }
    }
}
