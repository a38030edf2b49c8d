package dev.crowdtree.demo.serve;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.thread.Scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps the open connections and gives every request head a total deadline. Jetty's idle timeout
 * (the connector's, {@link ServerLimits#writeTimeoutMs()}) only closes a connection on which
 * nothing moves; this closes one that has not delivered a complete request head within
 * {@link ServerLimits#headerTimeoutMs()} of opening or of its previous answer, however it trickles
 * bytes (slowloris), and keeps at most {@link ServerLimits#maxConnections()} connections open:
 * a new connection beyond the cap closes the connection idle the longest (no request in
 * progress: between requests or still sending its head), or itself when every connection has a
 * request in progress (those are bounded by the body and write timeouts).
 *
 * <p>THREADING: {@link #onOpened} and {@link #onClosed} run on Jetty's worker threads, several at
 * once; {@link #requestStarted} and {@link #requestEnded} on the worker threads that handle
 * requests, the sweep on the scheduler's thread. The map and the counter are concurrent. A
 * connection's state (idle, busy, closing) is an atomic that only moves by compare-and-set, so two
 * new connections never pick the same victim and a connection is never closed while it is busy;
 * {@code idleSince} is volatile and written before the state becomes idle.
 */
final class ConnectionGuard implements Connection.Listener {
    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;

    /** What the guard knows of one connection. */
    private static final class State {
        /** IDLE (no request in progress: between requests or receiving a head), BUSY or CLOSING. */
        final AtomicInteger phase = new AtomicInteger(IDLE);
        /** When the connection opened or its last answer finished (nanoTime); the head deadline runs from it. */
        volatile long idleSince;

        State(long now) {
            idleSince = now;
        }
    }

    private final long headerTimeoutNanos;
    private final int maxConnections;
    private final Map<Connection, State> open = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final Scheduler scheduler;
    private final long sweepMillis;
    // THREADING: set by start() and stop() on the thread that starts and closes the server.
    private volatile boolean running;

    ConnectionGuard(ServerLimits limits, Scheduler scheduler) {
        this.headerTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(limits.headerTimeoutMs());
        this.maxConnections = limits.maxConnections();
        this.scheduler = scheduler;
        this.sweepMillis = Math.max(20, Math.min(250, limits.headerTimeoutMs() / 5));
    }

    /** Starts the periodic sweep (the scheduler must be started). */
    void start() {
        running = true;
        scheduler.schedule(this::sweep, sweepMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the sweep. */
    void stop() {
        running = false;
    }

    /** Open connections. */
    int open() {
        return count.get();
    }

    /** Connections closed at once because the cap was full of busy connections. */
    int refused() {
        return refused.get();
    }

    @Override
    public void onOpened(Connection c) {
        long now = System.nanoTime();
        open.put(c, new State(now));
        if (count.incrementAndGet() > maxConnections) {
            Connection victim = claimLongestIdle(c);
            if (victim == null) {
                refused.incrementAndGet();
                victim = c;
            }
            victim.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection c) {
        if (open.remove(c) != null) {
            count.decrementAndGet();
        }
    }

    /** A request's head arrived on {@code c}: the head deadline stops until its answer is finished. */
    void requestStarted(Connection c) {
        State s = open.get(c);
        if (s != null) {
            s.phase.compareAndSet(IDLE, BUSY);
        }
    }

    /** The answer on {@code c} is finished (or failed): the next request head's deadline starts now. */
    void requestEnded(Connection c) {
        State s = open.get(c);
        if (s != null) {
            s.idleSince = System.nanoTime();
            s.phase.compareAndSet(BUSY, IDLE);
        }
    }

    /**
     * Marks as closing and returns the connection other than {@code except} with no request in
     * progress that has been idle longest, or null when every other connection is busy or closing.
     */
    private Connection claimLongestIdle(Connection except) {
        while (true) {
            Connection best = null;
            State bestState = null;
            for (Map.Entry<Connection, State> e : open.entrySet()) {
                State s = e.getValue();
                if (e.getKey() != except && s.phase.get() == IDLE
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
