package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.IExecutorService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * The members' replies to one round of tasks (a step, a setup, the finish), waited for until a
 * deadline and sorted: the answers, the members lost (left the cluster, refused as fenced), the
 * members late (no answer by the deadline: to be fenced), and other failures (which may follow from
 * another member's loss, or be an error of the run).
 *
 * <p>THREADING: one thread.
 */
final class Replies {
    final Map<Member, byte[]> answers = new LinkedHashMap<>();
    final Map<Member, String> lost = new LinkedHashMap<>();
    final List<Member> late = new ArrayList<>();
    /** Why a late member is held lost, beside its lateness (its ping's fate); empty when others answered. */
    final Map<Member, String> why = new LinkedHashMap<>();
    final Map<Member, Throwable> failed = new LinkedHashMap<>();

    /** Waits for every future of {@code sent} until {@code timeoutNanos} from now (each at least 200 ms). */
    static Replies await(Map<Member, Future<byte[]>> sent, long timeoutNanos) throws InterruptedException {
        Replies r = new Replies();
        long deadline = System.nanoTime() + timeoutNanos;
        for (Map.Entry<Member, Future<byte[]>> e : sent.entrySet()) {
            long left = Math.max(TimeUnit.MILLISECONDS.toNanos(200), deadline - System.nanoTime());
            try {
                r.answers.put(e.getKey(), e.getValue().get(left, TimeUnit.NANOSECONDS));
            } catch (TimeoutException t) {
                r.late.add(e.getKey());
            } catch (ExecutionException x) {
                Throwable c = x.getCause() == null ? x : x.getCause();
                if (memberGone(c)) {
                    r.lost.put(e.getKey(), "left");
                } else if (c instanceof MemberFence.Fenced) {
                    r.lost.put(e.getKey(), "refused as fenced (" + c.getMessage() + ")");
                } else {
                    r.failed.put(e.getKey(), c);
                }
            }
        }
        return r;
    }

    /**
     * Waits for a round of {@code sent} like {@link #await}; a member late past {@code timeoutMillis}
     * is then asked to prove the secret (a task that waits for nothing), and those that do not
     * answer that either within {@link #pingMillis} stay late, the others not: a step waits on a
     * stopped member's partitions as long as it is stopped, so every member is late then, but only the
     * stopped one is silent. When every late member answers the ping, the late ones stay late if
     * others answered the round (their steps hang on their own); else (all late and all alive, a slow
     * cluster; or all late and all silent, a cluster that stalls as a whole) the round is waited for
     * again, until {@code giveUpMillis} (then all late ones stay late) or until {@code cutOff} says the
     * driver lost the cluster.
     */
    static Replies awaitRound(IExecutorService executor, ClusterSecret secret, Map<Member, Future<byte[]>> sent,
                              long timeoutMillis, long giveUpMillis, BooleanSupplier cutOff) throws InterruptedException {
        Replies r = await(sent, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(giveUpMillis);
        while (!r.late.isEmpty() && !cutOff.getAsBoolean() && System.nanoTime() < giveUp) {
            Map<Member, Future<byte[]>> pings = new LinkedHashMap<>();
            byte[] challenge = ClusterSecret.challenge();
            for (Member m : r.late) {
                pings.put(m, executor.submitToMember(new Tasks.Prove(challenge), m));
            }
            Replies p = await(pings, TimeUnit.MILLISECONDS.toNanos(pingMillis(timeoutMillis)));
            List<Member> silent = new ArrayList<>(p.late);
            silent.addAll(p.lost.keySet());
            silent.addAll(p.failed.keySet());
            for (Member m : p.late) {
                r.why.put(m, String.format(java.util.Locale.ROOT, " nor a ping within %.1f s",
                        pingMillis(timeoutMillis) / 1e3));
            }
            p.lost.forEach((m, w) -> r.why.put(m, " and " + w + " while pinged"));
            p.failed.forEach((m, t) -> r.why.put(m, " and its ping failed (" + t + ")"));
            if (!silent.isEmpty() && (silent.size() < r.late.size() || !r.answers.isEmpty())) {
                r.late.retainAll(silent); // the others were waiting on them; the recovery follows
                return r;
            }
            // (every member silent: the cluster itself stalls, e.g. while its master was stopped and
            // another takes over; waited for again, until the bound)
            if (silent.isEmpty() && !r.answers.isEmpty()) {
                return r; // others answered: the late ones' steps hang on their own, and they are lost
            }
            r.why.clear();
            Map<Member, Future<byte[]>> still = new LinkedHashMap<>();
            for (Member m : r.late) {
                still.put(m, sent.get(m));
            }
            Replies more = await(still, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
            r.answers.putAll(more.answers);
            r.lost.putAll(more.lost);
            r.failed.putAll(more.failed);
            r.late.clear();
            r.late.addAll(more.late);
        }
        return r;
    }

    /** How long a late member may take to answer a ping: half the member timeout, 2 s at least. */
    static long pingMillis(long timeoutMillis) {
        return Math.max(2_000, timeoutMillis / 2);
    }

    /** Whether every member answered. */
    boolean complete() {
        return lost.isEmpty() && late.isEmpty() && failed.isEmpty();
    }

    /** Hazelcast's exceptions that say a task's member left (by name: some of their classes' annotations are not on the compile path). */
    private static final Set<String> GONE = Set.of("com.hazelcast.core.MemberLeftException",
            "com.hazelcast.spi.exception.TargetNotMemberException", "com.hazelcast.spi.exception.TargetDisconnectedException",
            "com.hazelcast.core.HazelcastInstanceNotActiveException");

    /** Whether {@code t} (or a cause of it) says that the member it ran on left the cluster. */
    static boolean memberGone(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (GONE.contains(c.getClass().getName())) {
                return true;
            }
        }
        return false;
    }

    /** What went wrong in this round of tasks ({@code what}), in one line. */
    String problems(String what, long memberTimeoutMillis) {
        List<String> out = new ArrayList<>();
        lost.forEach((m, why) -> out.add("member " + Handshake.describe(m) + " " + why));
        for (Member m : late) {
            out.add(String.format(java.util.Locale.ROOT, "member %s did not answer %s within the member timeout of %.1f s",
                    Handshake.describe(m), what, memberTimeoutMillis / 1e3));
        }
        failed.forEach((m, t) -> out.add("member " + Handshake.describe(m) + " failed: " + t.getMessage()));
        return String.join("; ", out);
    }
}
