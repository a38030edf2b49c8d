package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.ValueType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
 * list (tick-stamped, at most {@value #LINES_PER_AGENT}), and shows those up to the tick shown. When
 * an agent is first opened, the session re-simulates the history with it watched, so its trace
 * starts at the oldest tick kept, not when it was opened (skipped when that would take too long:
 * more than {@value #BACKFILL_AGENT_TICKS} agent-ticks).
 *
 * <p>THREADING: the fields below belong to the session thread; {@link #status} is published (a
 * volatile string) for the HTTP threads after every change.
 */
final class DebugSession implements AutoCloseable {
    static final int LINES_PER_AGENT = 2000;
    static final long BACKFILL_AGENT_TICKS = 50_000_000L;
    /** Ticks over which a transition's firing rate is averaged. */
    static final int RATE_WINDOW = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How a session runs. */
    record Settings(double ticksPerSecond, int snapshotEvery, int historyTicks, long historyBytes, boolean paused) {
    }

    private final DebugTarget target;
    private final StateTreeRuntime runtime;
    private final CompiledStateTree tree;
    private final Settings settings;
    private final Replay replay;
    private final RecordingOut recording;
    private final Thread thread;
    private final LinkedBlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    private volatile String status = "{}";
    private volatile boolean closed;
    private volatile Throwable failure;

    // ---- session thread only ----
    private boolean paused;
    private String reason;
    /** The furthest tick run (what a recording holds, or the recording's last tick when replaying). */
    private long head = -1;
    private final TreeMap<Long, byte[]> history = new TreeMap<>();
    private long historyBytesUsed;
    private final List<Breakpoint> breakpoints = new ArrayList<>();
    private int nextBreakpointId = 1;
    private final Map<Integer, AgentLines> lines = new HashMap<>();
    private final long[][] firedWindow;
    private int windowTicks;
    private long[] occupancyScan; // the occupancy counted by a scan, when no tick ran since a restore
    private long nextDue;

    /** The lines kept of one watched agent, with the tick of each. */
    private static final class AgentLines {
        final ArrayList<String> text = new ArrayList<>();
        final ArrayList<Long> ticks = new ArrayList<>();
        long collectedUpTo = -1;
        int users; // the panel, and breakpoints naming it
    }

    /**
     * @param replay    the recording the target replays, or null for a live run
     * @param recording where a live run is recorded, or null
     */
    DebugSession(DebugTarget target, Settings settings, Replay replay, RecordingOut recording) {
        this.target = target;
        this.runtime = target.runtime();
        this.tree = runtime.tree();
        this.settings = settings;
        this.replay = replay;
        this.recording = recording;
        this.firedWindow = new long[RATE_WINDOW][tree.transitionCount];
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

    CompiledStateTree tree() {
        return tree;
    }

    DebugTarget target() {
        return target;
    }

    /** The status JSON as last published. */
    String status() {
        return status;
    }

    /** Why the session thread stopped, or null. */
    Throwable failure() {
        return failure;
    }

    /** Runs {@code work} on the session thread between ticks. */
    <T> CompletableFuture<T> call(Supplier<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new IllegalStateException("the debugging session is closed"));
            return f;
        }
        commands.add(() -> {
            try {
                f.complete(work.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    /** Runs {@code work} on the session thread and waits for it (at most 60 s). */
    <T> T await(Supplier<T> work) {
        try {
            return call(work).get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException) {
                throw (RuntimeException) c;
            }
            throw new IllegalStateException(c);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the debugging session did not answer within 60 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    // ---- the loop ---------------------------------------------------------------------------------

    private void loop() {
        try {
            if (target.tick() < 0) {
                tick(true); // a scenario's start, tick 0
            } else {
                keepSnapshot();
                head = Math.max(head, target.tick());
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
        occupancyScan = null;
        Recorder r = runtime.recorder();
        collectLines(k);
        long[] w = firedWindow[(int) (k % RATE_WINDOW)];
        for (int tr = 0; tr < w.length; tr++) {
            w[tr] = r.fired(tr);
        }
        windowTicks = Math.min(RATE_WINDOW, windowTicks + 1);
        boolean fresh = k > head;
        if (fresh) {
            head = k;
        }
        byte[] snap = null;
        if (k % settings.snapshotEvery() == 0 && target.canSnapshot() && (fresh || !history.containsKey(k))) {
            snap = keepSnapshot();
        }
        if (fresh && recording != null) {
            try {
                if (snap == null && k % settings.snapshotEvery() == 0) {
                    snap = target.snapshot();
                }
                recording.tick(k, inputs, r, snap, snap == null ? 0 : target.worldHash());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("writing the recording: " + e.getMessage(), e);
            }
        }
        if (replay != null && replay.snapshotTicks().contains(k)) {
            checkReplayHash(k);
        }
        if (checkBreakpoints) {
            String hit = before != null ? before : breakpointHit(k);
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
            byte[] old = history.put(k, snap);
            historyBytesUsed += snap.length - (old == null ? 0 : old.length);
            // the oldest snapshot is kept while it is the only one at or below head - historyTicks
            while (history.size() > 1 && (history.firstKey() < head - settings.historyTicks()
                    && history.higherKey(history.firstKey()) <= head - settings.historyTicks()
                    || historyBytesUsed > settings.historyBytes())) {
                historyBytesUsed -= history.pollFirstEntry().getValue().length;
            }
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
        return history.isEmpty() ? target.tick() : history.firstKey();
    }

    private void finishRecording() {
        if (recording == null) {
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

    /** Starts an attached session: no thread of its own; the host calls {@link #afterHostTick}. */
    void startAttached() {
        attached = true;
        runtime.setRecording(true);
        runtime.recorder().setWatchLimits(4096, 256);
        head = target.tick();
        publish();
    }

    // ---- watched agents -------------------------------------------------------------------------

    private void collectLines(long k) {
        if (lines.isEmpty()) {
            return;
        }
        Recorder r = runtime.recorder();
        String prefix = k + " ";
        for (Map.Entry<Integer, AgentLines> e : lines.entrySet()) {
            AgentLines a = e.getValue();
            if (k <= a.collectedUpTo) {
                continue;
            }
            for (String line : r.trace(e.getKey())) {
                if (line.startsWith(prefix)) {
                    a.text.add(line);
                    a.ticks.add(k);
                }
            }
            while (a.text.size() > LINES_PER_AGENT) {
                a.text.remove(0);
                a.ticks.remove(0);
            }
            a.collectedUpTo = k;
        }
    }

    /** Lines of tick {@code k} of a watched agent. */
    private List<String> linesOf(int agent, long k) {
        AgentLines a = lines.get(agent);
        List<String> out = new ArrayList<>();
        if (a != null) {
            for (int i = a.ticks.size() - 1; i >= 0 && a.ticks.get(i) >= k; i--) {
                if (a.ticks.get(i) == k) {
                    out.add(0, a.text.get(i));
                }
            }
        }
        return out;
    }

    private AgentLines watch(int agent) {
        AgentLines a = lines.get(agent);
        if (a == null) {
            runtime.recorder().watch(agent);
            a = new AgentLines();
            a.collectedUpTo = target.tick();
            lines.put(agent, a);
        }
        a.users++;
        return a;
    }

    private void unwatch(int agent) {
        AgentLines a = lines.get(agent);
        if (a != null && --a.users <= 0) {
            lines.remove(agent);
            runtime.recorder().unwatch(agent);
        }
    }

    // ---- breakpoints ----------------------------------------------------------------------------

    private String breakpointHit(long k) {
        Recorder r = runtime.recorder();
        for (Breakpoint b : breakpoints) {
            String hit = b.hit(tree, r, k, b.agent() >= 0 ? linesOf(b.agent(), k) : List.of());
            if (hit != null) {
                return "breakpoint " + b.id() + " at tick " + k + ": " + hit;
            }
        }
        return null;
    }

    /** An event breakpoint of a given agent whose event arrives in the next tick. */
    private String eventBreakpoint() {
        for (Breakpoint b : breakpoints) {
            if (b.kind() == Breakpoint.Kind.EVENT && b.agent() >= 0 && !despawned(b.agent())) {
                String hit = b.eventQueued(runtime.queuedEvents(b.agent()), target.nextEvents());
                if (hit != null) {
                    return "breakpoint " + b.id() + " at tick " + (target.tick() + 1) + ": " + hit;
                }
            }
        }
        return null;
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
                    windowTicks = 0;
                    occupancyScan = scanOccupancy();
                }
            }
            while (target.tick() < t) {
                tick(false);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("time travel: " + e.getMessage(), e);
        }
    }

    private long snapshotTickBefore(long t) {
        if (replay != null) {
            long s = replay.snapshotTickAtOrBefore(t - 1);
            return s < replay.firstTick() - 1 ? replay.firstTick() - 1 : s;
        }
        Long s = history.lowerKey(t);
        return s != null ? s : history.firstKey();
    }

    private byte[] snapshotAt(long s) {
        return replay != null ? replay.snapshot(s) : history.get(s);
    }

    String addBreakpoint(String kind, String state, Integer transition, String tag, int agent) {
        Breakpoint b = Breakpoint.of(nextBreakpointId, kind, state, transition, tag, agent, tree, runtime.agentCount());
        nextBreakpointId++;
        breakpoints.add(b);
        if (b.agent() >= 0) {
            watch(b.agent());
        }
        publish();
        return breakpointsJson();
    }

    String removeBreakpoint(int id) {
        for (Iterator<Breakpoint> it = breakpoints.iterator(); it.hasNext(); ) {
            Breakpoint b = it.next();
            if (b.id() == id) {
                it.remove();
                if (b.agent() >= 0) {
                    unwatch(b.agent());
                }
                publish();
                return breakpointsJson();
            }
        }
        throw new IllegalArgumentException("no breakpoint " + id);
    }

    String breakpointsJson() {
        ArrayNode a = JSON.createArrayNode();
        for (Breakpoint b : breakpoints) {
            ObjectNode o = a.addObject();
            o.put("id", b.id());
            o.put("kind", b.kind().name);
            if (b.state() >= 0) {
                o.put("state", tree.statePath[b.state()]);
            }
            if (b.transition() >= 0) {
                o.put("transition", b.transition());
            }
            if (b.tag() != null) {
                o.put("tag", b.tag());
            }
            o.put("agent", b.agent());
            o.put("text", b.describe(tree));
        }
        return a.toString();
    }

    // ---- finder and agent panel ---------------------------------------------------------------------

    private boolean despawned(int agent) {
        try {
            runtime.treeStatus(agent);
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    private int activeState(int agent) {
        try {
            return runtime.activeState(agent);
        } catch (IllegalArgumentException e) {
            return -2; // despawned
        }
    }

    /**
     * The agents whose active path passes through {@code statePath} (null: any) and whose parameter
     * {@code param} (null: none) lies in [min, max], ascending, at most {@code limit}; and how many.
     */
    String find(String statePath, String param, double min, double max, int limit) {
        int s = statePath == null ? -1 : Breakpoint.stateId(tree, statePath);
        int p = -1;
        if (param != null) {
            p = tree.paramIndex(param);
            if (p < 0) {
                throw new IllegalArgumentException("no parameter '" + param + "' in tree '" + tree.name + "'; it has "
                        + List.of(tree.paramName));
            }
        }
        int end = s < 0 ? -1 : tree.stateSubtreeEnd[s];
        ArrayNode agents = JSON.createArrayNode();
        long total = 0;
        for (int a = 0, n = runtime.agentCount(); a < n; a++) {
            int at = activeState(a);
            if (at == -2 || s >= 0 && (at < s || at >= end)) {
                continue;
            }
            if (p >= 0) {
                double v = runtime.parameter(a, p);
                if (!(v >= min && v <= max)) {
                    continue;
                }
            }
            if (total++ < limit) {
                agents.add(a);
            }
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("tick", target.tick());
        o.put("total", total);
        o.set("agents", agents);
        return o.toString();
    }

    /** The agent's panel; opening it watches the agent (and fills its trace from the history, when cheap). */
    String agent(int agent, boolean open) {
        if (agent < 0 || agent >= runtime.agentCount()) {
            throw new IllegalArgumentException("agent " + agent + " is out of range 0.." + (runtime.agentCount() - 1));
        }
        if (open && !lines.containsKey(agent)) {
            watch(agent);
            backfill(agent);
        } else if (open) {
            lines.get(agent).users++;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("id", agent);
        o.put("tick", target.tick());
        if (despawned(agent)) {
            o.put("status", "despawned");
            o.put("activePath", "");
            return o.toString();
        }
        o.put("status", RunStatus.name(runtime.treeStatus(agent)));
        o.put("activePath", runtime.activePath(agent));
        ObjectNode params = o.putObject("parameters");
        for (int p = 0; p < tree.paramName.length; p++) {
            double v = runtime.parameter(agent, p);
            List<String> names = tree.enumValues(p);
            if (names != null) {
                params.put(tree.paramName[p], names.get((int) v));
            } else if (tree.paramType[p] == ValueType.BOOL) {
                params.put(tree.paramName[p], v != 0);
            } else if (tree.paramType[p] == ValueType.FLOAT) {
                params.put(tree.paramName[p], (float) v);
            } else {
                params.put(tree.paramName[p], (long) v);
            }
        }
        ArrayNode ev = o.putArray("queuedEvents");
        runtime.queuedEvents(agent).forEach(ev::add);
        ArrayNode tr = o.putArray("trace");
        AgentLines a = lines.get(agent);
        o.put("watched", a != null);
        if (a != null) {
            for (int i = 0; i < a.text.size(); i++) {
                if (a.ticks.get(i) <= target.tick()) {
                    tr.add(a.text.get(i));
                }
            }
        }
        return o.toString();
    }

    /** Stops showing the agent's panel (it stays watched while a breakpoint names it). */
    String close(int agent) {
        unwatch(agent);
        return "{}";
    }

    /** Re-simulates the history with a newly watched agent, so its trace covers it; only when cheap. */
    private void backfill(int agent) {
        long now = target.tick();
        long from = historyFrom();
        if (!target.canSnapshot() || now <= from
                || (now - from) * (long) runtime.agentCount() > BACKFILL_AGENT_TICKS) {
            return;
        }
        lines.get(agent).collectedUpTo = from;
        boolean wasPaused = paused;
        String why = reason;
        long[][] window = new long[RATE_WINDOW][];
        for (int i = 0; i < RATE_WINDOW; i++) {
            window[i] = firedWindow[i].clone();
        }
        int wt = windowTicks;
        try {
            target.restore(snapshotAt(replay != null ? snapshotTickBefore(from + 1) : history.firstKey()), 
                    replay != null ? snapshotTickBefore(from + 1) : history.firstKey());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        // lines of the agents watched before are already collected up to now: they are skipped
        while (target.tick() < now) {
            tick(false);
        }
        for (int i = 0; i < RATE_WINDOW; i++) {
            firedWindow[i] = window[i];
        }
        windowTicks = wt;
        paused = wasPaused;
        reason = why;
    }

    // ---- views ------------------------------------------------------------------------------------

    private long[] scanOccupancy() {
        long[] occ = new long[tree.stateCount];
        for (int a = 0, n = runtime.agentCount(); a < n; a++) {
            int s = activeState(a);
            if (s >= 0 && runtime.treeStatus(a) == RunStatus.RUNNING) {
                occ[s]++;
            }
        }
        return occ;
    }

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
        long[] occ = new long[tree.stateCount];
        for (int s = 0; s < occ.length; s++) {
            occ[s] = occupancyScan != null ? occupancyScan[s] : r.occupancy(s);
        }
        long[] below = new long[tree.stateCount];
        for (int s = tree.stateCount - 1; s >= 0; s--) {
            below[s] += occ[s];
            if (tree.stateParent[s] >= 0) {
                below[tree.stateParent[s]] += below[s];
            }
        }
        o.put("running", tree.stateCount == 0 ? 0 : below[0]);
        ArrayNode oa = o.putArray("occupancy");
        ArrayNode ob = o.putArray("occupancyBelow");
        for (int s = 0; s < occ.length; s++) {
            oa.add(occ[s]);
            ob.add(below[s]);
        }
        ArrayNode fired = o.putArray("fired");
        ArrayNode rate = o.putArray("rate");
        long k = target.tick();
        for (int tr = 0; tr < tree.transitionCount; tr++) {
            fired.add(windowTicks == 0 ? 0 : firedWindow[(int) (k % RATE_WINDOW)][tr]);
            long sum = 0;
            for (int i = 0; i < windowTicks; i++) {
                sum += firedWindow[(int) Math.floorMod(k - i, (long) RATE_WINDOW)][tr];
            }
            rate.add(windowTicks == 0 ? 0.0 : Math.round(1000.0 * sum / windowTicks) / 1000.0);
        }
        boolean counted = windowTicks > 0;
        o.put("failures", counted ? r.failures() : 0);
        o.put("dropped", counted ? r.droppedEvents() : 0);
        o.put("rejected", counted ? r.rejectedEvents() : 0);
        o.put("breakpoints", breakpoints.size());
        o.put("target", target.describe());
        status = o.toString();
    }

    /** The tree as the page draws it. */
    String treeJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", tree.name);
        ArrayNode states = o.putArray("states");
        for (int s = 0; s < tree.stateCount; s++) {
            ObjectNode st = states.addObject();
            st.put("id", s);
            st.put("path", tree.statePath[s]);
            st.put("name", tree.stateName[s]);
            st.put("parent", tree.stateParent[s]);
            st.put("depth", tree.stateDepth[s]);
        }
        ArrayNode trs = o.putArray("transitions");
        for (int tr = 0; tr < tree.transitionCount; tr++) {
            ObjectNode t = trs.addObject();
            t.put("id", tr);
            t.put("state", tree.transitionSource[tr]);
            t.put("statePath", tree.statePath[tree.transitionSource[tr]]);
            t.put("index", tree.transitionDeclaredIndex[tr] & 0xFF);
            t.put("trigger", Vocabulary.Trigger.of(tree.transitionTrigger[tr]).assetName());
            if (tree.transitionTrigger[tr] == CompiledStateTree.TRIGGER_EVENT) {
                t.put("event", tree.tagName(tree.transitionEvent[tr]));
            } else {
                t.putNull("event");
            }
            t.put("target", tree.transitionTargetName(tr));
            int target = tree.transitionTarget[tr];
            t.put("targetId", target >= 0 && target < tree.stateCount ? target : -1);
            t.put("priority", Vocabulary.Priority.of(tree.transitionPriority[tr]).assetName());
            if (tree.isGated(tr)) {
                t.put("delay", tree.transitionDelay[tr]);
            }
            t.put("text", Breakpoint.describeTransition(tree, tr));
        }
        ArrayNode params = o.putArray("parameters");
        for (int p = 0; p < tree.paramName.length; p++) {
            ObjectNode pa = params.addObject();
            pa.put("name", tree.paramName[p]);
            pa.put("type", tree.enumValues(p) != null ? "enum" : tree.paramType[p].assetName());
        }
        return o.toString();
    }

    // ---- closing -----------------------------------------------------------------------------------

    /** Stops the session thread, finishes the recording and closes the target. */
    @Override
    public void close() {
        closed = true;
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
