package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.cli.InputLimit;
import dev.crowdtree.demo.cli.NodeOptions;
import dev.crowdtree.demo.cli.Problems;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviderException;
import dev.crowdtree.statetree.reference.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code debug <scenario.json>}: the live debugger in the browser on a scripted scenario
 * (docs/DEBUGGER.md). Prints the address and serves until Ctrl+C.
 */
@Command(name = "debug", mixinStandardHelpOptions = true,
        description = "Debug a scenario in the browser: the tree with live counts, breakpoints, an agent finder, "
                + "each agent's explained trace, and time travel.")
public final class DebugCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<scenario.json>", description = "The scenario to run.")
    Path scenario;

    @Option(names = "--tree", paramLabel = "FILE", description = "The tree asset to run, instead of the scenario's 'tree'.")
    Path tree;

    @Option(names = "--port", description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).", defaultValue = "8090")
    int port;

    @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only); "
            + "another address needs --token.", defaultValue = "127.0.0.1")
    String bind;

    @Option(names = "--token", paramLabel = "TOKEN", description = "Shared secret every request must carry "
            + "(16+ characters of A-Z a-z 0-9 . _ ~ -); open the page as /?token=TOKEN.")
    String token;

    @Option(names = "--paused", description = "Start paused after tick 0 (the start).")
    boolean paused;

    @Option(names = "--tps", paramLabel = "N", description = "Ticks per second while running; 0: as fast as it goes "
            + "(default: real time, 1/dt).", defaultValue = "-1")
    double tps;

    @Option(names = "--history", paramLabel = "TICKS", description = "Ticks kept for time travel (default: ${DEFAULT-VALUE}).",
            defaultValue = "1000")
    int history;

    @Option(names = "--snapshot-every", paramLabel = "TICKS", description = "Ticks between the snapshots time travel "
            + "restores (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int snapshotEvery;

    @Mixin
    InputLimit limit;

    @Mixin
    NodeOptions nodes;

    private final PrintStream out;
    private final PrintStream err;

    public DebugCommand() {
        this(System.out, System.err);
    }

    DebugCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Debugger.Options options;
        long maxBytes;
        try {
            maxBytes = limit.bytes();
            if (tps > 10_000) {
                throw new IllegalArgumentException("--tps = " + tps + " is out of range; valid: 0 (as fast as it goes) .. 10000");
            }
            if (history < 0 || snapshotEvery < 1) {
                throw new IllegalArgumentException("--history must be >= 0 and --snapshot-every >= 1");
            }
            options = Debugger.Options.defaults().port(port).bind(bind).token(token).paused(paused)
                    .ticksPerSecond(tps).history(history, snapshotEvery);
            options.check();
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        if (scenario == null) {
            return Problems.usage(err, "debug needs a scenario (debug <scenario.json>)");
        }
        NodeRegistry registry;
        try {
            registry = nodes.registry();
        } catch (NodeProviderException e) {
            return Problems.usage(err, e.getMessage());
        }
        Debugger d;
        try {
            d = Debugger.openScenario(scenario, tree, registry, options, maxBytes);
        } catch (ScenarioException | InputFileException e) {
            return Problems.usage(err, e.getMessage());
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(err, tree != null ? tree : scenario, e);
            return Problems.USAGE;
        } catch (BindException e) {
            return Problems.usage(err, "port " + port + " is already in use on " + bind + "; choose another with --port");
        } catch (UnknownHostException e) {
            return Problems.usage(err, "--bind " + bind + " is not a known host or address");
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        } catch (IOException e) {
            return Problems.usage(err, e.getMessage());
        }
        return serve(d, out, err);
    }

    /** Prints the address, waits until Ctrl+C or a failure; the exit code. */
    public static int serve(Debugger d, PrintStream out, PrintStream err) {
        Thread hook = new Thread(d::close, "crowdtree-debug-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println(d.session().target().describe());
        out.println("debugging on " + d.url() + " (Ctrl+C to stop)");
        out.flush();
        try {
            d.awaitStop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            d.close();
        }
        Throwable f = d.failure();
        if (f != null) {
            err.println("error: the run stopped: " + f);
            return 1;
        }
        return 0;
    }
}
