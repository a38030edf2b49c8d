package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cluster-wide shutdown ({@code Cluster.shutdown()}), told apart from a member's own stop, and the
 * one line that says so (docs/SCALE.md "Security"). Hazelcast's open-source edition lets any member
 * of the cluster, lite or not, shut every member down, and has no hook on the receiving members to
 * refuse it: the requester changes the cluster state to {@code PASSIVE} in a transaction
 * ({@code ClusterStateManager.lockClusterState}/{@code commitClusterState}, which check only the
 * startup, migrations, the member list and the state lock; the veto {@code NodeExtension
 * .beforeClusterStateChange} runs on the requester only), then sends every member a
 * {@code ShutdownNodeOp}, which shuts it down when the state is {@code PASSIVE}. So crowdtree cannot
 * require the secret for it; what it does is say why it stops: a member prints
 * {@link #memberLine}, a driver ends its run with {@link #driverLine}.
 *
 * <p>How it is recognised: the shutdown comes on the thread {@code ShutdownNodeOp} starts
 * ({@code hz.<instance>.clusterShutdown}), with the cluster in state {@code PASSIVE}, which nothing
 * of crowdtree's sets; the requester's address is taken from {@code ShutdownNodeOp}'s log record
 * ("Requested by: ..."), which {@link HazelcastLog} hands to {@link #logged}.
 *
 * <p>THREADING: any thread; the requesters are kept in a concurrent map.
 */
final class ClusterShutdown {
    /** The logger of Hazelcast's {@code ShutdownNodeOp}, whose info record names the requester. */
    static final String OP_LOGGER = "com.hazelcast.internal.cluster.impl.operations.ShutdownNodeOp";
    /** {@code [host]:port ... Requested by: [host]:port}, as Hazelcast's log prefixes its records with the member's address. */
    private static final Pattern RECORD = Pattern.compile("^\\[([^\\]]+)\\]:(\\d+) .*Requested by: \\[([^\\]]+)\\]:(\\d+)");
    /** The requester of each member's shutdown ({@code host:port} of the member to that of the requester). */
    private static final Map<String, String> REQUESTERS = new ConcurrentHashMap<>();

    private ClusterShutdown() {
    }

    /** A record of {@code ShutdownNodeOp}'s logger: remembers who requested the shutdown of which member. */
    static void logged(String message) {
        Matcher m = RECORD.matcher(message == null ? "" : message);
        if (m.find()) {
            REQUESTERS.put(m.group(1) + ":" + m.group(2), m.group(3) + ":" + m.group(4));
        }
    }

    /**
     * Whether {@code hz}, now shutting down, is being shut down by a cluster-wide shutdown request
     * (call it from its {@code SHUTTING_DOWN} lifecycle event, on the thread that fires it).
     */
    static boolean isClusterWide(HazelcastInstance hz) {
        if (Thread.currentThread().getName().endsWith("clusterShutdown")) {
            return true;
        }
        try {
            return hz.getCluster().getClusterState() == ClusterState.PASSIVE;
        } catch (RuntimeException e) {
            return false; // no longer running: not known
        }
    }

    /** {@code host:port} of the member that requested {@code hz}'s shutdown, or "an unknown member". */
    static String requester(HazelcastInstance hz) {
        String self;
        try {
            self = Handshake.describe(hz.getCluster().getLocalMember());
        } catch (RuntimeException e) {
            return "an unknown member";
        }
        String by = REQUESTERS.get(self);
        return by == null ? "an unknown member" : by;
    }

    /** Why the cluster stops, with the requester's address: the common part of both lines. */
    private static String why(String requester) {
        return "the cluster was shut down by a cluster-wide shutdown request (Cluster.shutdown()) from " + requester
                + "; Hazelcast's open-source edition lets any member of the cluster make one and cannot require the "
                + "secret for it (docs/SCALE.md \"Security\")";
    }

    /** A member's line, after {@code crowdtree member <uuid>: }. */
    static String memberLine(String requester) {
        return why(requester) + "; this member stops";
    }

    /** The line a run (or sweep) ends with: {@code what} is "the run", "the sweep". */
    static String driverLine(String requester, String what) {
        return why(requester) + "; every member stopped, and " + what + " with it";
    }

    /**
     * Watches a driver for a cluster-wide shutdown while a run goes on: {@link #blame} ends the run
     * with the line that says so once one came (or the cluster's state is {@code PASSIVE}, its first step).
     */
    static final class Watch implements AutoCloseable {
        /** How long a driver whose cluster is PASSIVE waits for its own shutdown to come. */
        static final long SETTLE_MILLIS = 5_000;
        private final HazelcastInstance hz;
        private final UUID listener;
        private volatile String requester;

        Watch(HazelcastInstance hz) {
            this.hz = hz;
            this.listener = hz.getLifecycleService().addLifecycleListener(e -> {
                if (e.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN && isClusterWide(hz)) {
                    requester = requester(hz);
                }
            });
        }

        /** Whether a cluster-wide shutdown came, or is under way. */
        boolean happened() {
            if (requester != null) {
                return true;
            }
            try {
                return hz.getLifecycleService().isRunning() && hz.getCluster().getClusterState() == ClusterState.PASSIVE;
            } catch (RuntimeException e) {
                return false;
            }
        }

        /**
         * The line to end {@code what} ("the run") with, or null when no cluster-wide shutdown came.
         * When the cluster is {@code PASSIVE} but this driver's own shutdown has not come yet (a
         * shutdown's first step), it waits for it up to {@link #SETTLE_MILLIS}; a cluster left in
         * {@code PASSIVE} (a member called {@code Cluster.changeClusterState}) is said as such.
         */
        private String why(String what) throws InterruptedException {
            if (!happened()) {
                return null;
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
            while (requester == null && hz.getLifecycleService().isRunning() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            if (requester == null && hz.getLifecycleService().isRunning()) {
                return "the cluster was put in state PASSIVE by a member of the cluster (Cluster.changeClusterState(); "
                        + "Hazelcast's open-source edition lets any member do so and cannot require the secret for it, "
                        + "docs/SCALE.md \"Security\"): no map can be written, and " + what + " cannot go on";
            }
            return driverLine(requester != null ? requester : requester(hz), what);
        }

        /**
         * When a cluster-wide shutdown came, throws the line {@link #why} gives ({@code what}: "the run",
         * "the sweep"), with {@code failure}, whatever failed first, as its cause; otherwise returns,
         * and the caller rethrows {@code failure}.
         */
        void blame(Exception failure, String what) throws InterruptedException {
            String why = why(what);
            if (why != null) {
                throw new IllegalStateException(why, failure);
            }
        }

        @Override
        public void close() {
            try {
                hz.getLifecycleService().removeLifecycleListener(listener);
            } catch (RuntimeException e) {
                // the instance is gone, and its listeners with it
            }
        }
    }
}
