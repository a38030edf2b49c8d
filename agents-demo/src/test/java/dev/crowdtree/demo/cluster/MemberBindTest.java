package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 23, defect 1: a member listens only on the interface it is given, not on every interface of
 * the host. Checked against the kernel's own table of listening sockets ({@code /proc/net/tcp} and
 * {@code tcp6}), independently of what the member says about itself.
 */
class MemberBindTest {
    @Test
    void aMemberAndALocalClusterListenOnLoopbackOnly() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "needs Linux's /proc/net/tcp");
        ClusterSecret secret = ClusterSecret.of("a test secret of some length");
        try (LocalCluster cluster = LocalCluster.start(2, secret, "127.0.0.1")) {
            List<HazelcastInstance> all = new ArrayList<>(cluster.members());
            all.add(cluster.driver());
            for (HazelcastInstance hz : all) {
                int port = hz.getCluster().getLocalMember().getAddress().getPort();
                List<String> listening = listeners(port);
                assertFalse(listening.isEmpty(), "something listens on port " + port);
                for (String local : listening) {
                    assertEquals("127.0.0.1", local, "port " + port + " is bound to " + local + ", not only to loopback: " + listening);
                }
                List<InetSocketAddress> bound = BoundSockets.of(hz);
                assertFalse(bound.isEmpty());
                for (InetSocketAddress a : bound) {
                    assertTrue(a.getAddress().isLoopbackAddress(), "the member reports " + a);
                    assertEquals(port, a.getPort());
                }
                assertEquals("127.0.0.1:" + port, BoundSockets.describe(hz));
            }
        }
    }

    /** The local addresses of the sockets in state LISTEN on {@code port}, as Java prints them (the IPv6 wildcard is {@code 0:0:0:0:0:0:0:0}). */
    static List<String> listeners(int port) throws IOException {
        List<String> out = new ArrayList<>();
        for (String file : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(file);
            if (!Files.isReadable(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                String[] local = f[1].split(":");
                if (!"0A".equals(f[3]) || Integer.parseInt(local[1], 16) != port) {
                    continue; // not LISTEN, or another port
                }
                out.add(decode(local[0]));
            }
        }
        return out;
    }

    /** The kernel's hex form of an address (32-bit words, each little-endian) as Java prints it; IPv4-mapped IPv6 as IPv4. */
    private static String decode(String hex) throws IOException {
        byte[] a = new byte[hex.length() / 2];
        for (int w = 0; w < a.length / 4; w++) {
            for (int i = 0; i < 4; i++) {
                a[4 * w + i] = (byte) Integer.parseInt(hex.substring(8 * w + 2 * (3 - i), 8 * w + 2 * (3 - i) + 2), 16);
            }
        }
        return InetAddress.getByAddress(a).getHostAddress();
    }
}
