package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.render.FrameWriter;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.FailureLog;
import dev.crowdtree.statetree.exec.NodeFailure;
import dev.crowdtree.statetree.json.InputFiles;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code run}: a model's simulation (the crowd by default), headless. Prints a progress line every second (ticks/s, agent-ticks/s,
 * p99 tick time, share of running agents awake in the StateTree phase, share of agents per state)
 * and, at the end, the summary: tick-time percentiles, per-phase times, the awake share, the LOD
 * bands (with {@code --lod}), state occupancy and the world hash (same seed, same hash, whatever
 * --workers).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a simulation headless and print its results: the crowd (the default command), your model "
                + "(--model PATH) or your tree (--nodes PATH --tree FILE).")
public final class RunCommand implements Callable<Integer> {
    @Mixin
    SimOptions options;

    @Option(names = "--ticks", description = "Ticks to run (default: ${DEFAULT-VALUE}).", defaultValue = "600")
    int ticks;

    @Option(names = "--dt", description = "Seconds per tick (default: the model's; the crowd's 0.0333333).")
    Float dt;

    @Option(names = "--png", description = "Write PNG frames into this directory (created if need be).")
    Path pngDir;

    @Option(names = "--png-every", description = "Ticks between PNG frames (default: ${DEFAULT-VALUE}).", defaultValue = "60")
    int pngEvery;

    @Option(names = "--quiet", description = "No progress lines; only the summary.")
    boolean quiet;

    @Option(names = "--lod", negatable = true, defaultValue = "false", fallbackValue = "true",
            description = "Level of detail: StateTree tick periods by distance to the observer (--observer), "
                    + "period 1 within 1/20 of the world's extent (the crowd: 100 m), 2 within 1/8 (250 m), 4 within 1/4 "
                    + "(500 m), 8 beyond (default: off; a model without positions has none).")
    boolean lod;

    @Option(names = "--save", paramLabel = "FILE",
            description = "At the end of the run, write the whole world to FILE (a snapshot, docs/SNAPSHOT.md).")
    Path saveFile;

    @Option(names = "--load", paramLabel = "FILE",
            description = "Continue the world saved in FILE (by --save) for --ticks more ticks; the world's options "
                    + "(--agents, --seed, --dt, --lod, --observer) come from the file. The tree too, read from the path "
                    + "the file recorded only when it is in FILE's directory; else name it with --tree (it must be the "
                    + "tree the world was saved with). A model's world loads with the --model (and --nodes) it was "
                    + "saved with.")
    Path loadFile;

    @Option(names = "--record", paramLabel = "FILE",
            description = "Record the run into FILE (docs/RECORDING.md): the start, the counters of every tick, a "
                    + "snapshot every --record-every ticks and the final world hash; debug --replay FILE opens it.")
    Path recordFile;

    @Option(names = "--record-every", paramLabel = "M", defaultValue = "100",
            description = "Ticks between the snapshots of a recording (default: ${DEFAULT-VALUE}).")
    int recordEvery;

    @Spec
    CommandSpec spec;

    /**
     * The world options a snapshot fixes: naming one of them with --load is a usage error. Not
     * {@code --tree}: with --load it names the tree asset the snapshot was saved with (its fingerprint
     * must match), for a snapshot whose recorded tree path is not next to it.
     */
    private static final String[] WORLD_OPTIONS = {"--agents", "--seed", "--dt", "--lod", "--observer"};

    @Mixin
    InputLimit limit;

    @Mixin
    ClusterOptions cluster;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        String fixed = worldOptionWithLoad();
        if (fixed != null) {
            err.println("error: " + fixed + " cannot be given with --load: the world's options come from the snapshot");
            return 2;
        }
        long maxBytes;
        try {
            maxBytes = checkOptions();
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        if (cluster.wanted()) {
            return runCluster(out, err, maxBytes);
        }
        if (pngDir != null) {
            try {
                Files.createDirectories(pngDir);
            } catch (IOException | RuntimeException e) {
                return Problems.usage(err, "--png " + pngDir + ": cannot create the directory: " + why(e));
            }
        }
        long setup0 = System.nanoTime();
        Simulation sim;
        String treeName;
        if (loadFile != null) {
            sim = load(err, maxBytes);
            treeName = sim == null ? null : sim.tree().name;
        } else {
            SimOptions.Plan plan = options.plan(dt, err, maxBytes);
            sim = plan == null ? null : options.open(plan, lod, err);
            treeName = plan == null ? null : plan.treeName();
        }
        if (sim == null) {
            return 2;
        }
        return run(out, err, sim, treeName, setup0);
    }

    /** With --load, the first of {@link #WORLD_OPTIONS} given too (a usage error: the snapshot fixes them), else null. */
    private String worldOptionWithLoad() {
        if (loadFile != null) {
            for (String o : WORLD_OPTIONS) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    return o;
                }
            }
        }
        return null;
    }

    /** Checks the options (ranges, combinations, no output a file read: else IllegalArgumentException); the input limit in bytes. */
    private long checkOptions() {
        if (ticks < 0) {
            throw new IllegalArgumentException("--ticks = " + ticks + " is out of range; valid range is 0..2147483647");
        }
        if (recordEvery < 1) {
            throw new IllegalArgumentException("--record-every = " + recordEvery
                    + " is out of range; valid range is 1..2147483647");
        }
        if (recordFile == null && spec.commandLine().getParseResult().hasMatchedOption("--record-every")) {
            throw new IllegalArgumentException("--record-every is the spacing of a recording's snapshots: give --record "
                    + "FILE too");
        }
        // by real identity (links resolved), before anything is built: no output may be a file read
        new OutputFiles().input("--load", loadFile).input("--tree", options.tree).output("--save", saveFile)
                .output("--record", recordFile).mayReplace("--save", "--load").check();
        if (pngEvery < 1) {
            throw new IllegalArgumentException("--png-every = " + pngEvery + " is out of range; valid range is 1..2147483647");
        }
        if (dt != null) {
            new SimSettings(1, 0, 1, dt); // checks it
        }
        options.nodeErrorPolicy();
        return limit.bytes();
    }

    /** A region run (--regions, --local-members or --cluster): refuses the options it has not, else runs it; the exit code. */
    private int runCluster(PrintStream out, PrintStream err, long maxBytes) {
        for (String o : new String[] {"--lod", "--png", "--save", "--load", "--record", "--observer", "--workers"}) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                return Problems.usage(err, o + " cannot be given with --regions, --local-members or --cluster (a region "
                        + "run has no LOD, frames, --save/--load or --record yet, and a member steps each region on a "
                        + "thread of its own)");
            }
        }
        SimOptions.Plan plan = options.plan(dt, err, maxBytes);
        return plan == null ? Problems.USAGE : ClusterRunner.run(plan, options.models(), cluster, ticks, quiet, out, err);
    }

    /** Runs the opened simulation and closes it: the header, the ticks, the summary, then --save; the exit code. */
    private int run(PrintStream out, PrintStream err, Simulation sim, String treeName, long setup0) {
        RunRecording recording = null;
        try (sim) {
            SimSettings config = sim.settings();
            FrameWriter frames = pngDir == null ? null : new FrameWriter(sim, pngDir);
            header(out, sim, config, treeName, setup0);
            if (frames != null) {
                frames.write();
            }
            if (recordFile != null) {
                try {
                    recording = RunRecording.start(recordFile, recordEvery, sim, loadFile != null ? null : treeName,
                            loadFile);
                } catch (IOException | RuntimeException e) {
                    return Problems.usage(err, "--record " + recordFile + ": cannot write the file: " + why(e));
                }
            }
            long wall = tickLoop(err, sim, frames, recording);
            if (!quiet && ticks > 0) {
                err.println();
            }
            summary(out, sim, ticks, wall);
            if (frames != null) {
                out.println(Printable.escape("frames: " + frames.count() + " PNG files in " + pngDir));
            }
            if (recording != null) {
                out.println(Printable.escape(recording.finish(sim)));
            }
            if (saveFile != null && !save(out, err, sim)) {
                return 1;
            }
        } catch (UncheckedIOException e) {
            // writing a frame failed (a full disk, a directory removed): not a bug, and one line says it
            err.println(Problems.line(e.getMessage()));
            return 1;
        } catch (IOException e) {
            // writing the recording failed: it is left without its end block, which readers refuse as incomplete
            err.println(Problems.line("cannot write " + recordFile + ": " + why(e) + "; the recording is incomplete"));
            return 1;
        } finally {
            if (recording != null) {
                try {
                    recording.close();
                } catch (IOException e) {
                    err.println(Problems.line("cannot write " + recordFile + ": " + why(e)));
                }
            }
        }
        return 0;
    }

    /** Prints the lines before the first tick: the run, the mode, the snapshot loaded, the LOD bands, the setup time. */
    private void header(PrintStream out, Simulation sim, SimSettings config, String treeName, long setup0) {
        out.printf(Locale.ROOT, "crowdtree run: %,d agents, %d workers, %d ticks of %.4f s, seed %d, tree %s (%d states)%n",
                config.agents(), config.workers(), ticks, config.dt(), config.seed(), treeName,
                sim.tree().stateCount);
        out.println("mode: " + Printable.escape(sim.mode()));
        if (loadFile != null) {
            out.printf(Locale.ROOT, "loaded: %s, from tick %d (%.2f s)%n", Printable.escape(loadFile.toString()), sim.tickNumber(),
                    (System.nanoTime() - setup0) / 1e9);
        }
        if (sim.lod() != null) {
            out.printf(Locale.ROOT, "lod: tick periods by distance to the observer at (%s, %s): %s%n",
                    metres(sim.observerX()), metres(sim.observerY()), bandList(sim.lod()));
        }
        out.printf(Locale.ROOT, "setup: %.2f s%n", (System.nanoTime() - setup0) / 1e9);
    }

    /** The tick loop: --ticks ticks, recorded, with frames and a progress line a second; the loop's wall time in ns. */
    private long tickLoop(PrintStream err, Simulation sim, FrameWriter frames, RunRecording recording) throws IOException {
        long start = System.nanoTime();
        long lastReport = start;
        long lastTick = 0;
        for (int i = 0; i < ticks; i++) {
            sim.tick();
            if (recording != null) {
                recording.ticked(sim);
            }
            if (frames != null) {
                if (sim.tickNumber() % pngEvery == 0) {
                    frames.write();
                } else if (sim.tickNumber() % Math.max(1, pngEvery / 20) == 0) {
                    frames.sample(); // the occupancy chart gets ~20 samples between frames
                }
            }
            long now = System.nanoTime();
            if (!quiet && now - lastReport >= 1_000_000_000L) {
                progress(err, sim, i + 1, now - lastReport, sim.tickNumber() - lastTick);
                sim.metrics().resetInterval();
                lastReport = now;
                lastTick = sim.tickNumber();
            }
        }
        return System.nanoTime() - start;
    }

    /** --save: writes the world to {@link #saveFile} and prints a line; false after printing why it could not (exit 1). */
    private boolean save(PrintStream out, PrintStream err, Simulation sim) {
        long t0 = System.nanoTime();
        try {
            long size = sim.saveTo(saveFile);
            out.printf(Locale.ROOT, "saved: %s, tick %d, %,d bytes (%.2f s)%n", Printable.escape(saveFile.toString()), sim.tickNumber(), size,
                    (System.nanoTime() - t0) / 1e9);
            return true;
        } catch (IOException e) {
            err.println(Problems.line("cannot write " + saveFile + ": " + e.getMessage()));
            return false;
        }
    }

    /**
     * The simulation saved in {@link #loadFile}, or null after printing why not (exit 2). The file and the
     * tree asset it names are each read within {@code maxBytes} ({@code --max-input-mb}).
     */
    private Simulation load(PrintStream err, long maxBytes) {
        ModelChoice choice = TreeFiles.choice(options.models, err);
        if (choice == null) {
            return null;
        }
        int workers = options.workers == null ? Runtime.getRuntime().availableProcessors() : options.workers;
        try {
            // a regular file within --max-input-mb whose header is a snapshot's, checked before it is read whole
            if (Files.isRegularFile(loadFile) && Files.size(loadFile) > maxBytes) {
                err.println(Problems.line(String.format(Locale.ROOT, "%s: the file is %,d bytes, over the limit of %s "
                        + "for input files; raise the limit with --max-input-mb (1..%d)", loadFile, Files.size(loadFile),
                        InputFiles.limit(maxBytes), InputLimit.MAX_MB)));
                return null;
            }
            SnapshotReader r = SnapshotReader.read(loadFile, maxBytes);
            RunnableModel model = choice.forSnapshot(r.kind());
            Simulation sim = model.load(r, loadFile, workers, options.tree, maxBytes);
            sim.system().setNodeErrorPolicy(options.nodeErrorPolicy());
            return sim;
        } catch (StateTreeCompileException e) {
            err.println(Problems.line(loadFile + ": its tree does not compile: " + e.getMessage().lines().findFirst().orElse("")));
        } catch (java.nio.file.NoSuchFileException e) {
            err.println(Problems.line(loadFile + ": no such file"));
        } catch (IOException e) {
            err.println(Problems.line(loadFile + ": " + e.getMessage()));
        }
        return null;
    }

    /** Why a file operation failed, in words. */
    private static String why(Exception e) {
        if (e instanceof FileAlreadyExistsException) {
            return "a file of that name exists and is not a directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "it cannot be made there (no such file or directory)";
        }
        String m = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
        return m == null || m.isBlank() ? "an input/output error" : m;
    }

    private void progress(PrintStream err, Simulation sim, int done, long nanos, long ticksDone) {
        double tps = ticksDone * 1e9 / nanos;
        Histogram h = sim.metrics().intervalTicks();
        int width = 20;
        int filled = ticks == 0 ? width : (int) ((long) done * width / ticks);
        err.printf(Locale.ROOT, "[%s%s] %5.1f%% tick %d/%d | %.1f ticks/s | %.2fM agent-ticks/s | p99 %.2f ms | awake %.1f%% | %s%n",
                "#".repeat(filled), ".".repeat(width - filled), 100.0 * done / Math.max(1, ticks), done, ticks, tps,
                tps * sim.settings().agents() / 1e6, h.getValueAtPercentile(99) / 1e6,
                100.0 * sim.awakeLastTick() / Math.max(1, sim.runningAgents()), shares(sim, 4));
    }

    /** The most populated states as "Name 41.2%", at most {@code limit} of them. */
    static String shares(Simulation sim, int limit) {
        int[] occ = sim.occupancy();
        CompiledStateTree t = sim.tree();
        int total = 0;
        for (int c : occ) {
            total += c;
        }
        Integer[] order = new Integer[occ.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(occ[b], occ[a]));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(limit, order.length) && occ[order[i]] > 0; i++) {
            sb.append(i == 0 ? "" : ", ").append(Printable.escape(t.stateName(order[i])))
                    .append(String.format(Locale.ROOT, " %.1f%%", 100.0 * occ[order[i]] / Math.max(1, total)));
        }
        return sb.toString();
    }

    /** The bands as "period 1 within 100 m, period 2 100-250 m, ...". */
    static String bandList(LodBands bands) {
        StringBuilder sb = new StringBuilder();
        for (int b = 0; b < bands.count(); b++) {
            sb.append(b == 0 ? "" : ", ").append(bands.describe(b).replace(":", ""));
        }
        return sb.toString();
    }

    /** Agents per LOD band, one indented line per band. */
    static String lodTable(Simulation sim) {
        LodBands bands = sim.lod();
        int[] counts = new int[bands.count()];
        sim.countLodBands(counts);
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        StringBuilder sb = new StringBuilder();
        for (int b = 0; b < counts.length; b++) {
            sb.append(String.format(Locale.ROOT, "  %-40s %9d %6.1f%%%n", bands.describe(b), counts[b],
                    100.0 * counts[b] / Math.max(1, total)));
        }
        return sb.toString();
    }

    static String metres(float v) {
        return v == Math.rint(v) ? Integer.toString((int) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void summary(PrintStream out, Simulation sim, int ticks, long wall) {
        double secs = wall / 1e9;
        out.println("== summary ==");
        out.printf(Locale.ROOT, "ticks: %d in %.2f s = %.1f ticks/s, %.2fM agent-ticks/s (%.1f ns per agent-tick)%n",
                ticks, secs, ticks / Math.max(1e-9, secs), (double) ticks * sim.settings().agents() / Math.max(1e-9, secs) / 1e6,
                wall / Math.max(1.0, (double) ticks * sim.settings().agents()));
        out.println("tick and phase times:");
        out.print(sim.metrics().summary().indent(2));
        int agents = sim.settings().agents(); // not the running agents at the end: trees may have finished
        out.printf(Locale.ROOT, "  awake in the statetree phase: mean %.1f%% of %,d agents (min %.1f%%, max %.1f%%)%n",
                100.0 * sim.awakeMean() / agents, agents, 100.0 * sim.awakeMin() / agents,
                100.0 * sim.awakeMax() / agents);
        if (sim.lod() != null) {
            out.printf(Locale.ROOT, "LOD bands at the end (observer at %s, %s):%n", metres(sim.observerX()),
                    metres(sim.observerY()));
            out.print(lodTable(sim));
        }
        out.println("state occupancy at the end (active state, running agents):");
        int[] occ = sim.occupancy();
        CompiledStateTree t = sim.tree();
        int total = 0;
        for (int c : occ) {
            total += c;
        }
        for (int s = 0; s < occ.length; s++) {
            if (occ[s] > 0) {
                out.printf(Locale.ROOT, "  %-40s %9d %6.1f%%%n", Printable.escape(t.statePath(s)), occ[s],
                        100.0 * occ[s] / total);
            }
        }
        for (String line : sim.summaryLines()) {
            out.println(Printable.escape(line));
        }
        FailureLog failures = sim.system().failures();
        if (failures.total() == 0) {
            out.println("node failures: 0");
        } else {
            List<NodeFailure> kept = failures.kept();
            out.printf(Locale.ROOT, "node failures: %,d (agents whose trees failed because a node threw; the first %d):%n",
                    failures.total(), Math.min(MAX_FAILURES_SHOWN, kept.size()));
            for (int i = 0; i < Math.min(MAX_FAILURES_SHOWN, kept.size()); i++) {
                out.println("  " + kept.get(i));
            }
        }
        PayloadMismatchLines.print(out, sim.system().unmatchedPayloads());
        out.printf(Locale.ROOT, "world hash: %016x%n", sim.worldHash());
    }

    /** Failures listed in the summary (the API keeps up to {@link FailureLog#CAPACITY}). */
    static final int MAX_FAILURES_SHOWN = 20;
}
