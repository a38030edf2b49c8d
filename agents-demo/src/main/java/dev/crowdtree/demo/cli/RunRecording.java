package dev.crowdtree.demo.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.record.RecordingHeader;
import dev.crowdtree.statetree.record.RecordingWriter;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code run --record FILE}: a simulation's recording (docs/RECORDING.md), of the kind of its
 * snapshots ({@code crowd} for the crowd, {@code model} for a model of yours, whose metadata names the
 * model). The start snapshot is the simulation after its setup (or as loaded), the recorder's counters
 * are kept for every tick, a snapshot with its world hash every {@code --record-every} ticks and the
 * world hash at the end. A run has no external inputs: every tick's inputs are {@code []}.
 */
final class RunRecording implements Closeable {
    private final RecordingWriter writer;
    private final int every;
    private final long firstTick;
    private final Path file;

    private RunRecording(RecordingWriter writer, int every, long firstTick, Path file) {
        this.writer = writer;
        this.every = every;
        this.firstTick = firstTick;
        this.file = file;
    }

    /**
     * Starts recording {@code sim} into {@code file}: writes the header and the start snapshot and turns
     * the runtime's recorder on.
     *
     * @param tree       the tree as the command line named it, for the metadata (null: loaded)
     * @param loadedFrom the snapshot the crowd was loaded from, or null
     */
    static RunRecording start(Path file, int every, Simulation sim, String tree, Path loadedFrom) throws IOException {
        SimSettings c = sim.settings();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("model", sim.modelName());
        meta.put("agents", c.agents());
        meta.put("seed", c.seed());
        meta.put("dt", c.dt());
        meta.put("workers", c.workers());
        meta.put("tree", sim.tree().name);
        meta.put("treeFile", sim.treeFile() == null ? null : sim.treeFile().toAbsolutePath().normalize().toString());
        if (tree != null) {
            meta.put("treeGiven", tree);
        }
        meta.put("lod", sim.lod() != null);
        meta.put("startTick", sim.tickNumber());
        if (loadedFrom != null) {
            meta.put("loadedFrom", loadedFrom.toAbsolutePath().normalize().toString());
        }
        String version = RunRecording.class.getPackage().getImplementationVersion();
        if (version != null) {
            meta.put("version", "crowdtree " + version);
        }
        String json = new ObjectMapper().writeValueAsString(meta);
        long first = sim.tickNumber() + 1;
        RecordingWriter w = RecordingWriter.create(file, new RecordingHeader(sim.snapshotKind(), json, every), first,
                sim.snapshot());
        sim.system().setRecording(true);
        return new RunRecording(w, every, first, file);
    }

    /** Records the tick {@code sim} just ran. */
    void ticked(Simulation sim) throws IOException {
        long t = sim.tickNumber();
        Recorder counters = sim.system().recorder();
        boolean snap = (t - firstTick + 1) % every == 0;
        writer.tick(t, "[]", counters, snap ? sim.snapshot() : null, snap ? sim.worldHash() : 0);
    }

    /** Ends the recording with {@code sim}'s world hash; returns the summary line. */
    String finish(Simulation sim) throws IOException {
        long last = sim.tickNumber();
        writer.finish(last, sim.worldHash());
        long n = last - firstTick + 1;
        long bytes = writer.bytesWritten();
        return String.format(java.util.Locale.ROOT, "recorded: %s, %,d ticks, %,d bytes (%,d bytes per 1,000 ticks)",
                file, n, bytes, n == 0 ? 0 : Math.round(bytes * 1000.0 / n));
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
