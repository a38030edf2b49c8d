package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.core.world.WorldSnapshot;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.TreeFingerprint;
import dev.crowdtree.statetree.node.EventPayload;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Snapshot and restore of a {@link StateTreeSystem} (docs/SNAPSHOT.md), kind
 * {@value #KIND}, sections:
 * <ul>
 *   <li>{@code tree}: the tree's name and {@link TreeFingerprint};</li>
 *   <li>{@code world}: the world's ids and clock and the whole table, every column by name and
 *       type, the host's as well as the runtime's ({@code WorldSnapshot});</li>
 *   <li>{@code runtime}: the step counter, the dt the timers' due steps were derived with, the last
 *       tick number, the agents awake in the last tick, the dropped-event count;</li>
 *   <li>{@code events}: the events queued for the next tick (agent, tag by name, payload slots),
 *       in agent order (each agent's in the order queued), then the external queue's (in the
 *       order the next tick would take them).</li>
 * </ul>
 * The chunks' schedules are not saved: they are derived from the columns and rebuilt at the next
 * tick. Requests the host made since the last tick are in the columns (parameters, a period
 * switch); the wake-ups they asked for are a courtesy (docs/SEMANTICS.md section 11) and are not
 * kept. Restore reads and verifies the whole snapshot before it changes anything.
 *
 * <p>THREADING: the simulation thread, between ticks.
 */
final class Snapshots {
    static final String KIND = "statetree.batched";

    private Snapshots() {
    }

    /** Writes {@code engine}'s snapshot to {@code out}. */
    static void write(Engine engine, OutputStream out) throws IOException {
        CompiledStateTree tree = engine.tree;
        SnapshotWriter w = new SnapshotWriter(KIND);
        TreeFingerprint.write(tree, w);
        WorldSnapshot.write(engine.world, engine.table, w.section("world", 1 << 16));
        EventRouter router = engine.events;
        DataOutputStream rt = w.section("runtime");
        rt.writeInt(engine.steps);
        rt.writeFloat(engine.timerDt);
        rt.writeLong(engine.tick);
        rt.writeInt(engine.awakeLastTick);
        // events offered by other threads join the queue at the next tick, sorted: so will they here
        List<ExternalEvent> external = new ArrayList<>();
        for (ExternalEvent e; (e = router.external.poll()) != null; ) {
            external.add(e);
        }
        external.forEach(router.external::offer);
        external.sort(null);
        EventBuffer in = router.incoming();
        int width = in.width;
        EventPayload p = new EventPayload(width);
        long dropped = router.droppedEvents;
        List<ExternalEvent> kept = new ArrayList<>();
        for (ExternalEvent e : external) {
            if (tree.eventTagId(e.tag()) < 0) {
                dropped++;
            } else {
                kept.add(e);
            }
        }
        rt.writeLong(dropped);
        DataOutputStream ev = w.section("events");
        ev.writeInt(width);
        ev.writeInt(in.size + kept.size());
        // by agent, stably: an agent's events keep their order, and the order across agents (which
        // depends on the order a chunk's agents ran in, so on the schedules' history) means nothing
        Integer[] order = new Integer[in.size];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> in.agent[i]));
        for (int i : order) {
            writeEvent(ev, in.agent[i], in.generation[i], tree.tagName(in.tag[i]), in.types, in.bits, i * width, width);
        }
        byte[] types = new byte[width];
        int[] bits = new int[width];
        for (ExternalEvent e : kept) {
            tree.payloads.fill(e.payload(), p);
            p.copyTo(types, bits, 0);
            writeEvent(ev, e.agentId(), engine.world.generationOf(e.agentId()), tree.tagName(tree.eventTagId(e.tag())),
                    types, bits, 0, width);
        }
        w.writeTo(out);
    }

    private static void writeEvent(DataOutputStream out, int agent, int generation, String tag, byte[] types, int[] bits,
                                   int off, int width) throws IOException {
        out.writeInt(agent);
        out.writeInt(generation);
        out.writeUTF(tag);
        for (int f = 0; f < width; f++) {
            out.writeByte(types[off + f]);
            out.writeInt(bits[off + f]);
        }
    }

    /** Restores {@code engine} from {@code source}, or throws having changed nothing. */
    static void restore(Engine engine, InputStream source) throws IOException {
        SnapshotReader r = SnapshotReader.read(source);
        r.requireKind(KIND);
        engine.observers.occupancyDirty = true; // the population may differ: counted afresh at the next tick
        CompiledStateTree tree = engine.tree;
        TreeFingerprint.check(r, tree);
        WorldSnapshot world;
        int steps;
        float timerDt;
        long tick;
        int awake;
        long dropped;
        EventBuffer events;
        try {
            world = WorldSnapshot.read(r.section("world"));
            world.checkFits(engine.world, engine.table);
            InstanceCheck.check(world.table(), tree, "st." + tree.name + ".");
            DataInputStream rt = r.section("runtime");
            steps = rt.readInt();
            timerDt = rt.readFloat();
            tick = rt.readLong();
            awake = rt.readInt();
            dropped = rt.readLong();
            if (steps < 0 || steps >= InstanceData.NEVER - 1) {
                throw new SnapshotException("the snapshot's runtime section gives " + steps + " steps run; valid range "
                        + "is 0.." + (InstanceData.NEVER - 2));
            }
            if (!(timerDt > 0f) || Float.isInfinite(timerDt)) {
                throw new SnapshotException("the snapshot's runtime section gives the timers' dt " + timerDt + " s; a dt "
                        + "is a finite number of seconds greater than 0");
            }
            DataInputStream ev = r.section("events");
            int width = ev.readInt();
            int n = ev.readInt();
            if (width != tree.payloads.fieldCount() || n < 0 || n > ev.available()) {
                throw new SnapshotException("the snapshot's events section is malformed");
            }
            events = new EventBuffer(width);
            byte[] types = new byte[width];
            int[] bits = new int[width];
            for (int i = 0; i < n; i++) {
                int agent = ev.readInt();
                int generation = ev.readInt();
                String tag = ev.readUTF();
                int id = tree.tagId(tag);
                if (id < 0) {
                    throw new SnapshotException("the snapshot has an event tagged '" + tag + "', which tree '"
                            + tree.name + "' does not use");
                }
                for (int f = 0; f < width; f++) {
                    types[f] = ev.readByte();
                    bits[f] = ev.readInt();
                }
                events.add(agent, generation, id, types, bits, 0);
            }
        } catch (EOFException e) {
            throw new SnapshotException("the snapshot is malformed: a section ends early");
        }
        // everything checked: apply
        world.applyTo(engine.world, engine.table);
        engine.restoreCounters(steps, timerDt, tick, awake);
        EventRouter router = engine.events;
        router.external.clear();
        router.incoming().clear();
        router.incoming().addAll(events);
        router.droppedEvents = dropped;
        engine.requests.clearLists();
        for (ChunkSchedule s : engine.chunks.schedules) {
            s.dirty = true;
            s.wakeAll = false;
        }
    }
}
