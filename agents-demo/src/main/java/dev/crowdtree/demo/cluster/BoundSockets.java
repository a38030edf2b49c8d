package dev.crowdtree.demo.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.server.Server;
import com.hazelcast.internal.server.tcp.ServerSocketRegistry;
import com.hazelcast.internal.server.tcp.TcpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses a member's server sockets are actually bound to, read from the sockets themselves
 * (not the address the member announces, which Hazelcast reports even when it listens on every
 * interface). Reaches into Hazelcast's server internals (5.x); when they are not there, says so
 * instead of guessing.
 */
public final class BoundSockets {
    private BoundSockets() {
    }

    /**
     * The local addresses of {@code hz}'s listening sockets.
     *
     * @throws IllegalStateException when this Hazelcast version does not let them be read
     */
    public static List<InetSocketAddress> of(HazelcastInstance hz) {
        try {
            Server server = ((HazelcastInstanceProxy) hz).getOriginal().node.getServer();
            ServerSocketRegistry registry = ((TcpServer) server).getRegistry();
            List<InetSocketAddress> out = new ArrayList<>();
            for (ServerSocketRegistry.Pair p : registry) {
                SocketAddress a = p.getChannel().getLocalAddress();
                if (a instanceof InetSocketAddress i) {
                    out.add(i);
                }
            }
            return out;
        } catch (ClassCastException | IOException | LinkageError e) {
            throw new IllegalStateException("cannot read the member's bound sockets from this Hazelcast version: " + e, e);
        }
    }

    /** {@code host:port} of each bound socket, comma-separated (for messages). */
    public static String describe(HazelcastInstance hz) {
        StringBuilder b = new StringBuilder();
        for (InetSocketAddress a : of(hz)) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(a.getAddress().getHostAddress()).append(':').append(a.getPort());
        }
        return b.toString();
    }
}
