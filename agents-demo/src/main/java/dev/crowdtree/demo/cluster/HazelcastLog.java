package dev.crowdtree.demo.cluster;

import dev.crowdtree.core.util.Printable;

import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Hazelcast's log, as crowdtree shows it: only its severe records, each on one line of stderr
 * ({@code hazelcast: ...}) without a stack trace (with {@code -Dcrowdtree.stacktrace=true}, with it),
 * and none of those a stalled or split-off member causes as a matter of course (its claims of
 * mastership, the others' refusals of its operations): crowdtree says what happened in its own
 * words ({@link MemberNode}, {@link ClusterRun}). The info record of Hazelcast's {@code ShutdownNodeOp}
 * is let through to {@link ClusterShutdown}, which names the requester of a cluster-wide shutdown.
 *
 * <p>THREADING: {@link #install} is idempotent and thread-safe; the handler is called on Hazelcast's threads.
 */
final class HazelcastLog {
    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level and handler. */
    private static final Logger HAZELCAST = Logger.getLogger("com.hazelcast");
    /** Held likewise: its info record names who requested a cluster-wide shutdown ({@link ClusterShutdown}). */
    private static final Logger SHUTDOWN_OP = Logger.getLogger(ClusterShutdown.OP_LOGGER);
    /** Messages of the expected churn around a member that was stopped or cut off and comes back. */
    private static final List<String> EXPECTED = List.of(
            "claims mastership but it is not a member",
            "is not a member",
            "not a member of this cluster",
            "Not a member",
            "is not known",
            "is not running",
            "member list version",
            "has left cluster",
            "is not part of the cluster",
            "was already removed",
            "Cannot merge",
            "Split brain",
            "split-brain",
            "suspect",
            "heartbeat",
            "Hazelcast instance is not active",
            "HazelcastInstanceNotActiveException",
            "TargetNotMemberException",
            "MemberLeftException",
            "cannot lock cluster state");
    private static boolean installed;

    private HazelcastLog() {
    }

    static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        HAZELCAST.setLevel(Level.SEVERE);
        HAZELCAST.setUseParentHandlers(false);
        SHUTDOWN_OP.setLevel(Level.INFO);
        HAZELCAST.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (ClusterShutdown.OP_LOGGER.equals(r.getLoggerName())) {
                    ClusterShutdown.logged(r.getMessage()); // said in crowdtree's words by the member and the driver
                }
                if (r.getLevel().intValue() < Level.SEVERE.intValue() || expected(r)) {
                    return;
                }
                String m = r.getMessage() == null ? String.valueOf(r.getThrown()) : r.getMessage();
                System.err.println(Printable.escape("hazelcast: " + m.strip()));
                if (r.getThrown() != null && Boolean.getBoolean("crowdtree.stacktrace")) {
                    r.getThrown().printStackTrace(System.err);
                }
            }

            @Override
            public void flush() {
                System.err.flush();
            }

            @Override
            public void close() {
            }
        });
    }

    /** Whether {@code r} is part of the churn around a member that left, was fenced, or is coming back. */
    static boolean expected(LogRecord r) {
        StringBuilder text = new StringBuilder(String.valueOf(r.getMessage()));
        for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
            text.append(' ').append(t.getClass().getSimpleName()).append(' ').append(t.getMessage());
        }
        String s = text.toString();
        for (String e : EXPECTED) {
            if (s.contains(e)) {
                return true;
            }
        }
        return false;
    }
}
