package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

/**
 * Creates a runtime for a scenario: {@link ScenarioRunner#REFERENCE} for the reference
 * interpreter, {@code StateTreeSystem::factory} for the batched runtime.
 */
@FunctionalInterface
public interface RuntimeFactory {
    /**
     * @param tree    the compiled tree
     * @param agents  number of agents (ids {@code 0 .. agents-1})
     * @param seed    simulation seed
     * @param workers worker threads (a runtime may ignore it; results must not depend on it)
     */
    StateTreeRuntime create(CompiledStateTree tree, int agents, long seed, int workers);

    /** This factory, its runtimes explaining every transition they trace (docs/SEMANTICS.md section 10). */
    default RuntimeFactory explaining() {
        return (tree, agents, seed, workers) -> {
            StateTreeRuntime runtime = create(tree, agents, seed, workers);
            runtime.setExplain(true);
            return runtime;
        };
    }
}
