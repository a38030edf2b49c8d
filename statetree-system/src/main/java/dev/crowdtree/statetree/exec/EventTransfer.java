package dev.crowdtree.statetree.exec;

/**
 * Moving queued events between runtimes, for a world split into regions that each run their own
 * {@link StateTreeSystem}: events that a region's agents sent to agents living elsewhere (a
 * neighbour's agent seen in the halo, or an agent that has just migrated out) are taken out of the
 * next-tick queue and handed to the region that owns the agent, which queues them for its next tick.
 * Tag ids and payload slots are the compiled tree's, so both runtimes must run the same tree.
 *
 * <p>Its methods take the public {@link StateTreeSystem}, the runtime the host holds, and reach its
 * engine's {@link EventRouter} through {@code StateTreeSystem.engine()}, the facade's only
 * package-private member (docs/ARCHITECTURE.md, EngineBoundaryTest).
 *
 * <p>THREADING: the simulation thread of the runtime, between ticks. Allocation: none beyond the
 * queue's growth.
 */
public final class EventTransfer {
    private EventTransfer() {
    }

    /** Receives one event: target agent handle, tag id, payload slots {@code types/bits[off .. off + width)}. */
    @FunctionalInterface
    public interface Sink {
        void event(int agent, int generation, int tag, byte[] types, int[] bits, int off);
    }

    /** Payload slots per event of {@code sys}'s tree (0 when no transition declares payload fields). */
    public static int payloadWidth(StateTreeSystem sys) {
        return sys.engine().events.incoming().width;
    }

    /**
     * Removes from {@code sys}'s next-tick queue every event whose agent does not live in its world,
     * handing each to {@code sink} in queue order; the others keep their order.
     *
     * @return the number of events taken
     */
    public static int takeForeign(StateTreeSystem sys, Sink sink) {
        EventBuffer q = sys.engine().events.incoming();
        int w = q.width;
        int kept = 0;
        for (int i = 0; i < q.size; i++) {
            int agent = q.agent[i];
            if (sys.world().isLive(agent)) {
                if (kept != i) {
                    q.agent[kept] = agent;
                    q.generation[kept] = q.generation[i];
                    q.tag[kept] = q.tag[i];
                    System.arraycopy(q.types, i * w, q.types, kept * w, w);
                    System.arraycopy(q.bits, i * w, q.bits, kept * w, w);
                }
                kept++;
            } else {
                sink.event(agent, q.generation[i], q.tag[i], q.types, q.bits, i * w);
            }
        }
        int taken = q.size - kept;
        q.size = kept;
        return taken;
    }

    /**
     * Queues an event from another runtime for {@code sys}'s next tick, after the events already
     * queued (docs/SEMANTICS.md's next-tick queue; the 64-per-agent bound applies at delivery).
     *
     * @throws IllegalArgumentException for a tag id the tree does not have
     */
    public static void queue(StateTreeSystem sys, int agent, int generation, int tag, byte[] types, int[] bits,
                             int off) {
        int tags = sys.tree().tags().size();
        if (tag < 0 || tag >= tags) {
            throw new IllegalArgumentException("event tag id " + tag + " is not one of tree '" + sys.tree().name
                    + "''s " + tags + " tags");
        }
        sys.engine().events.incoming().add(agent, generation, tag, types, bits, off);
    }
}
