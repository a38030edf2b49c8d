package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;
import dev.crowdtree.statetree.record.RecordingHeader;
import dev.crowdtree.statetree.record.RecordingWriter;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The debugger's recordings (docs/RECORDING.md): a scenario's run recorded by {@code debug --record},
 * kind {@value #SCENARIO}, whose metadata carries the scenario's and the tree's text (so the
 * recording replays on its own); and a run's ({@code run --record}) of any model, of the kind of the
 * model's snapshots ({@code crowd}, {@code model}; {@link SimReplay}). Both open in the debugger
 * ({@code debug --replay}) and verify ({@code debug --replay FILE --verify}).
 */
final class Recordings {
    static final String SCENARIO = "scenario";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Recordings() {
    }

    /** A scenario's recording, written to {@code file} as the session runs. */
    static RecordingOut scenarioWriter(Path file, Path scenarioFile, String scenarioText, Path treeFile, String treeText,
                                       CompiledStateTree tree, int snapshotEvery) {
        ObjectNode meta = JSON.createObjectNode();
        meta.put("scenarioFile", scenarioFile.toString());
        meta.put("scenario", scenarioText);
        meta.put("treeFile", treeFile.toString());
        meta.put("tree", treeText);
        meta.put("treeName", tree.name);
        meta.put("version", Recordings.class.getPackage().getImplementationVersion());
        RecordingHeader header = new RecordingHeader(SCENARIO, meta.toString(), snapshotEvery);
        return new RecordingOut() {
            private RecordingWriter writer;

            @Override
            public void start(long firstTick, byte[] startSnapshot) throws IOException {
                writer = RecordingWriter.create(file, header, firstTick, startSnapshot);
            }

            @Override
            public void tick(long tick, String inputs, Recorder counters, byte[] snapshot, long worldHash)
                    throws IOException {
                writer.tick(tick, inputs, counters, snapshot, worldHash);
            }

            @Override
            public void finish(long lastTick, long worldHash) throws IOException {
                writer.finish(lastTick, worldHash);
            }

            @Override
            public void close() throws IOException {
                if (writer != null) {
                    writer.close();
                }
            }
        };
    }

    /**
     * The world of {@code rec} at its start (after tick {@code firstTick() - 1}), ready to be stepped:
     * a scenario rebuilt from the recorded texts, or the crowd from its start snapshot.
     */
    static DebugTarget open(Recording rec, ModelChoice models, int workers)
            throws IOException, StateTreeCompileException, ScenarioException {
        String kind = rec.header().kind();
        if (!kind.equals(SCENARIO)) {
            RunnableModel model = model(rec, models);
            Simulation sim = SimReplay.openAt(rec, rec.firstTick() - 1, workers, model);
            return new SimTarget(sim, null, Debugger.copies(model, null, null, InputFiles.DEFAULT_MAX_BYTES));
        }
        NodeRegistry nodes = models.registry();
        JsonNode meta = JSON.readTree(rec.header().metadataJson());
        String scenarioText = meta.path("scenario").asText();
        Path scenarioFile = Path.of(meta.path("scenarioFile").asText("scenario.json"));
        Scenario scenario = Scenario.parse(scenarioText, scenarioFile.toString(), scenarioFile.toAbsolutePath().getParent());
        CompiledStateTree tree = StateTreeJson.compile(meta.path("treeFile").asText("tree.json"),
                meta.path("tree").asText(), new StateTreeCompiler(nodes));
        ScenarioTarget target = new ScenarioTarget(scenario, scenarioText, tree,
                StandaloneHost.factory(StateTreeSystem::create, nodes));
        target.restore(rec.snapshot(rec.firstTick() - 1), rec.firstTick() - 1);
        return target;
    }

    /**
     * The model a run's recording is replayed with: the one of {@code models} whose snapshots are of
     * its kind.
     *
     * @throws RecordingException naming the kind and what this command loads
     */
    private static RunnableModel model(Recording rec, ModelChoice models) throws RecordingException {
        try {
            return models.forSnapshot(rec.header().kind());
        } catch (dev.crowdtree.core.storage.SnapshotException e) {
            throw new RecordingException(rec.file(), e.getMessage().replace("a snapshot", "a recording")
                    + " (or a scenario's, kind " + SCENARIO + ")");
        }
    }

    /**
     * Re-simulates the whole recording and compares the world hash at each periodic snapshot and at
     * the end, and the counters of every tick the runtime counted; before that, the counters are checked
     * for meaning, and each periodic snapshot is restored and must give its recorded hash
     * ({@link SimReplay#verify} for a run's); one line saying it matched, or where it differs.
     *
     * @return whether it matched; {@code line} gets the line to print either way
     * @throws RecordingException when the recording is refused (a snapshot that does not restore,
     *                            counters without meaning), naming the file
     */
    static boolean verify(Recording rec, ModelChoice models, int workers, StringBuilder line)
            throws IOException, StateTreeCompileException, ScenarioException {
        if (!rec.header().kind().equals(SCENARIO)) {
            SimReplay.Result r = SimReplay.verify(rec, workers, model(rec, models), null);
            line.append(r.describe());
            return r.matches();
        }
        try (DebugTarget target = open(rec, models, workers)) {
            StateTreeRuntime runtime = target.runtime();
            runtime.setRecording(true);
            SimReplay.checkCounters(rec, runtime.recorder().tree(), runtime.agentCount(), true);
            long ran = 0;
            while (target.tick() < rec.lastTick()) {
                target.step();
                ran++;
                long t = target.tick();
                // a tick the runtime did not count (a scenario's start input) keeps the counts before it
                SimReplay.Result wrong = runtime.recorder().tick() != t ? null
                        : SimReplay.compareCounters(rec, t, runtime.recorder(), ran);
                String diff = wrong == null ? null : wrong.describe();
                if (diff == null && (rec.hasSnapshot(t) || t == rec.lastTick())) {
                    long actual = target.worldHash();
                    long expected = t == rec.lastTick() ? rec.finalHash() : rec.worldHashAt(t);
                    if (actual != expected) {
                        diff = String.format(Locale.ROOT, "replay differs at tick %d: world hash %016x, the "
                                + "recording has %016x", t, actual, expected);
                    } else if (rec.hasSnapshot(t)) {
                        try {
                            target.restore(rec.snapshot(t), t); // the snapshot a seek restores: it gives that world
                        } catch (dev.crowdtree.core.storage.SnapshotException e) {
                            throw new RecordingException(rec.file(), "its snapshot of tick " + t + ": " + e.getMessage());
                        }
                        long restored = target.worldHash();
                        if (restored != expected) {
                            diff = String.format(Locale.ROOT, "replay differs at tick %d: world hash of the snapshot "
                                    + "restored %016x, the recording has %016x", t, restored, expected);
                        }
                    }
                }
                if (diff != null) {
                    line.append(diff);
                    return false;
                }
            }
            line.append(String.format(Locale.ROOT, "replayed %,d ticks to tick %d: world hash %016x, as recorded", ran,
                    rec.lastTick(), rec.finalHash()));
            return true;
        }
    }
}
