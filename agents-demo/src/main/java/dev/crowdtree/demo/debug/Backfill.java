package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Fills the trace of agents opened after the history began, off the session thread: the history is
 * re-simulated from its oldest snapshot on a copy of the world ({@link DebugTarget#copier}) on a
 * thread of its own, the lines of the opened agents are kept, and the session puts them before the
 * lines it collected since the agents were opened. The run keeps its pace meanwhile: the session
 * thread only hands out the snapshot and takes the lines back.
 *
 * <p>One re-simulation at a time: agents opened while one runs wait, and the next re-simulation
 * fills all of them at once (from the oldest snapshot to the latest of their opening ticks). At
 * most {@value #MAX_WAITING} agents wait or are being filled: opening one more is refused (503 with
 * {@code Retry-After}) until some are done. Before its lines are kept, a re-simulation is checked:
 * when it passes a tick of which the history holds a snapshot, the copy's snapshot must be the same
 * bytes; if not, the lines are dropped and the agent's panel says why.
 *
 * <p>What an agent's panel says of it ({@link #state}): {@code queued}, {@code running},
 * {@code done}, {@code none: ...} (nothing to fill, or it cannot be filled, and why), or
 * {@code failed: ...}.
 *
 * <p>THREADING: everything here but {@link Job#run} and {@link #close} belongs to the session
 * thread ({@link #close} only shuts the executor, a final field, down); a job runs on
 * the re-simulation thread with its own copy of the world and immutable inputs (the snapshots are
 * byte arrays that nobody writes once kept), and its result is handed back to the session thread
 * through {@code post} (the session's command queue).
 */
final class Backfill implements AutoCloseable {
    /** Agents waiting for a re-simulation or being filled, at most. */
    static final int MAX_WAITING = 8;

    /** An agent to fill: its watching's serial ({@link WatchedLines#serialOf}) and the ticks to fill, {@code (from, to]}. */
    record Want(int agent, long serial, long from, long to) {
    }

    /** What a re-simulation found: each agent's lines (with their ticks), or why it failed. */
    record Result(List<Want> wants, Map<Integer, List<String>> lines, Map<Integer, List<Long>> ticks, String failure) {
    }

    private final DebugTarget.Copier copier;
    private final Consumer<Runnable> post;
    private final Consumer<Result> done;
    private final Map<Integer, Want> waiting = new LinkedHashMap<>();
    private final Map<Integer, String> states = new HashMap<>();
    private List<Want> running;
    /** The re-simulation thread (started with the first task), or null without a copier. Closed from any thread. */
    private final ExecutorService thread;

    /**
     * @param copier how to copy the world, or null: nothing is filled
     * @param post   hands a task to the session thread (its command queue)
     * @param done   takes a finished re-simulation's result, on the session thread
     */
    Backfill(DebugTarget.Copier copier, Consumer<Runnable> post, Consumer<Result> done) {
        this.copier = copier;
        this.post = post;
        this.done = done;
        this.thread = copier == null ? null : Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "crowdtree-debug-resimulation");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
    }

    /** Whether the world can be copied at all. */
    boolean possible() {
        return copier != null;
    }

    /**
     * Checks there is room for one more agent.
     *
     * @throws BadRequest 503 with {@code Retry-After} when {@value #MAX_WAITING} agents wait or are being filled
     */
    void checkRoom() {
        int busy = waiting.size() + (running == null ? 0 : running.size());
        if (busy >= MAX_WAITING) {
            throw BadRequest.busy("the debugger is re-simulating the history to fill the trace of " + busy
                    + " agents opened before, the most at once (" + MAX_WAITING + "); open this one when some are done",
                    2);
        }
    }

    /** Queues {@code want} (after {@link #checkRoom}); the caller then {@link #startIfIdle}s. */
    void request(Want want) {
        waiting.put(want.agent(), want);
        states.put(want.agent(), "queued");
    }

    /** Records that the agent's trace is not filled, and why ({@code none: why}). */
    void none(int agent, String why) {
        states.put(agent, "none: " + why);
    }

    /** Every waiting agent's filling failed before it started, and why ({@code failed: why}). */
    void failWaiting(String why) {
        for (Want w : waiting.values()) {
            states.put(w.agent(), "failed: " + why);
        }
        waiting.clear();
    }

    /** The agent was closed: it no longer waits, and what was said of it is forgotten. */
    void forget(int agent) {
        waiting.remove(agent);
        states.remove(agent);
    }

    /** What the agent's panel says of its trace's filling, or null when nothing was asked. */
    String state(int agent) {
        return states.get(agent);
    }

    /** The latest tick a waiting agent's trace is to be filled to. */
    long waitingEnd() {
        long end = Long.MIN_VALUE;
        for (Want w : waiting.values()) {
            end = Math.max(end, w.to());
        }
        return end;
    }

    /** Whether a re-simulation waits to start. */
    boolean hasWaiting() {
        return running == null && !waiting.isEmpty();
    }

    /**
     * Starts a re-simulation of every waiting agent from snapshot {@code start} (after tick
     * {@code startTick}) to the latest tick to fill, checked against {@code check} (a snapshot of
     * the history after tick {@code checkTick}, or null), when none runs.
     */
    void start(byte[] start, long startTick, byte[] check, long checkTick) {
        if (running != null || waiting.isEmpty() || thread == null) {
            return;
        }
        List<Want> wants = new ArrayList<>(waiting.values());
        waiting.clear();
        long end = startTick;
        for (Want w : wants) {
            end = Math.max(end, w.to());
            states.put(w.agent(), "running");
        }
        running = wants;
        Job job = new Job(copier, wants, start, startTick, end, check, checkTick);
        try {
            thread.execute(() -> {
                Result r = job.run();
                post.accept(() -> finished(r));
            });
        } catch (RejectedExecutionException e) {
            running = null; // the session is closing
        }
    }

    /** A re-simulation finished (session thread): the states say so, and the session takes the lines. */
    private void finished(Result r) {
        running = null;
        for (Want w : r.wants()) {
            if (states.containsKey(w.agent())) {
                states.put(w.agent(), r.failure() == null ? "done" : "failed: " + r.failure());
            }
        }
        done.accept(r);
    }

    /** Stops the re-simulation thread (a re-simulation running stops at its next tick); from any thread. */
    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    /** One re-simulation, run on the re-simulation thread. */
    private static final class Job {
        private final DebugTarget.Copier copier;
        private final List<Want> wants;
        private final byte[] start;
        private final long startTick;
        private final long end;
        private final byte[] check;
        private final long checkTick;

        Job(DebugTarget.Copier copier, List<Want> wants, byte[] start, long startTick, long end, byte[] check,
            long checkTick) {
            this.copier = copier;
            this.wants = List.copyOf(wants);
            this.start = start;
            this.startTick = startTick;
            this.end = end;
            this.check = check;
            this.checkTick = checkTick;
        }

        Result run() {
            Map<Integer, List<String>> lines = new HashMap<>();
            Map<Integer, List<Long>> ticks = new HashMap<>();
            for (Want w : wants) {
                lines.put(w.agent(), new ArrayList<>());
                ticks.put(w.agent(), new ArrayList<>());
            }
            try (DebugTarget copy = copier.open(start, startTick)) {
                StateTreeRuntime runtime = copy.runtime();
                runtime.setRecording(true);
                Recorder r = runtime.recorder();
                r.setWatchLimits(4096, 256);
                for (Want w : wants) {
                    r.watch(w.agent());
                }
                while (copy.tick() < end) {
                    if (Thread.currentThread().isInterrupted()) {
                        return new Result(wants, Map.of(), Map.of(), "the debugger closed");
                    }
                    copy.step();
                    long k = copy.tick();
                    for (Want w : wants) {
                        if (k > w.from() && k <= w.to()) {
                            int before = lines.get(w.agent()).size();
                            WatchedLines.linesOfTick(r, w.agent(), k, lines.get(w.agent()));
                            for (int i = before; i < lines.get(w.agent()).size(); i++) {
                                ticks.get(w.agent()).add(k);
                            }
                        }
                    }
                    if (k == checkTick && check != null && !Arrays.equals(copy.snapshot(), check)) {
                        return new Result(wants, Map.of(), Map.of(), String.format(Locale.ROOT, "the re-simulation on a "
                                + "copy of the world differs from the run at tick %d; the trace starts where the agent "
                                + "was opened", k));
                    }
                }
                return new Result(wants, lines, ticks, null);
            } catch (IOException | RuntimeException e) {
                return new Result(wants, Map.of(), Map.of(), "the history could not be re-simulated on a copy of the "
                        + "world (" + e.getMessage() + "); the trace starts where the agent was opened");
            }
        }
    }
}
