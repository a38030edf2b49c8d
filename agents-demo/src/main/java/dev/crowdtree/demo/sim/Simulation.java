package dev.crowdtree.demo.sim;

import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.OutputFile;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.model.LodBands;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * What every tool drives ({@code run}, {@code serve}, the debugger, sweeps, frames): one model's
 * population of agents running one StateTree, ticked in fixed steps, whatever the model. Two
 * engines: {@link ModelSim} runs any model a {@code ModelDefinition} declares (host systems before
 * and after the trees), and {@link CrowdSim} is the crowd model's own (movement, threats, smart
 * objects). The tools know only this interface.
 *
 * <p>THREADING: one thread drives a simulation.
 */
public interface Simulation extends AutoCloseable {
    /** The model's name ({@code crowd}, {@code guards}, ...). */
    String modelName();

    /** One line on what runs, for the tools' headers. */
    String mode();

    /** Agents, seed, workers, dt. */
    SimSettings settings();

    CompiledStateTree tree();

    /** The tree asset file given, or null for the model's own tree. */
    Path treeFile();

    StateTreeSystem system();

    World world();

    /** The agent table: every column of every agent. */
    SoaTable table();

    /** Tick and phase times ({@link #phases()}). */
    TickMetrics metrics();

    /** The phase names of one tick, in order. */
    String[] phases();

    /** Runs one tick. */
    void tick();

    /** Ticks run since the start. */
    long tickNumber();

    /** Agents awake in the StateTree phase of the last tick ({@link StateTreeSystem#awakeLastTick()}). */
    int awakeLastTick();

    /** Mean of {@link #awakeLastTick()} over the ticks run (0 before the first). */
    double awakeMean();

    /** Fewest agents awake in one tick so far (0 before the first tick). */
    int awakeMin();

    /** Most agents awake in one tick so far. */
    int awakeMax();

    /** Running agents (trees started and not finished). */
    default int runningAgents() {
        int n = 0;
        for (int c : occupancy()) {
            n += c;
        }
        return n;
    }

    /** Running agents per active (last) state, indexed by state id. */
    default int[] occupancy() {
        int[] counts = new int[tree().stateCount];
        system().countActiveStates(counts);
        return counts;
    }

    /** The LOD bands in effect, or null when LOD is off. */
    LodBands lod();

    /** Moves the LOD observer (between ticks); a simulation without LOD only remembers it. */
    void setObserver(float x, float y);

    float observerX();

    float observerY();

    /** Agents per LOD band into {@code counts}; all zero when LOD is off. */
    void countLodBands(int[] counts);

    /** Whether the model has positions; without, {@link #xs()} and {@link #ys()} are a layout on a grid. */
    boolean hasPositions();

    /** The world's extent in x (what the viewer draws). */
    float width();

    /** The world's extent in y. */
    float height();

    /** Each row's x: its position, or its place in a grid layout without positions. */
    float[] xs();

    /** Each row's y. */
    float[] ys();

    /** The world's things besides agents, for the viewer and frames ({@link Scene#NONE}: none). */
    default Scene scene() {
        return Scene.NONE;
    }

    /** The host columns an agent's panel shows: the model's and those the tree's nodes read or write. */
    List<String> columnNames();

    /** Column {@code name} of the agent in row {@code row}. */
    default double columnValue(int row, String name) {
        return valueOf(table().column(name), row);
    }

    /**
     * A snapshot of the whole simulation between ticks (docs/SNAPSHOT.md), written to {@code out}
     * (not closed); returns its size in bytes.
     */
    long save(OutputStream out) throws IOException;

    /**
     * {@link #save} to {@code file}, written whole under a temporary name and then moved into place
     * ({@link OutputFile}: a failed save leaves the file that was there as it was; a directory, a FIFO or
     * a device is refused); returns its size in bytes.
     */
    default long saveTo(Path file) throws IOException {
        try (OutputFile f = OutputFile.create(file)) {
            long size = save(f.stream());
            f.commit();
            return size;
        }
    }

    /** {@link #save} into a byte array. */
    default byte[] snapshot() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(1 << 16);
        save(out);
        return out.toByteArray();
    }

    /** The kind of this simulation's snapshots ({@code crowd}, {@code model}). */
    String snapshotKind();

    /** Puts the simulation back as a {@link #save} of it (of the same model, settings and tree) left it. */
    void restore(byte[] snapshot) throws IOException;

    /** Model-specific lines for the end of a run's summary (may be empty). */
    List<String> summaryLines();

    /** A hash of the whole simulation: every column of every agent, and the model's own state. */
    long worldHash();

    @Override
    void close();

    /** Row {@code row} of a numeric column as a double. */
    static double valueOf(Column c, int row) {
        long bits = c.rowBits(row);
        switch (c.typeName()) {
            case "float":
                return Float.intBitsToFloat((int) bits);
            case "long":
                return bits;
            default:
                return (double) bits;
        }
    }
}
