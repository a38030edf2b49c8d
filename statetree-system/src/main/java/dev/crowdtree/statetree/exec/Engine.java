package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;

/**
 * What runs behind the {@link StateTreeRuntime} facade ({@code StateTreeSystem}): the parts a call's
 * chunk work needs, and the order of a call's phases. It owns the per-agent columns
 * ({@link InstanceData}) and the host's bindings ({@link HostBinding}), the chunks' schedules and
 * outputs ({@link Chunks}), one {@link ChunkRunner} per worker, the {@link EventRouter}, the host's
 * {@link HostRequests}, the {@link Observers}, the {@link PhaseTimes}, the chunk kernels
 * ({@link SystemKernels}) and the {@link TickFrame} they hand the runners, plus the counters a
 * snapshot keeps (steps, timer dt, last tick, awake agents).
 *
 * <p>A call ({@link #tickAll}, {@link #start}, {@link #stop}) is: write the frame; prepare (bind the
 * host's columns, refresh the columns, size the chunks, runners and request lists, clear the
 * outputs); for a tick, rebase the timers when dt changed and group the queued events by chunk; run
 * the call's kernel over the chunks in parallel; finish (merge the outputs in chunk order, deliver
 * the lines; for a tick, count for the recorder).
 *
 * <p>Allocation: a steady tick allocates nothing while tracing is off (the frame is rewritten in
 * place). THREADING: the simulation thread; its kernels run on the world's executor and read the
 * frame, the chunks and the router, which the simulation thread wrote before.
 */
final class Engine {
    final World world;
    final SoaTable table;
    final CompiledStateTree tree;
    final InstanceData data;
    final HostBinding host;
    final AgentRows rows;
    final Chunks chunks;
    final ChunkRunner[] runners;
    final EventRouter events;
    final HostRequests requests;
    final PhaseTimes times;
    final Observers observers; // the trace, its why lines, the population counters and watched agents
    final TickFrame frame = new TickFrame();

    private final SystemKernels.Tick tickKernel = new SystemKernels.Tick(this);
    private final SystemKernels.StartStop startKernel = new SystemKernels.StartStop(this, true);
    private final SystemKernels.StartStop stopKernel = new SystemKernels.StartStop(this, false);
    private final SystemKernels.Rebase rebaseKernel = new SystemKernels.Rebase(this);

    /** Steps run so far (tickAll calls). */
    int steps;
    /** The host dt every running timer's due step was derived with. */
    float timerDt;
    /** The tick number of the last call (tick, start or stop). */
    long tick;
    int awakeLastTick;
    boolean accessChecks;

    Engine(World world, SoaTable table, CompiledStateTree tree, boolean ownsWorld, int phases) {
        this.world = world;
        this.table = table;
        this.tree = tree;
        this.observers = new Observers(tree);
        this.host = new HostBinding(tree, table, ownsWorld);
        this.data = new InstanceData(table, tree);
        this.rows = new AgentRows(world, table);
        this.chunks = new Chunks(table, world.chunkSize());
        this.timerDt = world.clock().dt();
        this.frame.set(0, 0, 0f, timerDt);
        this.events = new EventRouter(world, rows, table, tree);
        this.requests = new HostRequests(world, rows, data, chunks);
        runners = new ChunkRunner[world.workers()];
        times = new PhaseTimes(world.workers(), phases);
        for (int w = 0; w < runners.length; w++) {
            runners[w] = new ChunkRunner(data, host, world, events, requests, times);
        }
        for (int r = 0; r < table.size(); r++) {
            requests.initializeRow(r);
        }
        table.addRowListener(chunks::rowsChanged);
    }

    /** One tick (step {@code steps + 1}) with the host's tick number and dt. */
    void tickAll(long tickNumber, float dt) {
        if (steps == InstanceData.NEVER - 1) {
            throw new IllegalStateException("this runtime has run " + steps + " ticks, the most its step counter holds");
        }
        steps++;
        tick = tickNumber;
        frame.set(tickNumber, steps, dt, timerDt);
        observers.beginTick();
        prepare();
        if (Float.floatToIntBits(dt) != Float.floatToIntBits(timerDt)) {
            world.executor().run(rebaseKernel, table.size(), chunks.rows); // from frame.timerDt to frame.dt
            timerDt = dt;
            frame.timerDt = dt;
            chunks.allDirty();
        }
        events.distribute(chunks.rows);
        world.executor().run(tickKernel, table.size(), chunks.rows);
        finish();
        awakeLastTick = events.awake;
        observers.endTick(tickNumber, chunks.outputs, chunks.count(), events);
    }

    /** Start of the never-started rows, or with {@code all} of every row. */
    void start(long tickNumber, boolean all) {
        beginCall(tickNumber);
        startKernel.all = all;
        world.executor().run(startKernel, table.size(), chunks.rows);
        finish();
    }

    /** Stop of agent {@code agent}'s tree, or of every running tree ({@link StateTreeRuntime#ALL}). */
    void stop(int agent, long tickNumber) {
        beginCall(tickNumber);
        if (agent == StateTreeRuntime.ALL) {
            world.executor().run(stopKernel, table.size(), chunks.rows);
        } else {
            int row = rows.rowOf(agent);
            if (row >= 0) {
                int cs = chunks.rows;
                int c = row / cs;
                runners[0].stopRange(chunks.schedules[c], c * cs, Math.min(table.size(), (c + 1) * cs), row, row + 1,
                        chunks.outputs[c], frame);
            }
        }
        finish();
    }

    /** A start or a stop: at {@code tickNumber}, in the last step run, with the last tick's dt. */
    private void beginCall(long tickNumber) {
        tick = tickNumber;
        frame.set(tickNumber, steps, frame.dt, timerDt);
        prepare();
    }

    private void prepare() {
        observers.occupancyDirty |= !observers.recordingTick; // a start or a stop, not a tick
        frame.observe(observers, times.on);
        host.requireExternals();
        host.refresh();
        if (accessChecks) {
            host.checkBefore(data.columns());
        }
        data.refresh();
        requests.ensureLists();
        chunks.ensure(tree.awakeGroupCount, tree.payloads.fieldCount(), events.mismatchKeys.size(),
                observers.recordingTick ? observers.recorder : null, world.executor());
        int n = Math.min(chunks.rows, Math.max(1, table.size()));
        for (ChunkRunner r : runners) {
            r.ensureCapacity(n);
        }
    }

    /** Merges chunk outputs in chunk order and delivers trace lines sorted by agent. */
    private void finish() {
        int n = chunks.count();
        events.merge(chunks.outputs, n);
        observers.deliver(chunks.outputs, n);
        if (accessChecks) {
            host.checkAfter();
        }
    }

    /** The node error policy of every runner. */
    void setIsolate(boolean isolate) {
        for (ChunkRunner r : runners) {
            r.setIsolate(isolate);
        }
    }

    /** Sets what a snapshot restores beyond the columns and events ({@link Snapshots}). */
    void restoreCounters(int stepCount, float dt, long tickNumber, int awake) {
        steps = stepCount;
        timerDt = dt;
        tick = tickNumber;
        awakeLastTick = awake;
    }
}
