package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.ClusterConfigs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One trial of {@code chaos}: {@code M} {@code member} processes (separate JVMs on 127.0.0.1, each
 * on a port of its own) and a {@code run --cluster} process as the driver; when the driver says the
 * trial's tick begins, one fault: a member killed ({@code kill -9}), stopped ({@code SIGSTOP}, then
 * {@code SIGCONT} after a while), a member that joins and leaves again, the driver killed, or a
 * stranger (a {@code stranger} process: the cluster name, not the secret) that joins as a lite member
 * and leaves again, or that calls {@code Cluster.shutdown()}. The
 * trial ends when the driver exits or its time bound is over (then it is killed: a hang). When the
 * driver was the victim, the trial waits (at most {@link #DRIVER_LOSS_BOUND_MILLIS}) for every member
 * to say that it dropped the run, then runs the world again on the same members with a new driver:
 * its outcome is the trial's. Every process it started is stopped before it returns.
 *
 * <p>THREADING: {@link #run} on one thread; it starts a reader thread per process and one for the fault.
 */
final class ChaosTrial {
    /** A fault kind. */
    enum Kind {
        NONE("none"), KILL("kill -9"), STOP("SIGSTOP"), JOIN_LEAVE("join+leave"), DRIVER("kill -9 driver"),
        /** A member killed while the regions are built (the driver announces the setup as tick 0). */
        SETUP_KILL("kill -9 in the setup"),
        /** A process that knows the cluster name but not the secret joins as a lite member, and leaves after a while. */
        LITE_MEMBER("lite member without the secret"),
        /** A process that knows the cluster name but not the secret joins as a lite member and calls Cluster.shutdown(). */
        SHUTDOWN("Cluster.shutdown() by a stranger");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /**
     * A trial's fault, drawn from the trial list's random numbers: what, at which tick, on which member
     * (by its index), for how long (a stop, or a newcomer's stay, in ms), and how a newcomer leaves.
     */
    record Fault(Kind kind, long tick, int member, long millis, boolean leaveByKill) {
        static Fault draw(Random rnd, List<Kind> kinds, int ticks, int members, double maxStopSeconds) {
            Kind k = kinds.get(rnd.nextInt(kinds.size()));
            long tick = 5 + rnd.nextInt(Math.max(1, ticks - 25));
            int member = rnd.nextInt(members);
            long millis = k == Kind.STOP ? 1000 + (long) (rnd.nextDouble() * (maxStopSeconds - 1) * 1000)
                    : 1000 + rnd.nextInt(9000);
            // the same numbers drawn for every kind, so adding a kind to the mix leaves the others' draws alone
            return new Fault(k, k == Kind.SETUP_KILL ? 0 : tick, member, millis, rnd.nextBoolean());
        }

        String describe() {
            return switch (kind) {
                case NONE -> "none";
                case KILL -> "kill -9 member " + member;
                case DRIVER -> "kill -9 the driver";
                case SETUP_KILL -> "kill -9 member " + member + " during the setup";
                case STOP -> String.format(Locale.ROOT, "SIGSTOP member %d for %.1f s", member, millis / 1e3);
                case JOIN_LEAVE -> String.format(Locale.ROOT, "a member joins, leaves after %.1f s (%s)", millis / 1e3,
                        leaveByKill ? "kill -9" : "SIGTERM");
                case LITE_MEMBER -> String.format(Locale.ROOT, "a lite member without the secret joins, leaves after %.1f s "
                        + "(%s)", millis / 1e3, leaveByKill ? "kill -9" : "SIGTERM");
                case SHUTDOWN -> "a lite member without the secret joins and calls Cluster.shutdown()";
            };
        }

        /** Whether the fault stops the run by design: a clean one-line stop is its right outcome too. */
        boolean mayStop() {
            return kind == Kind.LITE_MEMBER || kind == Kind.SHUTDOWN;
        }
    }

    /**
     * What a trial gave: the driver's exit code (-1: it hung and was killed), hash, lines, and the
     * members' notices; with the driver killed, how long after the kill the last member said it
     * dropped the run (-1: not every member did within the bound), and the next run's outcome; how
     * many members said that the cluster was shut down; whether a stranger joined.
     */
    record Outcome(int exit, String hash, String error, int recoveries, long staleEntries, boolean stackTrace,
                   List<String> memberNotices, long millis, long dropMillis, int shutdownLines, boolean strangerJoined) {
    }

    /** What a member says when a cluster-wide shutdown stops it ({@code ClusterShutdown}). */
    static final String SHUTDOWN_LINE = "the cluster was shut down by a cluster-wide shutdown request";

    /** How long the members have to notice a killed driver: Hazelcast's heartbeat timeout and 15 s. */
    static final long DRIVER_LOSS_BOUND_MILLIS = (ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS + 15) * 1000L;

    private static final Pattern HASH = Pattern.compile("world hash: ([0-9a-f]{16})");
    private static final Pattern STALE = Pattern.compile("entries written by fenced members after their fence: (\\d+)");
    private final List<String> java;
    private final String secret;
    private final List<String> world;
    /** The run's --model and --nodes, given to every member too. */
    private final List<String> modelArgs;
    private final int members;
    private final long boundMillis;
    private final Consumer<String> log;
    private final List<Process> started = new CopyOnWriteArrayList<>();

    /**
     * @param world the driver's run options of the world (agents, regions, ticks, seed, ...)
     * @param log   where a line about the processes goes (a member that did not start)
     */
    ChaosTrial(String secret, List<String> world, List<String> modelArgs, int members, long boundMillis,
               List<String> jvmOptions, Consumer<String> log) {
        this.secret = secret;
        this.world = world;
        this.modelArgs = List.copyOf(modelArgs);
        this.members = members;
        this.boundMillis = boundMillis;
        this.log = log;
        this.java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        java.addAll(jvmOptions);
        // the command line by name: this package does not depend on its parent (no package cycle)
        java.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.crowdtree.demo.Main"));
    }

    /** Runs one trial with {@code fault}; every process it started is gone when it returns. */
    Outcome run(Fault fault, String name) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        int port = freePorts(members + 1);
        String join = joinList(port);
        List<String> notices = new CopyOnWriteArrayList<>();
        List<Process> memberProcs = new ArrayList<>();
        try {
            List<CountDownLatch> up = new ArrayList<>();
            for (int i = 0; i < members; i++) { // started together, waited for together
                CountDownLatch l = new CountDownLatch(1);
                memberProcs.add(startMember(port + i, join, name, notices, l, false));
                up.add(l);
            }
            // a newcomer's JVM (a member, or a stranger without the secret) is started now and joins when
            // told, at the fault's tick
            CountDownLatch newcomerUp = new CountDownLatch(1);
            Process newcomer = fault.kind() == Kind.JOIN_LEAVE
                    ? startMember(port + members, join, name, notices, newcomerUp, true)
                    : fault.mayStop() ? startStranger(port + members, join, name, notices, newcomerUp,
                    fault.kind() == Kind.SHUTDOWN) : null;
            awaitMembers(port, up);
            List<String> cmd = driverCommand(join, name, fault);
            StringBuilder out = new StringBuilder();
            StringBuilder err = new StringBuilder();
            Thread[] faultThread = new Thread[1];
            Process[] driver = new Process[1];
            long[] killedAt = new long[1];
            driver[0] = start(cmd);
            Thread outReader = reader(driver[0].getInputStream(), line -> append(out, line));
            Thread errReader = reader(driver[0].getErrorStream(), line -> {
                append(err, line);
                if (line.startsWith("crowdtree: tick ") && line.endsWith(" begins")) {
                    Thread f = faultThread(fault, driver, killedAt, memberProcs, newcomer, newcomerUp);
                    faultThread[0] = f;
                    f.start();
                }
            });
            boolean ended = awaitDriver(driver[0], outReader, errReader);
            long dropMillis = -1;
            if (fault.kind() == Kind.DRIVER && killedAt[0] != 0) {
                dropMillis = awaitDrops(notices, killedAt[0]);
                // the world again, on the members that outlived their driver
                synchronized (out) {
                    out.setLength(0);
                }
                synchronized (err) {
                    err.setLength(0);
                }
                List<String> again = new ArrayList<>(cmd.subList(0, cmd.indexOf("--announce-tick")));
                driver[0] = start(again);
                ended = awaitDriver(driver[0], reader(driver[0].getInputStream(), line -> append(out, line)),
                        reader(driver[0].getErrorStream(), line -> append(err, line)));
            }
            Process last = driver[0];
            long millis = (System.nanoTime() - t0) / 1_000_000;
            if (fault.kind() == Kind.JOIN_LEAVE && newcomerUp.getCount() == 0) {
                notices.add("a newcomer joined during the run");
            }
            if (faultThread[0] != null) {
                awaitFaultsEnd(fault, faultThread[0], notices, out);
            }
            Matcher h = HASH.matcher(out);
            Matcher s = STALE.matcher(out);
            String error = lastError(err);
            int recoveries = recoveries(out);
            boolean trace = err.toString().contains("\tat com.hazelcast") || err.toString().contains("\tat java.");
            return new Outcome(ended ? last.exitValue() : -1, h.find() ? h.group(1) : null, error, recoveries,
                    s.find() ? Long.parseLong(s.group(1)) : 0, trace, notices, millis, dropMillis, shutdownLines(notices),
                    fault.mayStop() && newcomerUp.getCount() == 0);
        } finally {
            stopAll();
        }
    }

    /** The trial's addresses, "127.0.0.1:port,...": its members' from {@code port} on, then the newcomer's. */
    private String joinList(int port) {
        StringBuilder join = new StringBuilder();
        for (int i = 0; i <= members; i++) {
            join.append(i == 0 ? "" : ",").append("127.0.0.1:").append(port + i);
        }
        return join.toString();
    }

    /** Waits (60 s each) for the members started from {@code port} on to say they listen; logs one that did not. */
    private void awaitMembers(int port, List<CountDownLatch> up) throws InterruptedException {
        for (int i = 0; i < members; i++) {
            if (!up.get(i).await(60, TimeUnit.SECONDS)) {
                log.accept("chaos: member on port " + (port + i) + " did not start within 60 s");
            }
        }
    }

    /** The driver's command line: {@code run --cluster} on the trial's members, the world, and the fault's tick to announce. */
    private List<String> driverCommand(String join, String name, Fault fault) {
        List<String> cmd = new ArrayList<>(java);
        // the driver is given the trial's members (not the newcomer's address, which is empty at the start)
        String given = join.substring(0, join.lastIndexOf(","));
        cmd.addAll(List.of("run", "--cluster", given, "--cluster-name", name, "--quiet"));
        cmd.addAll(world);
        if (fault.kind() != Kind.NONE) {
            cmd.addAll(List.of("--announce-tick", Long.toString(fault.tick())));
        }
        return cmd;
    }

    /** The fault's thread (a daemon, not started): kills the driver (its time in {@code killedAt}) or injects the fault. */
    private Thread faultThread(Fault fault, Process[] driver, long[] killedAt, List<Process> memberProcs, Process newcomer,
                               CountDownLatch newcomerUp) {
        Thread f = new Thread(() -> {
            if (fault.kind() == Kind.DRIVER) {
                killedAt[0] = System.nanoTime();
                kill(driver[0]);
            } else {
                inject(fault, memberProcs, newcomer, newcomerUp);
            }
        }, "chaos-fault");
        f.setDaemon(true);
        return f;
    }

    /** Lets the fault run its course, then gives the members a few seconds to say what it did to them. */
    private void awaitFaultsEnd(Fault fault, Thread faultThread, List<String> notices, StringBuilder out)
            throws InterruptedException {
        // the fault runs its course (a stopped member is woken), and a woken member is given a
        // few seconds to say what it found (fenced, split off, rejoined)
        faultThread.join(fault.millis() + 5_000);
        if (fault.kind() == Kind.SHUTDOWN) { // every member is given a few seconds to say why it stopped
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < until && shutdownLines(notices) < members) {
                Thread.sleep(100);
            }
        }
        if (fault.kind() == Kind.STOP && out.toString().contains("restored from the checkpoint")) {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < until && notices.stream().noneMatch(
                    n -> n.contains("rejoined") || n.contains("fenced out"))) {
                Thread.sleep(100);
            }
        }
    }

    /** The driver's last {@code error: } line on stderr, without the prefix; null when it has none. */
    private static String lastError(StringBuilder err) {
        String error = null;
        for (String line : err.toString().split("\n")) {
            if (line.startsWith("error: ")) {
                error = line.substring(7);
            }
        }
        return error;
    }

    /** How many members the driver's summary says were recovered (restored from a checkpoint or set up again). */
    private static int recoveries(StringBuilder out) {
        int recoveries = 0;
        for (String line : out.toString().split("\n")) {
            if (line.startsWith("  member ") && (line.contains("restored from the checkpoint")
                    || line.contains("set up again from the start"))) {
                recoveries++;
            }
        }
        return recoveries;
    }

    /** How many members said that a cluster-wide shutdown stopped them. */
    private static int shutdownLines(List<String> notices) {
        return (int) notices.stream().filter(n -> n.startsWith("crowdtree member ") && n.contains(SHUTDOWN_LINE)).count();
    }

    /** Waits for a driver within the trial's bound (else kills it: a hang) and for its output; whether it ended. */
    private boolean awaitDriver(Process driver, Thread outReader, Thread errReader) throws InterruptedException {
        boolean ended = driver.waitFor(boundMillis, TimeUnit.MILLISECONDS);
        if (!ended) {
            driver.destroyForcibly();
            driver.waitFor(10, TimeUnit.SECONDS);
        }
        outReader.join(5_000);
        errReader.join(5_000);
        return ended;
    }

    /**
     * After the driver was killed at {@code killedAt} (nanoTime): waits until every member said that it
     * dropped the run (the driver left, or it was split off) and returns how long after the kill the
     * last one did, or -1 when not all did within {@link #DRIVER_LOSS_BOUND_MILLIS}.
     */
    private long awaitDrops(List<String> notices, long killedAt) throws InterruptedException {
        long until = killedAt + TimeUnit.MILLISECONDS.toNanos(DRIVER_LOSS_BOUND_MILLIS);
        while (System.nanoTime() < until) {
            long said = notices.stream().filter(n -> n.contains("left the cluster: this member drops its regions")
                    || n.contains("split off from the cluster")).count();
            if (said >= members) {
                return (System.nanoTime() - killedAt) / 1_000_000;
            }
            Thread.sleep(50);
        }
        return -1;
    }

    private static void kill(Process p) {
        try {
            signal(p, "KILL");
        } catch (IOException | InterruptedException e) {
            p.destroyForcibly();
        }
    }

    private static void append(StringBuilder b, String line) {
        synchronized (b) {
            b.append(line).append('\n');
        }
    }

    /** The fault, on its own thread: it waits (a stop's length, a newcomer's stay) while the driver runs on. */
    private void inject(Fault fault, List<Process> memberProcs, Process newcomer, CountDownLatch newcomerUp) {
        try {
            Process victim = memberProcs.get(fault.member());
            switch (fault.kind()) {
                case KILL, SETUP_KILL -> signal(victim, "KILL");
                case STOP -> {
                    signal(victim, "STOP");
                    Thread.sleep(fault.millis());
                    signal(victim, "CONT");
                }
                case JOIN_LEAVE, LITE_MEMBER -> {
                    newcomer.getOutputStream().write('\n');
                    newcomer.getOutputStream().flush();
                    newcomerUp.await(60, TimeUnit.SECONDS);
                    Thread.sleep(fault.millis());
                    signal(newcomer, fault.leaveByKill() ? "KILL" : "TERM");
                }
                case SHUTDOWN -> { // the stranger calls Cluster.shutdown() as soon as it has joined
                    newcomer.getOutputStream().write('\n');
                    newcomer.getOutputStream().flush();
                    newcomerUp.await(60, TimeUnit.SECONDS);
                }
                default -> {
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            log.accept("chaos: the fault could not be injected: " + e.getMessage());
        }
    }

    private static void signal(Process p, String signal) throws IOException, InterruptedException {
        if (p.isAlive()) {
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        }
    }

    /**
     * Starts a stranger ({@code stranger}: the cluster name, no secret) on {@code port}, to join as a
     * lite member when a line comes on its stdin, and with {@code shutdown} call Cluster.shutdown();
     * {@code up} is counted down when it says it joined; its error lines go to {@code notices} as
     * {@code stranger: error: ...}.
     */
    private Process startStranger(int port, String join, String name, List<String> notices, CountDownLatch up,
                                  boolean shutdown) throws IOException {
        List<String> cmd = new ArrayList<>(java);
        cmd.addAll(List.of("stranger", "--port", Integer.toString(port), "--join", join, "--cluster-name", name,
                "--start-on-input"));
        if (shutdown) {
            cmd.add("--shutdown");
        }
        Process p = start(cmd, false);
        reader(p.getInputStream(), line -> {
            if (line.startsWith("crowdtree stranger ") && line.contains(" joined cluster ")) {
                up.countDown();
            }
        });
        reader(p.getErrorStream(), line -> {
            if (line.startsWith("error: ")) {
                notices.add("stranger: " + line);
            }
        });
        return p;
    }

    /** Starts a member on {@code port}; {@code up} is counted down at its first line; its later lines that say something are kept. */
    private Process startMember(int port, String join, String name, List<String> notices, CountDownLatch up,
                                boolean onInput) throws IOException {
        List<String> cmd = new ArrayList<>(java);
        cmd.addAll(List.of("member", "--port", Integer.toString(port), "--join", join, "--cluster-name", name));
        cmd.addAll(modelArgs); // every member loads the run's model
        if (onInput) {
            cmd.add("--start-on-input");
        }
        Process p = start(cmd);
        reader(p.getInputStream(), line -> {
            if (line.startsWith("crowdtree member ") && line.contains(" listening on ")) {
                up.countDown();
            } else if (!line.isBlank()) {
                notices.add(line);
            }
        });
        reader(p.getErrorStream(), line -> {
            if (!line.isBlank()) {
                notices.add(line);
            }
        });
        return p;
    }

    private Process start(List<String> cmd) throws IOException {
        return start(cmd, true);
    }

    /** Starts a process of the trial, given the secret in its environment or (a stranger) not. */
    private Process start(List<String> cmd, boolean withSecret) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (withSecret) {
            pb.environment().put("CROWDTREE_CLUSTER_SECRET", secret);
        } else {
            pb.environment().remove("CROWDTREE_CLUSTER_SECRET");
        }
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static Thread reader(InputStream in, Consumer<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.accept(Printable.clean(line, 1000));
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "chaos-reader");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Stops every process of the trial (a stopped one is killed as well). */
    private void stopAll() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly();
        }
        for (Process p : started) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
        started.clear();
    }

    /** The first of {@code n} consecutive ports free on 127.0.0.1. */
    private static int freePorts(int n) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int first;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                first = Math.min(s.getLocalPort(), 60_000);
            }
            boolean free = true;
            for (int i = 0; i < n && free; i++) {
                try (ServerSocket s = new ServerSocket(first + i, 1, InetAddress.getByName("127.0.0.1"))) {
                    free = s.getLocalPort() == first + i;
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return first;
            }
        }
        throw new IOException("no " + n + " consecutive free ports on 127.0.0.1");
    }
}
