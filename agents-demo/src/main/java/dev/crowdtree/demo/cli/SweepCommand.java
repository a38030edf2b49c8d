package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.ClusterRun;
import dev.crowdtree.demo.cluster.ClusterSecret;
import dev.crowdtree.demo.cluster.Handshake;
import dev.crowdtree.demo.cluster.Sweep;
import dev.crowdtree.demo.cluster.ModelCatalog;
import dev.crowdtree.demo.cluster.RunSpec;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.statetree.model.ModelException;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sweep}: many independent runs of a model (the crowd by default), one per seed of {@code --seeds A..B} or per scenario
 * file of {@code --scenarios DIR}, spread over cluster members ({@link Sweep}), for a throughput or
 * parameter study. A progress bar goes to stderr once a second; the table of results (one row per
 * job, in job order: {@value SweepTable#HEADER}) goes to {@code --csv} and/or {@code --markdown}
 * files, or as Markdown to stdout when neither is given, followed by the summary line. Jobs lost
 * with a member that left are run again on the others. Exit codes: 0; 2 for bad input; 1 when the
 * cluster cannot be used or a job failed (its row says why).
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run many independent runs of a model (the crowd, or yours with --model/--nodes), one per seed or "
                + "per scenario file, on cluster members and write a table of their results (CSV and/or Markdown).",
        footer = {"", "Columns: job (seed or scenario file), agents, ticks, wall_ms and ns_per_agent_tick (the ticks' "
                + "wall time on the member, building the world not included), world_hash, alarms (the crowd's fire alarms "
                + "heard; empty for a model without counters), "
                + "member (host:port); a last column error only when a job failed. Rows are in job order, whichever "
                + "member ran them. Exit codes: 0; 1 when the cluster cannot be used or a job failed; 2 for bad input."})
public final class SweepCommand implements Callable<Integer> {
    /** The most jobs of one sweep. */
    static final int MAX_JOBS = 1_000_000;
    private static final Pattern SEEDS = Pattern.compile("(-?\\d{1,19})(?:\\.\\.(-?\\d{1,19}))?");

    @Option(names = "--seeds", paramLabel = "A..B",
            description = "One job per seed from A to B, both included (at most 1,000,000 jobs).")
    String seeds;

    @Option(names = "--scenarios", paramLabel = "DIR",
            description = "One job per *.json file in DIR, in file name order, named by its file: an object such as "
                    + "{\"agents\": 20000, \"seed\": 5, \"ticks\": 300}, every field optional (defaults: --agents, "
                    + "seed 1, --ticks).")
    Path scenarios;

    @Option(names = "--agents", defaultValue = "10000", description = "Agents per run (default: ${DEFAULT-VALUE}).")
    int agents;

    @Option(names = "--ticks", defaultValue = "300", description = "Ticks per run (default: ${DEFAULT-VALUE}).")
    int ticks;

    @Option(names = "--tree", paramLabel = "FILE",
            description = "A StateTree asset to run instead of the model's own tree (its text is sent to the "
                    + "members; linked assets are not supported).")
    Path tree;

    @Mixin
    ModelOptions models;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the table as CSV to FILE.")
    Path csv;

    @Option(names = "--markdown", paramLabel = "FILE",
            description = "Write the table as Markdown to FILE (without --csv or --markdown it goes to stdout).")
    Path markdown;

    @Mixin
    ClusterConnection connection = new ClusterConnection();

    @Option(names = "--kill-member-at-job", paramLabel = "K",
            description = "Testing: after K jobs completed, stop one member abruptly; its jobs are run again on the "
                    + "others.")
    Long killAtJob;

    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @Mixin
    InputLimit limit;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        List<Sweep.Job> jobs;
        RunSpec model;
        ModelCatalog catalog;
        String treeLabel;
        ClusterSecret clusterSecret;
        try {
            long maxBytes = limit.bytes();
            checkOptions();
            jobs = seeds != null ? seedJobs() : SweepScenarios.load(scenarios, agents, ticks, maxBytes);
            if (killAtJob != null && (killAtJob < 1 || killAtJob >= jobs.size())) {
                throw new IllegalArgumentException("--kill-member-at-job = " + killAtJob + " is out of range; valid range is 1.."
                        + (jobs.size() - 1) + " (fewer jobs than the sweep's " + jobs.size() + ")");
            }
            checkOutput(csv, "--csv");
            checkOutput(markdown, "--markdown");
            connection.checkBind();
            clusterSecret = connection.secret();
            ModelChoice choice = TreeFiles.choice(models, err);
            if (choice == null) {
                return Problems.USAGE;
            }
            RunnableModel m;
            String treeName;
            String treeText;
            if (tree != null) {
                treeText = InputFiles.read(tree, maxBytes);
                treeName = tree.toString();
                m = choice.forTree(StateTreeJson.compile(treeName, treeText, new StateTreeCompiler(choice.registry())));
                treeLabel = Printable.escape(treeName);
            } else {
                m = choice.byDefault();
                if (m.defaultTree() == null) {
                    throw new IllegalArgumentException(m.describe() + " has no tree of its own: give --tree FILE");
                }
                treeName = m.defaultTree().name();
                treeText = m.defaultTree().text().get();
                m.compileText(treeName, treeText);
                treeLabel = "embedded " + Printable.escape(treeName);
            }
            model = RunSpec.of("sweep", m.name(), m.fingerprint(), new SimSettings(1, 0, 1, m.defaultDt()), treeName,
                    treeText, 1);
            catalog = ModelCatalog.of(choice);
        } catch (IllegalArgumentException | InputFileException e) {
            return Problems.usage(err, e.getMessage());
        } catch (StateTreeCompileException e) {
            Problems.compileErrors(err, tree, e);
            return Problems.USAGE;
        } catch (ModelException e) {
            return Problems.usage(err, e.getMessage());
        }
        ClusterConnection.Joined joined;
        try {
            joined = connection.join(clusterSecret, catalog);
        } catch (RuntimeException e) {
            err.println(Problems.line("cannot start the cluster member on " + connection.bind + ": " + e.getMessage()));
            return 1;
        }
        try (joined) {
            return sweep(jobs, model, treeLabel, clusterSecret, joined, out, err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(Problems.line("the sweep was interrupted"));
            return 1;
        } catch (RuntimeException e) {
            err.println(Problems.line("the sweep failed: " + e.getMessage()));
            return 1;
        }
    }

    private int sweep(List<Sweep.Job> jobs, RunSpec model, String treeLabel, ClusterSecret clusterSecret,
                      ClusterConnection.Joined joined, PrintStream out, PrintStream err) throws InterruptedException {
        ClusterRun.Killer killer = joined.killer(clusterSecret, "sweep");
        boolean local = joined.local() != null;
        if (!local) {
            ClusterRunner.warnMissing(err, joined, connection.join());
        }
        Sweep sweep = new Sweep(joined.driver(), clusterSecret, jobs, model,
                new Sweep.Options(killAtJob == null ? 0 : killAtJob, !quiet), killer, err);
        Handshake.Outcome h = sweep.handshake();
        if (killAtJob != null && h.accepted().size() < 2) {
            return Problems.usage(err, "--kill-member-at-job needs at least 2 members that proved the secret ("
                    + h.accepted().size() + " did)");
        }
        err.printf(Locale.ROOT, "sweep: %,d jobs (%s; model %s, tree %s) on %d %s of cluster '%s'%s%n", jobs.size(),
                seeds != null ? String.format(Locale.ROOT, "seeds %s, %,d agents and %d ticks each", seeds.strip(), agents, ticks)
                        : "scenarios in " + Printable.escape(scenarios.toString()),
                Printable.escape(model.model()), treeLabel,
                h.accepted().size(), plural(h.accepted().size(), local ? "local member" : "member"),
                Printable.escape(joined.name()),
                h.refused().isEmpty() ? "" : "; refused (no proof of the secret): " + String.join(", ", h.refused()));
        Sweep.Result r = sweep.run();
        boolean written = write(csv, "CSV", r, err) & write(markdown, "Markdown", r, err);
        if (csv == null && markdown == null || !written) {
            try {
                SweepTable.markdown(r.rows, out);
            } catch (IOException e) {
                throw new IllegalStateException(e); // a PrintStream does not throw
            }
        }
        for (Map.Entry<String, Integer> e : r.lost.entrySet()) {
            out.printf(Locale.ROOT, "re-ran %d %s lost with member %s%n", e.getValue(), plural(e.getValue(), "job"), e.getKey());
        }
        out.printf(Locale.ROOT, "sweep: %d %s on %d %s in %.1f s (%d re-run after a member loss)%n", jobs.size(),
                plural(jobs.size(), "job"), r.members, plural(r.members, "member"), r.wallNanos / 1e9, r.reruns);
        if (r.failed > 0) {
            err.println(Problems.line(r.failed + " of " + jobs.size() + " jobs failed; their rows' error column says why"));
            return 1;
        }
        return written ? 0 : 1;
    }

    /** @throws IllegalArgumentException naming the option and what is valid */
    private void checkOptions() {
        if ((seeds == null) == (scenarios == null)) {
            throw new IllegalArgumentException("give exactly one of --seeds A..B and --scenarios DIR");
        }
        connection.check();
        if (agents < 1 || agents > SweepScenarios.MAX_AGENTS) {
            throw new IllegalArgumentException("--agents = " + agents + " is out of range; valid range is 1.."
                    + SweepScenarios.MAX_AGENTS);
        }
        if (ticks < 0) {
            throw new IllegalArgumentException("--ticks = " + ticks + " is out of range; valid range is 0..2147483647");
        }
        if (killAtJob != null && !connection.remote() && connection.members() < 2) {
            throw new IllegalArgumentException("--kill-member-at-job needs at least 2 members (give --local-members 2 or more)");
        }
    }

    /** The jobs of {@code --seeds}: seed A first. */
    private List<Sweep.Job> seedJobs() {
        Matcher m = SEEDS.matcher(seeds.strip());
        String bad = "--seeds = " + Printable.clean(seeds, 100) + " is not a range of seeds; give A..B (whole numbers, "
                + "A <= B), such as 1..1000";
        if (!m.matches()) {
            throw new IllegalArgumentException(bad);
        }
        long first;
        long last;
        try {
            first = Long.parseLong(m.group(1));
            last = m.group(2) == null ? first : Long.parseLong(m.group(2));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(bad + " (seeds are 64-bit integers)", e);
        }
        if (last < first) {
            throw new IllegalArgumentException("--seeds = " + seeds.strip() + " is empty: the last seed is below the first; "
                    + "give A..B with A <= B");
        }
        long count;
        try {
            count = Math.addExact(Math.subtractExact(last, first), 1);
        } catch (ArithmeticException e) {
            count = Long.MAX_VALUE;
        }
        if (count > MAX_JOBS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--seeds = %s makes %s jobs; at most %,d are "
                    + "allowed", seeds.strip(), count == Long.MAX_VALUE ? "too many" : String.format(Locale.ROOT, "%,d", count),
                    MAX_JOBS));
        }
        return new SeedJobs(first, (int) count, agents, ticks);
    }

    /** The jobs of seeds {@code first..first+count-1}, made when asked for (a million take no memory until run). */
    private static final class SeedJobs extends AbstractList<Sweep.Job> implements RandomAccess {
        private final long first;
        private final int count;
        private final int agents;
        private final int ticks;

        SeedJobs(long first, int count, int agents, int ticks) {
            this.first = first;
            this.count = count;
            this.agents = agents;
            this.ticks = ticks;
        }

        @Override
        public Sweep.Job get(int i) {
            if (i < 0 || i >= count) {
                throw new IndexOutOfBoundsException(i);
            }
            long seed = first + i;
            return new Sweep.Job(Long.toString(seed), agents, seed, ticks);
        }

        @Override
        public int size() {
            return count;
        }
    }

    /**
     * Checks before the sweep that the table can be written to {@code file} (its directory exists,
     * it is not a directory), so that hours of runs are not lost to a typo.
     */
    private static void checkOutput(Path file, String option) {
        if (file == null) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + ": it is a directory; give a file name");
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + file + ": its directory " + dir + " does not exist");
        }
        if (Files.exists(file) && !Files.isWritable(file) || !Files.exists(file) && dir != null && !Files.isWritable(dir)) {
            throw new IllegalArgumentException(option + " " + file + ": permission denied");
        }
    }

    /** Writes the table to {@code file} (nothing when null); false, after saying why, when it cannot. */
    private static boolean write(Path file, String format, Sweep.Result r, PrintStream err) {
        if (file == null) {
            return true;
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            if (format.equals("CSV")) {
                SweepTable.csv(r.rows, w);
            } else {
                SweepTable.markdown(r.rows, w);
            }
        } catch (IOException | RuntimeException e) {
            err.println(Problems.line("cannot write the " + format + " table to " + file + ": " + e.getMessage()
                    + "; the table follows on stdout"));
            return false;
        }
        err.println(Printable.escape(String.format(Locale.ROOT, "%s table of %,d rows written to %s", format,
                r.rows.length, file)));
        return true;
    }

    private static String plural(long n, String word) {
        return n == 1 ? word : word + "s";
    }
}
