package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * {@code chaos}: trials of a cluster run with one fault each (docs/SCALE.md "Chaos trials"). It runs
 * the world once without a fault (its hash is the one every trial must give), then {@code --trials}
 * times with a fault drawn from {@code --seed}'s random numbers ({@link ChaosTrial.Fault#draw}): a
 * member killed, stopped for 1 to {@code --max-stop} s, a member that joins and leaves, or, only
 * when asked for, the driver killed ({@code --faults driver}), a member killed while the regions
 * are built ({@code setup-kill}), a process that knows the cluster name but not the secret joining as
 * a lite member and leaving again ({@code lite-member}) or calling {@code Cluster.shutdown()}
 * ({@code shutdown}); every fault but setup-kill at a random tick. A trial passes when the run ends
 * with the undisturbed hash; a trial of {@code lite-member} or {@code shutdown} passes too when the
 * run stops cleanly with one {@code error:} line (the stranger named, or the shutdown said; with a
 * shutdown, every member must say why it stopped); a hang, a wrong hash, a Hazelcast stack trace or
 * an entry a fenced member wrote after its fence fails it. With the driver killed, the trial passes when every member says it dropped the run
 * within {@link ChaosTrial#DRIVER_LOSS_BOUND_MILLIS} and the world run again on the same members gives
 * the undisturbed hash. One progress line per trial on stderr, then a
 * Markdown table on stdout. Exit code 0 when every trial passed, 1 otherwise, 2 for bad options.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "Run a cluster run of member processes on 127.0.0.1 once undisturbed, then N times with one "
                + "random fault each (kill -9, SIGSTOP for a while, a member joining and leaving, the driver "
                + "killed, a lite member without the secret, Cluster.shutdown() by it) at a random tick, and print a "
                + "table of the outcomes (Linux: faults are sent with kill).")
public final class ChaosCommand implements Callable<Integer> {
    @Mixin
    ModelOptions models;

    @Option(names = "--trials", defaultValue = "30", description = "Trials with a fault (default: ${DEFAULT-VALUE}; 1..1000).")
    int trials;

    @Option(names = "--members", defaultValue = "3", description = "Member processes per trial (default: ${DEFAULT-VALUE}; 2..8).")
    int members;

    @Option(names = "--agents", defaultValue = "20000", description = "Agents (default: ${DEFAULT-VALUE}).")
    int agents;

    @Option(names = "--regions", defaultValue = "6", description = "Regions (default: ${DEFAULT-VALUE}).")
    int regions;

    @Option(names = "--ticks", defaultValue = "300", description = "Ticks per run (default: ${DEFAULT-VALUE}; 40..100000).")
    int ticks;

    @Option(names = "--seed", defaultValue = "1",
            description = "Seed of the trial list (faults, ticks, members, lengths) and of the world (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--faults", split = ",", paramLabel = "KIND", defaultValue = "kill,stop,join-leave",
            description = "Fault kinds to draw from: kill, stop, join-leave, driver (the driver killed; then every member "
                    + "must drop the run and serve the next), setup-kill (a member killed while the regions are built), "
                    + "lite-member (a process with the cluster name but not the secret joins as a lite member, leaves "
                    + "after 1-10 s), shutdown (such a process calls Cluster.shutdown()) (default: ${DEFAULT-VALUE}).")
    List<String> faults;

    @Option(names = "--max-stop", paramLabel = "SECONDS", defaultValue = "15",
            description = "The longest SIGSTOP (default: ${DEFAULT-VALUE}; 1..120); stops last 1 s to this.")
    double maxStop;

    @Option(names = "--member-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "The runs' --member-timeout (default: ${DEFAULT-VALUE}).")
    double memberTimeout;

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "50",
            description = "The runs' --checkpoint-every (default: ${DEFAULT-VALUE}).")
    int checkpointEvery;

    @Option(names = "--trial-timeout", paramLabel = "SECONDS", defaultValue = "240",
            description = "The bound of one trial: a run still going after it is killed and counted as a hang "
                    + "(default: ${DEFAULT-VALUE}).")
    int trialTimeout;

    @Option(names = "--member-heap", paramLabel = "SIZE", defaultValue = "1g",
            description = "-Xmx of every process a trial starts (default: ${DEFAULT-VALUE}).")
    String heap;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        List<ChaosTrial.Kind> kinds = new ArrayList<>();
        try {
            check(kinds);
        } catch (IllegalArgumentException e) {
            return Problems.usage(err, e.getMessage());
        }
        List<String> world = new ArrayList<>(models.arguments());
        world.addAll(List.of("--agents", Integer.toString(agents), "--regions", Integer.toString(regions),
                "--ticks", Integer.toString(ticks), "--seed", Long.toString(seed),
                "--member-timeout", Double.toString(memberTimeout), "--checkpoint-every", Integer.toString(checkpointEvery)));
        String secret = "chaos-" + Long.toHexString(new Random().nextLong()) + "-" + Long.toHexString(System.nanoTime());
        ChaosTrial trial = new ChaosTrial(secret, world, models.arguments(), members, trialTimeout * 1000L,
                List.of("-Xmx" + heap), err::println);
        Instant began = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        err.printf(Locale.ROOT, "chaos: %d trials, %d members, %,d agents, %d regions, %d ticks, seed %d; the undisturbed "
                + "run first%n", trials, members, agents, regions, ticks, seed);
        ChaosTrial.Outcome base = trial.run(new ChaosTrial.Fault(ChaosTrial.Kind.NONE, -1, 0, 0, false), "chaos-base");
        if (base.exit() != 0 || base.hash() == null) {
            err.println(Problems.line("the undisturbed run failed (exit " + base.exit() + "): "
                    + (base.error() == null ? "no world hash" : base.error())));
            return 1;
        }
        err.printf(Locale.ROOT, "chaos: undisturbed world hash %s (%.1f s)%n", base.hash(), base.millis() / 1e3);
        Random rnd = new Random(seed);
        List<String> rows = new ArrayList<>();
        int same = 0;
        int stopped = 0;
        int clean = 0;
        for (int i = 1; i <= trials; i++) {
            ChaosTrial.Fault fault = ChaosTrial.Fault.draw(rnd, kinds, ticks, members, maxStop);
            ChaosTrial.Outcome o = trial.run(fault, "chaos-" + seed + "-" + i);
            boolean match = base.hash().equals(o.hash());
            String outcome = outcome(fault, o, match);
            boolean sameHash = match && pass(o) && (fault.kind() != ChaosTrial.Kind.DRIVER || o.dropMillis() >= 0);
            boolean rightStop = !match && fault.mayStop() && rightStop(fault, o);
            same += sameHash ? 1 : 0;
            stopped += rightStop ? 1 : 0;
            clean += !match && !rightStop && o.exit() > 0 && o.error() != null && !o.stackTrace() ? 1 : 0;
            String fenced = notices(o);
            err.printf(Locale.ROOT, "trial %d/%d: %s at tick %d: %s in %.1f s%s%n", i, trials, fault.describe(), fault.tick(),
                    outcome, o.millis() / 1e3, fenced.isEmpty() ? "" : "; members said: " + fenced);
            rows.add(String.format(Locale.ROOT, "| %d | %s | %d | %.1f | %s | %s |", i, fault.describe(), fault.tick(),
                    o.millis() / 1e3, outcome.replace("|", "/"), match ? "yes" : "no"));
        }
        out.printf(Locale.ROOT, "chaos trials from %s: %d members, %,d agents, %d regions, %d ticks, seed %d, member timeout "
                + "%.1f s, checkpoint every %d ticks; undisturbed world hash %s%n%n", began, members, agents, regions, ticks,
                seed, memberTimeout, checkpointEvery, base.hash());
        out.println("| trial | fault | tick | duration s | outcome | hash match |");
        out.println("|---:|---|---:|---:|---|---|");
        rows.forEach(out::println);
        out.printf(Locale.ROOT, "%n%d of %d trials ended with the undisturbed hash; %d stopped cleanly in one line as their "
                + "fault requires; %d failed cleanly otherwise; %d otherwise%n", same, trials, stopped, clean,
                trials - same - stopped - clean);
        return same + stopped == trials ? 0 : 1;
    }

    /**
     * Whether a trial of a stranger's fault stopped as it should: one {@code error:} line and no stack
     * trace, naming the stranger (a lite member that did not prove the secret) or saying that the
     * cluster was shut down; after a shutdown, every member said why it stopped.
     */
    private boolean rightStop(ChaosTrial.Fault fault, ChaosTrial.Outcome o) {
        if (o.exit() <= 0 || o.error() == null || o.stackTrace()) {
            return false;
        }
        boolean named = o.error().contains("did not prove the secret") && o.error().contains("(a lite member)");
        if (fault.kind() == ChaosTrial.Kind.SHUTDOWN) {
            return (named || o.error().contains(ChaosTrial.SHUTDOWN_LINE)) && o.shutdownLines() >= members;
        }
        return named;
    }

    /** A trial that gave the hash passes unless it printed a stack trace or a fenced member's entry was found. */
    private static boolean pass(ChaosTrial.Outcome o) {
        return o.exit() == 0 && !o.stackTrace() && o.staleEntries() == 0;
    }

    private String outcome(ChaosTrial.Fault fault, ChaosTrial.Outcome o, boolean match) {
        if (fault.mayStop() && !match && o.exit() > 0) {
            String said = fault.kind() != ChaosTrial.Kind.SHUTDOWN ? "" : String.format(Locale.ROOT,
                    "; %d of %d members said the cluster was shut down", o.shutdownLines(), members);
            return (rightStop(fault, o) ? "stopped cleanly as it should: " + o.error() : "WRONG STOP: " + outcome(o, match))
                    + said;
        }
        if (fault.mayStop() && !o.strangerJoined()) {
            return outcome(o, match) + " (THE STRANGER DID NOT JOIN)";
        }
        if (fault.kind() == ChaosTrial.Kind.DRIVER) {
            String dropped = o.dropMillis() < 0
                    ? String.format(Locale.ROOT, "MEMBERS KEPT THE RUN: not all %d said within %d s that they dropped it",
                    members, ChaosTrial.DRIVER_LOSS_BOUND_MILLIS / 1000)
                    : String.format(Locale.ROOT, "every member dropped the run %.1f s after the kill", o.dropMillis() / 1e3);
            return dropped + "; the next run: " + outcome(o, match);
        }
        return outcome(o, match);
    }

    private static String outcome(ChaosTrial.Outcome o, boolean match) {
        if (o.exit() < 0) {
            return "HANG: killed after the trial bound";
        }
        String extra = (o.stackTrace() ? "; STACK TRACE on stderr" : "")
                + (o.staleEntries() > 0 ? "; " + o.staleEntries() + " entries written after a fence" : "");
        if (o.exit() == 0) {
            String how = o.recoveries() == 0 ? "no recovery needed" : o.recoveries() == 1 ? "1 recovery"
                    : o.recoveries() + " recoveries";
            return (match ? "same hash, " + how : "WRONG HASH " + o.hash()) + extra;
        }
        return (o.error() == null ? "exit " + o.exit() + " without an error line" : "failed cleanly: " + o.error()) + extra;
    }

    /** The members' fencing lines of a trial, shortened ("fenced", "split off", "rejoined", "driver left"). */
    private static String notices(ChaosTrial.Outcome o) {
        List<String> kinds = new ArrayList<>();
        for (String n : o.memberNotices()) {
            String k = n.contains("newcomer joined") ? "newcomer joined" : n.contains(ChaosTrial.SHUTDOWN_LINE)
                    ? "the cluster was shut down" : n.contains("split off") ? "split off"
                    : n.contains("rejoined") ? "rejoined"
                    : n.contains("fenced out") ? "fenced" : n.contains("driver of run") ? null
                    : n.startsWith("hazelcast: ") || n.startsWith("error") || n.startsWith("stranger: ")
                    || n.startsWith("\tat ") ? Printable.clean(n, 160) : null;
            if (k != null && !kinds.contains(k)) {
                kinds.add(k);
            }
        }
        return String.join(", ", kinds);
    }

    private void check(List<ChaosTrial.Kind> kinds) {
        if (trials < 1 || trials > 1000) {
            throw new IllegalArgumentException("--trials = " + trials + " is out of range; valid range is 1..1000");
        }
        if (members < 2 || members > 8) {
            throw new IllegalArgumentException("--members = " + members + " is out of range; valid range is 2..8");
        }
        if (ticks < 40 || ticks > 100_000) {
            throw new IllegalArgumentException("--ticks = " + ticks + " is out of range; valid range is 40..100000");
        }
        if (!(maxStop >= 1 && maxStop <= 120)) {
            throw new IllegalArgumentException("--max-stop = " + maxStop + " is out of range; valid range is 1..120");
        }
        if (trialTimeout < 10) {
            throw new IllegalArgumentException("--trial-timeout = " + trialTimeout + " is out of range; valid range is 10..");
        }
        for (String f : faults) {
            switch (f.strip()) {
                case "kill" -> kinds.add(ChaosTrial.Kind.KILL);
                case "stop" -> kinds.add(ChaosTrial.Kind.STOP);
                case "join-leave" -> kinds.add(ChaosTrial.Kind.JOIN_LEAVE);
                case "driver" -> kinds.add(ChaosTrial.Kind.DRIVER);
                case "setup-kill" -> kinds.add(ChaosTrial.Kind.SETUP_KILL);
                case "lite-member" -> kinds.add(ChaosTrial.Kind.LITE_MEMBER);
                case "shutdown" -> kinds.add(ChaosTrial.Kind.SHUTDOWN);
                default -> throw new IllegalArgumentException("--faults: '" + Printable.clean(f, 40)
                        + "' is not a fault kind; give kill, stop, join-leave, driver, setup-kill, lite-member and/or "
                        + "shutdown");
            }
        }
    }
}
