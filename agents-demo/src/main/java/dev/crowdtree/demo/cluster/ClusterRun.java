package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.map.IMap;
import dev.crowdtree.demo.sim.Region;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The driver of a crowd run across a Hazelcast cluster (docs/SCALE.md). It runs on a lite member,
 * which holds no partitions and no region:
 * <ol>
 *   <li>handshake: every other member, data or lite, answers a random challenge with an HMAC of the
 *       secret; when one cannot, the run does not start (a member without the secret could read the
 *       maps' keys, a data member would hold partitions of them), and a member that joins later
 *       without proving it stops the run at the end of the tick that finds it
 *       ({@link Handshake#checkNewcomers}, after every tick);</li>
 *   <li>plan: region {@code r} goes to the owner of the partition of key {@code r<r>} when that member
 *       was accepted, else to the accepted member with the fewest regions, at most
 *       {@code ceil(regions / members)} each;</li>
 *   <li>setup: members build their regions and write their outboxes for tick 1 and checkpoint 0;</li>
 *   <li>one {@code Step} per member per tick, then the barrier (every member's answer) before the
 *       next; every {@code checkpointEvery} ticks the step also writes the regions' checkpoints, and
 *       once all have, the one before the previous is deleted (the last two complete ones are kept);</li>
 *   <li>a member lost (its step fails because it left, or it has not answered within the member
 *       timeout): the run's generation goes up and the member is fenced (it writes nothing more: every
 *       task and map key carries the generation, {@link MemberFence}); wait until the partitions are
 *       safe (the checkpoints' backups promoted), clear the exchange, plan again over the survivors,
 *       restore every region from the last complete checkpoint and go on from the tick after it; a
 *       loss that cannot be recovered (no complete checkpoint, no member left, the driver cut off)
 *       ends the run with one line, every wait bounded;</li>
 *   <li>finish: each member's results (agents, hash parts, counts), summed.</li>
 * </ol>
 * A region's step depends on its state and inbox only, so the hash is that of any other placement.
 * A cluster-wide shutdown ({@code Cluster.shutdown()}, which Hazelcast's open-source edition lets any
 * member make) ends the run with one line that says so ({@link ClusterShutdown}).
 *
 * <p>THREADING: one thread (the caller's).
 */
public final class ClusterRun {
    /**
     * How a run goes: ticks, checkpoint period, the tick to kill a member before (-1: none), progress
     * lines, the member timeout (a member whose step has not answered in that time is fenced), and
     * the tick to announce on stderr when it begins (-1: none; the chaos harness times its faults by it).
     */
    public record Options(int ticks, int checkpointEvery, long killAt, boolean progress, long memberTimeoutMillis,
                          long announceTick) {
        /** The default member timeout. */
        public static final long MEMBER_TIMEOUT_MILLIS = 10_000;

        public Options(int ticks, int checkpointEvery, long killAt, boolean progress) {
            this(ticks, checkpointEvery, killAt, progress, MEMBER_TIMEOUT_MILLIS, -1);
        }

        /** How long a setup (building or restoring regions) or the finish may take: 6 member timeouts, 60 s at least. */
        long setupTimeoutMillis() {
            return Math.max(60_000, 6 * memberTimeoutMillis);
        }
    }

    /** Stops a member abruptly ({@code --kill-member-at}). */
    @FunctionalInterface
    public interface Killer {
        void kill(Member member);
    }

    private final HazelcastInstance driver;
    private final ClusterSecret secret;
    private final RunSpec spec;
    private final Options options;
    private final Killer killer;
    private final PrintStream err;
    private final IExecutorService executor;
    private final ClusterResult result = new ClusterResult();
    private List<Member> members = new ArrayList<>();
    /** Every member at the handshake but the driver, lite or not, and those that proved the secret since. */
    private final Set<Member> everyone = new HashSet<>();
    private final Map<Member, int[]> plan = new HashMap<>();
    /** The run's generation: 1, then one more at each recovery; every task and map key carries it. */
    private long epoch = 1;
    /** Data members seen in the cluster at a step since the last recovery: those gone from it have left. */
    private final Set<Member> seen = new HashSet<>();
    /** Set when the driver itself was split off from the cluster (its lifecycle event MERGING). */
    private volatile boolean driverSplitOff;
    /** Watches for a cluster-wide shutdown during {@link #run}. */
    private ClusterShutdown.Watch shutdown;

    public ClusterRun(HazelcastInstance driver, ClusterSecret secret, RunSpec spec, Options options, Killer killer,
                      PrintStream err) {
        this.driver = driver;
        this.secret = secret;
        this.spec = spec;
        this.options = options;
        this.killer = killer;
        this.err = err;
        this.executor = driver.getExecutorService("crowdtree");
    }

    /** The members that proved the secret, and the plan; call before {@link #run()} to print them early. */
    public ClusterResult handshake() throws InterruptedException {
        Handshake.Outcome h = Handshake.run(driver, executor, secret);
        everyone.clear();
        everyone.addAll(h.everyone());
        members = new ArrayList<>(h.accepted());
        for (Member m : members) {
            result.accepted.add(Handshake.describe(m));
        }
        result.refused.addAll(h.refused());
        Handshake.checkModel(executor, secret, members, spec);
        makePlan();
        return result;
    }

    private void makePlan() {
        plan.clear();
        result.plan.clear();
        for (Map.Entry<Member, List<Integer>> e : RegionPlan.of(driver, members, spec.regions()).entrySet()) {
            plan.put(e.getKey(), e.getValue().stream().mapToInt(Integer::intValue).toArray());
            result.plan.put(Handshake.describe(e.getKey()), e.getValue());
        }
    }

    /** A complete checkpoint: its tick and the generation that wrote it. */
    private record Checkpoint(long tick, long epoch) {
    }

    /**
     * Runs the crowd: setup, the ticks (recovering from lost members), finish.
     *
     * @throws IllegalStateException in one line, when the run cannot go on (among others: a member
     *                               without the secret joined, or the cluster was shut down)
     */
    public ClusterResult run() throws Exception {
        try (ClusterShutdown.Watch watch = new ClusterShutdown.Watch(driver)) {
            shutdown = watch;
            if (members.isEmpty()) {
                handshake();
            }
            UUID lifecycle = driver.getLifecycleService().addLifecycleListener(e -> {
                if (e.getState() == LifecycleEvent.LifecycleState.MERGING) {
                    driverSplitOff = true;
                }
            });
            try {
                return ticks();
            } catch (Exception e) {
                watch.blame(e, "the run"); // whatever failed first, a cluster-wide shutdown is the reason (every member stops)
                throw e;
            } finally {
                try {
                    driver.getLifecycleService().removeLifecycleListener(lifecycle);
                } catch (RuntimeException e) {
                    // the driver was shut down with the cluster: its listeners are gone
                }
            }
        }
    }

    /** The run after the handshake: the setup, the tick loop (recovering from lost members), the finish; the result. */
    private ClusterResult ticks() throws Exception {
        IMap<String, byte[]> exchange = driver.getMap(ClusterConfigs.EXCHANGE);
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        exchange.clear();
        checkpoints.clear();
        setUp();
        // the last two complete checkpoints: a loss right after one completed may still take its
        // newest entries with it (their backups not yet copied), and then the one before is used
        Checkpoint last = new Checkpoint(0, epoch); // of the generation whose setup completed
        Checkpoint previous = null;
        boolean killed = false;
        boolean announced = false;
        long start = System.nanoTime();
        long lastReport = start;
        long tick = 1;
        while (true) {
            if (tick > options.ticks()) {
                Replies done = Replies.await(submitAll(m -> new Tasks.Finish(secret, spec.runId(), epoch)),
                        millis(options.setupTimeoutMillis()));
                if (done.complete()) {
                    finish(done);
                    break;
                }
                Checkpoint restored = recover(tick, "the finish", done, last, previous).from();
                if (!restored.equals(last)) {
                    last = restored;
                    previous = null;
                }
                tick = restored.tick() + 1;
                continue;
            }
            if (!announced && tick == options.announceTick()) {
                err.printf(Locale.ROOT, "crowdtree: tick %d begins%n", tick);
                err.flush();
                announced = true;
            }
            if (!killed && tick == options.killAt()) {
                kill("before tick " + tick);
                killed = true;
            }
            boolean cp = options.checkpointEvery() > 0 && tick % options.checkpointEvery() == 0;
            long s0 = System.nanoTime();
            final long stepTick = tick;
            seen.addAll(Handshake.dataMembers(driver));
            Map<Member, Future<byte[]>> steps = submitAll(m -> new Tasks.Step(secret, spec.runId(), epoch, stepTick, cp));
            Replies replies = Replies.awaitRound(executor, secret, steps, options.memberTimeoutMillis(),
                    options.setupTimeoutMillis(), this::driverCutOff);
            long tickNanos = System.nanoTime() - s0;
            if (!replies.complete()) {
                Checkpoint restored = recover(tick, "tick " + tick, replies, last, previous).from();
                if (!restored.equals(last)) {
                    last = restored;
                    previous = null;
                }
                tick = restored.tick() + 1;
                continue;
            }
            countTick(replies, tickNanos, cp);
            // a member that joined since the last tick proves the secret, or the run stops here
            Handshake.checkNewcomers(driver, executor, secret, everyone);
            if (cp) {
                if (previous != null) {
                    deleteCheckpoint(previous);
                }
                previous = last;
                last = new Checkpoint(tick, epoch);
                result.checkpoints++;
            }
            long now = System.nanoTime();
            if (options.progress() && now - lastReport >= 1_000_000_000L) {
                progress(tick, now - start);
                lastReport = now;
            }
            tick++;
        }
        result.wallNanos = System.nanoTime() - start;
        result.ticks = options.ticks();
        result.generation = epoch;
        if (epoch > 1) {
            result.staleEntries = staleEntries(last, previous);
        }
        exchange.clear();
        checkpoints.clear();
        return result;
    }

    /** The setup: the members build their regions and write checkpoint 0 (a member lost meanwhile: built again on the others). */
    private void setUp() throws Exception {
        long t0 = System.nanoTime();
        if (options.announceTick() == 0) {
            err.println("crowdtree: tick 0 begins"); // the setup: the chaos harness's cue
            err.flush();
        }
        Map<Member, Future<byte[]>> building = submitAll(m -> setupTask(m, -1, 0));
        if (options.killAt() == 0) {
            kill("during the setup");
        }
        Replies setup = Replies.await(building, millis(options.setupTimeoutMillis()));
        boolean allHere = Handshake.dataMembers(driver).containsAll(members);
        if (!setup.complete() || !allHere) {
            if (setup.lost.isEmpty() && setup.late.isEmpty() && allHere) {
                throw new IllegalStateException("the setup failed: " + problems(setup, "the setup") + "; the run did not start");
            }
            // a member lost while the regions were built (or once it answered): the others build them all again
            try {
                setup = recover(0, "the setup", setup, null, null).round();
            } catch (IllegalStateException e) {
                throw new IllegalStateException("the setup failed: " + e.getMessage(), e);
            }
        }
        for (byte[] a : setup.answers.values()) {
            result.checkpointBytes += Wire.SetupAnswer.decode(a).checkpointBytes();
        }
        result.checkpoints = 1;
        result.setupNanos = System.nanoTime() - t0;
    }

    /** Counts a completed tick in the result: its time, each member's barrier wait, the bytes exchanged and checkpointed. */
    private void countTick(Replies replies, long tickNanos, boolean cp) {
        result.tickMicros.recordValue(Math.max(1, tickNanos / 1000));
        if (cp) {
            result.checkpointTickMicros.recordValue(Math.max(1, tickNanos / 1000));
        }
        long halo = 0;
        long migration = 0;
        long events = 0;
        for (byte[] b : replies.answers.values()) {
            Wire.StepAnswer a = Wire.StepAnswer.decode(b);
            result.barrierMicros.recordValue(Math.max(0, (tickNanos - a.nanos()) / 1000));
            halo += a.haloBytes();
            migration += a.migrationBytes();
            events += a.eventBytes();
            result.checkpointBytes += a.checkpointBytes();
            result.memberBytes += a.sentBytes();
        }
        result.haloBytes += halo;
        result.migrationBytes += migration;
        result.eventBytes += events;
        result.maxExchangeBytes = Math.max(result.maxExchangeBytes, halo + migration + events);
        result.tickSamples++;
    }

    private static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }

    private Tasks.Setup setupTask(Member m, long restoreTick, long restoreEpoch) {
        return new Tasks.Setup(secret, spec, epoch, driver.getCluster().getLocalMember().getUuid(),
                options.memberTimeoutMillis() * 1_000_000L, plan.get(m), restoreTick, restoreEpoch);
    }

    private interface TaskFor {
        Tasks.MemberTask<byte[]> of(Member m);
    }

    private Map<Member, Future<byte[]>> submitAll(TaskFor task) {
        Map<Member, Future<byte[]>> out = new LinkedHashMap<>();
        for (Member m : members) {
            out.put(m, executor.submitToMember(task.of(m), m));
        }
        return out;
    }

    /** Waits (up to 30 s) until {@code m} is no longer a member: a kill takes effect before the next step. */
    private void awaitGone(Member m) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (driver.getCluster().getMembers().contains(m) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /** Whether every region's entry of checkpoint {@code c} is in the map. */
    private boolean complete(Checkpoint c) {
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        for (int r = 0; r < spec.regions(); r++) {
            if (!checkpoints.containsKey(ClusterConfigs.checkpointKey(c.epoch(), c.tick(), r))) {
                return false;
            }
        }
        return true;
    }

    private void deleteCheckpoint(Checkpoint c) {
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        for (int r = 0; r < spec.regions(); r++) {
            checkpoints.delete(ClusterConfigs.checkpointKey(c.epoch(), c.tick(), r));
        }
    }

    /** What went wrong in {@code r}, in one line. */
    private String problems(Replies r, String what) {
        return r.problems(what, options.memberTimeoutMillis());
    }

    /** A recovery's outcome: the checkpoint restored from (null: set up from the start) and the round of setups that did it. */
    private record Recovery(Checkpoint from, Replies round) {
    }

    /**
     * A round of tasks ({@code what}: the setup, a tick, the finish) did not complete: the members
     * lost (left, late, refused as fenced, or gone from the cluster meanwhile) are fenced, and every
     * region is restored on the others from checkpoint {@code last}, or {@code previous} when a
     * region's entry of {@code last} was lost, or (both null: a loss during the first setup) built
     * again from the start; up to 4 attempts.
     *
     * @throws IllegalStateException in one line, when the run cannot go on (a failure no member's loss
     *                               explains, no member left, no complete checkpoint, the driver cut off)
     */
    private Recovery recover(long tick, String what, Replies replies, Checkpoint last, Checkpoint previous)
            throws Exception {
        // failed beside a member without the secret (which took partitions): that is the one reason given
        Handshake.checkNewcomers(driver, executor, secret, everyone);
        Replies round = replies;
        for (int attempt = 0; ; attempt++) {
            Checkpoint from = fenceAndPlan(tick, what, round, last, previous);
            long t0 = System.nanoTime();
            round = Replies.await(submitAll(m -> from == null ? setupTask(m, -1, 0)
                    : setupTask(m, from.tick(), from.epoch())), millis(options.setupTimeoutMillis()));
            if (round.complete()) {
                // again now that every member left has answered the new generation's setup: a write of
                // the old generation a member still had under way (one to a partition of the lost member,
                // retried at its new owner once the loss was seen) has landed by then, as a member sets
                // up only once its step of the old generation has finished with every write it issued
                dropOlderGenerations(from);
                return new Recovery(from, round);
            }
            if (attempt >= 3) {
                throw new IllegalStateException("the recovery after " + what + " failed " + (attempt + 1) + " times: "
                        + problems(round, "the restore") + "; the run cannot go on");
            }
            what = "the restore after " + what;
            last = from;
            previous = null;
            err.printf(Locale.ROOT, "%s failed after %.1f s: %s%n", what, (System.nanoTime() - t0) / 1e9,
                    problems(round, "the restore"));
        }
    }

    /** {@code --kill-member-at}: stops the plan's last member abruptly ({@code when}: "before tick 5", "during the setup"). */
    private void kill(String when) throws InterruptedException {
        Member victim = members.get(members.size() - 1);
        err.printf(Locale.ROOT, "killing member %s %s (--kill-member-at)%n", Handshake.describe(victim), when);
        killer.kill(victim);
        awaitGone(victim);
    }

    /**
     * Recovery's first half: who is lost, the new generation, the fence, the checkpoint ({@code last},
     * or {@code previous} when an entry of it was lost; none, {@code null}, for a setup built again
     * from the start), the plan.
     */
    private Checkpoint fenceAndPlan(long tick, String what, Replies replies, Checkpoint last, Checkpoint previous)
            throws Exception {
        Map<Member, String> lost = new LinkedHashMap<>(replies.lost);
        for (Member m : replies.late) {
            lost.put(m, String.format(Locale.ROOT, "did not answer within the member timeout of %.1f s%s and was fenced",
                    options.memberTimeoutMillis() / 1e3, replies.why.getOrDefault(m, "")));
        }
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS + 3);
        while (lost.isEmpty() && Handshake.dataMembers(driver).containsAll(seen) && !driverSplitOff
                && System.nanoTime() < settle) {
            // a failure may be seen before the member whose loss caused it (a message lost with the
            // partitions it held) is declared gone: wait for the membership to settle
            Thread.sleep(100);
        }
        cutOff(what);
        Set<Member> now = Handshake.dataMembers(driver);
        for (Member m : members) {
            if (!now.contains(m)) {
                lost.putIfAbsent(m, "left");
            }
        }
        boolean othersLeft = !now.containsAll(seen);
        seen.clear();
        if (lost.isEmpty() && !othersLeft) {
            throw new IllegalStateException(what + " failed and no member left: " + problems(replies, what)
                    + "; the run cannot go on");
        }
        List<Member> alive = new ArrayList<>();
        for (Member m : members) {
            if (!lost.containsKey(m)) {
                alive.add(m);
            }
        }
        List<String> lostText = new ArrayList<>();
        lost.forEach((m, why) -> lostText.add("member " + Handshake.describe(m) + " " + why));
        if (lostText.isEmpty()) {
            lostText.add("a member that held no region left");
        }
        if (alive.isEmpty()) {
            throw new IllegalStateException(String.join("; ", lostText) + " during " + what
                    + ": every member that ran regions is lost; the run cannot go on");
        }
        // the fence: the generation goes up before anything is restored; a lost member still in the
        // cluster is told (when it wakes), and any step of the old generation finds the new one
        epoch++;
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        try {
            checkpoints.setAsync(ClusterConfigs.generationKey(spec.runId()),
                    ClusterConfigs.generationValue(secret, spec.runId(), epoch)).toCompletableFuture()
                    .get(options.setupTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(String.join("; ", lostText) + " during " + what + ", and the run's new "
                    + "generation could not be written within " + options.setupTimeoutMillis() / 1000 + " s; the run "
                    + "cannot go on", e);
        }
        for (Member m : lost.keySet()) {
            if (now.contains(m)) {
                executor.submitToMember(new Tasks.Fence(secret, spec.runId(), epoch, "it " + lost.get(m)
                        .replace(" and was fenced", "") + " during " + what), m);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!driver.getPartitionService().isClusterSafe() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        cutOff(what);
        everyone.retainAll(Handshake.others(driver));
        members = alive;
        makePlan();
        Checkpoint from = last;
        String fallback = "";
        if (last != null && !complete(last)) {
            if (previous == null || !complete(previous)) {
                throw new IllegalStateException(String.join("; ", lostText) + " during " + what + " and took checkpoint "
                        + "entries with it (no complete checkpoint is left: a second loss before the backups were copied "
                        + "again); the run cannot go on");
            }
            from = previous;
            fallback = " (the checkpoint of tick " + last.tick() + " lost an entry with the member)";
        }
        dropOlderGenerations(from);
        String line = from == null
                ? String.format(Locale.ROOT, "%s during %s: %d regions set up again from the start on %d members "
                + "(generation %d)", String.join("; ", lostText), what, spec.regions(), members.size(), epoch)
                : String.format(Locale.ROOT, "%s during %s: %d regions restored from the checkpoint of tick %d on %d "
                + "members (generation %d), re-simulating from tick %d%s", String.join("; ", lostText), what,
                spec.regions(), from.tick(), members.size(), epoch, from.tick() + 1, fallback);
        result.recoveries.add(line);
        err.println(line);
        return from;
    }

    /**
     * Nothing of an older generation is read again: the exchange's entries of older generations and
     * every checkpoint entry but those of {@code from} (the one restored from; none: built again from
     * the start) and of the current generation are deleted.
     */
    private void dropOlderGenerations(Checkpoint from) {
        IMap<String, byte[]> exchange = driver.getMap(ClusterConfigs.EXCHANGE);
        for (String key : exchange.keySet()) {
            if (ClusterConfigs.generationOf(key) != epoch) {
                exchange.delete(key);
            }
        }
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        for (String key : checkpoints.keySet()) {
            long g = ClusterConfigs.generationOf(key);
            if (key.startsWith("c") && g != epoch && (from == null || !isOf(key, from))) {
                checkpoints.delete(key);
            }
        }
    }

    private static boolean isOf(String key, Checkpoint c) {
        return key.startsWith("c" + c.tick() + "g" + c.epoch() + "@");
    }

    private boolean driverCutOff() {
        return driverSplitOff || Handshake.dataMembers(driver).isEmpty() || shutdown != null && shutdown.happened();
    }

    /** @throws IllegalStateException when the driver itself was split off or sees no data member */
    private void cutOff(String what) {
        if (driverCutOff()) {
            throw new IllegalStateException("the driver was cut off from the cluster during " + what + " (it sees "
                    + Handshake.dataMembers(driver).size() + " members; was it stopped or its network cut for more than "
                    + ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS + " s?); the members dropped the run; the run cannot go on");
        }
    }

    /**
     * Entries in the maps of a generation before the last, other than the checkpoints kept: what a
     * fenced member wrote after it was fenced (its late writes).
     */
    private long staleEntries(Checkpoint last, Checkpoint previous) {
        long n = 0;
        for (String key : driver.<String, byte[]>getMap(ClusterConfigs.EXCHANGE).keySet()) {
            if (ClusterConfigs.generationOf(key) != epoch) {
                n++;
            }
        }
        for (String key : driver.<String, byte[]>getMap(ClusterConfigs.CHECKPOINTS).keySet()) {
            if (key.startsWith("c") && !isOf(key, last) && (previous == null || !isOf(key, previous))) {
                n++;
            }
        }
        return n;
    }

    private void finish(Replies done) {
        List<Wire.MemberResult> parts = new ArrayList<>();
        for (byte[] b : done.answers.values()) {
            parts.add(Wire.MemberResult.decode(b));
        }
        Wire.MemberResult all = Wire.MemberResult.sum(parts);
        result.agents = all.agents();
        result.counters = all.counters();
        result.droppedEvents = all.droppedEvents();
        result.nodeFailures = all.nodeFailures();
        result.occupancy = all.occupancy();
        result.worldHash = Region.worldHash(all.agentHash(), all.sharedHash(), all.ownedHash());
    }

    private void progress(long tick, long nanos) {
        int width = 20;
        int filled = (int) (tick * width / Math.max(1, options.ticks()));
        double tps = tick * 1e9 / nanos;
        err.printf(Locale.ROOT, "[%s%s] %5.1f%% tick %d/%d | %.1f ticks/s | %.2fM agent-ticks/s | barrier wait p99 %.2f ms"
                        + " | exchange %,d B/tick%n", "#".repeat(filled), ".".repeat(width - filled),
                100.0 * tick / Math.max(1, options.ticks()), tick, options.ticks(), tps, tps * spec.agents() / 1e6,
                result.barrierMicros.getValueAtPercentile(99) / 1000.0,
                (result.haloBytes + result.migrationBytes + result.eventBytes) / Math.max(1, result.tickSamples));
    }
}
