package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.ClusterResult;
import dev.crowdtree.demo.cluster.ClusterRun;
import dev.crowdtree.demo.cluster.GivenMembers;
import dev.crowdtree.demo.cluster.ClusterSecret;
import dev.crowdtree.demo.cluster.RunSpec;
import dev.crowdtree.demo.cluster.ModelCatalog;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.Partition;
import dev.crowdtree.demo.sim.RegionBudget;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.model.ModelException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * {@code run --regions/--local-members/--cluster}: a model's world split into regions (by position,
 * or by agent id for a model without positions) and run by cluster members ({@link ClusterRun}), with
 * the run's header, progress and summary lines.
 */
final class ClusterRunner {
    private ClusterRunner() {
    }

    static int run(SimOptions.Plan plan, ModelOptions models, ClusterOptions opts, int ticks, boolean quiet,
                   PrintStream out, PrintStream err) {
        Partition grid;
        ClusterSecret secret;
        String treeText;
        String treeName;
        ModelCatalog catalog;
        RunnableModel model = plan.model();
        SimSettings config = plan.settings();
        CompiledStateTree tree = plan.tree();
        try {
            opts.check(ticks);
            grid = model.partition(opts.regionCount(), config, tree);
            if (!opts.connection.remote()) { // every region in this JVM: refused before any is built if they cannot fit
                RegionBudget.check(grid.count(), grid.count(), config.agents(), Runtime.getRuntime().maxMemory());
            }
            opts.connection.checkBind();
            secret = opts.connection.secret();
            if (plan.treeFile() != null) {
                treeName = plan.treeFile().toString();
                treeText = Files.readString(plan.treeFile(), StandardCharsets.UTF_8);
            } else {
                treeName = model.defaultTree().name();
                treeText = model.defaultTree().text().get();
            }
            catalog = ModelCatalog.of(models.choice());
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        } catch (IOException e) {
            return Problems.usage(err, plan.treeFile() + ": cannot read it: " + e.getMessage());
        } catch (ModelException e) {
            return Problems.usage(err, e.getMessage());
        }
        RunSpec spec = RunSpec.of(UUID.randomUUID().toString(), model.name(), model.fingerprint(), config, treeName,
                treeText, grid.count());
        long setup0 = System.nanoTime();
        ClusterConnection.Joined joined;
        try {
            joined = opts.connection.join(secret, catalog);
        } catch (RuntimeException e) {
            err.println(Problems.line("cannot start the cluster member on " + opts.connection.bind + ": " + e.getMessage()));
            return 1;
        }
        long started = System.nanoTime() - setup0;
        try (joined) {
            ClusterRun.Killer killer = joined.killer(secret, spec.runId());
            boolean local = joined.local() != null;
            if (!local) {
                warnMissing(err, joined, opts.connection.join());
            }
            ClusterRun run = new ClusterRun(joined.driver(), secret, spec,
                    new ClusterRun.Options(ticks, opts.checkpointEvery, opts.killAt == null ? -1 : opts.killAt, !quiet,
                            opts.memberTimeoutMillis(), opts.announceTick == null ? -1 : opts.announceTick),
                    killer, err);
            ClusterResult r = run.handshake();
            out.printf(Locale.ROOT, "crowdtree run: %,d agents, %s on %d %s, %d ticks of %.4f s, seed %d, tree %s (%d states)%n",
                    config.agents(), grid, r.accepted.size(), local ? "local members" : "members", ticks, config.dt(),
                    config.seed(), plan.treeName(), tree.stateCount);
            out.println("mode: " + Printable.escape(model.mode()));
            out.printf(Locale.ROOT, "cluster '%s': %d members proved the secret, %d refused%s%n",
                    Printable.escape(joined.name()), r.accepted.size(), r.refused.size(),
                    r.refused.isEmpty() ? "" : " (" + String.join(", ", r.refused) + ")");
            printPlan(out, r.plan);
            r = run.run();
            out.printf(Locale.ROOT, "setup: %.2f s (cluster members started in %.2f s; regions built and checkpoint of "
                    + "tick 0 written in %.2f s)%n", (started + r.setupNanos) / 1e9, started / 1e9, r.setupNanos / 1e9);
            if (!quiet && ticks > 0) {
                err.println();
            }
            summary(out, r, model, config, tree, opts, ticks);
            return 0;
        } catch (Exception e) {
            err.println(Problems.line("the cluster run failed: " + e.getMessage()));
            return 1;
        }
    }

    /** How long a run waits for every member given with --cluster to be in the cluster. */
    static final long GIVEN_MEMBERS_WAIT_MS = 10_000;

    /**
     * Names, on {@code err}, the members given with --cluster that are not in the cluster after
     * {@link #GIVEN_MEMBERS_WAIT_MS}: the run goes on with those that are, and says so.
     */
    static void warnMissing(PrintStream err, ClusterConnection.Joined joined, List<String> given) throws InterruptedException {
        List<String> missing = GivenMembers.missing(joined.driver(), given, GIVEN_MEMBERS_WAIT_MS);
        if (!missing.isEmpty()) {
            err.println(Printable.escape(String.format(Locale.ROOT, "warning: %d of the %d members given with --cluster "
                            + "%s not in cluster '%s' after %d s: %s (not started, unreachable, split off, or in another "
                            + "cluster); the run goes on with those that are", missing.size(), given.size(),
                    missing.size() == 1 ? "is" : "are", joined.name(), GIVEN_MEMBERS_WAIT_MS / 1000,
                    String.join(", ", missing))));
        }
    }

    private static void printPlan(PrintStream out, Map<String, List<Integer>> plan) {
        for (Map.Entry<String, List<Integer>> e : plan.entrySet()) {
            out.printf(Locale.ROOT, "  member %s: regions %s%n", e.getKey(), e.getValue().toString().replaceAll("[\\[\\]]", ""));
        }
    }

    private static void summary(PrintStream out, ClusterResult r, RunnableModel model, SimSettings config,
                                CompiledStateTree tree, ClusterOptions opts, int ticks) {
        double secs = r.wallNanos / 1e9;
        out.println("== summary ==");
        out.printf(Locale.ROOT, "ticks: %d in %.2f s = %.1f ticks/s, %.2fM agent-ticks/s (%.1f ns per agent-tick)%n",
                ticks, secs, ticks / Math.max(1e-9, secs), (double) ticks * config.agents() / Math.max(1e-9, secs) / 1e6,
                r.wallNanos / Math.max(1.0, (double) ticks * config.agents()));
        if (!r.recoveries.isEmpty()) {
            out.println("recoveries (ticks re-simulated are counted once above):");
            for (String line : r.recoveries) {
                out.println("  " + line);
            }
            printPlan(out, r.plan);
            out.printf(Locale.ROOT, "generation at the end: %d; entries written by fenced members after their fence: %d%n",
                    r.generation, r.staleEntries);
        }
        int n = Math.max(1, r.tickSamples);
        out.printf(Locale.ROOT, "tick time: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", r.tickMicros.getValueAtPercentile(50) / 1e3,
                r.tickMicros.getValueAtPercentile(99) / 1e3, r.tickMicros.getMaxValue() / 1e3);
        if (r.checkpointTickMicros.getTotalCount() > 0) {
            double p50 = r.checkpointTickMicros.getValueAtPercentile(50) / 1e3;
            out.printf(Locale.ROOT, "checkpoint ticks: %d, p50 %.2f ms, max %.2f ms (%.1fx the tick p50)%n",
                    r.checkpointTickMicros.getTotalCount(), p50, r.checkpointTickMicros.getMaxValue() / 1e3,
                    p50 / Math.max(1e-3, r.tickMicros.getValueAtPercentile(50) / 1e3));
        }
        out.printf(Locale.ROOT, "exchange per tick: halo %,d B, migration %,d B, events and releases %,d B (mean); "
                        + "%,d B at most; between members %,d B (sealed)%n", r.haloBytes / n, r.migrationBytes / n,
                r.eventBytes / n, r.maxExchangeBytes, r.memberBytes / n);
        out.printf(Locale.ROOT, "barrier wait per member per tick: p50 %.2f ms, p99 %.2f ms%n",
                r.barrierMicros.getValueAtPercentile(50) / 1e3, r.barrierMicros.getValueAtPercentile(99) / 1e3);
        out.printf(Locale.ROOT, "checkpoints: %d (%s), %,d bytes written%n", r.checkpoints,
                opts.checkpointEvery == 0 ? "the start only" : "the start and every " + opts.checkpointEvery + " ticks",
                r.checkpointBytes);
        out.printf(Locale.ROOT, "agents: %,d; events dropped (agent not found): %d; node failures: %d%n", r.agents,
                r.droppedEvents, r.nodeFailures);
        out.println("state occupancy at the end (active state, running agents):");
        long total = 0;
        for (long c : r.occupancy) {
            total += c;
        }
        for (int s = 0; s < r.occupancy.length && s < tree.stateCount; s++) {
            if (r.occupancy[s] > 0) {
                out.printf(Locale.ROOT, "  %-40s %9d %6.1f%%%n", Printable.escape(tree.statePath(s)), r.occupancy[s],
                        100.0 * r.occupancy[s] / total);
            }
        }
        for (String line : model.summaryLines(r.counters, config)) {
            out.println(Printable.escape(line));
        }
        out.printf(Locale.ROOT, "world hash: %016x%n", r.worldHash);
    }
}
