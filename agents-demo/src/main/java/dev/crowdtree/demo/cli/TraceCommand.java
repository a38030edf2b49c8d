package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.PayloadMismatch;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import dev.crowdtree.statetree.reference.RuntimeFactory;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.ScenarioRunner;
import dev.crowdtree.statetree.reference.StandaloneHost;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code trace <scenario.json>}: runs a scripted scenario and prints the canonical trace
 * (docs/SEMANTICS.md section 10; with {@code --explain}, a {@code why} line after each transition) on stdout, each tick's lines as soon as the tick is over; the
 * tree's authoring warnings first, on stderr, and at the end, on stderr too, the payload mismatches
 * (rule E5) when there were any, as {@code run}'s summary gives them. Exit 0, or 2 for a bad scenario
 * or tree.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = "Run a scripted scenario and print the canonical trace, line by line as it happens.")
public final class TraceCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<scenario.json>", description = "The scenario.")
    Path scenario;

    @Option(names = "--runtime", description = "batched (default) or reference.", defaultValue = "batched")
    String runtime;

    @Option(names = "--tree", paramLabel = "FILE",
            description = "The tree asset to run, instead of the scenario's 'tree' (which must be in the "
                    + "scenario's directory; this one may be anywhere).")
    Path tree;

    @Option(names = "--explain", description = "After each 'transition' line, a 'why' line: the transition (state, "
            + "declared index), its trigger with the event or completion it fired on, its priority and gate; or the "
            + "composite rule, or the restart from the root.")
    boolean explain;

    @Mixin
    InputLimit limit;

    @Mixin
    ModelOptions nodes;

    private static final IllegalStateException OUTPUT_CLOSED = new IllegalStateException("the output is closed");

    @Override
    public Integer call() {
        RuntimeFactory factory;
        switch (runtime) {
            case "batched":
                factory = StateTreeSystem::create;
                break;
            case "reference":
                factory = (t, agents, seed, workers) -> new ReferenceInterpreter(t, agents, seed);
                break;
            default:
                return Problems.usage(System.err, "--runtime must be 'batched' or 'reference', got '" + runtime + "'");
        }
        if (explain) {
            factory = factory.explaining();
        }
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
        Path treeFile = tree;
        try {
            Scenario s = Scenario.load(scenario, maxBytes);
            if (treeFile == null) {
                treeFile = s.resolveTree();
            }
            InputFiles.check(treeFile, maxBytes);
            CompiledStateTree t = StateTreeJson.compile(treeFile,
                    new StateTreeCompiler(registry).withHostEvents(s.eventTags()), maxBytes);
            if (!TreeFiles.runsStandalone(t, registry, System.err)) {
                return Problems.USAGE;
            }
            Problems.warnings(System.err, t);
            PrintStream out = System.out;
            try {
                int last = s.ticks();
                ScenarioRunner.run(s, t, StandaloneHost.factory(factory, registry), line -> {
                    out.println(line);
                    if (out.checkError()) {
                        throw OUTPUT_CLOSED; // the reader went away (trace ... | head): stop the run
                    }
                }, (runtime, tick) -> {
                    // events an onEvent transition's payload fields rejected (rule E5): on stderr, as
                    // run's summary gives them, so that the trace on stdout stays the canonical one
                    if (tick == last) {
                        List<PayloadMismatch> unmatched = runtime.unmatchedPayloads();
                        if (!unmatched.isEmpty()) {
                            PayloadMismatchLines.print(System.err, unmatched);
                        }
                    }
                });
            } catch (IllegalStateException e) {
                if (e != OUTPUT_CLOSED) {
                    throw e;
                }
                return 1;
            }
            return 0;
        } catch (ScenarioException | InputFileException e) {
            return Problems.usage(System.err, e.getMessage());
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(System.err, treeFile, e);
            return Problems.USAGE;
        }
    }
}
