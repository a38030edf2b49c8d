package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.map.IMap;
import dev.crowdtree.demo.sim.Region;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The driver of a crowd run across a Hazelcast cluster (docs/SCALE.md). It runs on a lite member,
 * which holds no partitions and no region:
 * <ol>
 *   <li>handshake: each data member answers a random challenge with an HMAC of the secret; when one
 *       cannot, the run does not start (a member without the secret would hold partitions of the
 *       maps), and a member that joins later without proving it stops the run at the next
 *       checkpoint tick ({@link Handshake#checkNewcomers});</li>
 *   <li>plan: region {@code r} goes to the owner of the partition of key {@code r<r>} when that member
 *       was accepted, else to the accepted member with the fewest regions, at most
 *       {@code ceil(regions / members)} each;</li>
 *   <li>setup: members build their regions and write their outboxes for tick 1 and checkpoint 0;</li>
 *   <li>one {@code Step} per member per tick, then the barrier (every member's answer) before the
 *       next; every {@code checkpointEvery} ticks the step also writes the regions' checkpoints, and
 *       once all have, the one before the previous is deleted (the last two complete ones are kept);</li>
 *   <li>a member lost (its step fails because it left): wait until the partitions are safe (the
 *       checkpoints' backups promoted), clear the exchange, plan again over the survivors, restore
 *       every region from the last complete checkpoint and go on from the tick after it;</li>
 *   <li>finish: each member's results (agents, hash parts, counts), summed.</li>
 * </ol>
 * A region's step depends on its state and inbox only, so the hash is that of any other placement.
 *
 * <p>THREADING: one thread (the caller's).
 */
public final class ClusterRun {
    /** How a run goes: ticks, checkpoint period, the tick to kill a member before (-1: none), progress lines. */
    public record Options(int ticks, int checkpointEvery, long killAt, boolean progress) {
    }

    /** Stops a member abruptly ({@code --kill-member-at}). */
    @FunctionalInterface
    public interface Killer {
        void kill(Member member);
    }

    /** What a run gave. */
    public static final class Result {
        public long worldHash;
        public long agents;
        public int ticks;
        public long wallNanos;
        public long setupNanos;
        public List<String> accepted = new ArrayList<>();
        public List<String> refused = new ArrayList<>();
        public Map<String, List<Integer>> plan = new LinkedHashMap<>();
        public final Histogram tickMicros = new Histogram(3_600_000_000L, 3);
        public final Histogram barrierMicros = new Histogram(3_600_000_000L, 3);
        public long haloBytes;
        public long migrationBytes;
        public long eventBytes;
        public long maxExchangeBytes;
        /** Bytes of sealed messages written to the exchange map for another member (regions on one member exchange in memory). */
        public long memberBytes;
        public int tickSamples;
        public long checkpointBytes;
        public int checkpoints;
        public List<String> recoveries = new ArrayList<>();
        public long alarms;
        public long usedSlots;
        public long droppedEvents;
        public long nodeFailures;
        public long[] occupancy = new long[0];
    }

    private final HazelcastInstance driver;
    private final ClusterSecret secret;
    private final RunSpec spec;
    private final Options options;
    private final Killer killer;
    private final PrintStream err;
    private final IExecutorService executor;
    private final Result result = new Result();
    private List<Member> members = new ArrayList<>();
    /** Every data member at the handshake, accepted or not: a loss of any of them loses exchange partitions. */
    private final Set<Member> everyone = new HashSet<>();
    private final Map<Member, int[]> plan = new HashMap<>();

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

    /** The task that stops a member's JVM at once ({@code --kill-member-at} on a cluster of separate JVMs). */
    public static java.util.concurrent.Callable<Void> haltTask(ClusterSecret secret, String runId) {
        return new Tasks.Halt(secret, runId);
    }

    /** The members that proved the secret, and the plan; call before {@link #run()} to print them early. */
    public Result handshake() throws InterruptedException {
        Handshake.Outcome h = Handshake.run(driver, executor, secret);
        everyone.clear();
        everyone.addAll(h.everyone());
        members = new ArrayList<>(h.accepted());
        for (Member m : members) {
            result.accepted.add(Handshake.describe(m));
        }
        result.refused.addAll(h.refused());
        makePlan();
        return result;
    }

    private void makePlan() {
        plan.clear();
        int n = spec.regions();
        int cap = (n + members.size() - 1) / members.size();
        Map<Member, List<Integer>> lists = new LinkedHashMap<>();
        for (Member m : members) {
            lists.put(m, new ArrayList<>());
        }
        List<Integer> unplaced = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            Member owner = driver.getPartitionService().getPartition(ClusterConfigs.regionKey(r)).getOwner();
            List<Integer> l = owner == null ? null : lists.get(owner);
            if (l != null && l.size() < cap) {
                l.add(r);
            } else {
                unplaced.add(r);
            }
        }
        for (int r : unplaced) {
            List<Integer> least = null;
            for (List<Integer> l : lists.values()) {
                if (least == null || l.size() < least.size()) {
                    least = l;
                }
            }
            least.add(r);
        }
        result.plan.clear();
        for (Map.Entry<Member, List<Integer>> e : lists.entrySet()) {
            plan.put(e.getKey(), e.getValue().stream().mapToInt(Integer::intValue).toArray());
            result.plan.put(Handshake.describe(e.getKey()), e.getValue());
        }
    }

    /** Runs the crowd: setup, the ticks (recovering from lost members), finish. */
    public Result run() throws Exception {
        if (members.isEmpty()) {
            handshake();
        }
        IMap<String, byte[]> exchange = driver.getMap(ClusterConfigs.EXCHANGE);
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        exchange.clear();
        checkpoints.clear();
        long t0 = System.nanoTime();
        for (Future<byte[]> f : submitAll(m -> new Tasks.Setup(secret, spec, plan.get(m), -1))) {
            result.checkpointBytes += f.get()[1];
        }
        result.checkpoints = 1;
        result.setupNanos = System.nanoTime() - t0;
        // the last two complete checkpoints: a loss right after one completed may still take its
        // newest entries with it (their backups not yet copied), and then the one before is used
        long lastCheckpoint = 0;
        long previousCheckpoint = -1;
        boolean killed = false;
        long start = System.nanoTime();
        long lastReport = start;
        long tick = 1;
        while (tick <= options.ticks()) {
            if (!killed && tick == options.killAt()) {
                Member victim = members.get(members.size() - 1);
                err.printf(Locale.ROOT, "killing member %s before tick %d (--kill-member-at)%n", Handshake.describe(victim), tick);
                killer.kill(victim);
                killed = true;
                awaitGone(victim);
            }
            boolean cp = options.checkpointEvery() > 0 && tick % options.checkpointEvery() == 0;
            long s0 = System.nanoTime();
            final long stepTick = tick;
            Map<Member, Future<byte[]>> steps = new LinkedHashMap<>();
            for (Member m : members) {
                steps.put(m, executor.submitToMember(new Tasks.Step(secret, spec.runId(), stepTick, cp), m));
            }
            List<Wire.StepAnswer> answers = new ArrayList<>();
            Throwable failure = null;
            for (Future<byte[]> f : steps.values()) {
                try {
                    answers.add(Wire.StepAnswer.decode(f.get()));
                } catch (ExecutionException e) {
                    failure = failure == null ? e.getCause() : failure;
                }
            }
            long tickNanos = System.nanoTime() - s0;
            if (failure != null) {
                long restored = recover(tick, lastCheckpoint, previousCheckpoint, failure);
                if (restored != lastCheckpoint) {
                    lastCheckpoint = restored;
                    previousCheckpoint = -1;
                }
                tick = restored + 1;
                continue;
            }
            result.tickMicros.recordValue(Math.max(1, tickNanos / 1000));
            long halo = 0;
            long migration = 0;
            long events = 0;
            for (Wire.StepAnswer a : answers) {
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
            if (cp) {
                Handshake.checkNewcomers(driver, executor, secret, everyone);
                if (previousCheckpoint >= 0) {
                    for (int r = 0; r < spec.regions(); r++) {
                        checkpoints.delete(ClusterConfigs.checkpointKey(previousCheckpoint, r));
                    }
                }
                previousCheckpoint = lastCheckpoint;
                lastCheckpoint = tick;
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
        finish();
        exchange.clear();
        checkpoints.clear();
        return result;
    }

    private interface TaskFor {
        Tasks.MemberTask<byte[]> of(Member m);
    }

    private List<Future<byte[]>> submitAll(TaskFor task) {
        List<Future<byte[]>> out = new ArrayList<>();
        for (Member m : members) {
            out.add(executor.submitToMember(task.of(m), m));
        }
        return out;
    }

    /**
     * A step failed: if members left (those running regions, or any other that held partitions of the
     * exchange), restore every region from the last checkpoint on the surviving accepted members.
     */
    /** Waits (up to 30 s) until {@code m} is no longer a member: a kill takes effect before the next step. */
    private void awaitGone(Member m) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (driver.getCluster().getMembers().contains(m) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /** Whether every region's checkpoint of {@code tick} is in the map. */
    private boolean complete(long tick) {
        IMap<String, byte[]> checkpoints = driver.getMap(ClusterConfigs.CHECKPOINTS);
        for (int r = 0; r < spec.regions(); r++) {
            if (!checkpoints.containsKey(ClusterConfigs.checkpointKey(tick, r))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Restores every region on the survivors from checkpoint {@code last}, or from {@code previous}
     * when a region's entry of {@code last} was lost; returns the tick restored.
     */
    private long recover(long tick, long last, long previous, Throwable failure) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<Member> now = Handshake.dataMembers(driver);
        while (now.containsAll(everyone) && System.nanoTime() < deadline) {
            // the failure may be seen before the member is declared gone: wait for the membership to settle
            Thread.sleep(100);
            now = Handshake.dataMembers(driver);
        }
        if (now.containsAll(everyone)) {
            throw new IllegalStateException("tick " + tick + " failed and no member left: " + failure, failure);
        }
        List<Member> alive = new ArrayList<>();
        for (Member m : members) {
            if (now.contains(m)) {
                alive.add(m);
            }
        }
        if (alive.isEmpty()) {
            throw new IllegalStateException("every member that ran regions is gone; the run cannot go on");
        }
        while (!driver.getPartitionService().isClusterSafe() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        everyone.retainAll(now);
        List<String> lost = new ArrayList<>();
        for (Member m : members) {
            if (!alive.contains(m)) {
                lost.add(Handshake.describe(m));
            }
        }
        if (lost.isEmpty()) {
            lost.add("(one that held no region)");
        }
        members = alive;
        makePlan();
        long checkpoint = last;
        String fallback = "";
        if (!complete(last)) {
            if (previous < 0 || !complete(previous)) {
                throw new IllegalStateException("member " + String.join(", ", lost) + " left during tick " + tick
                        + " and took checkpoint entries with it (no complete checkpoint is left); the run cannot go on");
            }
            checkpoint = previous;
            fallback = " (the checkpoint of tick " + last + " lost an entry with the member)";
        }
        driver.getMap(ClusterConfigs.EXCHANGE).clear();
        final long from = checkpoint;
        for (Future<byte[]> f : submitAll(m -> new Tasks.Setup(secret, spec, plan.get(m), from))) {
            f.get();
        }
        String line = String.format(Locale.ROOT, "member %s left during tick %d: %d regions restored from the checkpoint "
                + "of tick %d on %d members, re-simulating from tick %d%s", String.join(", ", lost), tick, spec.regions(),
                checkpoint, members.size(), checkpoint + 1, fallback);
        result.recoveries.add(line);
        err.println(line);
        return checkpoint;
    }

    private void finish() throws Exception {
        long agentsSum = 0;
        long threats = 0;
        long objects = 0;
        for (Future<byte[]> f : submitAll(m -> new Tasks.Finish(secret, spec.runId()))) {
            Wire.MemberResult v = Wire.MemberResult.decode(f.get());
            if (v.occupancy().length == 0) {
                continue; // a member without regions
            }
            result.agents += v.agents();
            agentsSum += v.agentHash();
            threats = v.threatsHash();
            objects += v.objectsHash();
            result.alarms += v.alarms();
            result.usedSlots += v.usedSlots();
            result.droppedEvents += v.droppedEvents();
            result.nodeFailures += v.nodeFailures();
            if (result.occupancy.length < v.occupancy().length) {
                result.occupancy = java.util.Arrays.copyOf(result.occupancy, v.occupancy().length);
            }
            for (int s = 0; s < v.occupancy().length; s++) {
                result.occupancy[s] += v.occupancy()[s];
            }
        }
        result.worldHash = Region.worldHash(agentsSum, threats, objects);
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
