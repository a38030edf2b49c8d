package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import dev.crowdtree.statetree.reference.RuntimeFactory;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.ScenarioRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code trace <scenario.json>}: runs a scripted scenario and prints the canonical trace
 * (docs/SEMANTICS.md section 10) on stdout. Exit 0, or 2 for a bad scenario or tree.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = "Run a scripted scenario and print the canonical trace.")
public final class TraceCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<scenario.json>", description = "The scenario.")
    Path scenario;

    @Option(names = "--runtime", description = "batched (default) or reference.", defaultValue = "batched")
    String runtime;

    @Override
    public Integer call() {
        RuntimeFactory factory;
        switch (runtime) {
            case "batched":
                factory = StateTreeSystem::create;
                break;
            case "reference":
                factory = (tree, agents, seed, workers) -> new ReferenceInterpreter(tree, agents, seed);
                break;
            default:
                System.err.println("error: --runtime must be 'batched' or 'reference', got '" + runtime + "'");
                return 2;
        }
        try {
            List<String> lines = ScenarioRunner.run(Scenario.load(scenario), TreeFiles.compiler(),
                    TreeFiles.withEmptyCrowd(factory));
            lines.forEach(System.out::println);
            return 0;
        } catch (ScenarioException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        } catch (StateTreeCompileException e) {
            for (CompileError err : e.errors()) {
                System.err.println(err);
            }
            return 2;
        }
    }
}
