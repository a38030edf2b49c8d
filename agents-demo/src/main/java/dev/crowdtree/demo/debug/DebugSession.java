package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.record.RecordingException;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A debugging session: its own thread runs a {@link DebugTarget} tick by tick (paced, or as fast as
 * it goes), pauses at breakpoints, steps, and travels in time; everything that reads or changes the
 * target runs on that thread, posted by the HTTP threads with {@link #call}.
 *
 * <p>TIME TRAVEL: after every {@code snapshotEvery} ticks the session keeps a snapshot of the whole
 * world, for the last {@code historyTicks} ticks (fewer when they would take more than
 * {@code historyBytes}). Seeking tick t restores the latest snapshot before t and re-simulates to t:
 * the run is deterministic, so the world is exactly as it was, and continuing from there gives the
 * same future. Replaying a recording, the recording's snapshots are the history, all of it.
 *
 * <p>WATCHED AGENTS: an agent opened in the panel, or named by a breakpoint, is watched by the
 * runtime's {@link Recorder}; the session copies each tick's lines of a watched agent into its own
 * list (tick-stamped, at most {@value WatchedLines#LINES_PER_AGENT}), and shows those up to the tick
 * shown. When an agent is first opened, its trace over the history is filled by a re-simulation of
 * the history on a copy of the world, on a thread of its own ({@link Backfill}), so that the run
 * keeps its pace meanwhile; one re-simulation at a time, for every agent that waits for one
 * (skipped when it would take too long: more than {@value AgentPanels#BACKFILL_AGENT_TICKS} agent-ticks).
 *
 * <p>THREADING: the fields below belong to the session thread; {@link #status} is published (a
 * volatile string) for the HTTP threads after every change; the HTTP threads post work with
 * {@link #call} (a concurrent queue and an atomic count of what waits in it).
 */
final class DebugSession implements AutoCloseable {
    /** Requests waiting for the session thread at most ({@link #call}). */
    static final int MAX_PENDING = 32;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How a session runs. */
    record Settings(double ticksPerSecond, int snapshotEvery, int historyTicks, long historyBytes, boolean paused) {
    }

    private final DebugTarget target;
    private final StateTreeRuntime runtime;
    private final CompiledStateTree tree;
    /** The runtime's agent count, read once (it does not change). */
    private final int agents;
    private final Settings settings;
    private final Recording replay;
    private final RecordingOut recording;
    private final DebugViews views;
    private final Thread thread;
    private final LinkedBlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    /** Calls waiting in {@link #commands} (THREADING: any thread adds, the session thread takes). */
    private final AtomicInteger pending = new AtomicInteger();
    private volatile String status = "{}";
    private volatile boolean closed;
    private volatile Throwable failure;

    // ---- session thread only ----
    private boolean paused;
    private String reason;
    /** The furthest tick run (what a recording holds, or the recording's last tick when replaying). */
    private long head = -1;
    private final SnapshotHistory history;
    private final Breakpoints breakpoints;
    private final WatchedLines lines;
    private final AgentPanels panels;
    private final RateWindow rates;
    private long[] occupancyScan; // the occupancy counted by a scan, when no tick ran since a restore
    private long nextDue;
    /** The first tick the recording holds (-1 before it starts). */
    private long recordingFrom = -1;

    /**
     * @param replay    the recording the target replays, or null for a live run
     * @param recording where a live run is recorded, or null
     */
    DebugSession(DebugTarget target, Settings settings, Recording replay, RecordingOut recording) {
        this.target = target;
        this.runtime = target.runtime();
        this.tree = runtime.tree();
        this.agents = runtime.agentCount();
        this.settings = settings;
        this.replay = replay;
        this.recording = recording;
        this.rates = new RateWindow(tree.transitionCount);
        this.history = new SnapshotHistory(settings.historyTicks(), settings.historyBytes());
        this.lines = new WatchedLines(runtime);
        this.views = new DebugViews(target);
        this.breakpoints = new Breakpoints(runtime, lines, views);
        this.panels = new AgentPanels(target, views, lines, new SessionHistory(), commands::add);
        this.paused = settings.paused();
        this.thread = new Thread(this::loop, "crowdtree-debug");
        this.thread.setDaemon(true);
    }

    /** Starts the session thread: it runs up to the first tick (a scenario's start) and then as set. */
    void start() {
        runtime.setRecording(true);
        runtime.recorder().setWatchLimits(4096, 256);
        if (replay != null) {
            head = replay.lastTick();
        }
        thread.start();
    }

    /** The tree JSON ({@code GET /api/tree}). */
    String treeJson() {
        return views.treeJson();
    }

    /** The breakpoint list JSON ({@code GET /api/breakpoints}). */
    String breakpointsJson() {
        return views.breakpointsJson(breakpoints.list());
    }

    /** The finder's answer ({@code GET /api/find}) at the tick shown. */
    String find(DebugViews.Query query) {
        return views.find(query, target.tick());
    }

    CompiledStateTree tree() {
        return tree;
    }

    DebugTarget target() {
        return target;
    }

    /** The number of agents (fixed for the session; any thread). */
    int agents() {
        return agents;
    }

    /** The status JSON as last published. */
    String status() {
        return status;
    }

    /** Why the session thread stopped, or null. */
    Throwable failure() {
        return failure;
    }

    /**
     * Runs {@code work} on the session thread between ticks; the future completes there. At most
     * {@link #MAX_PENDING} calls wait at once: beyond that the future fails at once with a 503
     * ({@link BadRequest#busy}), so a crowd of requests cannot pile work up behind the run.
     */
    <T> CompletableFuture<T> call(Supplier<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new IllegalStateException("the debugging session is closed"));
            return f;
        }
        if (pending.incrementAndGet() > MAX_PENDING) {
            pending.decrementAndGet();
            f.completeExceptionally(BadRequest.busy("the debugger has " + MAX_PENDING + " requests waiting for the "
                    + "run already; try again in a second", 1));
            return f;
        }
        commands.add(() -> {
            pending.decrementAndGet();
            try {
                f.complete(work.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    // ---- the loop ---------------------------------------------------------------------------------

    private void loop() {
        try {
            if (target.tick() < 0) {
                tick(true); // a scenario's start, tick 0
            } else {
                if (replay == null) {
                    keepSnapshot();
                }
                head = Math.max(head, target.tick());
            }
            if (recording != null) {
                recording.start(target.tick() + 1, target.snapshot());
                recordingFrom = target.tick() + 1;
            }
            publish();
            nextDue = System.nanoTime();
            while (!closed) {
                long wait = 50;
                if (!paused) {
                    if (atEnd()) {
                        pause(replay != null ? "end of the recording at tick " + head
                                : "end of the scenario at tick " + target.lastTick());
                        continue;
                    }
                    long now = System.nanoTime();
                    if (settings.ticksPerSecond() <= 0 || now >= nextDue) {
                        nextDue = Math.max(nextDue + period(), now - 5 * period());
                        tick(true);
                        publish();
                        wait = 0;
                    } else {
                        wait = Math.max(0, (nextDue - now) / 1_000_000);
                    }
                }
                Runnable c = wait == 0 ? commands.poll() : commands.poll(wait, TimeUnit.MILLISECONDS);
                while (c != null) {
                    c.run();
                    c = commands.poll();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
            status = "{\"error\":" + JSON.valueToTree(String.valueOf(t)) + "}";
        } finally {
            closed = true;
            finishRecording();
            Runnable c;
            while ((c = commands.poll()) != null) {
                c.run();
            }
            target.close();
        }
    }

    private long period() {
        return settings.ticksPerSecond() <= 0 ? 0 : (long) (1e9 / settings.ticksPerSecond());
    }

    private boolean atEnd() {
        long last = replay != null ? replay.lastTick() : target.lastTick();
        return target.tick() >= last;
    }

    private void pause(String why) {
        paused = true;
        reason = why;
        publish();
    }

    /**
     * Runs the next tick: its lines of watched agents are kept, the recording written (a live run
     * past its furthest tick), a snapshot kept every {@code snapshotEvery} ticks, and with
     * {@code breakpoints} the breakpoints checked.
     */
    private void tick(boolean checkBreakpoints) {
        String before = checkBreakpoints ? eventBreakpoint() : null;
        String inputs = target.step();
        afterStep(inputs, checkBreakpoints, before);
    }

    /** What follows a tick the target ran (by {@link #tick}, or by an attached host). */
    private void afterStep(String inputs, boolean checkBreakpoints, String before) {
        long k = target.tick();
        Recorder r = runtime.recorder();
        // a start (tick 0, or a scenario's start input) is not counted by the recorder: scan
        occupancyScan = r.tick() == k ? null : views.scanOccupancy();
        lines.collect(k);
        rates.record(k, r);
        boolean fresh = k > head;
        if (fresh) {
            head = k;
        }
        byte[] snap = null;
        if (replay == null && k % settings.snapshotEvery() == 0 && (fresh || !history.has(k))) {
            snap = keepSnapshot(); // a replay travels over the recording's snapshots, not these
        }
        if (fresh && recording != null && recordingFrom >= 0) {
            try {
                recording.tick(k, inputs, r, snap, snap == null ? 0 : target.worldHash(snap));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("writing the recording: " + e.getMessage(), e);
            }
        }
        if (replay != null && replay.hasSnapshot(k)) {
            checkReplayHash(k);
        }
        if (checkBreakpoints) {
            String after = breakpoints.hitAfter(k); // also when paused before the tick: column breakpoints record it
            String hit = before != null ? before : after;
            if (hit != null) {
                paused = true;
                reason = hit;
            }
        }
    }

    private void checkReplayHash(long k) {
        try {
            long actual = target.worldHash();
            long expected = replay.worldHashAt(k);
            if (actual != expected) {
                paused = true;
                reason = String.format(Locale.ROOT, "the replay diverged at tick %d: world hash %016x, recorded %016x",
                        k, actual, expected);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Keeps a snapshot of the world now in the history (trimmed to its bounds); returns it. */
    private byte[] keepSnapshot() {
        if (!target.canSnapshot()) {
            return null;
        }
        try {
            long k = target.tick();
            byte[] snap = target.snapshot();
            history.keep(k, snap, head);
            return snap;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("snapshot: " + e.getMessage(), e);
        }
    }

    /** The first tick that can be seen (the oldest snapshot kept, or the recording's start). */
    long historyFrom() {
        if (replay != null) {
            return replay.firstTick() - 1 < 0 ? 0 : replay.firstTick() - 1;
        }
        return history.isEmpty() ? target.tick() : history.first();
    }

    private void finishRecording() {
        if (recording == null || recordingFrom < 0) {
            return;
        }
        try {
            recording.finish(head, target.tick() == head ? target.worldHash() : hashAtHead());
            recording.close();
        } catch (IOException | RuntimeException e) {
            failure = failure != null ? failure : e;
        }
    }

    private long hashAtHead() throws IOException {
        seekTo(head);
        return target.worldHash();
    }

    // ---- attached to a host's own loop ------------------------------------------------------------

    /** Whether a host's loop drives the ticks ({@link #afterHostTick}) instead of the session thread. */
    private boolean attached;
    /** Attached: pause after the next tick (a step). */
    private boolean pauseAfterNext;

    /**
     * Attached mode, called by the host's thread after each of its ticks: the session's bookkeeping
     * and breakpoints, the requests waiting, and while paused, the requests until continue or step.
     */
    void afterHostTick() throws InterruptedException {
        String before = eventBreakpoint();
        afterStep("[]", true, before);
        if (pauseAfterNext && !paused) {
            paused = true;
            reason = "stepped to tick " + target.tick();
        }
        pauseAfterNext = false;
        publish();
        Runnable c;
        while ((c = commands.poll()) != null) {
            c.run();
        }
        while (paused && !closed) {
            c = commands.poll(50, TimeUnit.MILLISECONDS);
            if (c != null) {
                c.run();
            }
        }
    }

    /**
     * Starts an attached session: no thread of its own; the host calls {@link #afterHostTick}.
     * Started paused, the host's first afterHostTick waits for continue or step.
     */
    void startAttached() {
        attached = true;
        if (paused) {
            reason = "started paused: the host's first afterTick waits for Continue or Step";
        }
        runtime.setRecording(true);
        runtime.recorder().setWatchLimits(4096, 256);
        head = target.tick();
        publish();
    }

    /** Before the next tick: an event breakpoint of a given agent whose event arrives in it, or null. */
    private String eventBreakpoint() {
        return breakpoints.eventBefore(target.tick() + 1, target.nextEvents(), views);
    }

    // ---- commands (session thread) ----------------------------------------------------------------

    String pauseNow() {
        if (!paused) {
            pause("paused by the user at tick " + target.tick());
        }
        return status;
    }

    String continueRun() {
        if (!attached && atEnd()) {
            throw new IllegalArgumentException("the run is at its end (tick " + target.tick() + ")");
        }
        paused = false;
        reason = null;
        nextDue = System.nanoTime();
        publish();
        return status;
    }

    String stepOnce() {
        if (attached) {
            paused = false;
            pauseAfterNext = true;
            reason = null;
            publish();
            return status;
        }
        if (atEnd()) {
            throw new IllegalArgumentException("the run is at its end (tick " + target.tick() + ")");
        }
        paused = true;
        reason = null;
        tick(true);
        if (reason == null) {
            reason = "stepped to tick " + target.tick();
        }
        publish();
        return status;
    }

    String seek(long t) {
        long from = historyFrom();
        long to = replay != null ? replay.lastTick() : Math.max(head, target.tick());
        if (attached || !target.canSnapshot() && t != target.tick()) {
            throw new IllegalArgumentException("this world cannot travel in time: "
                    + (attached ? "the debugger is attached to a host's own loop, whose world it cannot snapshot"
                    : "a tree that runs alone cannot be snapshotted"));
        }
        if (t < from || t > to) {
            throw new IllegalArgumentException("tick " + t + " is outside the history: " + from + ".." + to);
        }
        seekTo(t);
        breakpoints.recordAt(t);
        paused = true;
        reason = "time travel: at tick " + t + " (history " + historyFrom() + ".." + to + ")";
        publish();
        return status;
    }

    /** Restores the latest snapshot before {@code t} (or at it, when it is the first) and re-simulates to it. */
    private void seekTo(long t) {
        try {
            long cur = target.tick();
            if (t < cur || t > cur + settings.snapshotEvery()) {
                long s = snapshotTickBefore(t);
                if (s > cur || t < cur) {
                    target.restore(snapshotAt(s), s);
                    rates.clear();
                    occupancyScan = views.scanOccupancy();
                }
            }
            while (target.tick() < t) {
                tick(false);
            }
        } catch (IOException e) { // a recording's snapshot refused: the file's fault (400, naming it), not the server's
            throw replay == null ? new java.io.UncheckedIOException("time travel: " + e.getMessage(), e)
                    : new IllegalArgumentException("time travel: " + (e instanceof RecordingException ? e.getMessage()
                    : replay.file() + ": its snapshot of tick " + snapshotTickBefore(t) + ": " + e.getMessage()), e);
        }
    }

    private long snapshotTickBefore(long t) {
        if (replay != null) {
            long s = replay.snapshotTickAtOrBefore(t - 1);
            return s < replay.firstTick() - 1 ? replay.firstTick() - 1 : s;
        }
        return history.before(t);
    }

    private byte[] snapshotAt(long s) throws IOException {
        return replay != null ? replay.snapshot(s) : history.at(s);
    }

    String addBreakpoint(Breakpoint.Spec spec) {
        breakpoints.add(spec, target.tick());
        publish();
        return breakpointsJson();
    }

    String removeBreakpoint(int id) {
        breakpoints.remove(id);
        publish();
        return breakpointsJson();
    }

    // ---- agent panels -------------------------------------------------------------------------------

    /** The agents' panels ({@code /api/agent}, {@code /api/agent/open}, {@code /api/agent/close}): session thread only. */
    AgentPanels panels() {
        return panels;
    }

    /** What the agent panels see of the history: the session's snapshots (session thread). */
    private final class SessionHistory implements AgentPanels.History {
        @Override
        public boolean canReSimulate() {
            return !attached && target.canSnapshot();
        }

        @Override
        public long from() {
            return historyFrom();
        }

        @Override
        public long snapshotTickBefore(long t) {
            return DebugSession.this.snapshotTickBefore(t);
        }

        @Override
        public byte[] snapshotAt(long s) throws IOException {
            return DebugSession.this.snapshotAt(s);
        }
    }

    // ---- views ------------------------------------------------------------------------------------

    /** Publishes the status JSON (session thread). */
    void publish() {
        Recorder r = runtime.recorder();
        if (r == null) {
            return;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("tick", target.tick());
        o.put("paused", paused);
        if (reason != null) {
            o.put("reason", reason);
        } else {
            o.putNull("reason");
        }
        o.put("head", replay != null ? replay.lastTick() : Math.max(head, target.tick()));
        o.put("historyFrom", historyFrom());
        o.put("canTravel", target.canSnapshot() && !attached);
        o.put("replay", replay != null);
        o.put("recording", recording != null);
        o.put("agents", runtime.agentCount());
        views.putCounts(o, r, occupancyScan, rates, target.tick());
        o.put("breakpoints", breakpoints.list().size());
        o.put("target", target.describe());
        status = o.toString();
    }

    // ---- closing -----------------------------------------------------------------------------------

    /** Stops the session thread, finishes the recording and closes the target. */
    @Override
    public void close() {
        closed = true;
        panels.close();
        commands.add(() -> { }); // wakes the loop
        if (attached) {
            return;
        }
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the session thread ends. */
    void join() throws InterruptedException {
        thread.join();
    }
}
