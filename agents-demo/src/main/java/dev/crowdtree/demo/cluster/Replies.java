package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
}
