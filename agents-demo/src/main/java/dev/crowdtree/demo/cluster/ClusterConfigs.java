package dev.crowdtree.demo.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.PartitioningStrategyConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.strategy.StringPartitioningStrategy;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How crowdtree's Hazelcast members are configured: TCP/IP join to the addresses given (no
 * multicast), bound to one interface only (127.0.0.1 unless told otherwise; not the wildcard address
 * Hazelcast binds by default), fast failure detection
 * (heartbeat every second, a member silent for 5 s is gone), and two maps:
 * {@value #EXCHANGE} (the messages between regions, no backup: they are written again from the
 * checkpoints after a loss) and {@value #CHECKPOINTS} (one synchronous backup). Map keys end in
 * {@code @r<region>}, so a region's entries live in the partition that decides its owner.
 */
public final class ClusterConfigs {
    public static final String EXCHANGE = "crowdtree.exchange";
    public static final String CHECKPOINTS = "crowdtree.checkpoints";
    /** The environment variable a cluster name is read from when no option gives it. */
    public static final String NAME_ENV = "CROWDTREE_CLUSTER_NAME";
    public static final String DEFAULT_NAME = "crowdtree";

    private ClusterConfigs() {
    }

    /**
     * A member's configuration.
     *
     * @param name  the cluster name
     * @param bind  the interface to bind and to announce
     * @param port  the first port to try (the next 99 are tried after it)
     * @param join  addresses ({@code host} or {@code host:port}) of members to join; empty: this one starts a cluster
     * @param lite  a lite member (the run's driver) holds no partitions and is given no region
     */
    public static Config member(String name, String bind, int port, List<String> join, boolean lite) {
        // Hazelcast's own lines (its start banner, connection retries while a member dies) are noise
        // next to the run's: only its severe ones are shown, through java.util.logging
        if (System.getProperty("hazelcast.logging.type") == null) {
            System.setProperty("hazelcast.logging.type", "jdk");
        }
        Logger.getLogger("com.hazelcast").setLevel(Level.SEVERE);
        Config c = new Config();
        c.setClusterName(name);
        c.setLiteMember(lite);
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.max.wait.seconds.before.join", "1");
        c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        c.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        NetworkConfig n = c.getNetworkConfig();
        n.setPort(port).setPortAutoIncrement(true).setPortCount(100);
        n.getInterfaces().setEnabled(true).addInterface(bind);
        c.setProperty("hazelcast.local.localAddress", bind);
        // Hazelcast listens on every interface unless told not to, whatever it announces: a process
        // that could reach another address of the host could join (and, in the open edition, call
        // Cluster.shutdown()); bound to the given interface only, it cannot (BoundSockets checks it)
        c.setProperty("hazelcast.socket.bind.any", "false");
        JoinConfig j = n.getJoin();
        j.getMulticastConfig().setEnabled(false);
        j.getAutoDetectionConfig().setEnabled(false);
        j.getTcpIpConfig().setEnabled(true).setMembers(join.isEmpty() ? List.of(bind) : join);
        PartitioningStrategyConfig byRegion = new PartitioningStrategyConfig(StringPartitioningStrategy.class.getName());
        c.addMapConfig(new MapConfig(EXCHANGE).setBackupCount(0).setPartitioningStrategyConfig(byRegion));
        c.addMapConfig(new MapConfig(CHECKPOINTS).setBackupCount(1).setAsyncBackupCount(0)
                .setPartitioningStrategyConfig(byRegion));
        return c;
    }

    /** Starts a member with {@code config} and, unless it is a lite member, makes it a {@link MemberNode} with {@code secret}. */
    public static HazelcastInstance start(Config config, ClusterSecret secret) {
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        if (!config.isLiteMember()) {
            MemberNode.install(hz, secret);
        }
        return hz;
    }

    /** The partition key of region {@code r}'s map entries; its partition's owner is the region's preferred member. */
    public static String regionKey(int r) {
        return "r" + r;
    }

    /**
     * The exchange key of the message {@code src} wrote for {@code dst}'s step of {@code tick}: by
     * the tick's parity, so a message overwrites the one of two ticks before, which the barrier
     * between proves was read (the message says its tick, and a reader checks it).
     */
    public static String exchangeKey(long tick, int src, int dst) {
        return "p" + (tick & 1) + "/s" + src + "@" + regionKey(dst);
    }

    /** The checkpoint key of region {@code r} at {@code tick}. */
    public static String checkpointKey(long tick, int r) {
        return "c" + tick + "@" + regionKey(r);
    }
}
