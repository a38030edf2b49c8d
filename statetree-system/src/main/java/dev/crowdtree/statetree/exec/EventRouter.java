package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.EventPayload;
import dev.crowdtree.statetree.node.Payload;
import org.jctools.queues.MpscUnboundedArrayQueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where events go between ticks (docs/SEMANTICS.md section 8) and how the chunks' outputs merge
 * after a phase: events queued by the host ({@link StateTreeSystem#sendEvent}, the external MPSC
 * queue of other threads, drained at tick start and sorted by a stable key), grouped by chunk for the
 * tick with a stable counting sort (events for agents that no longer exist are dropped and counted);
 * after the barrier, the events every chunk carried to its agents' next tick and sent to other agents
 * join the queue in chunk order, and trace lines are delivered sorted by agent. So the result does not
 * depend on which worker ran a chunk, nor on arrival order across threads.
 *
 * <p>THREADING: the simulation thread, except {@link #external} (any thread) and {@link #eventRow},
 * {@link #byChunk} and {@link #chunkEventBegin} (read by the workers during the tick).
 */
final class EventRouter {
    private final World world;
    private final AgentRows rows;
    private final CompiledStateTree tree;
    /** The tree's event tags, counted once ({@code tags()} copies them). */
    private final int tagCount;
    private final SoaTable table;

    // events waiting for the next tick, and the current tick's events grouped by chunk
    private final EventBuffer incoming;
    final EventBuffer byChunk;
    private final EventPayload scratch;
    private int[] byChunkRow = new int[16];
    private int[] incomingRow = new int[16];
    /** Per chunk, where its events start in {@link #byChunk} (one more entry: the end). */
    int[] chunkEventBegin = new int[2];
    private int[] cursor = new int[2];
    final MpscUnboundedArrayQueue<ExternalEvent> external = new MpscUnboundedArrayQueue<>(1024);
    private final List<ExternalEvent> drained = new ArrayList<>();
    long droppedEvents;
    /** Events dropped because an agent's list or a buffer was full (StateTreeRuntime#MAX_PENDING_EVENTS). */
    long overflowEvents;
    /** The chunks' node failures, merged in chunk order (rule R4). */
    final FailureLog failures = new FailureLog();
    /** Payload mismatch keys (rule E5), and the counts the chunks' outputs added up to since creation. */
    final PayloadMismatchKeys mismatchKeys;
    private final long[] mismatches;
    /** Agents awake in the chunks of the last phase merged. */
    int awake;
    /** The first event of {@link #incoming} that may still be {@link EventBuffer#UNRESOLVED} (-1: none). */
    private int unresolvedFrom = -1;

    EventRouter(World world, AgentRows rows, SoaTable table, CompiledStateTree tree) {
        this.world = world;
        this.rows = rows;
        this.table = table;
        this.tree = tree;
        this.tagCount = tree.tags().size();
        int width = tree.payloads.fieldCount();
        incoming = new EventBuffer(width);
        byChunk = new EventBuffer(width);
        scratch = new EventPayload(width);
        mismatchKeys = new PayloadMismatchKeys(tree);
        mismatches = new long[mismatchKeys.size()];
        world.addGenerationListener(id -> resolvePending()); // before a despawn or a place reuses an id
    }

    /** The payload mismatches counted since creation ({@link StateTreeRuntime#unmatchedPayloads()}). */
    List<PayloadMismatch> unmatchedPayloads() {
        return mismatchKeys.report(mismatches);
    }

    /** The events queued for the next tick (snapshots, transfers), their generations resolved. */
    EventBuffer incoming() {
        resolvePending();
        return incoming;
    }

    /**
     * Gives every queued event the host sent since the last call its agent's generation as it is
     * now, which is the generation it had when the event was sent: the world calls this before any
     * id's generation changes, and every reader of {@link #incoming} calls it first. The host's
     * {@code sendEvent} only queues the id, so a host sending many events to agents all over the
     * table waits for one cache miss per event here, in a loop where the misses overlap, rather than
     * in each call.
     */
    void resolvePending() {
        if (unresolvedFrom < 0) {
            return;
        }
        final int[] agent = incoming.agent;
        final int[] generation = incoming.generation;
        for (int i = unresolvedFrom, n = incoming.size; i < n; i++) {
            if (generation[i] == EventBuffer.UNRESOLVED) {
                generation[i] = world.generationOf(agent[i]);
            }
        }
        unresolvedFrom = -1;
    }

    /** Queues an event from the host, its generation looked up later ({@link #resolvePending}). */
    private void queue(int agentId, int tagId, EventPayload p) {
        int i = incoming.add(agentId, EventBuffer.UNRESOLVED, tagId, p);
        if (i >= 0 && unresolvedFrom < 0) {
            unresolvedFrom = i;
        }
    }

    /** The row of the agent of event {@code i} of {@link #byChunk}. */
    int eventRow(int i) {
        return byChunkRow[i];
    }

    /**
     * Queues an event for the next tick: for one agent or {@link StateTreeRuntime#ALL}; an unknown
     * tag is dropped; payload fields no transition declares are left out.
     */
    void send(int agent, String tag, Payload payload) {
        send(agent, tag, tree.payloads.fill(payload, scratch));
    }

    /** {@link #send(int, String, Payload)} with a number payload (the field {@code value}), without allocating. */
    void send(int agent, String tag, float value, boolean has) {
        send(agent, tree.eventTagId(tag), tag, value, has);
    }

    /**
     * {@link #send(int, String, float, boolean)} with the tag resolved by the host once
     * ({@link CompiledStateTree#eventTagId}; -1: dropped and counted, as an unknown tag is).
     *
     * @throws IllegalArgumentException for an id that is no tag of the tree
     */
    void send(int agent, int tagId, float value, boolean has) {
        if (tagId < -1 || tagId >= tagCount) {
            throw new IllegalArgumentException("event tag id " + tagId + " is no tag of tree '" + tree.name
                    + "'; valid are -1 (dropped) and 0.." + (tagCount - 1) + " (CompiledStateTree.eventTagId)");
        }
        send(agent, tagId, tagId < 0 ? "?" : tree.tagName(tagId), value, has);
    }

    private void send(int agent, int id, String tag, float value, boolean has) {
        if (has && !Float.isFinite(value)) {
            throw new IllegalArgumentException("event '" + tag + "': payload value " + value + " is not valid; give a finite number");
        }
        scratch.clear();
        int field = tree.payloads.valueField();
        if (has && field >= 0) {
            scratch.setFloat(field, value);
        }
        send(agent, id, scratch);
    }

    private void send(int agent, String tag, EventPayload p) {
        send(agent, tree.eventTagId(tag), p);
    }

    private void send(int agent, int id, EventPayload p) {
        incoming.limit = limit();
        if (id < 0) {
            droppedEvents++;
            return;
        }
        if (agent == StateTreeRuntime.ALL) {
            int[] ids = table.agentIds().data();
            for (int r = 0; r < table.size(); r++) {
                queue(ids[r], id, p);
            }
        } else {
            queue(agent, id, p);
        }
    }

    /**
     * Drains the external queue (sorted by a stable key, since arrival order across threads is not
     * deterministic), then groups the queued events by chunk of {@code cs} rows with a stable counting
     * sort. Events for agents that no longer exist are dropped and counted.
     */
    void distribute(int cs) {
        resolvePending();
        if (!external.isEmpty()) {
            drained.clear();
            ExternalEvent e;
            while ((e = external.poll()) != null) {
                drained.add(e);
            }
            drained.sort(null);
            for (ExternalEvent x : drained) {
                int tag = tree.eventTagId(x.tag());
                if (tag < 0) {
                    droppedEvents++;
                } else {
                    incoming.add(x.agentId(), world.generationOf(x.agentId()), tag,
                            tree.payloads.fill(x.payload(), scratch));
                }
            }
            drained.clear();
        }
        overflowEvents += incoming.takeOverflow();
        int chunks = table.chunkCount(cs);
        if (chunkEventBegin.length < chunks + 1) {
            chunkEventBegin = new int[Math.max(chunks + 1, chunkEventBegin.length * 2)];
            cursor = new int[chunkEventBegin.length];
        }
        Arrays.fill(chunkEventBegin, 0, chunks + 1, 0);
        int n = incoming.size;
        if (incomingRow.length < n) {
            incomingRow = new int[Math.max(n, incomingRow.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            int id = incoming.agent[i];
            // an event for an agent that is gone is dropped, also when a later agent got its id
            int row = world.generationOf(id) == incoming.generation[i] ? rows.rowOf(id) : -1;
            incomingRow[i] = row;
            if (row < 0) {
                droppedEvents++;
            } else {
                chunkEventBegin[row / cs + 1]++;
            }
        }
        for (int c = 1; c <= chunks; c++) {
            chunkEventBegin[c] += chunkEventBegin[c - 1];
        }
        int kept = chunkEventBegin[chunks];
        byChunk.clear();
        byChunk.ensureCapacity(kept);
        if (byChunkRow.length < kept) {
            byChunkRow = new int[Math.max(kept, byChunkRow.length * 2)];
        }
        System.arraycopy(chunkEventBegin, 0, cursor, 0, chunks);
        for (int i = 0; i < n; i++) {
            int row = incomingRow[i];
            if (row >= 0) {
                int at = cursor[row / cs]++;
                byChunk.agent[at] = incoming.agent[i];
                byChunk.tag[at] = incoming.tag[i];
                incoming.copyPayload(i, byChunk, at);
                byChunkRow[at] = row;
            }
        }
        byChunk.size = kept;
        incoming.clear();
    }

    /**
     * Merges the events of chunks {@code [0, chunks)} in chunk order, and sums their counts (awake
     * agents, payload mismatches). (Trace lines go through
     * {@link #deliverTrace}, called only when tracing: a steady tick's compiled code must not
     * mention {@link TraceSink}, or C2 plants a trap for the class not loaded yet, and its first
     * run deoptimizes and loads it mid-run, allocating.)
     */
    void merge(ChunkOutput[] outputs, int chunks) {
        incoming.limit = limit();
        awake = 0;
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            overflowEvents += o.overflow + o.toOthers.takeOverflow() + o.carried.takeOverflow();
            awake += o.awake;
            for (int k = 0; k < mismatches.length; k++) {
                mismatches[k] += o.payloadMismatches[k];
            }
            incoming.addAll(outputs[c].carried);
            for (int i = 0; i < outputs[c].failures.size(); i++) {
                failures.add(outputs[c].failures.get(i));
            }
        }
        for (int c = 0; c < chunks; c++) {
            incoming.addAll(outputs[c].toOthers);
        }
    }

    /**
     * The events queued for agent {@code agent}'s next tick, oldest first, as the trace writes an
     * event: those from the host and carried or sent in the last tick (the external queue is not
     * drained before the tick, so its events are not listed); {@code row} is its row (it exists).
     */
    List<String> queued(int agent, int row) {
        resolvePending();
        List<String> out = new ArrayList<>();
        int gen = world.generationOf(agent);
        for (int i = 0; i < incoming.size; i++) {
            if (incoming.agent[i] == agent && incoming.generation[i] == gen) {
                out.add(TraceFormat.event(tree, incoming.tag[i], incoming.types, incoming.bits, i * incoming.width));
            }
        }
        return out;
    }

    /** Events rejected for their payload since this runtime was created (rule E5), all keys together. */
    long rejectedTotal() {
        long n = 0;
        for (long m : mismatches) {
            n += m;
        }
        return n;
    }

    /** The bound of the queue for the next tick: {@link StateTreeRuntime#MAX_PENDING_EVENTS} per agent. */
    private int limit() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1024L, (long) StateTreeRuntime.MAX_PENDING_EVENTS * table.size()));
    }

    /**
     * Delivers the chunks' trace lines sorted by agent (stable within an agent): those of agent
     * {@code agent} (-1: every agent), {@code why} lines only when {@code explain} (the chunks also
     * make lines for watched agents, {@link Recorder#watch}, which the sink must not see).
     */
    static void deliverTrace(ChunkOutput[] outputs, int chunks, TraceSink trace, int agent, boolean explain) {
        List<int[]> keys = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            ChunkOutput o = outputs[c];
            for (int i = 0; i < o.traceLines.size(); i++) {
                if ((agent >= 0 && o.traceAgents.data[i] != agent) || (!explain && o.traceWhy.data[i] != 0)) {
                    continue;
                }
                keys.add(new int[] {o.traceAgents.data[i], lines.size()});
                lines.add(o.traceLines.get(i));
            }
        }
        keys.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
        for (int[] k : keys) {
            trace.line(k[0], lines.get(k[1]));
        }
    }
}
