package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A cluster inside this JVM ({@code run --local-members M}, tests): M members and the driver's lite
 * member, under a cluster name of their own, on ports from a free one up, bound to one interface.
 * Members of one JVM talk over TCP like any others; killing one terminates its Hazelcast instance
 * without a goodbye.
 */
public final class LocalCluster implements AutoCloseable {
    private final String name;
    private final String bind;
    private final int port;
    private final List<String> join = new ArrayList<>();
    private final List<HazelcastInstance> members = new ArrayList<>();
    /** Lite members other than the driver ({@link #addLiteMember}). */
    private final List<HazelcastInstance> lite = new ArrayList<>();
    private final HazelcastInstance driver;

    /** The models the members run. */
    private final ModelCatalog catalog;

    private LocalCluster(int count, ClusterSecret secret, String bind, ModelCatalog catalog) {
        this.catalog = catalog;
        this.name = "crowdtree-local-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        this.bind = bind;
        this.port = freePort(bind);
        for (int i = 0; i < count + 4; i++) {
            join.add(bind + ":" + (port + i));
        }
        boolean ok = false;
        try {
            for (int i = 0; i < count; i++) {
                addMember(secret);
            }
            driver = ClusterConfigs.start(config(true), secret, catalog);
            for (HazelcastInstance m : members) {
                awaitSeen(m);
            }
            ok = true;
        } finally {
            if (!ok) {
                close();
            }
        }
    }

    /** Starts {@code count} members with {@code secret} and a driver, on {@code bind}; the members run the built-in models. */
    public static LocalCluster start(int count, ClusterSecret secret, String bind) {
        try {
            return new LocalCluster(count, secret, bind, ModelCatalog.builtIn());
        } catch (dev.crowdtree.statetree.model.ModelException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Starts {@code count} members with {@code secret} and a driver, on {@code bind}; the members run the models of {@code catalog}. */
    public static LocalCluster start(int count, ClusterSecret secret, String bind, ModelCatalog catalog) {
        return new LocalCluster(count, secret, bind, catalog);
    }

    private Config config(boolean lite) {
        return ClusterConfigs.member(name, bind, port, join, lite);
    }

    /** One more member, with its own idea of the secret (tests start one with a wrong secret). */
    public HazelcastInstance addMember(ClusterSecret secret) {
        HazelcastInstance hz = ClusterConfigs.start(config(false), secret, catalog);
        members.add(hz);
        if (driver != null) {
            awaitSeen(hz);
        }
        return hz;
    }

    /**
     * One more lite member (another driver), with {@code secret} to prove, or none (null: a process
     * that knows only the cluster name); not one of {@link #members()}, terminated with them by
     * {@link #close}.
     */
    public HazelcastInstance addLiteMember(ClusterSecret secret) {
        HazelcastInstance hz = ClusterConfigs.start(config(true), secret, catalog);
        lite.add(hz);
        awaitSeen(hz);
        return hz;
    }

    /**
     * Waits (up to 30 s) until the driver's member list has {@code member}: a member's start returns
     * once it has joined, and the others' lists follow a moment later.
     */
    private void awaitSeen(HazelcastInstance member) {
        Member m = member.getCluster().getLocalMember();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!driver.getCluster().getMembers().contains(m)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the driver did not see member " + m.getAddress() + " join within 30 s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for member " + m.getAddress() + " to join", e);
            }
        }
    }

    public String name() {
        return name;
    }

    public HazelcastInstance driver() {
        return driver;
    }

    public List<HazelcastInstance> members() {
        return members;
    }

    /** Terminates the member without a goodbye (its partitions' primaries are lost; backups take over). */
    public void kill(Member m) {
        for (HazelcastInstance hz : members) {
            if (hz.getLifecycleService().isRunning() && hz.getCluster().getLocalMember().getUuid().equals(m.getUuid())) {
                hz.getLifecycleService().terminate();
                return;
            }
        }
        throw new IllegalArgumentException("member " + m + " is not one of this JVM's");
    }

    @Override
    public void close() {
        if (driver != null) {
            driver.getLifecycleService().terminate();
        }
        for (HazelcastInstance hz : members) {
            hz.getLifecycleService().terminate();
        }
        for (HazelcastInstance hz : lite) {
            hz.getLifecycleService().terminate();
        }
    }

    private static int freePort(String bind) {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(bind))) {
            return Math.min(s.getLocalPort(), 65_000);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + bind + ": " + e.getMessage(), e);
        }
    }
}
