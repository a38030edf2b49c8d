package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Which of the members a driver was given ({@code --cluster HOST[:PORT],...}) are in its cluster: a
 * run given every member's address must use all that are reachable and name those that are not,
 * rather than run on fewer without a word (a member that was stalled and split off, or not started).
 * A given address without a port matches a member on any port of that host.
 *
 * <p>THREADING: the caller's thread.
 */
public final class GivenMembers {
    private GivenMembers() {
    }

    /**
     * The addresses of {@code given} that match no data member of {@code driver}'s cluster after
     * waiting up to {@code waitMs} for them to join (returns as soon as all are there).
     */
    public static List<String> missing(HazelcastInstance driver, List<String> given, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (true) {
            List<String> out = new ArrayList<>();
            for (String g : given) {
                if (!present(driver, g)) {
                    out.add(g);
                }
            }
            if (out.isEmpty() || System.nanoTime() >= deadline) {
                return out;
            }
            Thread.sleep(100);
        }
    }

    private static boolean present(HazelcastInstance driver, String address) {
        String host = address;
        int port = -1;
        int colon = address.lastIndexOf(':');
        if (colon > 0 && address.indexOf(':') == colon) { // host:port (not a bare IPv6 literal)
            host = address.substring(0, colon);
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                return false;
            }
        }
        InetAddress want;
        try {
            want = InetAddress.getByName(host.replace("[", "").replace("]", ""));
        } catch (UnknownHostException e) {
            return false;
        }
        for (Member m : Handshake.dataMembers(driver)) {
            try {
                if (m.getAddress().getInetAddress().equals(want) && (port < 0 || m.getAddress().getPort() == port)) {
                    return true;
                }
            } catch (UnknownHostException e) {
                // a member whose address does not resolve matches nothing
            }
        }
        return false;
    }
}
