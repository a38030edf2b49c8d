package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.cli.InputLimit;
import dev.crowdtree.demo.cli.ModelOptions;
import dev.crowdtree.demo.cli.OutputFiles;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.statetree.model.ModelException;
import dev.crowdtree.demo.cli.Problems;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.TokenOptions;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;
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
            + "another address needs a token (--token-file, $" + TokenOptions.ENV + " or --token).", defaultValue = "127.0.0.1")
    String bind;

    @Mixin
    TokenOptions tokens;

    @Option(names = "--paused", description = "Start paused after tick 0 (the start).")
    boolean paused;

    @Option(names = "--tps", paramLabel = "N", description = "Ticks per second while running, 0..10000; 0: as fast as "
            + "it goes (default: real time, 1/dt).")
    Double tps;

    /** The most ticks per second {@code --tps} takes. */
    static final double MAX_TPS = 10_000;

    @Option(names = "--history", paramLabel = "TICKS", description = "Ticks kept for time travel (default: ${DEFAULT-VALUE}).",
            defaultValue = "1000")
    int history;

    @Option(names = "--snapshot-every", paramLabel = "TICKS", description = "Ticks between the snapshots time travel "
            + "restores (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int snapshotEvery;

    @Option(names = "--record", paramLabel = "FILE", description = "Record the run to FILE (docs/RECORDING.md): "
            + "the start, each tick's inputs and counters, a snapshot every --snapshot-every ticks.")
    Path record;

    @Option(names = "--replay", paramLabel = "FILE", description = "Open a recording (of debug --record or run --record) "
            + "instead of a scenario: every view, over the whole recording.")
    Path replay;

    @Option(names = "--verify", description = "With --replay: no server; re-simulate the whole recording, compare the "
            + "world hash at each recorded snapshot and at the end, print one line; exit 0 when it matches, 1 if not.")
    boolean verify;

    @Option(names = "--workers", paramLabel = "N", description = "With --replay: worker threads (default: ${DEFAULT-VALUE}; "
            + "the result does not depend on it).", defaultValue = "1")
    int workers;

    @Mixin
    InputLimit limit;

    @Mixin
    ModelOptions nodes;

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
            if (tps != null && !(tps >= 0 && tps <= MAX_TPS)) { // NaN fails both
                throw new IllegalArgumentException("--tps = " + tps + " is out of range; valid range is 0 (as fast as it "
                        + "goes) .. " + (int) MAX_TPS + ", or leave it out for real time (1/dt)");
            }
            if (history < 0 || snapshotEvery < 1) {
                throw new IllegalArgumentException("--history must be >= 0 and --snapshot-every >= 1");
            }
            AccessToken access = tokens.resolve();
            options = Debugger.Options.defaults().port(port).bind(bind).token(access == null ? null : access.value()).paused(paused)
                    .ticksPerSecond(tps == null ? -1 : tps).history(history, snapshotEvery);
            options.check();
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        if (replay != null && (scenario != null || record != null || tree != null)) {
            return Problems.usage(err, "--replay opens a recording: give no scenario, --tree or --record with it");
        }
        if (verify && replay == null) {
            return Problems.usage(err, "--verify checks a recording: give it with --replay FILE");
        }
        if (replay == null && scenario == null) {
            return Problems.usage(err, "debug needs a scenario (debug <scenario.json>) or a recording (--replay FILE)");
        }
        if (workers < 1 || workers > 256) {
            return Problems.usage(err, "--workers = " + workers + " is out of range; valid range is 1..256");
        }
        try {
            // before anything is built or bound: a link to the scenario or the tree is not overwritten
            new OutputFiles().input("the scenario", scenario).input("--tree", tree).output("--record", record).check();
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        ModelChoice models;
        try {
            models = nodes.choice();
        } catch (ModelException e) {
            return Problems.usage(err, e.getMessage());
        }
        Debugger d;
        try {
            if (replay != null) {
                // the file, and each snapshot in it decompressed, within --max-input-mb
                Recording rec = Recording.read(replay, maxBytes);
                if (verify) {
                    StringBuilder line = new StringBuilder();
                    boolean same = Recordings.verify(rec, models, workers, line);
                    out.println(Printable.escape(line.toString()));
                    return same ? 0 : 1;
                }
                d = Debugger.openReplay(rec, models, workers, options);
            } else if (nodes.hasModel()) {
                if (record != null) {
                    return Problems.usage(err, "--record with --model: record a run of the model instead "
                            + "(run --model PATH --record FILE), which debug --replay opens");
                }
                d = Debugger.openModelScenario(scenario, tree, models.byDefault(), options, maxBytes);
            } else {
                d = Debugger.openScenario(scenario, tree, models.registry(), options, maxBytes, record);
            }
        } catch (RecordingException e) {
            return Problems.usage(err, e.getMessage());
        } catch (ScenarioException | InputFileException e) {
            return Problems.usage(err, e.getMessage());
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(err, tree != null ? tree : scenario != null ? scenario
                    : "of the recording " + replay, e);
            return Problems.USAGE;
        } catch (BindException e) {
            return Problems.usage(err, e.getMessage()); // Debugger says which: the port in use, or not this machine's address
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
