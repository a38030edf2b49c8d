package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.StateTreeJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code dot <asset.json>}: the compiled tree as Graphviz DOT on stdout. */
@Command(name = "dot", mixinStandardHelpOptions = true,
        description = "Print the compiled tree as Graphviz DOT (render with: dot -Tpng -o tree.png).")
public final class DotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<asset.json>", description = "The tree asset.")
    Path asset;

    @Override
    public Integer call() {
        try {
            System.out.print(DotWriter.toDot(StateTreeJson.compile(asset, TreeFiles.compiler())));
            return 0;
        } catch (StateTreeCompileException e) {
            for (CompileError err : e.errors()) {
                System.err.println(err);
            }
            return 1;
        }
    }
}
