package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import dev.crowdtree.core.util.Printable;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which run and generation a member writes for, and whether it was fenced out of it (docs/SCALE.md
 * "Checkpoints and recovery"). A member is fenced when
 * <ul>
 *   <li>the driver tells it so ({@link Tasks.Fence}: its step did not answer within the member
 *       timeout, and the run went on to a newer generation without it);</li>
 *   <li>it finds the run's generation, which the driver keeps in the checkpoints map, newer than its
 *       task's;</li>
 *   <li>its JVM was frozen (stopped with SIGSTOP, or starved) during its step for so long that the
 *       driver has surely given up on it: longer than the member timeout and a ping's time (the
 *       driver fences a late member that does not answer a ping, {@link Replies#awaitRound}), or than
 *       the heartbeat timeout and 2 s (the cluster removes it); a thread that beats every 50 ms
 *       measures the freeze (a step merely slow, waiting on another member, is not fenced here);</li>
 *   <li>it was split off from the cluster (Hazelcast's lifecycle event MERGING: it was removed while
 *       stopped or cut off and is merging back), or the run's driver left the cluster.</li>
 * </ul>
 * A fenced member writes nothing more for the run (every write asks {@link #writable} first; and
 * what a write already under way puts in the maps is under a key of the old generation, which no
 * reader of a newer one reads), says so in one line, and drops its regions.
 *
 * <p>THREADING: any thread; guarded by this object's monitor, with {@link #writable} reading volatile fields.
 */
final class MemberFence {
    /** A task refused because its member is fenced out of its run, or the task is of an older generation. */
    static final class Fenced extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Fenced(String message) {
            super(message);
        }
    }

    private final PrintStream out;
    private final String self;
    private volatile String runId;
    private volatile long epoch;
    private volatile boolean fenced;
    private UUID driver;
    /** Data members in the cluster at the setup. */
    private int dataMembers;
    /** A freeze of the JVM at least this long (ns) during a step fences the member: the driver has given up on it. */
    private volatile long freezeNanos = Long.MAX_VALUE;
    /** When the watcher last beat, and the end and length of the last freeze it found ({@link System#nanoTime}). */
    private volatile long lastBeat = System.nanoTime();
    private volatile long freezeEnd;
    private volatile long freezeLength;
    /** Writes refused because the member was fenced; tests and the fenced line. */
    private final AtomicLong refused = new AtomicLong();
    private volatile String lastNotice = "";

    MemberFence(PrintStream out, String self) {
        this.out = out;
        this.self = self;
    }

    /** A setup of generation {@code e} of {@code run}: the member writes for it from now on. */
    synchronized void begin(String run, long e, UUID driverUuid, long memberTimeoutNanos, int dataMembersNow) {
        if (run.equals(runId) && e <= epoch) {
            throw refuse("a setup of generation " + e + " of run " + run + " was refused: this member has seen generation "
                    + epoch + " (the task is stale)");
        }
        runId = run;
        epoch = e;
        driver = driverUuid;
        dataMembers = dataMembersNow;
        long timeout = memberTimeoutNanos <= 0 ? Long.MAX_VALUE / 4 : memberTimeoutNanos;
        freezeNanos = Math.min(timeout + TimeUnit.MILLISECONDS.toNanos(Replies.pingMillis(timeout / 1_000_000)),
                TimeUnit.SECONDS.toNanos(ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS + 2));
        fenced = false;
        refused.set(0);
    }

    /** Before a step or finish of generation {@code e} of {@code run}. */
    synchronized void check(String run, long e) {
        if (!run.equals(runId)) {
            throw new Fenced("a task of run " + run + " was refused: this member holds no regions of it");
        }
        if (e < epoch) {
            throw refuse("a task of generation " + e + " of run " + run + " was refused: the run is at generation " + epoch);
        }
        if (fenced || e != epoch) {
            throw new Fenced("a task of generation " + e + " of run " + run + " was refused: this member was fenced out of the run");
        }
    }

    /** The watcher's beat, every 50 ms: a gap between two beats is a freeze of the JVM. */
    void beat() {
        long now = System.nanoTime();
        long gap = now - lastBeat;
        if (gap > TimeUnit.SECONDS.toNanos(1)) {
            freezeEnd = now;
            freezeLength = gap;
        }
        lastBeat = now;
    }

    /** The freeze of at least {@link #freezeNanos} during a step that began at {@code startNanos}, or 0. */
    private long frozen(long startNanos) {
        long now = System.nanoTime() - lastBeat; // a freeze the watcher has not woken from yet
        if (now >= freezeNanos) {
            return now;
        }
        return freezeEnd - startNanos > 0 && freezeLength >= freezeNanos ? freezeLength : 0;
    }

    /**
     * Whether a write for generation {@code e} may go out now, for a step that began at
     * {@code startNanos} ({@link System#nanoTime}); a refused write is counted, and a freeze during
     * the step fences the member.
     */
    boolean writable(long e, long startNanos) {
        long frozen = frozen(startNanos);
        if (!fenced && e == epoch && frozen == 0) {
            return true;
        }
        refused.incrementAndGet();
        if (!fenced && e == epoch) {
            fence(runId, e + 1, String.format(Locale.ROOT, "its JVM was frozen for %.1f s during its step (stopped?): "
                    + "the driver has given up on it", frozen / 1e9));
        }
        return false;
    }

    /** Whether a write for generation {@code e} may go out (a background checkpoint write); a refused one is counted. */
    boolean writable(long e) {
        if (!fenced && e == epoch) {
            return true;
        }
        refused.incrementAndGet();
        return false;
    }

    /** The run's generation as the driver keeps it is {@code newest}: older tasks are fenced. */
    void seen(String run, long newest) {
        if (newest > epoch && run.equals(runId)) {
            fence(run, newest, "the run is at generation " + newest);
        }
    }

    /**
     * The run went on to generation {@code e} without this member; returns whether this fenced it now
     * (then its regions are to be dropped).
     */
    synchronized boolean fence(String run, long e, String why) {
        if (!run.equals(runId) || e <= epoch || fenced) {
            return false;
        }
        fenced = true;
        notice(String.format(Locale.ROOT, "crowdtree member %s: fenced out of run %s at generation %d (%s): it drops its "
                + "regions and writes nothing more for the run", self, runId, epoch, why));
        return true;
    }

    /**
     * The cluster is {@code members} now: when the run's driver is not among them, the member is
     * fenced (returns true): the driver died, or this member was split off from it.
     */
    synchronized boolean driverGone(Set<Member> members) {
        if (runId == null || fenced) {
            return false;
        }
        int data = 0;
        for (Member m : members) {
            if (m.getUuid().equals(driver)) {
                return false;
            }
            data += m.isLiteMember() ? 0 : 1;
        }
        fenced = true;
        if (data <= 1 && dataMembers > 1) {
            notice(String.format(Locale.ROOT, "crowdtree member %s: split off from the cluster (it lost the driver and "
                    + "every other member of run %s: stopped or cut off for more than %d s?): fenced, it drops its regions "
                    + "and writes nothing more for the run", self, runId, ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS));
        } else {
            notice(String.format(Locale.ROOT, "crowdtree member %s: the driver of run %s left the cluster: this member "
                    + "drops its regions and waits for the next run", self, runId));
        }
        return true;
    }

    /** This member was split off from its cluster and is merging back: fenced (returns whether it held a run). */
    synchronized boolean splitOff(String cluster) {
        if (fenced) {
            return false; // it said so already
        }
        boolean held = runId != null;
        fenced = true;
        notice(String.format(Locale.ROOT, "crowdtree member %s: split off from cluster '%s' (removed while stopped or cut "
                + "off for more than %d s)%s; merging back into it", self, cluster, ClusterConfigs.HEARTBEAT_TIMEOUT_SECONDS,
                held ? ": fenced out of run " + runId + ", it drops its regions and writes nothing more for it" : ""));
        return held;
    }

    /** This member merged back into its cluster, as {@code now}. */
    synchronized void rejoined(String cluster, String now) {
        notice(String.format(Locale.ROOT, "crowdtree member %s: rejoined cluster '%s' as member %s; waiting for runs",
                self, cluster, now));
    }

    /** The run's finish: this member's part of it is over; the driver's going is no news. */
    synchronized void finished() {
        fenced = true;
    }

    /** Whether {@code run} at generation {@code e} is still the one this member writes for. */
    synchronized boolean current(String run, long e) {
        return run != null && run.equals(runId) && e == epoch;
    }

    synchronized String runId() {
        return runId;
    }

    long epoch() {
        return epoch;
    }

    boolean isFenced() {
        return fenced;
    }

    String lastNotice() {
        return lastNotice;
    }

    /** Writes this member refused since its last setup (it was fenced). */
    long refusedWrites() {
        return refused.get();
    }

    /** This member stops, for a reason not its own ({@link ClusterShutdown}): says so in one line. */
    synchronized void stopping(String why) {
        fenced = true;
        notice("crowdtree member " + self + ": " + why);
    }

    private Fenced refuse(String why) {
        notice("crowdtree member " + self + ": " + why);
        return new Fenced(why);
    }

    private void notice(String line) {
        if (!line.equals(lastNotice)) {
            lastNotice = line;
            out.println(Printable.escape(line));
            out.flush();
        }
    }
}
