package dev.crowdtree.demo.sim;

import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.SnapshotSummary;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.ModelWorld;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Any model a {@code ModelDefinition} declares, run by the library's {@link ModelWorld} (its host
 * systems before and after the trees on the world's workers), as the tools see a simulation. A model
 * without positions is drawn on a square grid by agent id.
 *
 * <p>Its snapshot (kind {@value ModelWorld#SNAPSHOT_KIND}, docs/SNAPSHOT.md): section {@code model}
 * (the model's name and fingerprint, the tree asset's path or empty for the model's own tree, the
 * tree's name, agents, seed, dt, the LOD bands or -1), section {@code state} (the tick, the observer,
 * each host system's own state, the awake counters) and section {@code system} (the StateTree
 * runtime's snapshot: the table with every column, ids, clock, counters, queued events).
 */
public final class ModelSim implements RegionalSim {
    /**
     * Where a model simulation comes from, for headers and snapshots: the model's name, its
     * fingerprint (the jar's SHA-256; a snapshot loads only into the same bytes), the tree asset file
     * (null: the model's own tree) and the one-line mode.
     */
    public record Origin(String model, String fingerprint, Path treeFile, String mode) {
    }

    /** What a model snapshot's {@code model} section says, read before anything is built for it. */
    public record Header(String model, String fingerprint, Path treeFile, String treeName, SimSettings settings,
                         LodBands lod) {
    }

    private final Origin origin;
    private final ModelWorld world;
    private final AwakeStats awake = new AwakeStats();
    private float[] layoutX;
    private float[] layoutY;
    private final float layoutSide;
    /** Region mode: the split and this simulation's region (null, -1: the whole world). */
    private final Partition partition;
    private final int region;
    /** Region mode: one halo record's shared columns, reused. */
    private final long[] haloBits;

    /** The simulation of {@code world} (built and started), from {@code origin}. */
    public ModelSim(Origin origin, ModelWorld world) {
        this(origin, world, null, -1);
    }

    /**
     * Region {@code region} of a run split by {@code partition}: {@code world} holds the agents the
     * partition gives the region ({@code ModelWorld.Settings.holding}).
     */
    public ModelSim(Origin origin, ModelWorld world, Partition partition, int region) {
        this.origin = origin;
        this.world = world;
        this.partition = partition;
        this.region = region;
        this.haloBits = new long[world.sharedCount()];
        this.layoutSide = world.definition().hasPositions() ? 0
                : (float) Math.ceil(Math.sqrt(world.settings().agents()));
        layout();
    }

    /** A model without positions: each row's place on a square grid, by agent id. */
    private void layout() {
        if (world.definition().hasPositions()) {
            return;
        }
        SoaTable t = world.table();
        int n = t.size();
        int side = (int) layoutSide;
        layoutX = new float[Math.max(1, n)];
        layoutY = new float[Math.max(1, n)];
        int[] ids = t.agentIds().data();
        for (int r = 0; r < n; r++) {
            layoutX[r] = ids[r] % side + 0.5f;
            layoutY[r] = ids[r] / side + 0.5f;
        }
    }

    @Override
    public void tick() {
        world.tick();
        awake.record(world.system().awakeLastTick());
    }

    /** The library's world. */
    public ModelWorld modelWorld() {
        return world;
    }

    @Override
    public String modelName() {
        return origin.model();
    }

    /** The model jar's fingerprint. */
    public String fingerprint() {
        return origin.fingerprint();
    }

    @Override
    public String mode() {
        return origin.mode();
    }

    @Override
    public SimSettings settings() {
        ModelWorld.Settings s = world.settings();
        return new SimSettings(s.agents(), s.seed(), s.workers(), s.dt());
    }

    @Override
    public CompiledStateTree tree() {
        return world.tree();
    }

    @Override
    public Path treeFile() {
        return origin.treeFile();
    }

    @Override
    public StateTreeSystem system() {
        return world.system();
    }

    @Override
    public World world() {
        return world.world();
    }

    @Override
    public SoaTable table() {
        return world.table();
    }

    @Override
    public TickMetrics metrics() {
        return world.metrics();
    }

    @Override
    public String[] phases() {
        return world.phases();
    }

    @Override
    public long tickNumber() {
        return world.tickNumber();
    }

    @Override
    public int awakeLastTick() {
        return world.system().awakeLastTick();
    }

    @Override
    public double awakeMean() {
        return awake.mean();
    }

    @Override
    public int awakeMin() {
        return awake.min();
    }

    @Override
    public int awakeMax() {
        return awake.max();
    }

    @Override
    public LodBands lod() {
        return world.lod();
    }

    @Override
    public void setObserver(float x, float y) {
        world.setObserver(x, y);
    }

    @Override
    public float observerX() {
        return world.observerX();
    }

    @Override
    public float observerY() {
        return world.observerY();
    }

    @Override
    public void countLodBands(int[] counts) {
        world.countLodBands(counts);
    }

    @Override
    public boolean hasPositions() {
        return world.definition().hasPositions();
    }

    @Override
    public float width() {
        return hasPositions() ? world.definition().width() : layoutSide;
    }

    @Override
    public float height() {
        return hasPositions() ? world.definition().height() : layoutSide;
    }

    @Override
    public float[] xs() {
        return hasPositions() ? world.xColumn().data() : layoutX;
    }

    @Override
    public float[] ys() {
        return hasPositions() ? world.yColumn().data() : layoutY;
    }

    @Override
    public List<String> columnNames() {
        return world.definition().columnNames(world.tree());
    }

    @Override
    public List<String> summaryLines() {
        return List.of();
    }

    /** Summed over the regions of a split run, the same as the whole world's: {@link Region#worldHash}. */
    @Override
    public long worldHash() {
        return Region.worldHash(world.agentsHash(), world.statesHash(), 0);
    }

    // ---- region mode --------------------------------------------------------------------------------

    @Override
    public long[] hashParts() {
        return new long[] {world.agentsHash(), world.statesHash(), 0};
    }

    @Override
    public long[] counters() {
        return new long[0];
    }

    @Override
    public void clearHalo() {
        world.clearHalo();
    }

    /** A neighbour's agent: its position and the model's shared columns. */
    @Override
    public void readHalo(DataInputStream in, int agent, int owner) throws IOException {
        float x = in.readFloat();
        float y = in.readFloat();
        for (int i = 0; i < haloBits.length; i++) {
            haloBits[i] = RegionWire.readValue(in, world.sharedWidth(i));
        }
        if (!Float.isFinite(x) || !Float.isFinite(y)) {
            throw new IOException("a halo agent " + agent + " from region " + owner + " is at (" + x + ", " + y + ")");
        }
        world.addHalo(agent, x, y, haloBits);
    }

    /**
     * Each neighbour gets this region's agents within the model's reach of its rectangle, with
     * their positions and shared columns (none when the model reads no other agents, or the split is
     * by id).
     */
    @Override
    public void writeHalo(RegionWire.Section[] out, int[] neighbours) throws IOException {
        float reach = world.definition().reach();
        if (!(partition instanceof RegionGrid) || reach <= 0) {
            return;
        }
        RegionGrid grid = (RegionGrid) partition;
        float[] x = world.xColumn().data();
        float[] y = world.yColumn().data();
        int[] ids = world.table().agentIds().data();
        float x0 = grid.x0(region) + reach;
        float x1 = grid.x1(region) - reach;
        float y0 = grid.y0(region) + reach;
        float y1 = grid.y1(region) - reach;
        float r2 = reach * reach;
        int shared = world.sharedCount();
        for (int r = 0, n = world.table().size(); r < n; r++) {
            float px = x[r];
            float py = y[r];
            if (px > x0 && px < x1 && py > y0 && py < y1) {
                continue; // deeper inside than the reach: no neighbour reads it
            }
            for (int i = 0; i < neighbours.length; i++) {
                int nb = neighbours[i];
                float dx = Math.max(0, Math.max(grid.x0(nb) - px, px - grid.x1(nb)));
                float dy = Math.max(0, Math.max(grid.y0(nb) - py, py - grid.y1(nb)));
                if (dx * dx + dy * dy <= r2) {
                    RegionWire.Section s = out[i];
                    s.out.writeInt(ids[r]);
                    s.out.writeFloat(px);
                    s.out.writeFloat(py);
                    for (int c = 0; c < shared; c++) {
                        RegionWire.writeValue(s.out, world.sharedWidth(c), world.sharedBits(c, r));
                    }
                    s.count++;
                }
            }
        }
    }

    @Override
    public void close() {
        world.close();
    }

    // ---- snapshots --------------------------------------------------------------------------------

    @Override
    public String snapshotKind() {
        return ModelWorld.SNAPSHOT_KIND;
    }

    @Override
    public long save(OutputStream out) throws IOException {
        SnapshotWriter w = new SnapshotWriter(ModelWorld.SNAPSHOT_KIND);
        DataOutputStream m = w.section("model");
        m.writeUTF(origin.model());
        m.writeUTF(origin.fingerprint());
        m.writeUTF(origin.treeFile() == null ? "" : origin.treeFile().toAbsolutePath().normalize().toString());
        m.writeUTF(world.tree().name);
        SimSettings s = settings();
        m.writeInt(s.agents());
        m.writeLong(s.seed());
        m.writeFloat(s.dt());
        LodBands lod = world.lod();
        m.writeInt(lod == null ? -1 : lod.count());
        if (lod != null) {
            for (float d : lod.distances()) {
                m.writeFloat(d);
            }
            for (int p : lod.periods()) {
                m.writeInt(p);
            }
        }
        DataOutputStream st = w.section("state");
        world.saveState(st);
        for (long v : awake.save()) {
            st.writeLong(v);
        }
        DataOutputStream system = w.section("system", 1 << 16);
        world.system().snapshot(system);
        system.flush();
        return w.writeTo(out);
    }

    /**
     * The {@code model} section of a model snapshot, with {@code workers} workers.
     *
     * @throws SnapshotException when it is not a model snapshot or is malformed
     */
    public static Header header(SnapshotReader r, int workers) throws IOException {
        r.requireKind(ModelWorld.SNAPSHOT_KIND);
        try {
            DataInputStream m = r.section("model");
            String model = m.readUTF();
            String fingerprint = m.readUTF();
            String path = m.readUTF();
            String treeName = m.readUTF();
            SimSettings settings = new SimSettings(m.readInt(), m.readLong(), workers, m.readFloat());
            int bands = m.readInt();
            LodBands lod = null;
            if (bands > 0 && bands <= 8) {
                float[] d = new float[bands - 1];
                int[] p = new int[bands];
                for (int i = 0; i < d.length; i++) {
                    d[i] = m.readFloat();
                }
                for (int i = 0; i < p.length; i++) {
                    p[i] = m.readInt();
                }
                lod = new LodBands(d, p);
            } else if (bands != -1) {
                throw new SnapshotException("the snapshot's LOD bands (" + bands + ") are malformed");
            }
            return new Header(model, fingerprint, path.isEmpty() ? null : Path.of(path), treeName, settings, lod);
        } catch (EOFException | IllegalArgumentException e) {
            throw new SnapshotException("the snapshot is malformed: " + e.getMessage());
        }
    }

    @Override
    public void restore(byte[] snapshot) throws IOException {
        restore(SnapshotReader.parse(snapshot));
    }

    /** {@link #restore(byte[])} from a snapshot read already. */
    public void restore(SnapshotReader r) throws IOException {
        Header h = header(r, settings().workers());
        if (!h.model().equals(origin.model()) || !h.fingerprint().equals(origin.fingerprint())) {
            throw new SnapshotException("the snapshot is of model '" + h.model() + "' (fingerprint "
                    + shortPrint(h.fingerprint()) + "), not of model '" + origin.model() + "' (fingerprint "
                    + shortPrint(origin.fingerprint()) + ")");
        }
        checkSystem(r, h, world.settings().holds() == null);
        world.system().restore(new ByteArrayInputStream(r.bytes("system")));
        DataInputStream st = r.section("state");
        try {
            world.restoreState(st);
            long[] a = new long[4];
            for (int i = 0; i < a.length; i++) {
                a[i] = st.readLong();
            }
            awake.restore(a, 0);
        } catch (EOFException e) {
            throw new SnapshotException("the snapshot's state section is malformed: it ends early");
        }
        checkPositions();
        layout();
    }

    /**
     * Checks, before anything is built for it, that the runtime's snapshot in {@code r} holds the world
     * its {@code model} section ({@code h}) describes: that many agents ({@code whole}; a region's
     * checkpoint at most that many), every row's values in the file, and one tick and one dt (the
     * {@code state} section's tick, the clock's, the runtime's, its steps run; the model section's dt,
     * the timers').
     *
     * @throws SnapshotException naming the numbers that disagree
     */
    public static void checkSystem(SnapshotReader r, Header h, boolean whole) throws IOException {
        SnapshotSummary s = SnapshotSummary.peek(r.bytes("system"));
        int agents = h.settings().agents();
        if (whole ? s.rows() != agents : s.rows() > agents) {
            throw new SnapshotException("the snapshot's model section has " + agents + " agents, its system section "
                    + s.rows());
        }
        long tick;
        try {
            tick = r.section("state").readLong();
        } catch (EOFException e) {
            throw new SnapshotException("the snapshot's state section is malformed: it ends early");
        }
        s.checkTicked(tick, h.settings().dt(), "state section (and model section)");
    }

    /** Positions restored must be finite (the viewer, regions and LOD read them). */
    private void checkPositions() throws SnapshotException {
        if (!hasPositions()) {
            return;
        }
        for (Column c : new Column[] {world.xColumn(), world.yColumn()}) {
            float[] v = (float[]) c.array();
            for (int r = 0, n = world.table().size(); r < n; r++) {
                if (!Float.isFinite(v[r])) {
                    throw new SnapshotException("the snapshot's position column '" + c.name() + "' at row " + r + " is "
                            + v[r] + "; positions are finite");
                }
            }
        }
    }

    /** The first 12 hex digits of a fingerprint, for messages. */
    public static String shortPrint(String fingerprint) {
        return fingerprint.length() > 12 ? fingerprint.substring(0, 12) : fingerprint;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "model '%s': %,d agents, tree %s", origin.model(), settings().agents(),
                world.tree().name);
    }
}
