package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code dot <asset.json>}: the compiled tree as Graphviz DOT on stdout, its authoring warnings on
 * stderr; exit 1 with the compile errors on stderr, or 2 if the file cannot be read.
 */
@Command(name = "dot", mixinStandardHelpOptions = true,
        description = "Print the compiled tree as Graphviz DOT (render with: dot -Tpng -o tree.png).")
public final class DotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<asset.json>", description = "The tree asset.")
    Path asset;

    @Mixin
    InputLimit limit;

    @Mixin
    ModelOptions nodes;

    @Override
    public Integer call() {
        long maxBytes;
        try {
            maxBytes = limit.bytes();
        } catch (IllegalArgumentException e) {
            return Problems.usage(System.err, e.getMessage());
        }
        NodeRegistry registry = TreeFiles.registry(nodes, System.err);
        if (registry == null) {
            return Problems.USAGE;
        }
        try {
            InputFiles.check(asset, maxBytes);
            CompiledStateTree t = StateTreeJson.compile(asset, new StateTreeCompiler(registry), maxBytes);
            Problems.warnings(System.err, t);
            System.out.print(DotWriter.toDot(t));
            return 0;
        } catch (InputFileException e) {
            return Problems.usage(System.err, e.getMessage());
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(System.err, asset, e);
            return 1;
        }
    }
}
