package dev.crowdtree.demo.http;

/**
 * The limits that keep an HTTP server of ours ({@code serve}, the debugger) answering when clients
 * are slow, stall or come in crowds ({@link HttpFront}). {@link #DEFAULTS} is what both use; the
 * command line can change the caps, tests shorten the timeouts.
 *
 * @param headerTimeoutMs         a connection must deliver a complete request head (request line
 *                                and headers) within this time of opening, or of its previous
 *                                answer; else it is closed ({@link ConnectionGuard}). A total
 *                                deadline: trickling bytes does not extend it.
 * @param bodyTimeoutMs           a request body must arrive in full within this time of its head,
 *                                else 408 and the connection is closed (and, after its first half
 *                                second, at {@link BodyReader#MIN_BYTES_PER_SECOND} bytes per second
 *                                on average: the rate floor)
 * @param idleTimeoutMs           a connection on which nothing moves for this long is closed: one
 *                                whose answer the client does not read, or an idle keep-alive
 * @param maxHeaderBytes          the request line and headers together; more is answered with 431
 * @param maxBodyBytes            request body; more is answered with 413
 * @param maxConnections          open connections in all; a new one beyond it closes the connection
 *                                idle the longest (one with no request in progress), or itself if
 *                                none is idle
 * @param maxConnectionsPerClient open connections from one client address; a new one beyond it
 *                                closes that client's connection idle the longest, or itself. On a
 *                                server bound to loopback every client is the same address
 *                                (127.0.0.1), so there it is a second, lower total cap; off
 *                                loopback it keeps one host from taking every slot.
 * @param threads                 HTTP worker threads (besides the acceptor and the selector). No
 *                                handler of ours waits on a thread (bodies, the simulation and
 *                                long-polls are waited for without one), so these are always free
 *                                to answer {@code /api/status}, {@code /meta} and the like.
 */
public record HttpLimits(long headerTimeoutMs, long bodyTimeoutMs, long idleTimeoutMs, int maxHeaderBytes,
                         int maxBodyBytes, int maxConnections, int maxConnectionsPerClient, int threads) {

    /** Default header, body and idle timeouts (ms). */
    public static final int HEADER_TIMEOUT_MS = 5000;
    public static final int BODY_TIMEOUT_MS = 5000;
    public static final int IDLE_TIMEOUT_MS = 5000;
    /** Default limits on the request head and body (bytes). */
    public static final int MAX_HEADER_BYTES = 8192;
    public static final int MAX_BODY_BYTES = 4096;
    /** Default caps. */
    public static final int MAX_CONNECTIONS = 64;
    public static final int MAX_CONNECTIONS_PER_CLIENT = 32;
    public static final int THREADS = 8;
    /** Highest value accepted for {@code --max-connections} and {@code --max-connections-per-client}. */
    public static final int MAX_CONNECTIONS_LIMIT = 10_000;

    /** The defaults of {@code serve} and the debugger. */
    public static final HttpLimits DEFAULTS = new HttpLimits(HEADER_TIMEOUT_MS, BODY_TIMEOUT_MS, IDLE_TIMEOUT_MS,
            MAX_HEADER_BYTES, MAX_BODY_BYTES, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT, THREADS);

    /** The defaults in words, shared by the commands' help. */
    public static final String DEFAULTS_TEXT = "a request's head (line and headers) must arrive whole within "
            + HEADER_TIMEOUT_MS / 1000 + " s of the connection opening or of its previous answer, and its body within "
            + BODY_TIMEOUT_MS / 1000 + " s, at " + BodyReader.MIN_BYTES_PER_SECOND + " bytes/s or more after its first "
            + "half second; heads of at most " + MAX_HEADER_BYTES / 1024 + " KB (else 431), bodies of at most "
            + MAX_BODY_BYTES / 1024 + " KB (else 413); at most " + MAX_CONNECTIONS + " connections open, "
            + MAX_CONNECTIONS_PER_CLIENT + " from one address; " + THREADS + " HTTP threads, none of them held by a "
            + "waiting client";

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException naming the limit and its valid range
     */
    public HttpLimits {
        if (headerTimeoutMs < 100 || bodyTimeoutMs < 100 || idleTimeoutMs < 100) {
            throw new IllegalArgumentException("the header, body and idle timeouts must be at least 100 ms");
        }
        if (maxHeaderBytes < 1024 || maxBodyBytes < 1) {
            throw new IllegalArgumentException("the header limit must be at least 1024 bytes and the body limit positive");
        }
        if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS_LIMIT) {
            throw new IllegalArgumentException("--max-connections = " + maxConnections
                    + " is out of range; valid range is 1.." + MAX_CONNECTIONS_LIMIT);
        }
        if (maxConnectionsPerClient < 1 || maxConnectionsPerClient > MAX_CONNECTIONS_LIMIT) {
            throw new IllegalArgumentException("--max-connections-per-client = " + maxConnectionsPerClient
                    + " is out of range; valid range is 1.." + MAX_CONNECTIONS_LIMIT);
        }
        if (threads < 2 || threads > 256) {
            throw new IllegalArgumentException("HTTP threads = " + threads + " is out of range; valid range is 2..256");
        }
    }

    /** These limits with other header, body and idle timeouts (milliseconds). */
    public HttpLimits withTimeouts(long header, long body, long idle) {
        return new HttpLimits(header, body, idle, maxHeaderBytes, maxBodyBytes, maxConnections, maxConnectionsPerClient,
                threads);
    }

    /**
     * These limits with another total connection cap; the cap per client is lowered to it when it
     * was higher.
     */
    public HttpLimits withMaxConnections(int n) {
        return new HttpLimits(headerTimeoutMs, bodyTimeoutMs, idleTimeoutMs, maxHeaderBytes, maxBodyBytes, n,
                n >= 1 ? Math.min(maxConnectionsPerClient, n) : maxConnectionsPerClient, threads);
    }

    /** These limits with another cap per client address. */
    public HttpLimits withMaxConnectionsPerClient(int n) {
        return new HttpLimits(headerTimeoutMs, bodyTimeoutMs, idleTimeoutMs, maxHeaderBytes, maxBodyBytes,
                maxConnections, n, threads);
    }
}
