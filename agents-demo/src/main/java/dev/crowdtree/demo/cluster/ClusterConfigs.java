package dev.crowdtree.demo.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.PartitioningStrategyConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.strategy.StringPartitioningStrategy;

import java.util.List;

/**
 * How crowdtree's Hazelcast members are configured: TCP/IP join to the addresses given (no
 * multicast), bound to one interface only (127.0.0.1 unless told otherwise; not the wildcard address
 * Hazelcast binds by default), fast failure detection
 * (heartbeat every second, a member silent for 5 s is gone; one split off looks for the cluster again
 * every 5 s), and two maps:
 * {@value #EXCHANGE} (the messages between regions, no backup: they are written again from the
 * checkpoints after a loss) and {@value #CHECKPOINTS} (one synchronous backup). Map keys end in
 * {@code @r<region>}, so a region's checkpoint entries live in the partition that decides its owner
 * (the exchange's are spread by the whole key: see {@link #member}), and carry
 * the run's generation ({@code g<epoch>}): after a member is fenced, nothing it writes for an older
 * generation is read. Entries a split-off member wrote while apart are discarded when it merges back.
 */
public final class ClusterConfigs {
    public static final String EXCHANGE = "crowdtree.exchange";
    public static final String CHECKPOINTS = "crowdtree.checkpoints";
    /** The environment variable a cluster name is read from when no option gives it. */
    public static final String NAME_ENV = "CROWDTREE_CLUSTER_NAME";
    public static final String DEFAULT_NAME = "crowdtree";
    /** Seconds before a member split off from its cluster looks for it again (and between tries). */
    static final int MERGE_DELAY_SECONDS = 5;
    /** The only trusted interface of Management Center's client messages: an address no host has (RFC 5737). */
    static final String NO_TRUSTED_INTERFACE = "192.0.2.1";
    /** Seconds without a heartbeat after which Hazelcast removes a member. */
    public static final int HEARTBEAT_TIMEOUT_SECONDS = 5;

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
        HazelcastLog.install();
        Config c = new Config();
        c.setClusterName(name);
        c.setLiteMember(lite);
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.max.wait.seconds.before.join", "1");
        c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        c.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(HEARTBEAT_TIMEOUT_SECONDS));
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        // a member split off (stopped or cut off past the heartbeat timeout) looks for the cluster
        // again within seconds, not Hazelcast's default 5 minutes, and rejoins it; what it wrote to
        // the maps while apart is discarded (DiscardMergePolicy below), and its tasks' generation is
        // stale (MemberNode refuses to write for it)
        c.setProperty("hazelcast.merge.first.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
        c.setProperty("hazelcast.merge.next.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
        NetworkConfig n = c.getNetworkConfig();
        n.setPort(port).setPortAutoIncrement(true).setPortCount(100);
        n.getInterfaces().setEnabled(true).addInterface(bind);
        c.setProperty("hazelcast.local.localAddress", bind);
        // Hazelcast listens on every interface unless told not to, whatever it announces: a process
        // that could reach another address of the host could join (and, in the open edition, call
        // Cluster.shutdown()); bound to the given interface only, it cannot (BoundSockets checks it)
        c.setProperty("hazelcast.socket.bind.any", "false");
        // Management Center's client messages (MCShutdownCluster and MCChangeClusterState among them)
        // are accepted only from its trusted interfaces, all of them when none is given: one address
        // reserved for documentation (TEST-NET-1) is given, so a Hazelcast client that knows the cluster
        // name cannot shut the cluster down or change its state that way
        c.getManagementCenterConfig().setTrustedInterfaces(java.util.Set.of(NO_TRUSTED_INTERFACE));
        JoinConfig j = n.getJoin();
        j.getMulticastConfig().setEnabled(false);
        j.getAutoDetectionConfig().setEnabled(false);
        j.getTcpIpConfig().setEnabled(true).setMembers(join.isEmpty() ? List.of(bind) : join);
        PartitioningStrategyConfig byRegion = new PartitioningStrategyConfig(StringPartitioningStrategy.class.getName());
        MergePolicyConfig discard = new MergePolicyConfig("com.hazelcast.spi.merge.DiscardMergePolicy", MergePolicyConfig.DEFAULT_BATCH_SIZE);
        // no partitioning strategy on the exchange: Hazelcast 5.6's async operations (setAsync, getAsync,
        // removeAsync), which the members' steps use, place a key by the hash of the whole key, and its
        // sync ones (get, delete, containsKey) by a map's strategy, so with one an entry written by the
        // one kind is not found by the other (ClusterKeysTest); without, both agree
        c.addMapConfig(new MapConfig(EXCHANGE).setBackupCount(0).setMergePolicyConfig(discard));
        c.addMapConfig(new MapConfig(CHECKPOINTS).setBackupCount(1).setAsyncBackupCount(0)
                .setPartitioningStrategyConfig(byRegion).setMergePolicyConfig(discard));
        return c;
    }

    /**
     * Starts a member with {@code config} and, unless it is a lite member, makes it a {@link MemberNode}
     * with {@code secret} that runs the models of {@code catalog}. A lite member (a driver) is given
     * the secret too, to prove it to the drivers of other runs ({@link Tasks.Prove}); the secret is in
     * the member's user context before it joins, so a challenge that comes at once is answered.
     */
    public static HazelcastInstance start(Config config, ClusterSecret secret, ModelCatalog catalog) {
        if (secret != null) {
            config.getUserContext().put(Tasks.SECRET_KEY, secret);
        }
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        if (!config.isLiteMember()) {
            MemberNode.install(hz, secret, catalog);
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
    public static String exchangeKey(long epoch, long tick, int src, int dst) {
        return "g" + epoch + "/p" + (tick & 1) + "/s" + src + "@" + regionKey(dst);
    }

    /**
     * The key of the run's generation, which the driver raises when it fences a member (kept in
     * {@link #CHECKPOINTS}, which has a backup; members read it at each step).
     */
    static String generationKey(String runId) {
        return "generation/" + runId + "@" + regionKey(0);
    }

    /** The value of {@link #generationKey}: {@code epoch}, sealed under its key. */
    static byte[] generationValue(ClusterSecret secret, String runId, long epoch) {
        return secret.seal(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(epoch).array(), generationKey(runId));
    }

    /** The generation in {@code sealed} (a value of {@link #generationKey}), 0 when there is none. */
    static long generation(ClusterSecret secret, String runId, byte[] sealed) {
        return sealed == null ? 0 : java.nio.ByteBuffer.wrap(secret.open(sealed, generationKey(runId))).getLong();
    }

    /** The checkpoint key of region {@code r} at {@code tick}, written in generation {@code epoch} of the run. */
    public static String checkpointKey(long epoch, long tick, int r) {
        return "c" + tick + "g" + epoch + "@" + regionKey(r);
    }

    /**
     * The generation an exchange key ({@link #exchangeKey}) or checkpoint key ({@link #checkpointKey})
     * was written in; -1 for any other key (the run's generation).
     */
    static long generationOf(String key) {
        int g;
        int end;
        if (key.startsWith("g")) {
            g = 1;
            end = key.indexOf('/');
        } else if (key.startsWith("c")) {
            g = key.indexOf('g') + 1;
            end = key.indexOf('@');
        } else {
            return -1;
        }
        try {
            return g <= 0 || end <= g ? -1 : Long.parseLong(key, g, end, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
