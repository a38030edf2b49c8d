package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.demo.nodes.CrowdWorld;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.SnapshotSummary;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * The whole crowd in one snapshot file (docs/SNAPSHOT.md), kind {@value #KIND}: section
 * {@code config} (the {@link CrowdConfig} but the worker count, the tree asset's path or the
 * embedded tree, the LOD bands and the observer), section {@code crowd} (the tick, the alarm and
 * awake counters, every threat's position, heading, state and timer, the smart objects' used
 * slots) and section {@code system}, the StateTree runtime's own snapshot (the agent table with
 * every column, the crowd's and the tree's, the ids, the clock, the runtime's counters and queued
 * events). The grid is not saved: it is the counting sort of the agents' cell column, computed
 * again on load. Loading builds a crowd from the saved configuration and restores it; ticking it
 * then gives exactly what the saved crowd would have given (the same world hash).
 */
public final class CrowdSnapshot {
    /** The snapshot kind of a crowd. */
    public static final String KIND = "crowd";

    private CrowdSnapshot() {
    }

    /** Writes {@code sim}'s snapshot to {@code out} (not closed); returns its size in bytes. Between ticks. */
    public static long save(CrowdSim sim, OutputStream out) throws IOException {
        SnapshotWriter w = new SnapshotWriter(KIND);
        CrowdConfig c = sim.config();
        DataOutputStream cfg = w.section("config");
        cfg.writeInt(c.agents());
        cfg.writeLong(c.seed());
        cfg.writeFloat(c.dt());
        cfg.writeFloat(c.worldSize());
        cfg.writeInt(c.predators());
        cfg.writeInt(c.fires());
        cfg.writeInt(c.smartObjects());
        cfg.writeInt(c.slotsPerObject());
        cfg.writeFloat(c.cellSize());
        Path tree = sim.treeFile();
        cfg.writeUTF(tree == null ? "" : tree.toAbsolutePath().normalize().toString());
        cfg.writeUTF(sim.tree().name);
        LodBands lod = sim.lod();
        cfg.writeInt(lod == null ? -1 : lod.count());
        for (int b = 0; lod != null && b < lod.count(); b++) {
            cfg.writeUTF(lod.describe(b));
        }
        cfg.writeFloat(sim.observerX());
        cfg.writeFloat(sim.observerY());
        DataOutputStream cr = w.section("crowd");
        for (long v : sim.snapshotCounters()) {
            cr.writeLong(v);
        }
        Threats t = sim.data().threats;
        cr.writeInt(t.count);
        for (int i = 0; i < t.count; i++) {
            cr.writeFloat(t.x[i]);
            cr.writeFloat(t.y[i]);
            cr.writeFloat(t.heading(i));
            cr.writeBoolean(t.active[i]);
            cr.writeInt(t.timer(i));
        }
        SmartObjects o = sim.data().objects;
        cr.writeInt(o.count);
        for (int i = 0; i < o.count; i++) {
            cr.writeInt(o.used[i]);
        }
        // straight into the section, which grows by blocks: no copy of a growing buffer
        DataOutputStream system = w.section("system", 1 << 16);
        sim.system().snapshot(system);
        system.flush();
        return w.writeTo(out);
    }

    /** {@link #save} into a byte array. Between ticks. */
    public static byte[] save(CrowdSim sim) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        save(sim, out);
        return out.toByteArray();
    }

    /** {@link #save} to a file, written whole or not at all ({@link Simulation#saveTo}). */
    public static long save(CrowdSim sim, Path file) throws IOException {
        return sim.saveTo(file);
    }

    /**
     * Reads a crowd snapshot file, builds the crowd it describes with {@code workers} workers and
     * restores it.
     *
     * @throws SnapshotException         when the file is not a crowd snapshot, is corrupted, of
     *                                   another format version, or its tree is not the one saved
     * @throws StateTreeCompileException when the saved tree asset no longer compiles
     */
    public static CrowdSim load(Path file, int workers) throws IOException, StateTreeCompileException {
        return load(file, workers, DemoNodes.registry());
    }

    /**
     * As {@link #load(Path, int)}, compiling the saved tree with {@code nodes} (the crowd's node types
     * and those of other providers the tree uses).
     */
    public static CrowdSim load(Path file, int workers, NodeRegistry nodes) throws IOException, StateTreeCompileException {
        return load(file, workers, nodes, null);
    }

    /**
     * As {@link #load(Path, int, NodeRegistry)}, with the tree asset named by the caller: {@code tree},
     * or, when null, the path the snapshot recorded, which is read only when it is inside the
     * snapshot's directory (symbolic links resolved): a snapshot file does not make its reader read
     * any file it names. Either way the tree's fingerprint must be the one the snapshot was saved with.
     *
     * @throws SnapshotException also when the recorded tree is outside the snapshot's directory or
     *                           missing, naming it
     */
    public static CrowdSim load(Path file, int workers, NodeRegistry nodes, Path tree)
            throws IOException, StateTreeCompileException {
        // a regular file of at most 2 GB whose header is a snapshot's, checked before the file is read whole
        return load(SnapshotReader.read(file, SnapshotReader.MAX_BYTES), file, workers, nodes, tree);
    }

    /**
     * As {@link #load(Path, int, NodeRegistry, Path)}, from a snapshot read already ({@code file}: where
     * it was read from, null for bytes in memory).
     */
    public static CrowdSim load(SnapshotReader snapshot, Path file, int workers, NodeRegistry nodes, Path tree)
            throws IOException, StateTreeCompileException {
        Parsed p = parse(snapshot, workers);
        p.tree = SavedTree.resolve(file, p.tree, tree);
        return load(p, nodes);
    }

    /**
     * As {@link #load(Path, int, NodeRegistry)}, from a snapshot's bytes in memory (a recording's
     * snapshots, docs/RECORDING.md).
     */
    public static CrowdSim load(byte[] bytes, int workers, NodeRegistry nodes) throws IOException, StateTreeCompileException {
        return load(parse(SnapshotReader.parse(bytes), workers), nodes);
    }

    private static CrowdSim load(Parsed p, NodeRegistry nodes) throws IOException, StateTreeCompileException {
        checkAgents(p, true);
        StateTreeCompiler compiler = new StateTreeCompiler(nodes);
        CompiledStateTree tree = p.tree == null
                ? StateTreeJson.compile(CrowdSim.EMBEDDED_TREE, CrowdSim.embeddedTreeText(), compiler)
                : StateTreeJson.compile(p.tree, compiler);
        CrowdSim sim = new CrowdSim(CrowdSetup.of(p.config).tree(p.tree).compiled(tree, nodes).lod(p.lod).observer(p.ox, p.oy));
        boolean ok = false;
        try {
            p.applyTo(sim);
            ok = true;
            return sim;
        } finally {
            if (!ok) {
                sim.close();
            }
        }
    }

    /**
     * Restores a crowd snapshot into {@code sim}, a crowd built with the same configuration and tree
     * (region mode: the same region), e.g. a region's checkpoint on the member that takes it over.
     *
     * @throws SnapshotException when the bytes are not a crowd snapshot of a crowd configured like
     *                           {@code sim}, or are corrupted
     */
    public static void restore(CrowdSim sim, byte[] bytes) throws IOException {
        Parsed p = parse(SnapshotReader.parse(bytes), sim.config().workers());
        if (!p.config.equals(sim.config())) {
            throw new SnapshotException("the snapshot is of a crowd configured as " + p.config + ", not " + sim.config());
        }
        checkAgents(p, false);
        p.applyTo(sim);
    }

    private static Parsed parse(SnapshotReader r, int workers) throws IOException {
        r.requireKind(KIND);
        Parsed p = new Parsed();
        try {
            DataInputStream cfg = r.section("config");
            p.config = new CrowdConfig(cfg.readInt(), cfg.readLong(), workers, cfg.readFloat(), cfg.readFloat(),
                    cfg.readInt(), cfg.readInt(), cfg.readInt(), cfg.readInt(), cfg.readFloat());
            String path = cfg.readUTF();
            p.tree = path.isEmpty() ? null : Path.of(path);
            cfg.readUTF(); // the tree's name: the runtime's snapshot checks it with the fingerprint
            int bands = cfg.readInt();
            p.lod = bands < 0 ? null : LodBands.defaults();
            if (p.lod != null) {
                boolean same = bands == p.lod.count();
                for (int b = 0; b < bands; b++) {
                    same &= cfg.readUTF().equals(b < p.lod.count() ? p.lod.describe(b) : "");
                }
                if (!same) {
                    throw new SnapshotException("the snapshot's LOD bands are not the default ones");
                }
            }
            p.ox = cfg.readFloat();
            p.oy = cfg.readFloat();
            if (!Float.isFinite(p.ox) || !Float.isFinite(p.oy)) {
                throw new SnapshotException("the snapshot's observer (" + p.ox + ", " + p.oy + ") is not a position");
            }
            DataInputStream cr = r.section("crowd");
            for (int i = 0; i < p.counters.length; i++) {
                p.counters[i] = cr.readLong();
            }
            int n = cr.readInt();
            if (n != p.config.predators() + p.config.fires()) {
                throw new SnapshotException("the snapshot's crowd section is malformed");
            }
            p.threats = new float[3][n];
            p.active = new boolean[n];
            p.timers = new int[n];
            for (int i = 0; i < n; i++) {
                p.threats[0][i] = cr.readFloat();
                p.threats[1][i] = cr.readFloat();
                p.threats[2][i] = cr.readFloat();
                p.active[i] = cr.readBoolean();
                p.timers[i] = cr.readInt();
                if (!Float.isFinite(p.threats[0][i]) || !Float.isFinite(p.threats[1][i]) || !Float.isFinite(p.threats[2][i])
                        || p.timers[i] < 0) {
                    throw new SnapshotException("the snapshot's threat " + i + " is at (" + p.threats[0][i] + ", "
                            + p.threats[1][i] + "), heading " + p.threats[2][i] + ", timer " + p.timers[i]
                            + ": positions and headings are finite, timers not negative");
                }
            }
            int m = cr.readInt();
            if (m != p.config.smartObjects()) {
                throw new SnapshotException("the snapshot's crowd section is malformed");
            }
            p.used = new int[m];
            for (int i = 0; i < m; i++) {
                p.used[i] = cr.readInt();
                if (p.used[i] < 0 || p.used[i] > p.config.slotsPerObject()) {
                    throw new SnapshotException("the snapshot's smart object " + i + " has " + p.used[i]
                            + " slots in use; it has " + p.config.slotsPerObject());
                }
            }
        } catch (EOFException | IllegalArgumentException e) {
            throw new SnapshotException("the snapshot is malformed: " + e.getMessage());
        }
        p.system = r.bytes("system");
        return p;
    }

    /**
     * Checks, before anything is built for it, that the runtime's snapshot holds the crowd the
     * configuration describes: its agent count ({@code wholeCrowd}), or at most that many (a region
     * of it), with every row's values in the file; and one tick and one dt (the crowd's tick, the
     * clock's, the runtime's, its steps run; the configuration's dt, the timers'). The runtime checks its own columns when it restores them, {@link #checkColumns} the
     * crowd's.
     */
    private static void checkAgents(Parsed p, boolean wholeCrowd) throws IOException {
        SnapshotSummary s = SnapshotSummary.peek(p.system);
        if (wholeCrowd ? s.rows() != p.config.agents() : s.rows() > p.config.agents()) {
            throw new SnapshotException("the snapshot's configuration has " + p.config.agents() + " agents, its system "
                    + "section " + s.rows());
        }
        s.checkTicked(p.counters[0], p.config.dt(), "crowd section (and configuration)");
    }

    /**
     * The crowd's own columns, as restored into {@code d} (before anything reads them: a freshly built
     * crowd that is closed when they are refused), hold what its kernels can use: finite positions and
     * velocities, cells of the grid, claims of objects that exist.
     */
    static void checkColumns(CrowdData d, CrowdConfig c) throws SnapshotException {
        int rows = d.table.size();
        for (String name : new String[] {CrowdWorld.X, CrowdWorld.Y, CrowdWorld.VX, CrowdWorld.VY}) {
            float[] v = ((dev.crowdtree.core.storage.FloatColumn) d.table.column(name)).data();
            for (int r = 0; r < rows; r++) {
                if (!Float.isFinite(v[r])) {
                    throw new SnapshotException("the snapshot's column '" + name + "' at row " + r + " is " + v[r]
                            + "; the crowd's positions and velocities are finite");
                }
            }
        }
        int cells = c.cellsPerSide() * c.cellsPerSide();
        int[] cell = d.cell.data();
        int[] claim = d.claimObject.data();
        for (int r = 0; r < rows; r++) {
            if (cell[r] < 0 || cell[r] >= cells) {
                throw new SnapshotException("the snapshot's column 'cell' at row " + r + " is " + cell[r]
                        + "; the grid has cells 0.." + (cells - 1));
            }
            if (claim[r] < -1 || claim[r] >= c.smartObjects()) {
                throw new SnapshotException("the snapshot's column '" + CrowdWorld.CLAIM_OBJECT + "' at row " + r + " is "
                        + claim[r] + "; there are " + c.smartObjects() + " smart objects");
            }
        }
    }

    /** A snapshot read and checked, not yet applied. */
    private static final class Parsed {
        CrowdConfig config;
        Path tree;
        LodBands lod;
        float ox;
        float oy;
        final long[] counters = new long[6];
        float[][] threats;
        int[] timers;
        boolean[] active;
        int[] used;
        byte[] system;

        void applyTo(CrowdSim sim) throws IOException {
            sim.system().restore(new ByteArrayInputStream(system));
            checkColumns(sim.data(), sim.config());
            Threats t = sim.data().threats;
            for (int i = 0; i < t.count; i++) {
                t.restore(i, threats[0][i], threats[1][i], threats[2][i], active[i], timers[i]);
            }
            t.restored();
            sim.data().objects.restoreUsed(used);
            sim.restoreCounters(counters);
            CrowdData d = sim.data();
            d.prepareGrid();
            GridSort.sortSequential(d.cell.data(), d.table.size(), d.cellStart, d.cellRows);
        }
    }
}
