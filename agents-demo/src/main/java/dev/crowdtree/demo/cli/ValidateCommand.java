package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.StateTreeJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code validate <asset.json>}: compiles the asset and prints every error; exit 1 if any, 0 if none. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Compile a StateTree asset and print every error (exit 1 if any, 0 if none).")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<asset.json>", description = "The tree asset.")
    Path asset;

    @Override
    public Integer call() {
        try {
            CompiledStateTree t = StateTreeJson.compile(asset, TreeFiles.compiler());
            System.out.printf("%s: OK: tree '%s', %d states, %d transitions, %d tasks, %d evaluators, %d parameters%n",
                    asset, t.name, t.stateCount, t.transitionCount, t.tasks.length, t.evaluators.length, t.paramName.length);
            return 0;
        } catch (StateTreeCompileException e) {
            for (CompileError err : e.errors()) {
                System.out.println(err);
            }
            System.out.println(e.errors().size() + (e.errors().size() == 1 ? " error" : " errors"));
            return 1;
        }
    }
}
