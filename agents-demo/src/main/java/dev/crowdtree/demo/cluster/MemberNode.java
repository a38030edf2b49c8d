package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.crowdtree.demo.sim.Region;
import dev.crowdtree.demo.sim.RegionBudget;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.Partition;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A member's side of a run: the regions the driver gave it, stepped in parallel on a pool of at
 * least 16 threads (a step waits for the map as much as it computes), their inboxes read from and outboxes written to the {@link ClusterConfigs#EXCHANGE}
 * map, their checkpoints to {@link ClusterConfigs#CHECKPOINTS}; every value sealed with the
 * {@link ClusterSecret}. Kept in the Hazelcast instance's user context, where the tasks find it.
 *
 * <p>THREADING: the tasks of one run come one at a time from the driver (setup, steps, finish), on
 * Hazelcast's executor threads; within a task the regions run in parallel on the pool, each region on
 * one thread.
 */
public final class MemberNode implements AutoCloseable {
    static final String KEY = "crowdtree.member";

    private final HazelcastInstance hz;
    final ClusterSecret secret;
    private final ExecutorService pool;
    private final Map<Integer, Region> regions = new TreeMap<>();
    /**
     * Messages between two regions of this member, by exchange key (they never leave the process).
     * THREADING: written and read by the regions' steps in parallel; a key is written at one tick and
     * read at the next, after the barrier.
     */
    private final Map<String, byte[]> local = new ConcurrentHashMap<>();
    /** Seals and stores checkpoints while the regions tick on: a checkpoint tick costs its snapshot only. */
    private final ExecutorService writer;
    /** Checkpoint writes not yet waited for. THREADING: guarded by itself. */
    private final List<Future<?>> pendingCheckpoints = new ArrayList<>();
    private RunSpec spec;
    /** The run and generation this member writes for, and whether it was fenced out of it. */
    final MemberFence fence;
    /** Looks for the run's driver in the cluster every 200 ms; beats every 50 ms ({@link MemberFence#beat}). */
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "crowdtree-watch");
        t.setDaemon(true);
        return t;
    });
    /** Testing: the next step first sleeps this long (ms). */
    private volatile long stallNextStep;
    /** Tasks that handed this member world data (setup, step, finish) since it started; tests. */
    private final AtomicLong worldTasks = new AtomicLong();

    /** The models this member can run. */
    final ModelCatalog catalog;

    private MemberNode(HazelcastInstance hz, ClusterSecret secret, ModelCatalog catalog) {
        this.hz = hz;
        this.secret = secret;
        this.catalog = catalog;
        this.fence = new MemberFence(System.err, hz.getCluster().getLocalMember().getUuid().toString());
        // more threads than processors: a region's step spends much of its time waiting for the map
        // (its inbox, its outbox), and other regions' steps compute meanwhile
        int threads = Math.max(16, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "crowdtree-region");
            t.setDaemon(true);
            return t;
        });
        this.writer = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "crowdtree-checkpoint");
            t.setDaemon(true);
            return t;
        });
    }

    static void install(HazelcastInstance hz, ClusterSecret secret, ModelCatalog catalog) {
        MemberNode node = new MemberNode(hz, secret, catalog);
        hz.getUserContext().put(KEY, node);
        String cluster = hz.getConfig().getClusterName();
        hz.getLifecycleService().addLifecycleListener(e -> {
            switch (e.getState()) {
                case SHUTTING_DOWN -> {
                    if (ClusterShutdown.isClusterWide(hz)) {
                        node.fence.stopping(ClusterShutdown.memberLine(ClusterShutdown.requester(hz)));
                    }
                    node.close();
                }
                case MERGING -> {
                    if (node.fence.splitOff(cluster)) {
                        node.dropLater(node.fence.runId(), node.fence.epoch());
                    }
                }
                case MERGED -> node.fence.rejoined(cluster, hz.getCluster().getLocalMember().getUuid().toString());
                default -> {
                }
            }
        });
        // the run's driver gone from the cluster (it died, or this member was split off): polled, which
        // needs no listener of Hazelcast's membership events
        node.watcher.scheduleWithFixedDelay(() -> {
            // (not while the cluster is PASSIVE: a cluster-wide shutdown is under way, and its line follows)
            try {
                if (hz.getLifecycleService().isRunning() && hz.getCluster().getClusterState() != ClusterState.PASSIVE
                        && node.fence.driverGone(hz.getCluster().getMembers())) {
                    node.dropLater(node.fence.runId(), node.fence.epoch());
                }
            } catch (RuntimeException e) {
                // the instance stopped meanwhile; a task that threw would never be run again
            }
        }, 200, 200, TimeUnit.MILLISECONDS);
        node.watcher.scheduleWithFixedDelay(node.fence::beat, 50, 50, TimeUnit.MILLISECONDS);
    }

    /** The driver fenced this member out of generation {@code epoch - 1} of {@code runId} ({@link Tasks.Fence}). */
    void fence(String runId, long epoch, String why) {
        long was = fence.epoch();
        if (fence.fence(runId, epoch, why)) {
            dropLater(runId, was);
        }
    }

    /**
     * Drops the regions of generation {@code epoch} of {@code runId} once the task that holds them
     * (a step under way) is done, unless a newer setup came meanwhile; not on the caller's thread,
     * which may be Hazelcast's.
     */
    private void dropLater(String runId, long epoch) {
        Thread t = new Thread(() -> {
            synchronized (this) {
                if (fence.isFenced() && fence.current(runId, epoch)) {
                    awaitCheckpointsQuietly();
                    dropRegions();
                }
            }
        }, "crowdtree-fence");
        t.setDaemon(true);
        t.start();
    }

    private void awaitCheckpointsQuietly() {
        try {
            awaitCheckpoints();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The task that stops a member's JVM at once ({@code --kill-member-at} on a cluster of separate JVMs). */
    public static java.util.concurrent.Callable<Void> haltTask(ClusterSecret secret, String runId) {
        return new Tasks.Halt(secret, runId);
    }

    /** The member node of {@code hz}, or null when it is not a crowdtree member (a lite member, the driver). */
    public static MemberNode of(HazelcastInstance hz) {
        return (MemberNode) hz.getUserContext().get(KEY);
    }

    /** Tasks with world data this member has run (setup, step, finish). */
    public long worldTasks() {
        return worldTasks.get();
    }

    /** Testing: the next step hangs for {@code millis} before it starts, as if the member were starved or stopped. */
    public void stallNextStep(long millis) {
        stallNextStep = millis;
    }

    /** The last line this member printed about its fencing (empty: none). */
    public String lastNotice() {
        return fence.lastNotice();
    }

    /** Writes this member refused since its last setup because it was fenced. */
    public long refusedWrites() {
        return fence.refusedWrites();
    }

    /** The regions this member holds now. */
    public synchronized List<Integer> regionIds() {
        return new ArrayList<>(regions.keySet());
    }

    /**
     * Builds (fresh, {@code restoreTick < 0}) or restores (from that tick's checkpoints, written in
     * generation {@code restoreEpoch}) {@code ids} for generation {@code epoch} of the run, dropping
     * any others.
     */
    synchronized Wire.SetupAnswer setup(RunSpec spec, long epoch, UUID driver, long memberTimeoutNanos, int[] ids,
                                        long restoreTick, long restoreEpoch) throws Exception {
        // a stale setup (of an older generation than this member has seen) is refused before anything changes
        fence.begin(spec.runId(), epoch, driver, memberTimeoutNanos, Handshake.dataMembers(hz).size());
        worldTasks.incrementAndGet();
        awaitCheckpoints();
        dropRegions();
        // this member's share, refused before any region is built if it cannot fit in this JVM
        RegionBudget.check(ids.length, spec.regions(), spec.agents(), Runtime.getRuntime().maxMemory());
        this.spec = spec;
        long t0 = System.nanoTime();
        RunnableModel model = catalog.find(spec.model(), spec.fingerprint());
        CompiledStateTree tree = model.compileText(spec.treeName(), spec.treeText());
        SimSettings settings = spec.settings();
        Partition grid = model.partition(spec.regions(), settings, tree);
        IMap<String, byte[]> checkpoints = hz.getMap(ClusterConfigs.CHECKPOINTS);
        List<Future<Region>> built = new ArrayList<>();
        for (int r : ids) {
            built.add(pool.submit(() -> {
                if (restoreTick < 0) {
                    return Region.create(model.openRegion(settings, tree, grid, r), grid, r);
                }
                String key = ClusterConfigs.checkpointKey(restoreEpoch, restoreTick, r);
                byte[] sealed = checkpoints.get(key);
                if (sealed == null) {
                    throw new IllegalStateException("the checkpoint of region " + r + " at tick " + restoreTick + " is missing");
                }
                byte[] plain = secret.open(sealed, key);
                return Region.restore(model.openRegion(settings, tree, grid, r), grid, r, plain);
            }));
        }
        for (Future<Region> f : built) {
            Region region = get(f);
            regions.put(region.index(), region);
        }
        long bytes = parallel(region -> {
            List<CompletableFuture<?>> writes = publish(region, new long[1], epoch, System.nanoTime());
            long cp = restoreTick < 0 ? checkpoint(region, epoch) : 0;
            CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get();
            return cp;
        });
        awaitCheckpoints(); // checkpoint 0 is complete before the first tick
        return new Wire.SetupAnswer(System.nanoTime() - t0, bytes);
    }

    /**
     * Steps every region to {@code tick}; with {@code checkpoint}, writes each region's checkpoint
     * afterwards. Returns the time spent and the bytes written, summed over the regions.
     */
    synchronized Wire.StepAnswer step(String runId, long epoch, long tick, boolean checkpoint) throws Exception {
        long t0 = System.nanoTime();
        long stall = stallNextStep;
        if (stall > 0) { // testing: a member whose step hangs while its JVM (and its heartbeats) go on
            stallNextStep = 0;
            Thread.sleep(stall);
        }
        fence.check(runId, epoch);
        worldTasks.incrementAndGet();
        // the run's generation as the driver keeps it, read beside the inboxes: a step of an older one
        // writes nothing (it came to a member that was stopped while the run went on without it)
        CompletableFuture<byte[]> generation = hz.<String, byte[]>getMap(ClusterConfigs.CHECKPOINTS)
                .getAsync(ClusterConfigs.generationKey(runId)).toCompletableFuture();
        if (checkpoint) {
            awaitCheckpoints();
        }
        IMap<String, byte[]> exchange = hz.getMap(ClusterConfigs.EXCHANGE);
        List<Future<Wire.StepAnswer>> done = new ArrayList<>();
        for (Region region : regions.values()) {
            done.add(pool.submit(() -> {
                int[] nb = region.neighbours();
                // all of the inbox at once: one round trip, not one per neighbour; from regions of this
                // member, straight from memory
                List<CompletableFuture<byte[]>> reads = new ArrayList<>();
                for (int s : nb) {
                    reads.add(regions.containsKey(s) ? null
                            : exchange.getAsync(ClusterConfigs.exchangeKey(epoch, tick, s, region.index())).toCompletableFuture());
                }
                byte[][] inbox = new byte[nb.length][];
                for (int i = 0; i < nb.length; i++) {
                    inbox[i] = message(region, tick, epoch, i, reads.get(i) == null ? null : reads.get(i).get());
                }
                stepReadingAgain(region, tick, epoch, inbox);
                fence.seen(runId, ClusterConfigs.generation(secret, runId, generation.get()));
                long[] sent = new long[1];
                List<CompletableFuture<?>> writes = publish(region, sent, epoch, t0);
                long cp = checkpoint ? checkpoint(region, epoch) : 0;
                CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get();
                return new Wire.StepAnswer(0, region.haloBytes(), region.migrationBytes(), region.eventBytes(), cp, sent[0]);
            }));
        }
        Wire.StepAnswer sum = new Wire.StepAnswer(0, 0, 0, 0, 0, 0);
        for (Wire.StepAnswer a : getAll(done)) {
            sum = sum.plus(a);
        }
        return sum.withNanos(System.nanoTime() - t0);
    }

    /** How long a step reads a missing or stale inbox message again before it fails ({@link Region.StaleMessage}). */
    private static final long STALE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Steps {@code region}; a message of its inbox that is missing ({@code null}: not visible yet, as
     * while the map's partitions migrate to a member that joined) or found still holding an earlier
     * tick's bytes (the exchange keys repeat every other tick) is read again, every 5 ms for up to a
     * second, before the step fails in one line.
     */
    private void stepReadingAgain(Region region, long tick, long epoch, byte[][] inbox) throws InterruptedException {
        long deadline = System.nanoTime() + STALE_WAIT_NANOS;
        while (true) {
            int bad = missing(inbox);
            String why = "was missing";
            if (bad < 0) {
                try {
                    region.step(tick, inbox);
                    return;
                } catch (Region.StaleMessage stale) {
                    bad = stale.message;
                    why = "still held the one for tick " + stale.sentFor;
                }
            }
            int from = region.neighbours()[bad];
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("region " + region.index() + ": the message from region " + from
                        + " for tick " + tick + " " + why + " after " + TimeUnit.NANOSECONDS.toMillis(STALE_WAIT_NANOS) + " ms");
            }
            Thread.sleep(5);
            byte[] sealed = regions.containsKey(from) ? null
                    : hz.<String, byte[]>getMap(ClusterConfigs.EXCHANGE).get(ClusterConfigs.exchangeKey(epoch, tick, from, region.index()));
            inbox[bad] = message(region, tick, epoch, bad, sealed);
        }
    }

    private static int missing(byte[][] inbox) {
        for (int i = 0; i < inbox.length; i++) {
            if (inbox[i] == null) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Inbox message {@code i} of {@code region} for {@code tick}: from memory for a region of this
     * member, else opened from {@code sealed}; {@code null} when there is none (yet).
     */
    private byte[] message(Region region, long tick, long epoch, int i, byte[] sealed) {
        int from = region.neighbours()[i];
        String key = ClusterConfigs.exchangeKey(epoch, tick, from, region.index());
        return regions.containsKey(from) ? local.get(key) : sealed == null ? null : secret.open(sealed, key);
    }

    /** The results of this member's regions, summed ({@link Wire.MemberResult}). The regions are closed. */
    synchronized Wire.MemberResult finish(String runId, long epoch) throws InterruptedException {
        fence.check(runId, epoch);
        fence.finished();
        worldTasks.incrementAndGet();
        awaitCheckpoints();
        List<Wire.MemberResult> parts = new ArrayList<>();
        for (Region r : regions.values()) {
            int[] occ = r.sim().occupancy();
            long[] occupancy = new long[occ.length];
            for (int s = 0; s < occ.length; s++) {
                occupancy[s] = occ[s];
            }
            long[] h = r.hashParts();
            parts.add(new Wire.MemberResult(r.agents(), h[0], h[1], h[2], r.droppedEvents(),
                    r.sim().system().failures().total(), occupancy, r.sim().counters()));
        }
        dropRegions();
        return parts.isEmpty() ? Wire.MemberResult.NONE : Wire.MemberResult.sum(parts);
    }

    /**
     * Writes the region's outbox: to a neighbour on this member in memory, to others sealed into the
     * exchange map (adding the sealed bytes to {@code sent[0]}); returns the writes in flight.
     */
    private List<CompletableFuture<?>> publish(Region region, long[] sent, long epoch, long startNanos)
            throws InterruptedException {
        IMap<String, byte[]> exchange = hz.getMap(ClusterConfigs.EXCHANGE);
        int[] nb = region.neighbours();
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (int i = 0; i < nb.length; i++) {
            String key = ClusterConfigs.exchangeKey(epoch, region.tick() + 1, region.index(), nb[i]);
            if (regions.containsKey(nb[i])) {
                local.put(key, region.outbox(i));
            } else if (!fence.writable(epoch, startNanos)) {
                awaitQuietly(writes); // those issued before the fence land before the task ends
                throw new MemberFence.Fenced("region " + region.index() + " of a fenced member wrote nothing more");
            } else {
                byte[] sealed = secret.seal(region.outbox(i), key);
                sent[0] += sealed.length;
                writes.add(exchange.setAsync(key, sealed).toCompletableFuture());
            }
        }
        return writes;
    }

    /**
     * The region's checkpoint: its bytes are taken now (the region moves on at the next step), sealed
     * and stored in the background (see {@link #pendingCheckpoints}); returns their size.
     */
    private long checkpoint(Region region, long epoch) {
        String key = ClusterConfigs.checkpointKey(epoch, region.tick(), region.index());
        byte[] plain = region.checkpoint();
        Future<?> write = writer.submit(() -> {
            byte[] sealed = secret.seal(plain, key);
            if (!fence.writable(epoch)) {
                return null;
            }
            hz.<String, byte[]>getMap(ClusterConfigs.CHECKPOINTS).set(key, sealed);
            return null;
        });
        synchronized (pendingCheckpoints) {
            pendingCheckpoints.add(write);
        }
        return plain.length;
    }

    /** Waits for {@code writes} to end, a failed one as well as one that succeeded. */
    private static void awaitQuietly(List<? extends Future<?>> writes) throws InterruptedException {
        for (Future<?> w : writes) {
            try {
                w.get();
            } catch (ExecutionException e) {
                // ended; what it wrote, if anything, is under a key of the old generation
            }
        }
    }

    /**
     * Waits for the checkpoint writes still in flight: before the next checkpoint's step answers (so
     * when the driver deletes an older checkpoint, the one after it is complete), and before the
     * member's regions change (setup, finish). A failed write is not an error here: the driver takes a
     * checkpoint only when every region's entry of it is in the map.
     */
    private void awaitCheckpoints() throws InterruptedException {
        List<Future<?>> writes;
        synchronized (pendingCheckpoints) {
            writes = new ArrayList<>(pendingCheckpoints);
            pendingCheckpoints.clear();
        }
        awaitQuietly(writes); // a failed write's entry is missing; see above
    }

    private interface RegionJob {
        long run(Region r) throws Exception;
    }

    /** Runs {@code job} on every region in parallel; returns the sum of what they return. */
    private long parallel(RegionJob job) throws Exception {
        List<Future<Long>> done = new ArrayList<>();
        for (Region r : regions.values()) {
            done.add(pool.submit(() -> job.run(r)));
        }
        long sum = 0;
        for (long n : getAll(done)) {
            sum += n;
        }
        return sum;
    }

    /**
     * What every one of {@code done} returned, once all have finished: a region's task that failed
     * does not leave the others running (and their writes under way) past the task that started them,
     * so the next task of this member (a setup of a newer generation) begins with none of them.
     *
     * @throws Exception the first failure, in the order of {@code done}
     */
    private static <T> List<T> getAll(List<Future<T>> done) throws Exception {
        List<T> out = new ArrayList<>(done.size());
        Exception first = null;
        for (Future<T> f : done) {
            try {
                out.add(get(f));
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof Exception ? (Exception) c : new IllegalStateException(c);
        }
    }

    /** Closes every region this member holds and forgets the messages between them. */
    private void dropRegions() {
        for (Region r : regions.values()) {
            r.close();
        }
        regions.clear();
        local.clear();
    }

    @Override
    public synchronized void close() {
        dropRegions();
        pool.shutdownNow();
        writer.shutdownNow();
        watcher.shutdownNow();
    }
}
