package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.node.EventPayload;

import java.util.Arrays;

/**
 * A growable list of events addressed by agent handle (id and generation, so that an event for an
 * agent that is gone is not delivered to a later agent given its id): tag id and payload, the
 * payload as {@link #width} slots per event (the tree's payload fields, {@code PayloadSchema}), in
 * {@link #types} and {@link #bits} from {@code i * width}. Used for the events waiting for the next
 * tick and for per-chunk outputs.
 *
 * <p>Allocation: only when growing past the high-water mark. THREADING: one writer at a time.
 */
final class EventBuffer {
    /**
     * The generation of an event whose sender has not looked its agent's generation up yet
     * ({@link EventRouter#resolvePending}): the host's events, whose agents are looked up together
     * before the tick, where their cache misses overlap, instead of one at a time as they are sent.
     */
    static final int UNRESOLVED = Integer.MIN_VALUE;
    final int width;
    int[] agent = new int[16];
    int[] generation = new int[16];
    int[] tag = new int[16];
    byte[] types;
    int[] bits;
    int size;
    /** Most events held; more are dropped and counted in {@link #takeOverflow}. */
    int limit = Integer.MAX_VALUE;
    private long overflow;

    EventBuffer(int width) {
        this.width = width;
        types = new byte[16 * width];
        bits = new int[16 * width];
    }

    /**
     * Adds an event for agent {@code agentId} of generation {@code gen} with {@code payload} (null:
     * none); returns its index, or -1 when the buffer was full (the event is counted as dropped).
     */
    int add(int agentId, int gen, int tagId, EventPayload payload) {
        int i = add(agentId, gen, tagId);
        if (i >= 0 && payload != null) {
            payload.copyTo(types, bits, i * width);
        }
        return i;
    }

    /** Adds an event whose payload slots are {@code t[off..off+width)}, {@code b[off..off+width)}. */
    void add(int agentId, int gen, int tagId, byte[] t, int[] b, int off) {
        int i = add(agentId, gen, tagId);
        if (i < 0) {
            return;
        }
        System.arraycopy(t, off, types, i * width, width);
        System.arraycopy(b, off, bits, i * width, width);
    }

    private int add(int agentId, int gen, int tagId) {
        if (size >= limit) {
            overflow++;
            return -1;
        }
        if (size == agent.length) {
            ensureCapacity(size * 2);
        }
        agent[size] = agentId;
        generation[size] = gen;
        tag[size] = tagId;
        Arrays.fill(types, size * width, (size + 1) * width, EventPayload.ABSENT);
        Arrays.fill(bits, size * width, (size + 1) * width, 0); // an absent slot holds 0: one form per payload
        return size++;
    }

    /** Makes room for at least {@code n} events. */
    void ensureCapacity(int n) {
        if (n > agent.length) {
            int m = Math.max(n, agent.length * 2);
            agent = Arrays.copyOf(agent, m);
            generation = Arrays.copyOf(generation, m);
            tag = Arrays.copyOf(tag, m);
            types = Arrays.copyOf(types, m * width);
            bits = Arrays.copyOf(bits, m * width);
        }
    }

    /** Copies event {@code i}'s payload to event {@code at} of {@code dest} (same width). */
    void copyPayload(int i, EventBuffer dest, int at) {
        System.arraycopy(types, i * width, dest.types, at * width, width);
        System.arraycopy(bits, i * width, dest.bits, at * width, width);
    }

    void addAll(EventBuffer other) {
        for (int i = 0; i < other.size; i++) {
            add(other.agent[i], other.generation[i], other.tag[i], other.types, other.bits, i * width);
        }
    }

    /** The events dropped since the last call because the buffer was full. */
    long takeOverflow() {
        long o = overflow;
        overflow = 0;
        return o;
    }

    void clear() {
        size = 0;
    }
}
