package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code validate [--strict] <asset.json>}: compiles the asset and prints its errors (the first 100
 * and a count), or an OK line and its authoring warnings (docs/SEMANTICS.md, "Authoring warnings";
 * the first 100 and a count); exit 1 if there are errors, or warnings under {@code --strict}; 0
 * otherwise; 2 if the file cannot be read at all (missing, not a regular file, over the size limit).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Compile a StateTree asset and print its errors, or OK and its warnings (exit 1 if there are "
                + "errors, or warnings with --strict; 0 otherwise; 2 if the file cannot be read).")
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<asset.json>", description = "The tree asset.")
    Path asset;

    @Option(names = "--strict", description = "Treat authoring warnings as errors: exit 1 if there is any.")
    boolean strict;

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
            boolean failed = strict && !t.warnings.isEmpty();
            if (!failed) {
                System.out.println(Printable.escape(String.format("%s: OK: tree '%s', %d states, %d transitions, %d tasks, "
                        + "%d evaluators, %d parameters", asset, t.name, t.stateCount, t.declaredTransitionCount(), t.taskCount(),
                        t.evaluatorCount(), t.paramCount())));
            }
            int n = Problems.warnings(System.out, t);
            if (n > 0) {
                System.out.println(n + (n == 1 ? " warning" : " warnings") + (strict ? "; --strict makes them errors" : ""));
            }
            return failed ? 1 : 0;
        } catch (InputFileException e) {
            return Problems.usage(System.err, e.getMessage());
        } catch (StateTreeCompileException e) {
            e.listing().forEach(System.out::println);
            System.out.println(e.errorCount() + (e.errorCount() == 1 ? " error" : " errors"));
            String hint = Problems.nodesHint(e);
            if (hint != null) {
                System.out.println(hint);
            }
            return 1;
        }
    }
}
