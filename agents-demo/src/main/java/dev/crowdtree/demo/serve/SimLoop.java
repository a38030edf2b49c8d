package dev.crowdtree.demo.serve;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.demo.http.Json;
import dev.crowdtree.core.time.FixedStepClock;
import dev.crowdtree.demo.serve.FrameBuffers.Frame;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.demo.sim.Scene;
import dev.crowdtree.statetree.exec.PayloadMismatch;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.exec.TraceSink;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The simulation thread of {@code serve}: runs the crowd in real time (speed x 1/dt ticks per
 * second through the world's {@link FixedStepClock}, at most a tenth of a simulated second per
 * batch so a slow machine drops time instead of spiralling), pausable, and after every batch of
 * ticks publishes a snapshot into {@link FrameBuffers}. Between ticks it runs requests that HTTP
 * threads post with {@link #call(Supplier)}: selecting and inspecting an agent, play, pause, speed.
 * The HTTP threads do not wait for them: the answer is written when the future completes.
 *
 * <p>THREADING: the simulation thread is the only thread that touches the {@link Simulation} (its
 * world, columns, tree system and trace sink) after {@link #start()}; the sim is handed over by
 * {@link Thread#start()}, which orders everything the constructing thread did before it. Other
 * threads talk to it only through the request queue (a {@link LinkedBlockingQueue}; results come
 * back through {@link CompletableFuture}s) and read only published frames. The fields marked
 * "sim thread only" below are never read elsewhere.
 */
final class SimLoop implements Runnable {
    /** Lowest and highest speed accepted by {@code --speed} and {@code POST /control}. */
    static final double MIN_SPEED = 0.1;
    static final double MAX_SPEED = 16;
    /** Trace lines kept for the selected agent. */
    static final int TRACE_LINES = 30;

    private static final long REQUEST_TIMEOUT_MS = 5000;
    private static final long IDLE_WAIT_MS = 4;
    /** Wall time after which a batch of ticks stops early (the rest of its simulated time is dropped). */
    private static final long BATCH_NANOS = 50_000_000L;
    private static final long PAUSED_WAIT_MS = 50;

    private final Simulation sim;
    private final FrameBuffers frames;
    private final LinkedBlockingQueue<Request<?>> requests = new LinkedBlockingQueue<>();
    private final Thread thread;

    // sim thread only
    private final StateTreeSystem system;
    private final SoaTable table;
    private final Scene scene;
    private final FixedStepClock clock;
    private final int[] occupancy;
    private final float quant;
    private boolean paused;
    private double speed;
    private boolean dirty = true;
    private long seq;
    private int selected = -1;
    private final String[] traceRing = new String[TRACE_LINES];
    private int traceHead;
    private int traceCount;
    private final TraceSink traceSink = this::traceLine;
    private long windowStart;
    private int windowTicks;
    private long windowTickNanos;
    private float ticksPerSecond;
    private float tickMillis;
    /** The observer while no agent is selected (--observer, or the world's centre). */
    private final float pointX;
    private final float pointY;

    // THREADING: written by stop() on any thread, read by the sim thread each loop.
    private volatile boolean stopping;
    // THREADING: written once by the sim thread when it dies, read by HTTP threads and the command.
    private volatile Throwable failure;

    SimLoop(Simulation sim, double initialSpeed, int readers) {
        this.sim = sim;
        this.system = sim.system();
        this.table = sim.table();
        this.scene = sim.scene();
        this.clock = sim.world().clock();
        this.speed = initialSpeed;
        this.occupancy = new int[sim.tree().stateCount];
        this.quant = FrameFormat.QMAX / worldSize(sim);
        this.pointX = sim.observerX();
        this.pointY = sim.observerY();
        int capacity = FrameFormat.frameBytes(table.capacity(), sim.tree().stateCount, scene.threats(),
                scene.objects());
        this.frames = new FrameBuffers(readers + 2, capacity);
        this.thread = new Thread(this, "crowd-sim");
    }

    FrameBuffers frames() {
        return frames;
    }

    /** Starts the simulation thread. After this, only that thread touches the sim. */
    void start() {
        thread.start();
    }

    /** Asks the loop to stop (it closes the sim on its way out) and waits for it, at most {@code millis}. */
    void stop(long millis) throws InterruptedException {
        stopping = true;
        requests.add(new Request<>(null)); // wakes it if it waits for requests
        thread.join(millis);
    }

    /** Waits until the simulation thread ends (stopped, or died: see {@link #failure()}). */
    void join() throws InterruptedException {
        thread.join();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    /** Why the simulation thread died, or null. */
    Throwable failure() {
        return failure;
    }

    /**
     * Runs {@code request} on the simulation thread between two ticks; the future completes there
     * with its result (or with the request's exception). Does not wait. Any thread but the
     * simulation thread.
     *
     * @return the result; completes exceptionally with an {@link IllegalStateException} when the
     *         simulation has stopped or does not answer within {@value #REQUEST_TIMEOUT_MS} ms
     */
    <T> CompletableFuture<T> call(Supplier<T> request) {
        if (!thread.isAlive() || stopping) {
            return CompletableFuture.failedFuture(new IllegalStateException("the simulation is not running"
                    + (failure == null ? "" : " (it failed: " + failure + ")")));
        }
        Request<T> r = new Request<>(request);
        requests.add(r);
        CompletableFuture<T> out = new CompletableFuture<>();
        r.result.orTimeout(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
            if (e == null) {
                out.complete(v);
            } else {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                out.completeExceptionally(cause instanceof TimeoutException
                        ? new IllegalStateException("the simulation did not answer within " + REQUEST_TIMEOUT_MS + " ms")
                        : cause);
            }
        });
        return out;
    }

    // ---- the loop (sim thread) ------------------------------------------------------------------

    @Override
    public void run() {
        try {
            long last = System.nanoTime();
            windowStart = last;
            publish(last);
            while (!stopping) {
                runRequests();
                long now = System.nanoTime();
                double real = (now - last) / 1e9;
                last = now;
                // at most 0.1 s of simulated time per batch (at least 2 ticks), and at most BATCH_NANOS
                // of wall time: a machine too slow for the speed drops time instead of falling behind
                int maxSteps = (int) Math.max(2, Math.ceil(0.1 * speed / clock.dt()));
                int steps = paused ? 0 : clock.stepsFor(real * speed, maxSteps);
                // a pause that arrives between two ticks of the batch (runRequests below) stops it there
                for (int i = 0; i < steps && !stopping && !paused
                        && (i == 0 || System.nanoTime() - now < BATCH_NANOS); i++) {
                    long t0 = System.nanoTime();
                    followObserver();
                    sim.tick();
                    windowTickNanos += System.nanoTime() - t0;
                    windowTicks++;
                    runRequests();
                }
                long after = System.nanoTime();
                boolean windowClosed = measure(after);
                if (steps > 0 || dirty || windowClosed && paused) {
                    publish(after);
                }
                if (steps == 0) {
                    Request<?> r = requests.poll(paused ? PAUSED_WAIT_MS : IDLE_WAIT_MS, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        r.run();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
            System.err.println("error: the simulation failed at tick " + sim.tickNumber() + ": " + t);
            t.printStackTrace();
        } finally {
            stopping = true;
            sim.close();
            Request<?> r;
            while ((r = requests.poll()) != null) {
                r.fail(new IllegalStateException("the simulation has stopped"));
            }
        }
    }

    /** The LOD observer stands at the selected agent (where the viewer looks), else at the point. */
    private void followObserver() {
        int row = selected < 0 ? -1 : rowOf(selected);
        if (row >= 0) {
            sim.setObserver(sim.xs()[row], sim.ys()[row]);
        } else {
            sim.setObserver(pointX, pointY);
        }
    }

    private void runRequests() {
        Request<?> r;
        while ((r = requests.poll()) != null) {
            r.run();
        }
    }

    /** Updates ticks/s and ms/tick once a second; returns whether a window closed. */
    private boolean measure(long now) {
        long span = now - windowStart;
        if (span < 1_000_000_000L) {
            return false;
        }
        ticksPerSecond = (float) (windowTicks * 1e9 / span);
        tickMillis = windowTicks == 0 ? 0f : (float) (windowTickNanos / 1e6 / windowTicks);
        windowStart = now;
        windowTicks = 0;
        windowTickNanos = 0;
        return true;
    }

    /** Writes a snapshot into a free buffer and publishes it. Allocation: none in steady state. */
    private void publish(long now) {
        Frame f = frames.writable();
        if (f == null) {
            return; // every spare buffer is being sent; the next batch publishes
        }
        int n = table.size();
        int states = occupancy.length;
        Scene sc = scene;
        int t = sc.threats();
        int o = sc.objects();
        int length = FrameFormat.frameBytes(n, states, t, o);
        f.ensure(length);
        ByteBuffer b = f.buf;
        seq++;
        long tick = sim.tickNumber();
        system.countActiveStates(occupancy);
        int running = 0;
        for (int c : occupancy) {
            running += c;
        }
        b.putInt(FrameFormat.OFF_MAGIC, FrameFormat.MAGIC);
        b.putShort(FrameFormat.OFF_VERSION, (short) FrameFormat.VERSION);
        b.putShort(FrameFormat.OFF_HEADER, (short) FrameFormat.HEADER_BYTES);
        b.putLong(FrameFormat.OFF_TICK, tick);
        b.putInt(FrameFormat.OFF_SEQ, (int) seq);
        b.putInt(FrameFormat.OFF_AGENTS, n);
        b.putShort(FrameFormat.OFF_STATES, (short) states);
        b.putShort(FrameFormat.OFF_THREATS, (short) t);
        b.putInt(FrameFormat.OFF_OBJECTS, o);
        b.putFloat(FrameFormat.OFF_WORLD, worldSize(sim));
        b.putFloat(FrameFormat.OFF_TPS, paused ? 0f : ticksPerSecond);
        b.putFloat(FrameFormat.OFF_SPEED, (float) speed);
        b.put(FrameFormat.OFF_FLAGS, (byte) (paused ? FrameFormat.FLAG_PAUSED : 0));
        b.put(FrameFormat.OFF_SLOTS, (byte) Math.min(255, sc.slots()));
        b.putShort(46, (short) 0);
        int selRow = selected < 0 ? -1 : rowOf(selected);
        float[] x = sim.xs();
        float[] y = sim.ys();
        b.putInt(FrameFormat.OFF_SELECTED, selRow < 0 ? -1 : selected);
        b.putShort(FrameFormat.OFF_SELECTED_X, selRow < 0 ? 0 : q(x[selRow]));
        b.putShort(FrameFormat.OFF_SELECTED_Y, selRow < 0 ? 0 : q(y[selRow]));
        b.putFloat(FrameFormat.OFF_TICK_MS, tickMillis);
        b.putInt(FrameFormat.OFF_RUNNING, running);
        int p = FrameFormat.HEADER_BYTES;
        for (int s = 0; s < states; s++, p += 4) {
            b.putInt(p, occupancy[s]);
        }
        for (int k = 0; k < t; k++, p += FrameFormat.THREAT_BYTES) {
            b.putShort(p, q(sc.threatX()[k]));
            b.putShort(p + 2, q(sc.threatY()[k]));
            b.putShort(p + 4, q(sc.threatRadius()[k]));
            b.put(p + 6, sc.threatKind()[k]);
            b.put(p + 7, (byte) (sc.threatActive()[k] ? 1 : 0));
        }
        for (int r = 0; r < n; r++, p += 4) {
            b.putShort(p, q(x[r]));
            b.putShort(p + 2, q(y[r]));
        }
        byte[] bytes = f.bytes;
        for (int r = 0; r < n; r++) {
            int s = system.activeStateOfRow(r);
            bytes[p++] = (byte) (s < 0 || s >= FrameFormat.NO_STATE ? FrameFormat.NO_STATE : s);
        }
        int[] used = sc.objectUsed();
        for (int k = 0; k < o; k++) {
            bytes[p++] = (byte) Math.min(255, used[k]);
        }
        f.length = length;
        f.seq = seq;
        f.tick = tick;
        frames.publish(f);
        dirty = false;
    }

    /** The side of the square the viewer draws: the world's larger extent. */
    static float worldSize(Simulation sim) {
        return Math.max(sim.width(), sim.height());
    }

    private short q(float v) {
        int i = (int) (v * quant + 0.5f);
        return (short) (i < 0 ? 0 : Math.min(FrameFormat.QMAX, i));
    }

    private int rowOf(int agentId) {
        return sim.world().tableOf(agentId) == table ? sim.world().rowOf(agentId) : -1;
    }

    // ---- requests (run on the sim thread through call()) ----------------------------------------

    /** Play, pause and speed; returns the resulting control state as JSON. Sim thread. */
    String control(Boolean pause, Double newSpeed, boolean deselect) {
        if (newSpeed != null) {
            speed = newSpeed;
        }
        if (pause != null && pause != paused) {
            paused = pause;
        }
        if (deselect) {
            select(-1);
        }
        dirty = true;
        publish(System.nanoTime());
        return controlJson();
    }

    /** The control state as JSON. Sim thread. */
    String controlJson() {
        return String.format(Locale.ROOT, "{\"paused\":%b,\"speed\":%s,\"tick\":%d,\"selected\":%d}", paused,
                Json.number(speed), sim.tickNumber(), selected);
    }

    /**
     * Statistics as JSON: running agents, the share awake in the StateTree phase of the last tick,
     * the LOD observer and the agents per LOD band, and the payload mismatches counted since the
     * start (rule E5). Sim thread.
     */
    String statsJson() {
        int running = sim.runningAgents();
        int awake = sim.awakeLastTick();
        StringBuilder sb = new StringBuilder(512);
        sb.append("{\"tick\":").append(sim.tickNumber())
                .append(",\"running\":").append(running)
                .append(",\"awake\":").append(awake)
                .append(",\"awakeShare\":").append(Json.number(running == 0 ? 0 : (double) awake / running))
                .append(",\"ticksPerSecond\":").append(Json.number(paused ? 0 : ticksPerSecond))
                .append(",\"tickMillis\":").append(Json.number(tickMillis));
        LodBands bands = sim.lod();
        sb.append(",\"lod\":{\"enabled\":").append(bands != null)
                .append(",\"observer\":{\"x\":").append(Json.number(sim.observerX()))
                .append(",\"y\":").append(Json.number(sim.observerY()))
                .append(",\"at\":").append(Json.string(selected >= 0 && rowOf(selected) >= 0 ? "selected agent" : "point"))
                .append("},\"bands\":[");
        if (bands != null) {
            int[] counts = new int[bands.count()];
            sim.countLodBands(counts);
            for (int b = 0; b < counts.length; b++) {
                sb.append(b == 0 ? "" : ",").append("{\"period\":").append(bands.periodOfBand(b))
                        .append(",\"label\":").append(Json.string(bands.describe(b)))
                        .append(",\"agents\":").append(counts[b]).append('}');
            }
        }
        sb.append("]},\"payloadMismatches\":");
        return payloadMismatchesJson(sb, sim.system().unmatchedPayloads()).append('}').toString();
    }

    /** Appends the payload mismatches (rule E5) as a JSON array of {tag, field, reason, count}; returns {@code sb}. */
    static StringBuilder payloadMismatchesJson(StringBuilder sb, List<PayloadMismatch> mismatches) {
        sb.append('[');
        for (int i = 0; i < mismatches.size(); i++) {
            PayloadMismatch m = mismatches.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"tag\":").append(Json.string(m.tag()))
                    .append(",\"field\":").append(Json.string(m.field()))
                    .append(",\"reason\":").append(Json.string(m.reason()))
                    .append(",\"count\":").append(m.count()).append('}');
        }
        return sb.append(']');
    }

    /**
     * Describes the agent nearest to world position (wx, wy), selecting it with {@code select}; null
     * when there are no agents. Sim thread.
     */
    String agentNearest(float wx, float wy, boolean select) {
        float[] x = sim.xs();
        float[] y = sim.ys();
        int best = -1;
        float bestD2 = Float.POSITIVE_INFINITY;
        for (int r = 0, n = table.size(); r < n; r++) {
            float dx = x[r] - wx;
            float dy = y[r] - wy;
            float d2 = dx * dx + dy * dy;
            if (d2 < bestD2) {
                bestD2 = d2;
                best = r;
            }
        }
        if (best < 0) {
            return null;
        }
        int id = table.agentIds().data()[best];
        return agentById(id, select);
    }

    /**
     * Describes agent {@code id}, selecting it (if not already) with {@code select}; null when there
     * is no such agent. Sim thread.
     */
    String agentById(int id, boolean select) {
        if (rowOf(id) < 0) {
            return null;
        }
        if (select) {
            select(id);
        }
        return describe(id);
    }

    private void select(int id) {
        if (id == selected) {
            return;
        }
        selected = id;
        traceHead = 0;
        traceCount = 0;
        Arrays.fill(traceRing, null);
        if (id < 0) {
            system.setTrace(null);
        } else {
            system.setTrace(traceSink, id);
        }
        dirty = true;
    }

    private void traceLine(int agentId, String line) {
        if (agentId != selected) {
            return;
        }
        traceRing[(traceHead + traceCount) % TRACE_LINES] = line;
        if (traceCount < TRACE_LINES) {
            traceCount++;
        } else {
            traceHead = (traceHead + 1) % TRACE_LINES;
        }
    }

    private String describe(int id) {
        int row = rowOf(id);
        int state = system.activeStateOfRow(row);
        StringBuilder sb = new StringBuilder(512);
        sb.append("{\"id\":").append(id)
                .append(",\"row\":").append(row)
                .append(",\"tick\":").append(sim.tickNumber())
                .append(",\"state\":").append(state)
                .append(",\"path\":").append(Json.string(system.activePath(id)))
                .append(",\"status\":").append(Json.string(RunStatus.name(system.treeStatus(id))))
                .append(",\"stateChanges\":").append(system.stateChangeCount(id))
                .append(",\"x\":").append(Json.number(sim.xs()[row]))
                .append(",\"y\":").append(Json.number(sim.ys()[row]))
                .append(",\"columns\":{");
        List<String> names = sim.columnNames();
        for (int i = 0; i < names.size(); i++) {
            double v = sim.columnValue(row, names.get(i));
            boolean isFloat = "float".equals(table.column(names.get(i)).typeName());
            sb.append(i == 0 ? "" : ",").append(Json.string(names.get(i))).append(':')
                    .append(isFloat ? Json.number((float) v) : Json.number(v));
        }
        sb.append('}')
                .append(",\"selected\":").append(id == selected)
                .append(",\"trace\":[");
        for (int i = 0; id == selected && i < traceCount; i++) {
            sb.append(i == 0 ? "" : ",").append(Json.string(traceRing[(traceHead + i) % TRACE_LINES]));
        }
        return sb.append("]}").toString();
    }

    /** A request for the sim thread and its result. */
    private static final class Request<T> {
        final Supplier<T> body;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Request(Supplier<T> body) {
            this.body = body;
        }

        void run() {
            if (body == null) {
                return;
            }
            try {
                result.complete(body.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }

        void fail(Throwable t) {
            result.completeExceptionally(t);
        }
    }
}
