package dev.crowdtree.demo.debug;

import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.SnapshotSummary;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Re-simulates a recording of a run ({@code run --record}, docs/RECORDING.md) of any model: the
 * crowd's (kind {@code crowd}) or a model's of yours (kind {@code model}, replayed with the same
 * {@code --model} jar). {@link #verify} replays the whole run from its start snapshot and checks the
 * world hash at every periodic snapshot and at the end (and the recorder's counters of every tick,
 * when the recording has them); {@link #openAt} gives the simulation as it was after any recorded
 * tick, from the nearest snapshot at or before it. A simulation is deterministic on any number of
 * workers, so a replay may use another worker count than the recorded run.
 */
public final class SimReplay {
    private SimReplay() {
    }

    /**
     * What a replay found: {@code matches} and the final hash, or the first mismatch: at tick
     * {@code tick}, {@code what} ({@code "world hash"}, or a counter such as
     * {@code "occupancy of state Root/Wander"}) was {@code actual} where the recording has
     * {@code expected}.
     */
    public record Result(boolean matches, long tick, String what, long expected, long actual, long ticksRun) {
        /** The world hash after the last tick (on a match). */
        public long finalHash() {
            return actual;
        }

        /** One line for the user. */
        public String describe() {
            if (matches) {
                return String.format(Locale.ROOT, "replayed %,d ticks to tick %d: world hash %016x, as recorded", ticksRun,
                        tick, actual);
            }
            boolean hash = what.startsWith("world hash");
            return String.format(Locale.ROOT, "replay differs at tick %d: %s %s, the recording has %s", tick, what,
                    hash ? String.format(Locale.ROOT, "%016x", actual) : Long.toString(actual),
                    hash ? String.format(Locale.ROOT, "%016x", expected) : Long.toString(expected));
        }
    }

    /**
     * Rebuilds the recorded simulation from the start snapshot with {@code workers} workers, ticks it to
     * the last tick recorded and compares the world hash at every periodic snapshot and at the end,
     * and every recorded tick's counters. Before it replays, the counters are checked for meaning
     * ({@link #checkCounters}); at each periodic snapshot, after the replayed world's hash, the snapshot
     * itself is restored (into the replayed simulation, which goes on from it) and must give the recorded
     * hash too, so every snapshot a seek may restore has been opened.
     *
     * @param progress told each tick replayed (may be null)
     * @throws RecordingException        when the recording is not of {@code model}'s kind, carries inputs,
     *                                   has counters without meaning, or a snapshot in it is refused
     * @throws StateTreeCompileException when the recorded tree no longer compiles
     * @throws IOException               when a snapshot in it cannot be restored (another tree)
     */
    public static Result verify(Recording rec, int workers, RunnableModel model, LongConsumer progress)
            throws IOException, StateTreeCompileException {
        check(rec, model);
        List<Long> snaps = rec.snapshotTicks();
        int nextSnap = 0;
        try (Simulation sim = restore(rec, rec.firstTick() - 1, workers, model)) {
            checkCounters(rec, sim.tree(), sim.table().size(), true);
            if (rec.hasCounters()) {
                sim.system().setRecording(true);
            }
            long ran = 0;
            for (long t = rec.firstTick(); t <= rec.lastTick(); t++) {
                sim.tick();
                ran++;
                if (progress != null) {
                    progress.accept(t);
                }
                Result wrong = compareCounters(rec, t, sim.system().recorder(), ran);
                if (wrong != null) {
                    return wrong;
                }
                boolean snap = nextSnap < snaps.size() && snaps.get(nextSnap) == t;
                if (snap) {
                    nextSnap++;
                }
                if (snap || t == rec.lastTick()) {
                    long actual = sim.worldHash();
                    long expected = rec.worldHashAt(t);
                    if (actual != expected) {
                        return new Result(false, t, "world hash", expected, actual, ran);
                    }
                }
                if (snap) {
                    byte[] bytes = rec.snapshot(t);
                    checkAgents(rec, t, bytes, sim.table().size());
                    try {
                        sim.restore(bytes);
                    } catch (IOException e) {
                        throw refused(rec, t, e);
                    }
                    long restored = sim.worldHash();
                    if (sim.tickNumber() != t || restored != rec.worldHashAt(t)) {
                        return new Result(false, t, "world hash of the snapshot restored", rec.worldHashAt(t), restored,
                                ran);
                    }
                }
            }
            long end = sim.worldHash();
            if (end != rec.finalHash()) { // a recording of no ticks: the start itself
                return new Result(false, rec.lastTick(), "world hash", rec.finalHash(), end, ran);
            }
            return new Result(true, rec.lastTick(), "world hash", rec.finalHash(), end, ran);
        }
    }

    /**
     * The recorded simulation as it was after {@code tick} ({@code firstTick() - 1}: the start): the nearest
     * snapshot at or before it, restored with {@code workers} workers and ticked on to {@code tick}.
     * The caller closes it.
     *
     * @throws IllegalArgumentException when {@code tick} is outside {@code firstTick()-1 .. lastTick()}
     */
    public static Simulation openAt(Recording rec, long tick, int workers, RunnableModel model)
            throws IOException, StateTreeCompileException {
        check(rec, model);
        if (tick < rec.firstTick() - 1 || tick > rec.lastTick()) {
            throw new IllegalArgumentException("tick " + tick + " is not in the recording; valid range is "
                    + (rec.firstTick() - 1) + ".." + rec.lastTick());
        }
        long from = rec.snapshotTickAtOrBefore(tick);
        Simulation sim = restore(rec, from, workers, model);
        boolean ok = false;
        try {
            for (long t = from; t < tick; t++) { // as many ticks as the recording says, whatever the world
                sim.tick();
            }
            if (sim.tickNumber() != tick) {
                throw new RecordingException(rec.file(), "its snapshot of tick " + from + " ticks on to tick "
                        + sim.tickNumber() + " after " + (tick - from) + " ticks, not to " + tick + "; a snapshot's "
                        + "world counts its ticks one by one");
            }
            ok = true;
            return sim;
        } finally {
            if (!ok) {
                sim.close();
            }
        }
    }

    /**
     * The simulation of the snapshot after {@code snapshotTick}, checked to be of that tick. A periodic
     * snapshot must hold the agents of the start snapshot, checked before a world is built for it.
     */
    private static Simulation restore(Recording rec, long snapshotTick, int workers, RunnableModel model)
            throws IOException, StateTreeCompileException {
        Simulation sim;
        byte[] bytes = rec.snapshot(snapshotTick);
        if (snapshotTick != rec.firstTick() - 1) {
            checkAgents(rec, snapshotTick, bytes, rows(rec, rec.firstTick() - 1, rec.startSnapshot()));
        }
        try {
            sim = model.load(SnapshotReader.parse(bytes), null, workers, null, InputFiles.DEFAULT_MAX_BYTES);
        } catch (RecordingException e) {
            throw e;
        } catch (IOException e) { // a snapshot refused, or its tree asset unreadable: the recording's, named
            throw refused(rec, snapshotTick, e);
        }
        if (sim.tickNumber() != snapshotTick) {
            long at = sim.tickNumber();
            sim.close();
            throw new RecordingException(rec.file(), "the snapshot of tick " + snapshotTick + " is of tick " + at
                    + "; a recording's snapshots are of the ticks they are filed under");
        }
        return sim;
    }

    private static void check(Recording rec, RunnableModel model) throws RecordingException {
        if (!rec.header().kind().equals(model.snapshotKind())) {
            throw new RecordingException(rec.file(), "a recording of kind '" + rec.header().kind() + "', not of "
                    + model.describe() + ", which replays recordings of kind " + model.snapshotKind());
        }
        for (long t = rec.firstTick(); t <= rec.lastTick(); t++) {
            if (!rec.inputs(t).equals("[]")) {
                throw new RecordingException(rec.file(), "tick " + t + " has inputs, but a run takes none; a run's "
                        + "recording's inputs are all []");
            }
        }
    }

    private static RecordingException refused(Recording rec, long tick, IOException e) {
        return new RecordingException(rec.file(), "its snapshot of tick " + tick + ": "
                + e.getMessage().replace("it is a snapshot of", "it is of"));
    }

    /** The agents the runtime's table in {@code snapshot} (a crowd's or a model's) holds, read without building anything. */
    private static int rows(Recording rec, long tick, byte[] snapshot) throws RecordingException {
        try {
            return SnapshotSummary.peek(SnapshotReader.peekSection(snapshot, "system").readAllBytes()).rows();
        } catch (IOException e) {
            throw refused(rec, tick, e);
        }
    }

    /** The snapshot of {@code tick} holds {@code agents} agents, those of the start, or is refused. */
    private static void checkAgents(Recording rec, long tick, byte[] snapshot, int agents) throws RecordingException {
        int rows = rows(rec, tick, snapshot);
        if (rows != agents) {
            throw new RecordingException(rec.file(), String.format(Locale.ROOT, "its snapshot of tick %d holds %,d "
                    + "agents, its start %,d; a run's snapshots hold the agents it started with", tick, rows, agents));
        }
    }

    /**
     * The counters of {@code rec} checked for meaning against the recorded simulation's tree and agents:
     * a run's recording ({@code everyTick}) has them in every tick; each tick counts the tree's states
     * and transitions; the agents counted in states (running agents) are at most the agents there are.
     *
     * @throws RecordingException naming the first tick without meaning
     */
    static void checkCounters(Recording rec, CompiledStateTree tree, int agents, boolean everyTick)
            throws RecordingException {
        for (long t = rec.firstTick(); t <= rec.lastTick(); t++) {
            long[] occ = rec.occupancy(t);
            if (occ == null) {
                if (everyTick) {
                    throw new RecordingException(rec.file(), "tick " + t + " has no counters; a run's recording has "
                            + "them in every tick");
                }
                continue;
            }
            long[] fired = rec.fired(t);
            if (occ.length != tree.stateCount || fired.length != tree.transitionCount) {
                throw new RecordingException(rec.file(), "tick " + t + " counts " + occ.length + " states and "
                        + fired.length + " transitions; tree '" + tree.name + "' has " + tree.stateCount + " and "
                        + tree.transitionCount);
            }
            long sum = 0;
            for (long o : occ) {
                sum += o;
                if (o < 0 || sum > agents) {
                    throw new RecordingException(rec.file(), String.format(Locale.ROOT, "tick %d counts %s agents in "
                            + "its states; there are %,d (the running agents are some of them)", t,
                            o < 0 ? "a negative number of" : "more than " + agents, agents));
                }
            }
        }
    }

    /** The first counter of tick {@code t} that differs from the recording's, or null. */
    static Result compareCounters(Recording rec, long t, Recorder r, long ran) {
        long[] occ = rec.occupancy(t);
        if (occ == null || r == null) {
            return null;
        }
        for (int s = 0; s < occ.length; s++) {
            if (s >= r.tree().stateCount || occ[s] != r.occupancy(s)) {
                return new Result(false, t, "occupancy of state " + r.tree().statePath(Math.min(s, r.tree().stateCount - 1)),
                        occ[s], s < r.tree().stateCount ? r.occupancy(s) : -1, ran);
            }
        }
        long[] fired = rec.fired(t);
        for (int tr = 0; tr < fired.length; tr++) {
            if (tr >= r.tree().transitionCount || fired[tr] != r.fired(tr)) {
                return new Result(false, t, "firings of transition " + tr, fired[tr],
                        tr < r.tree().transitionCount ? r.fired(tr) : -1, ran);
            }
        }
        long[][] pairs = {{rec.failures(t), r.failures()}, {rec.droppedEvents(t), r.droppedEvents()},
                {rec.rejectedEvents(t), r.rejectedEvents()}, {rec.compositeRules(t), r.compositeRules()},
                {rec.restarts(t), r.restarts()}};
        String[] names = {"node failures", "dropped events", "rejected events", "composite rules", "restarts"};
        for (int i = 0; i < pairs.length; i++) {
            if (pairs[i][0] != pairs[i][1]) {
                return new Result(false, t, names[i], pairs[i][0], pairs[i][1], ran);
            }
        }
        return null;
    }
}
