package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.http.HttpLimits;

/**
 * The limits that keep {@code serve}'s HTTP server answering when clients are slow, stall or come
 * in crowds (see {@link CrowdServer}): those of every server of ours ({@link HttpLimits}: head and
 * body deadlines, the rate floor, the connection caps, the threads), whose idle timeout is here
 * the write timeout, and the cap on frame streams. {@link #DEFAULTS} is what {@code serve} uses;
 * the command line can change the caps, tests shorten the timeouts.
 *
 * @param http            the limits shared with the debugger; its idle timeout is {@link #writeTimeoutMs()}
 * @param maxFrameStreams {@code /frame} requests waiting or being sent at once; a new one beyond
 *                        it takes the slot of the answer stalled longest ({@link FrameStreams#STALLED_MS}),
 *                        or, when none is stalled, is answered at once with 503 and {@code Retry-After: 1}
 */
record ServerLimits(HttpLimits http, int maxFrameStreams) {

    /** Default caps (those of connections are {@link HttpLimits}'). */
    static final int MAX_CONNECTIONS = HttpLimits.MAX_CONNECTIONS;
    static final int MAX_FRAME_STREAMS = 16;

    /** The defaults of {@code serve}. */
    static final ServerLimits DEFAULTS = new ServerLimits(HttpLimits.DEFAULTS, MAX_FRAME_STREAMS);

    /** The defaults in words (a constant, for {@code serve --help}). */
    static final String DEFAULTS_TEXT = HttpLimits.DEFAULTS_TEXT + "; a client that reads nothing of its answer for "
            + HttpLimits.IDLE_TIMEOUT_MS / 1000 + " s, or has not read a frame whole after " + HttpLimits.IDLE_TIMEOUT_MS / 1000
            + " s, is dropped, and a frame request takes the slot of an answer left unread for " + FrameStreams.STALLED_MS
            + " ms (at most " + MAX_FRAME_STREAMS + " frame requests at once).";

    /** Highest value accepted for {@code --max-connections}. */
    static final int MAX_CONNECTIONS_LIMIT = HttpLimits.MAX_CONNECTIONS_LIMIT;
    /** Highest value accepted for {@code --max-frame-streams}. */
    static final int MAX_FRAME_STREAMS_LIMIT = 256;

    ServerLimits {
        if (http.idleTimeoutMs() < FrameStreams.FRAME_WAIT_MS + 500) {
            // it is also the connection's idle timeout, which must outlast a frame long-poll's wait
            throw new IllegalArgumentException("the write timeout must be at least " + (FrameStreams.FRAME_WAIT_MS + 500)
                    + " ms");
        }
        if (maxFrameStreams < 1 || maxFrameStreams > MAX_FRAME_STREAMS_LIMIT) {
            throw new IllegalArgumentException("--max-frame-streams = " + maxFrameStreams
                    + " is out of range; valid range is 1.." + MAX_FRAME_STREAMS_LIMIT);
        }
    }

    /** The header timeout ({@link HttpLimits#headerTimeoutMs()}). */
    long headerTimeoutMs() {
        return http.headerTimeoutMs();
    }

    /** The body timeout ({@link HttpLimits#bodyTimeoutMs()}). */
    long bodyTimeoutMs() {
        return http.bodyTimeoutMs();
    }

    /**
     * A connection whose answer makes no progress (the client does not read) for this long is
     * closed; also the idle time of a connection, and the total time a frame answer may take to be
     * written ({@link HttpLimits#idleTimeoutMs()}).
     */
    long writeTimeoutMs() {
        return http.idleTimeoutMs();
    }

    /** The head limit ({@link HttpLimits#maxHeaderBytes()}). */
    int maxHeaderBytes() {
        return http.maxHeaderBytes();
    }

    /** The body limit ({@link HttpLimits#maxBodyBytes()}). */
    int maxBodyBytes() {
        return http.maxBodyBytes();
    }

    /** The connection cap ({@link HttpLimits#maxConnections()}). */
    int maxConnections() {
        return http.maxConnections();
    }

    /** These limits with other timeouts (milliseconds). */
    ServerLimits withTimeouts(long header, long body, long write) {
        return new ServerLimits(http.withTimeouts(header, body, write), maxFrameStreams);
    }

    /** These limits with another connection cap (the cap per client lowered to it when above). */
    ServerLimits withMaxConnections(int n) {
        return new ServerLimits(http.withMaxConnections(n), maxFrameStreams);
    }

    /** These limits with another cap per client address. */
    ServerLimits withMaxConnectionsPerClient(int n) {
        return new ServerLimits(http.withMaxConnectionsPerClient(n), maxFrameStreams);
    }

    /** These limits with another cap on frame streams. */
    ServerLimits withMaxFrameStreams(int n) {
        return new ServerLimits(http, n);
    }
}
