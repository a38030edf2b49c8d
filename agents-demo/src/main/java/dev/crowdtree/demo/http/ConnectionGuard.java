package dev.crowdtree.demo.http;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.thread.Scheduler;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps the open connections, in all and per client address, and gives every request head a total
 * deadline. Jetty's idle timeout (the connector's, {@link HttpLimits#idleTimeoutMs()}) only closes
 * a connection on which nothing moves; this closes one that has not delivered a complete request
 * head within {@link HttpLimits#headerTimeoutMs()} of opening or of its previous answer, however it
 * trickles bytes (slowloris), and keeps at most {@link HttpLimits#maxConnections()} connections
 * open, at most {@link HttpLimits#maxConnectionsPerClient()} of them from one address: a new
 * connection beyond a cap closes the connection idle the longest (no request in progress: between
 * requests or still sending its head) among those the cap counts (the client's, or all), or itself
 * when every one of them has a request in progress (those are bounded by the body and idle timeouts).
 *
 * <p>THREADING: {@link #onOpened} and {@link #onClosed} run on Jetty's worker threads, several at
 * once; {@link #requestStarted} and {@link #requestEnded} on the worker threads that handle
 * requests, the sweep on the scheduler's thread. The maps and the counters are concurrent; a
 * client's count changes only inside {@link ConcurrentHashMap#compute}, which also removes it at
 * zero. A connection's state (idle, busy, closing) is an atomic that only moves by compare-and-set,
 * so two new connections never pick the same victim and a connection is never closed while it is
 * busy; {@code idleSince} is volatile and written before the state becomes idle.
 */
public final class ConnectionGuard implements Connection.Listener {
    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;
    /** The key of a connection whose remote address is not an IP address (not seen on TCP). */
    private static final String UNKNOWN = "unknown";

    /** What the guard knows of one connection. */
    private static final class State {
        /** IDLE (no request in progress: between requests or receiving a head), BUSY or CLOSING. */
        final AtomicInteger phase = new AtomicInteger(IDLE);
        /** The client's address (or {@link #UNKNOWN}): the key of its count. */
        final Object client;
        /** When the connection opened or its last answer finished (nanoTime); the head deadline runs from it. */
        volatile long idleSince;

        State(long now, Object client) {
            this.idleSince = now;
            this.client = client;
        }
    }

    private final long headerTimeoutNanos;
    private final int maxConnections;
    private final int maxPerClient;
    private final Map<Connection, State> open = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Object, Integer> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final Scheduler scheduler;
    private final long sweepMillis;
    // THREADING: set by start() and stop() on the thread that starts and closes the server.
    private volatile boolean running;

    /** A guard of {@code limits}' caps and head deadline, sweeping on {@code scheduler}. */
    public ConnectionGuard(HttpLimits limits, Scheduler scheduler) {
        this.headerTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(limits.headerTimeoutMs());
        this.maxConnections = limits.maxConnections();
        this.maxPerClient = limits.maxConnectionsPerClient();
        this.scheduler = scheduler;
        this.sweepMillis = Math.max(20, Math.min(250, limits.headerTimeoutMs() / 5));
    }

    /** Starts the periodic sweep (the scheduler must be started). */
    public void start() {
        running = true;
        scheduler.schedule(this::sweep, sweepMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the sweep. */
    public void stop() {
        running = false;
    }

    /** Open connections. */
    public int open() {
        return count.get();
    }

    /** Connections closed at once because a cap was full of busy connections. */
    public int refused() {
        return refused.get();
    }

    @Override
    public void onOpened(Connection c) {
        Object client = clientOf(c);
        State s = new State(System.nanoTime(), client);
        open.put(c, s);
        int total = count.incrementAndGet();
        int mine = perClient.merge(client, 1, Integer::sum);
        if (mine > maxPerClient) {
            close(c, claimLongestIdle(c, client)); // one of the client's out for one in: the total is unchanged
        } else if (total > maxConnections) {
            close(c, claimLongestIdle(c, null));
        }
    }

    /** Closes {@code victim}, or {@code c} itself (refused) when there is none. */
    private void close(Connection c, Connection victim) {
        if (victim == null) {
            refused.incrementAndGet();
            victim = c;
        }
        victim.getEndPoint().close();
    }

    @Override
    public void onClosed(Connection c) {
        State s = open.remove(c);
        if (s != null) {
            count.decrementAndGet();
            perClient.compute(s.client, (k, n) -> n == null || n <= 1 ? null : n - 1);
        }
    }

    /** A request's head arrived on {@code c}: the head deadline stops until its answer is finished. */
    public void requestStarted(Connection c) {
        State s = open.get(c);
        if (s != null) {
            s.phase.compareAndSet(IDLE, BUSY);
        }
    }

    /** The answer on {@code c} is finished (or failed): the next request head's deadline starts now. */
    public void requestEnded(Connection c) {
        State s = open.get(c);
        if (s != null) {
            s.idleSince = System.nanoTime();
            s.phase.compareAndSet(BUSY, IDLE);
        }
    }

    private static Object clientOf(Connection c) {
        SocketAddress remote = c.getEndPoint().getRemoteSocketAddress();
        if (remote instanceof InetSocketAddress) {
            InetAddress a = ((InetSocketAddress) remote).getAddress();
            if (a != null) {
                return a;
            }
        }
        return UNKNOWN;
    }

    /**
     * Marks as closing and returns the connection other than {@code except}, of {@code client} (null:
     * of any client), with no request in progress that has been idle longest, or null when every
     * such connection is busy or closing.
     */
    private Connection claimLongestIdle(Connection except, Object client) {
        while (true) {
            Connection best = null;
            State bestState = null;
            for (Map.Entry<Connection, State> e : open.entrySet()) {
                State s = e.getValue();
                if (e.getKey() != except && s.phase.get() == IDLE && (client == null || client.equals(s.client))
                        && (bestState == null || s.idleSince - bestState.idleSince < 0)) {
                    best = e.getKey();
                    bestState = s;
                }
            }
            if (best == null || bestState.phase.compareAndSet(IDLE, CLOSING)) {
                return best;
            }
            // another thread took it, or it became busy: look again
        }
    }

    /** Closes the connections past their head deadline, then schedules itself again. */
    private void sweep() {
        if (!running) {
            return;
        }
        try {
            long now = System.nanoTime();
            for (Map.Entry<Connection, State> e : open.entrySet()) {
                State s = e.getValue();
                if (s.phase.get() == IDLE && now - s.idleSince > headerTimeoutNanos
                        && s.phase.compareAndSet(IDLE, CLOSING)) {
                    e.getKey().getEndPoint().close();
                }
            }
        } finally {
            if (running) {
                scheduler.schedule(this::sweep, sweepMillis, TimeUnit.MILLISECONDS);
            }
        }
    }
}
