package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23, defect 2: later runs given all 3 members' addresses used the 1-2 still in the cluster
 * without a word. The driver now names the members it was given that are not in its cluster.
 */
class GivenMembersTest {
    @Test
    void theGivenMembersThatAreNotInTheClusterAreNamed() throws Exception {
        ClusterSecret secret = ClusterSecret.of("a test secret of some length");
        try (LocalCluster cluster = LocalCluster.start(2, secret, "127.0.0.1")) {
            List<String> given = new ArrayList<>();
            for (HazelcastInstance m : cluster.members()) {
                given.add(Handshake.describe(m.getCluster().getLocalMember()));
            }
            assertEquals(List.of(), GivenMembers.missing(cluster.driver(), given, 200));
            assertEquals(List.of(), GivenMembers.missing(cluster.driver(), List.of("127.0.0.1"), 200), "any port of the host");
            given.add("127.0.0.1:1");
            given.add("no-such-host.invalid:5701");
            assertEquals(List.of("127.0.0.1:1", "no-such-host.invalid:5701"), GivenMembers.missing(cluster.driver(), given, 300));
            HazelcastInstance lost = cluster.members().get(1);
            String lostAddress = Handshake.describe(lost.getCluster().getLocalMember());
            String kept = Handshake.describe(cluster.members().get(0).getCluster().getLocalMember());
            cluster.kill(lost.getCluster().getLocalMember());
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (Handshake.dataMembers(cluster.driver()).size() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(List.of(lostAddress), GivenMembers.missing(cluster.driver(), List.of(lostAddress, kept), 200));
        }
    }
}
