package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.SpawnInitializer;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.exec.EventTransfer;
import dev.crowdtree.statetree.exec.StateTreeSystem;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * One region of a world split by a {@link Partition}: its own simulation of the run's model (agent
 * table, StateTree runtime, host systems; the crowd's also the smart objects standing in it), and
 * its exchange with its neighbours. A region's tick is a function of its state and its inbox only,
 * so the world's result does not depend on which cluster member runs which region (docs/SCALE.md).
 *
 * <p>One step ({@link #step}) for tick {@code T}:
 * <ol>
 *   <li>the inbox: one message from each neighbour, written at the end of {@code T-1}, read in
 *       ascending neighbour order, section by section over all of them: smart-object releases, then
 *       migrants (placed with their ids, generations and every column's value: positions, claims, the
 *       StateTree's instance data and timers), then events (queued after this region's own events
 *       for this tick), then the halo (the neighbours' agents within one grid cell of this region, as
 *       of the end of {@code T-1});</li>
 *   <li>the model's tick ({@link Simulation#tick()}), with the halo beside the own agents;</li>
 *   <li>the outbox, one message per neighbour: releases of objects it owns, agents now standing in
 *       it (migrants, in ascending id order, removed from here without stopping their trees), events
 *       to its agents (in this region's queue order), and the halo it needs.</li>
 * </ol>
 * A message is a snapshot container of docs/SNAPSHOT.md (kind {@value #MESSAGE_KIND}, versioned and
 * checksummed, written with sim-core's {@link SnapshotWriter}): section {@code route} (its tick, from,
 * to), then one section per part above ({@code releases}, {@code migrants}, {@code events},
 * {@code halo}), each a count and its records.
 * A release or event for a region that is not a neighbour goes one hop toward it per tick; an event
 * that arrives for an agent that migrated on in the same exchange follows it one tick later. An
 * event for an agent elsewhere goes to the region that holds it: the one it just left for, its halo's,
 * or, in a split by agent id, its block's. Events for agents no region is known to hold are counted
 * in {@link #droppedEvents()}.
 *
 * What the halo and the releases hold is the model's ({@link RegionalSim}); the migrants (every
 * column) and the events are moved here for every model.
 *
 * <p>THREADING: one thread at a time (the member's pool runs different regions in parallel).
 */
public final class Region implements AutoCloseable {
    /** The snapshot kind of a region's checkpoint (sections region, outbox, simulation; docs/SCALE.md). */
    static final String CHECKPOINT_KIND = "region.checkpoint";
    /** The kind of the snapshot container a message to a neighbour is (docs/SCALE.md, "One tick"). */
    static final String MESSAGE_KIND = "region.message";

    private final Partition grid;
    private final int index;
    private final int[] neighbours;
    private final RegionalSim sim;
    private final int width;
    private final List<Column> columns;
    /** Per column: bytes per value in a migrant record ({@link RegionWire#width}). */
    private final int[] widths;

    /** Agents that migrated out at the end of the last step: id to destination (events for them follow). */
    private final IdMap emigrants = new IdMap();
    /** This tick's halo: id to owning region. */
    private final IdMap haloOwner = new IdMap();
    /**
     * The release and event sections of the next outbox, per neighbour slot: they start with what the
     * inbox brought for other regions (forwarded one hop toward them), before this region's own.
     */
    private RegionWire.Section[] nextReleases;
    private RegionWire.Section[] nextEvents;

    private byte[][] outbox;
    private long outboxTick;
    private long droppedEvents;
    private long haloBytes;
    private long migrationBytes;
    private long eventBytes;
    private int migrantsOut;
    /** The migrants of the last outbox, in flight: their term of the agents' hash ({@code SoaTable.rowHash}). */
    private long inFlightHash;

    private Region(RegionalSim sim, Partition grid, int index) {
        this.sim = sim;
        this.grid = grid;
        this.index = index;
        this.neighbours = grid.neighbours(index);
        this.nextReleases = RegionWire.Section.of(neighbours.length);
        this.nextEvents = RegionWire.Section.of(neighbours.length);
        this.width = EventTransfer.payloadWidth(sim.system());
        this.columns = sim.table().columns();
        this.widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = RegionWire.width(columns.get(c));
        }
    }

    /**
     * Region {@code index} of a fresh world, around {@code sim} (built for that region: its agents
     * spawned and started at tick 0), with the outbox for tick 1 (the halo of the start positions)
     * written. The region owns {@code sim} from now on.
     */
    public static Region create(RegionalSim sim, Partition grid, int index) {
        Region r = new Region(sim, grid, index);
        r.finishTick(0);
        return r;
    }

    /**
     * The region saved by {@link #checkpoint()}, restored into {@code fresh} (a simulation built for
     * that region, as {@link #create} was given): its simulation as it was, and the outbox it had
     * written then. The region owns {@code fresh} from now on; it is closed when the checkpoint is
     * refused.
     *
     * @throws SnapshotException when the bytes are not a checkpoint of this region of this world
     */
    public static Region restore(RegionalSim fresh, Partition grid, int index, byte[] checkpoint) throws IOException {
        boolean ok = false;
        try {
            SnapshotReader cp = SnapshotReader.parse(checkpoint); // its checksum and version first
            cp.requireKind(CHECKPOINT_KIND);
            DataInputStream in = cp.section("region");
            if (in.readInt() != index) {
                throw new SnapshotException("not a checkpoint of region " + index);
            }
            long tick = in.readLong();
            int neighbourCount = in.readInt();
            if (neighbourCount != grid.neighbours(index).length) {
                throw new SnapshotException("the checkpoint of region " + index + " is of another split of the world");
            }
            int pairs = in.readInt();
            long dropped = in.readLong();
            long inFlight = in.readLong();
            int migrating = in.readInt();
            if (pairs < 0 || pairs > in.available() / 8) {
                throw new SnapshotException("the checkpoint of region " + index + " is malformed");
            }
            DataInputStream box = cp.section("outbox");
            byte[][] out = new byte[neighbourCount][];
            for (int i = 0; i < neighbourCount; i++) {
                int len = box.readInt();
                if (len < 0 || len > box.available()) {
                    throw new SnapshotException("the checkpoint of region " + index + " is malformed");
                }
                out[i] = box.readNBytes(len);
            }
            fresh.restore(cp.bytes("simulation"));
            Region r = new Region(fresh, grid, index);
            for (int i = 0; i < pairs; i++) {
                r.emigrants.put(in.readInt(), in.readInt());
            }
            r.outbox = out;
            r.outboxTick = tick;
            r.droppedEvents = dropped;
            r.inFlightHash = inFlight;
            r.migrantsOut = migrating;
            ok = true;
            return r;
        } finally {
            if (!ok) {
                fresh.close();
            }
        }
    }

    /**
     * This region as of its last step (or creation): its simulation's snapshot ({@link Simulation#save}),
     * the outbox written then, and the agents that left then (for events that follow them).
     */
    public byte[] checkpoint() {
        try {
            SnapshotWriter w = new SnapshotWriter(CHECKPOINT_KIND);
            int[] pairs = emigrants.toSortedPairs();
            DataOutputStream region = w.section("region");
            region.writeInt(index);
            region.writeLong(outboxTick);
            region.writeInt(outbox.length);
            region.writeInt(pairs.length / 2);
            region.writeLong(droppedEvents);
            region.writeLong(inFlightHash);
            region.writeInt(migrantsOut);
            for (int p : pairs) {
                region.writeInt(p);
            }
            DataOutputStream box = w.section("outbox");
            for (byte[] m : outbox) {
                box.writeInt(m.length);
                box.write(m);
            }
            // a section grows by blocks, not by copies: no need to guess its size from the last one
            DataOutputStream snapshot = w.section("simulation", 1 << 16);
            sim.save(snapshot);
            snapshot.flush();
            return w.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int index() {
        return index;
    }

    /** The neighbours this region exchanges with, ascending; {@link #outbox(int)} and the inbox follow this order. */
    public int[] neighbours() {
        return neighbours.clone();
    }

    /** The tick the simulation is at (its last step's, 0 after creation). */
    public long tick() {
        return outboxTick;
    }

    /** The message for neighbour {@code neighbours()[i]}, read by it at its next step. */
    public byte[] outbox(int i) {
        return outbox[i];
    }

    /**
     * Runs tick {@code tick}: the inbox ({@code inbox[i]} from {@code neighbours()[i]}, written at
     * the end of {@code tick - 1}), the simulation's tick, then the outbox.
     *
     * @throws IllegalArgumentException when the inbox is not this region's for this tick
     */
    public void step(long tick, byte[][] inbox) {
        if (tick != outboxTick + 1 || inbox.length != neighbours.length) {
            throw new IllegalArgumentException("region " + index + " is at tick " + outboxTick + "; it cannot step to tick "
                    + tick + " with " + inbox.length + " inbox messages (it has " + neighbours.length + " neighbours)");
        }
        try {
            readInbox(tick, inbox);
        } catch (IOException e) {
            throw new IllegalArgumentException("region " + index + ": a malformed inbox message at tick " + tick + ": " + e, e);
        }
        sim.tick();
        finishTick(tick);
    }

    /**
     * Inbox message {@code message} is the right neighbour's message to this region, but for an
     * earlier tick: the one for this tick is not there yet (the exchange reuses a key every other
     * tick). Nothing was read; the step can be retried with that message read again.
     */
    public static final class StaleMessage extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        public final int message;
        public final long sentFor;

        StaleMessage(int message, long sentFor, long tick) {
            super("inbox message " + message + " is for tick " + sentFor + ", not " + tick);
            this.message = message;
            this.sentFor = sentFor;
        }
    }

    private void readInbox(long tick, byte[][] inbox) throws IOException {
        SnapshotReader[] messages = new SnapshotReader[inbox.length];
        for (int i = 0; i < inbox.length; i++) {
            try {
                messages[i] = SnapshotReader.parse(inbox[i]); // its checksum and version first
                messages[i].requireKind(MESSAGE_KIND);
                DataInputStream route = messages[i].section("route");
                long sentFor = route.readLong();
                boolean ours = route.readInt() == neighbours[i] && route.readInt() == index;
                if (ours && sentFor < tick) {
                    throw new StaleMessage(i, sentFor, tick);
                }
                if (!ours || sentFor != tick) {
                    throw new IOException("it is not from region " + neighbours[i] + " for tick " + tick);
                }
            } catch (IOException e) {
                throw new IOException("message " + i + " (from region " + neighbours[i] + "): " + e.getMessage(), e);
            }
        }
        DataInputStream[] in = sections(messages, "releases");
        for (DataInputStream m : in) { // releases of objects: ours, or passed on toward their owner
            for (int k = m.readInt(); k > 0; k--) {
                int dest = m.readInt();
                int o = m.readInt();
                if (dest != index || !sim.acceptRelease(o)) {
                    writeRelease(nextReleases, dest, o);
                }
            }
        }
        World world = sim.world();
        in = sections(messages, "migrants");
        for (DataInputStream m : in) { // migrants
            int count = m.readInt();
            int cols = m.readInt();
            if (count > 0 && cols != columns.size()) {
                throw new IOException("migrants with " + cols + " columns; this region's table has " + columns.size());
            }
            for (int k = 0; k < count; k++) {
                int id = m.readInt();
                int gen = m.readInt();
                int row = world.place(sim.table(), id, gen, SpawnInitializer.NONE, 0);
                for (int c = 0; c < widths.length; c++) {
                    long bits = RegionWire.readValue(m, widths[c]);
                    if (widths[c] > 0) {
                        columns.get(c).setRowBits(row, bits);
                    }
                }
            }
        }
        StateTreeSystem sys = sim.system();
        byte[] types = new byte[width];
        int[] bits = new int[width];
        in = sections(messages, "events");
        for (DataInputStream m : in) { // events
            for (int k = m.readInt(); k > 0; k--) {
                int dest = m.readInt();
                int agent = m.readInt();
                int gen = m.readInt();
                int tag = m.readInt();
                for (int f = 0; f < width; f++) {
                    types[f] = m.readByte();
                    bits[f] = m.readInt();
                }
                if (dest == index && world.isLive(agent)) {
                    EventTransfer.queue(sys, agent, gen, tag, types, bits, 0);
                } else {
                    int next = dest != index ? dest : emigrants.get(agent, -1);
                    if (next < 0) {
                        droppedEvents++;
                    } else {
                        writeEvent(nextEvents, next, agent, gen, tag, types, bits, 0);
                    }
                }
            }
        }
        sim.clearHalo();
        haloOwner.clear();
        in = sections(messages, "halo");
        for (int i = 0; i < in.length; i++) {
            for (int k = in[i].readInt(); k > 0; k--) {
                int id = in[i].readInt();
                sim.readHalo(in[i], id, neighbours[i]);
                haloOwner.put(id, neighbours[i]);
            }
        }
    }

    /** Section {@code name} of every message, in neighbour order. */
    private static DataInputStream[] sections(SnapshotReader[] messages, String name) throws IOException {
        DataInputStream[] in = new DataInputStream[messages.length];
        for (int i = 0; i < messages.length; i++) {
            in[i] = messages[i].section(name);
        }
        return in;
    }

    /** A release of object {@code object} for region {@code dest}, into the section of its next hop. */
    private void writeRelease(RegionWire.Section[] to, int dest, int object) throws IOException {
        RegionWire.Section s = to[hopSlot(dest)];
        s.out.writeInt(dest);
        s.out.writeInt(object);
        s.count++;
    }

    /** An event for agent {@code agent} in region {@code dest}, into the section of its next hop. */
    private void writeEvent(RegionWire.Section[] to, int dest, int agent, int gen, int tag, byte[] types, int[] bits,
                            int off) throws IOException {
        RegionWire.Section s = to[hopSlot(dest)];
        s.out.writeInt(dest);
        s.out.writeInt(agent);
        s.out.writeInt(gen);
        s.out.writeInt(tag);
        for (int f = 0; f < width; f++) {
            s.out.writeByte(types[off + f]);
            s.out.writeInt(bits[off + f]);
        }
        s.count++;
    }

    /**
     * The region that holds {@code agent} in a split by agent id ({@link IdBlocks}: agents never
     * move), or -1: by position, where only migrants and the halo tell (this region is not it).
     */
    private int holderById(int agent) {
        if (grid.byPosition()) {
            return -1;
        }
        int r = grid.regionOf(agent, Float.NaN, Float.NaN);
        return r >= 0 && r < grid.count() && r != index ? r : -1;
    }

    /** The neighbour slot of region {@code dest}'s next hop from here. */
    private int hopSlot(int dest) {
        return Arrays.binarySearch(neighbours, grid.nextHop(index, dest));
    }

    /** The outbox after a tick (or the start): migrants out, events out, halo; see the class comment. */
    private void finishTick(long tick) {
        int n = neighbours.length;
        RegionWire.Section[] releases = nextReleases;
        RegionWire.Section[] migrants = RegionWire.Section.of(n);
        RegionWire.Section[] events = nextEvents;
        RegionWire.Section[] halo = RegionWire.Section.of(n);
        nextReleases = RegionWire.Section.of(n);
        nextEvents = RegionWire.Section.of(n);
        try {
            sim.takeReleases((dest, o) -> writeRelease(releases, dest, o));
            emigrate(migrants);
            // events: ours to agents elsewhere (the halo's, or those that just left)
            EventTransfer.takeForeign(sim.system(), (agent, gen, tag, types, bits, off) -> {
                int dest = emigrants.get(agent, -1);
                if (dest < 0) {
                    dest = haloOwner.get(agent, -1);
                }
                if (dest < 0) {
                    dest = holderById(agent);
                }
                if (dest < 0) {
                    droppedEvents++;
                    return;
                }
                try {
                    writeEvent(events, dest, agent, gen, tag, types, bits, off);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            sim.writeHalo(halo, neighbours);
            outbox = new byte[n][];
            haloBytes = 0;
            migrationBytes = 0;
            eventBytes = 0;
            for (int i = 0; i < n; i++) {
                SnapshotWriter w = new SnapshotWriter(MESSAGE_KIND);
                DataOutputStream route = w.section("route");
                route.writeLong(tick + 1);
                route.writeInt(index);
                route.writeInt(neighbours[i]);
                releases[i].writeTo(w.section("releases"), -1);
                migrants[i].writeTo(w.section("migrants"), columns.size());
                events[i].writeTo(w.section("events"), -1);
                halo[i].writeTo(w.section("halo"), -1);
                outbox[i] = w.toByteArray();
                haloBytes += halo[i].size();
                migrationBytes += migrants[i].size();
                eventBytes += releases[i].size() + events[i].size();
            }
            outboxTick = tick;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Agents standing outside this region leave for the neighbour they stand in, ascending by id. */
    private void emigrate(RegionWire.Section[] migrants) throws IOException {
        emigrants.clear();
        if (!grid.byPosition()) {
            migrantsOut = 0;
            inFlightHash = 0;
            return; // a split by id: agents stay in their region
        }
        float[] x = sim.xs();
        float[] y = sim.ys();
        int[] ids = sim.table().agentIds().data();
        int count = 0;
        long[] leaving = new long[16];
        for (int r = 0, n = sim.table().size(); r < n; r++) {
            int dest = grid.regionOf(ids[r], x[r], y[r]);
            if (dest != index) {
                if (count == leaving.length) {
                    leaving = Arrays.copyOf(leaving, count * 2);
                }
                leaving[count++] = ((long) ids[r] << 32) | dest;
            }
        }
        Arrays.sort(leaving, 0, count);
        World world = sim.world();
        long[] bits = new long[columns.size()];
        long inFlight = 0;
        for (int k = 0; k < count; k++) {
            int id = (int) (leaving[k] >>> 32);
            int dest = (int) leaving[k];
            int slot = Arrays.binarySearch(neighbours, dest);
            if (slot < 0) {
                throw new IllegalStateException("agent " + id + " moved from region " + index + " to region " + dest
                        + ", which is not a neighbour, in one tick");
            }
            RegionWire.Section s = migrants[slot];
            int row = world.rowOf(id);
            s.out.writeInt(id);
            s.out.writeInt(world.generationOf(id));
            for (int c = 0; c < widths.length; c++) {
                bits[c] = columns.get(c).rowBits(row);
                RegionWire.writeValue(s.out, widths[c], bits[c]);
            }
            inFlight += SoaTable.rowHash(id, bits);
            s.count++;
            world.emigrate(id);
            emigrants.put(id, dest);
        }
        migrantsOut = count;
        inFlightHash = inFlight;
    }

    // ---- results ------------------------------------------------------------------------------

    public RegionalSim sim() {
        return sim;
    }

    /** Agents in this region now, and those that left it at its last step (placed by their new region at its next). */
    public int agents() {
        return sim.table().size() + migrantsOut;
    }

    /**
     * The world hash of a region run from the regions' {@link #hashParts()} added up part by part
     * (wrapping): {@code (agents * 31 + shared) * 31 + owned}, with the shared part (the crowd's
     * threats, a model's host systems' state) taken once: every region has the same. The same
     * whatever member ran which region.
     */
    public static long worldHash(long agentsSum, long shared, long ownedSum) {
        return (agentsSum * 31 + shared) * 31 + ownedSum;
    }

    /** See {@link RegionalSim#hashParts()}; the agents' part includes the agents on their way out. */
    public long[] hashParts() {
        long[] p = sim.hashParts();
        p[0] += inFlightHash;
        return p;
    }

    /** Events for agents no region was known to hold (dropped), since the start. */
    public long droppedEvents() {
        return droppedEvents;
    }

    /** Bytes of the last outbox's halo, migrant and event/release records, over all neighbours. */
    public long haloBytes() {
        return haloBytes;
    }

    public long migrationBytes() {
        return migrationBytes;
    }

    public long eventBytes() {
        return eventBytes;
    }

    /** Agents that left at the end of the last step. */
    public int migrantsOut() {
        return migrantsOut;
    }

    @Override
    public void close() {
        sim.close();
    }
}
