package dev.crowdtree.statetree.exec;

import java.util.Arrays;

/**
 * A growable list of events addressed by agent id (target or owner): tag id, payload, payload flag.
 * Used for the events waiting for the next tick and for per-chunk outputs.
 *
 * <p>Allocation: only when growing past the high-water mark. THREADING: one writer at a time.
 */
final class EventBuffer {
    int[] agent = new int[16];
    int[] tag = new int[16];
    float[] payload = new float[16];
    boolean[] hasPayload = new boolean[16];
    int size;

    void add(int agentId, int tagId, float value, boolean has) {
        if (size == agent.length) {
            ensureCapacity(size * 2);
        }
        agent[size] = agentId;
        tag[size] = tagId;
        payload[size] = value;
        hasPayload[size] = has;
        size++;
    }

    /** Makes room for at least {@code n} events. */
    void ensureCapacity(int n) {
        if (n > agent.length) {
            int m = Math.max(n, agent.length * 2);
            agent = Arrays.copyOf(agent, m);
            tag = Arrays.copyOf(tag, m);
            payload = Arrays.copyOf(payload, m);
            hasPayload = Arrays.copyOf(hasPayload, m);
        }
    }

    void addAll(EventBuffer other) {
        for (int i = 0; i < other.size; i++) {
            add(other.agent[i], other.tag[i], other.payload[i], other.hasPayload[i]);
        }
    }

    void clear() {
        size = 0;
    }
}
