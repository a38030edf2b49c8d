package dev.crowdtree.demo.debug;

import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.HttpFront;
import dev.crowdtree.demo.http.HttpLimits;
import dev.crowdtree.demo.model.ModelChoice;
import dev.crowdtree.demo.model.RunnableModel;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.statetree.model.ModelWorld;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.record.Recording;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioException;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The live debugger in the browser (docs/DEBUGGER.md): the tree as a graph with live occupancy per
 * state and firing rates per transition, an agent finder, an agent's panel (active path,
 * parameters, queued events, explained trace), breakpoints, stepping, and time travel over the last
 * ticks. Three ways in:
 * <ul>
 *   <li>{@link #openScenario}: a scripted scenario (the {@code debug} command);</li>
 *   <li>{@link #openSimulation}: the crowd (the {@code serve --debug} command);</li>
 *   <li>{@link #attach}: a runtime that your own program ticks; call {@link #afterTick} after each
 *       tick (it blocks while the debugger is paused). Artifact: {@code dev.crowdtree:agents-demo}.</li>
 * </ul>
 * Close it to stop the server and the run.
 */
public final class Debugger implements AutoCloseable {
    private final DebugSession session;
    private final DebugServer server;
    private final InetSocketAddress address;
    private final AttachedTarget attached;

    private Debugger(DebugSession session, DebugServer server, InetSocketAddress address, AttachedTarget attached) {
        this.session = session;
        this.server = server;
        this.address = address;
        this.attached = attached;
    }

    /**
     * How the debugger runs and where it listens. Immutable; change with the {@code with} methods.
     *
     * @param limits the HTTP server's limits ({@link HttpLimits}, shared with {@code serve})
     */
    public record Options(String bind, int port, String token, boolean paused, double ticksPerSecond,
                          int snapshotEvery, int historyTicks, long historyBytes, HttpLimits limits) {
        /**
         * Loopback, port 8090, no token, running at the scenario's real time (0 ticks per second:
         * as fast as it goes; negative: real time, 1/dt), a snapshot every 10 ticks, 1,000 ticks
         * of history in at most 512 MB, the HTTP limits of {@link HttpLimits#DEFAULTS}.
         */
        public static Options defaults() {
            return new Options("127.0.0.1", 8090, null, false, -1, 10, 1000, 512L << 20, HttpLimits.DEFAULTS);
        }

        public Options port(int port) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, historyBytes, limits);
        }

        public Options bind(String bind) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, historyBytes, limits);
        }

        public Options token(String token) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, historyBytes, limits);
        }

        /**
         * Starts paused: a scenario or the crowd after its start (tick 0); attached
         * ({@link Debugger#attach}), the first {@link Debugger#afterTick} blocks until the page (or
         * {@code POST /api/continue} or {@code /api/step}) lets it return.
         */
        public Options paused(boolean paused) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, historyBytes, limits);
        }

        public Options ticksPerSecond(double tps) {
            return new Options(bind, port, token, paused, tps, snapshotEvery, historyTicks, historyBytes, limits);
        }

        public Options history(int ticks, int snapshotEvery) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, ticks, historyBytes, limits);
        }

        public Options historyBytes(long bytes) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, bytes, limits);
        }

        /** The HTTP server's limits (timeouts, connection caps, threads). */
        public Options limits(HttpLimits limits) {
            return new Options(bind, port, token, paused, ticksPerSecond, snapshotEvery, historyTicks, historyBytes, limits);
        }

        void check() {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is out of range; valid range is 0..65535");
            }
            if (snapshotEvery < 1 || historyTicks < 0 || historyBytes < 0) {
                throw new IllegalArgumentException("the snapshot interval must be >= 1 tick and the history >= 0 ticks");
            }
            if (Double.isNaN(ticksPerSecond) || Double.isInfinite(ticksPerSecond)) {
                throw new IllegalArgumentException("ticks per second = " + ticksPerSecond + " is not a finite number; give "
                        + "0 (as fast as it goes) .. " + (int) DebugCommand.MAX_TPS + ", or a negative number for real time "
                        + "(1/dt)");
            }
            if (limits == null) {
                throw new IllegalArgumentException("the HTTP limits are missing: give HttpLimits.DEFAULTS or your own");
            }
        }

        DebugSession.Settings settings(float dt) {
            double tps = ticksPerSecond < 0 ? 1.0 / dt : ticksPerSecond;
            return new DebugSession.Settings(tps, snapshotEvery, historyTicks, historyBytes, paused);
        }
    }

    /**
     * Opens the debugger on a scripted scenario (its tree compiled with {@code nodes}, run on the
     * batched runtime bound as a standalone host), listening as {@code options} say.
     *
     * @throws ScenarioException         for a bad scenario
     * @throws StateTreeCompileException for a tree that does not compile
     * @throws IOException               when the port cannot be bound
     */
    public static Debugger openScenario(Path scenarioFile, NodeRegistry nodes, Options options)
            throws ScenarioException, StateTreeCompileException, IOException {
        return openScenario(scenarioFile, null, nodes, options, InputFiles.DEFAULT_MAX_BYTES, null);
    }

    /**
     * As {@link #openScenario(Path, NodeRegistry, Options)}, with the tree {@code treeFile} (null: the
     * scenario's), recording the run to {@code record} (null: not recorded).
     */
    static Debugger openScenario(Path scenarioFile, Path treeFile, NodeRegistry nodes, Options options, long maxBytes,
                                 Path record) throws ScenarioException, StateTreeCompileException, IOException {
        options.check();
        Scenario scenario = Scenario.load(scenarioFile, maxBytes);
        String text = Files.readString(scenarioFile, StandardCharsets.UTF_8);
        Path tree = treeFile != null ? treeFile : scenario.resolveTree();
        CompiledStateTree t = StateTreeJson.compile(tree,
                new StateTreeCompiler(nodes).withHostEvents(scenario.eventTags()), maxBytes);
        ScenarioTarget target = new ScenarioTarget(scenario, text, t,
                StandaloneHost.factory(StateTreeSystem::create, nodes));
        RecordingOut out = record == null ? null : Recordings.scenarioWriter(record, scenarioFile, text, tree,
                Files.readString(tree, StandardCharsets.UTF_8), t, options.snapshotEvery());
        return open(target, options.settings(scenario.dt()), options, null, out);
    }

    /**
     * Opens a recording ({@code debug --replay}): every view, over the whole recording; the run
     * re-simulates the recorded ticks and stops at the last one.
     */
    static Debugger openReplay(Recording rec, ModelChoice models, int workers, Options options)
            throws IOException, StateTreeCompileException, ScenarioException {
        options.check();
        DebugTarget target = Recordings.open(rec, models, workers);
        float dt = target instanceof SimTarget ? ((SimTarget) target).sim().settings().dt()
                : ((ScenarioTarget) target).scenario().dt();
        return open(target, options.settings(dt), options, rec, null);
    }

    /**
     * Opens the debugger on a simulation of any model; it owns {@code sim} from now on. Without the
     * model it was opened from, the debugger cannot copy the world, so an agent opened late has no
     * trace before it was opened ({@link #openSimulation(Simulation, RunnableModel, NodeErrorPolicy, Options)}
     * fills it).
     */
    public static Debugger openSimulation(Simulation sim, Options options) throws IOException {
        options.check();
        return open(new SimTarget(sim), options.settings(sim.settings().dt()), options, null, null);
    }

    /**
     * Opens the debugger on a simulation of {@code model} ({@code serve --debug}), run under
     * {@code policy} (null: the default); it owns {@code sim} from now on. When an agent is opened,
     * its trace over the history is filled by re-simulating the history on a copy of the world
     * loaded from a snapshot ({@link RunnableModel#load}, one worker), on a thread of its own, so the
     * run keeps its pace meanwhile.
     */
    public static Debugger openSimulation(Simulation sim, RunnableModel model, NodeErrorPolicy policy, Options options)
            throws IOException {
        options.check();
        SimTarget target = new SimTarget(sim, null, copies(model, sim.treeFile(), policy, InputFiles.DEFAULT_MAX_BYTES));
        return open(target, options.settings(sim.settings().dt()), options, null, null);
    }

    /**
     * Copies of a simulation of {@code model} from its snapshots: loaded with one worker (a
     * simulation is the same on any number; the copy leaves the other cores to the run), its tree
     * {@code treeFile} (null: the model's own), under {@code policy} (null: the default).
     */
    static SimTarget.Copies copies(RunnableModel model, Path treeFile, NodeErrorPolicy policy, long maxTreeBytes) {
        return snapshot -> {
            Simulation copy;
            try {
                copy = model.load(SnapshotReader.parse(snapshot), null, 1, treeFile, maxTreeBytes);
            } catch (StateTreeCompileException e) {
                throw new IOException("the tree does not compile again: " + e.getMessage(), e);
            }
            if (policy != null) {
                copy.system().setNodeErrorPolicy(policy);
            }
            return copy;
        };
    }

    /**
     * Opens the debugger on a scripted scenario run in a model's world ({@code debug scenario.json
     * --model PATH}): {@code model}'s columns with their initial values, its externals and host systems,
     * the scenario's agents, seed, workers, dt and tree, its inputs applied before each tick.
     *
     * @throws ScenarioException         for a bad scenario
     * @throws StateTreeCompileException for a tree that does not compile
     * @throws IOException               when the port cannot be bound
     */
    static Debugger openModelScenario(Path scenarioFile, Path treeFile, RunnableModel model, Options options,
                                      long maxBytes) throws ScenarioException, StateTreeCompileException, IOException {
        options.check();
        Scenario scenario = Scenario.load(scenarioFile, maxBytes);
        String text = Files.readString(scenarioFile, StandardCharsets.UTF_8);
        Path tree = treeFile != null ? treeFile : scenario.resolveTree();
        CompiledStateTree t = StateTreeJson.compile(tree,
                new StateTreeCompiler(model.registry()).withHostEvents(scenario.eventTags()), maxBytes);
        dev.crowdtree.statetree.reference.ScenarioRunner.validate(scenario, t);
        Simulation sim = model.open(new SimSettings(scenario.agents(), scenario.seed(), scenario.workers(), scenario.dt()),
                t, tree, null, null);
        sim.system().setNodeErrorPolicy(scenario.onNodeError());
        SimTarget target = new SimTarget(sim, new ScenarioInputs(scenario, text),
                copies(model, tree, scenario.onNodeError(), maxBytes));
        return open(target, options.settings(scenario.dt()), options, null, null);
    }

    static Debugger open(DebugTarget target, DebugSession.Settings settings, Options options, Recording replay,
                         RecordingOut recording) throws IOException {
        DebugSession session = new DebugSession(target, settings, replay, recording);
        return serve(session, options, null);
    }

    /**
     * Attaches the debugger to {@code runtime}, which your program ticks: call {@link #afterTick}
     * after each of your ticks. Time travel is off (the debugger cannot snapshot your world). The
     * runtime's recorder is turned on. With {@code options.paused(true)} the first
     * {@code afterTick} waits for Continue or Step. Needs no Hazelcast on the class path (the
     * artifact's optional dependency, for the command line's cluster work only).
     */
    public static Debugger attach(StateTreeRuntime runtime, Options options) throws IOException {
        options.check();
        return attach(new AttachedTarget(runtime), options);
    }

    /**
     * Attaches the debugger to a model's world that your program ticks ({@code world.tick()}, then
     * {@link #afterTick}): as {@link #attach(StateTreeRuntime, Options)}, with the agent panel showing
     * the model's own columns (every column its definition declares) before the tree's.
     */
    public static Debugger attach(ModelWorld world, Options options) throws IOException {
        options.check();
        return attach(new AttachedTarget(world), options);
    }

    private static Debugger attach(AttachedTarget target, Options options) throws IOException {
        DebugSession session = new DebugSession(target, new DebugSession.Settings(0, 1, 0, 0, options.paused()),
                null, null);
        return serve(session, options, target);
    }

    private static Debugger serve(DebugSession session, Options options, AttachedTarget attached) throws IOException {
        InetAddress host = InetAddress.getByName(options.bind());
        AccessToken token = options.token() == null ? null : AccessToken.of(options.token());
        if (token == null && !host.isLoopbackAddress()) {
            throw new IllegalArgumentException("--bind " + options.bind() + " is not a loopback address and requires "
                    + "--token TOKEN (16+ characters, e.g. from: openssl rand -hex 16)");
        }
        // the port first: a busy one is refused before the session runs, so before a recording is begun
        DebugServer server;
        try {
            server = DebugServer.start(session, new InetSocketAddress(host, options.port()), token, options.limits());
        } catch (BindException e) {
            session.close();
            BindException said = new BindException(HttpFront.bindProblem(options.bind(), host, options.port(), e));
            said.initCause(e);
            throw said;
        } catch (IOException | RuntimeException e) {
            session.target().close(); // never run: nothing else to stop
            throw e;
        }
        try {
            if (attached != null) {
                session.startAttached();
            } else {
                session.start();
            }
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return new Debugger(session, server, new InetSocketAddress(host, server.port()), attached);
    }

    /**
     * Attached mode: your program ran tick {@code tick} of the runtime. Updates the views, checks the
     * breakpoints, answers the page's requests, and blocks while the debugger is paused.
     */
    public void afterTick(long tick) throws InterruptedException {
        if (attached == null) {
            throw new IllegalStateException("afterTick is for a debugger attached to your own loop (Debugger.attach)");
        }
        attached.ticked(tick);
        session.afterHostTick();
    }

    /** The page's address, e.g. {@code http://127.0.0.1:8090/}. */
    public String url() {
        String h = address.getAddress().getHostAddress();
        return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + address.getPort() + "/";
    }

    /** The port the server listens on. */
    public int port() {
        return address.getPort();
    }

    /** Waits until the run stops (closed, or failed: {@link #failure()}). */
    public void awaitStop() throws InterruptedException {
        session.join();
    }

    /** Why the run failed, or null. */
    public Throwable failure() {
        return session.failure();
    }

    DebugSession session() {
        return session;
    }

    /** Stops the server and the run (a recording is finished). Idempotent. */
    @Override
    public void close() {
        server.close();
        session.close();
    }
}
