package dev.crowdtree.demo.serve;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.TokenOptions;
import dev.crowdtree.demo.http.Json;
import dev.crowdtree.demo.http.HttpFront;
import dev.crowdtree.demo.http.HttpLimits;
import dev.crowdtree.demo.cli.SimOptions;
import dev.crowdtree.demo.cli.Problems;
import dev.crowdtree.demo.debug.DebugCommand;
import dev.crowdtree.demo.debug.Debugger;
import dev.crowdtree.demo.sim.SimSettings;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.demo.sim.Simulation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code serve}: a live view of a simulation (the crowd by default, or a model of yours) in the browser. Binds a small HTTP server (loopback by
 * default), runs the simulation in real time on its own thread and serves a canvas page that draws
 * every agent coloured by its active state, with play, pause, speed and an inspector for the agent
 * you click. Runs until Ctrl+C. Exit 2 for bad options, a port in use or a tree that does not
 * compile; 1 if the simulation fails. An address other than loopback ({@code --bind}) requires
 * {@code --token}, which every request must then carry. The server's limits against slow and
 * numerous clients are in {@link ServerLimits} and {@link CrowdServer}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve a live view of a simulation (the crowd, or yours with --model/--nodes) in the browser "
                + "(http://127.0.0.1:8080/ by default).",
        footer = {"", "Limits against slow or numerous clients: " + ServerLimits.DEFAULTS_TEXT})
public final class ServeCommand implements Callable<Integer> {
    @Mixin
    SimOptions options;

    @Option(names = "--port", description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).", defaultValue = "8080")
    int port;

    @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only). "
            + "Any other address requires a token (--token-file, $" + TokenOptions.ENV + " or --token).", defaultValue = "127.0.0.1")
    String bind;

    @Mixin
    TokenOptions tokens;

    @Option(names = "--debug", description = "Serve the debugger (docs/DEBUGGER.md) on the simulation instead of the "
            + "viewer: the tree with live counts, breakpoints, the agent finder, each agent's explained trace and host "
            + "columns, and time travel.")
    boolean debug;

    @Option(names = "--history", paramLabel = "TICKS", description = "With --debug: ticks kept for time travel "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "300")
    int history;

    @Option(names = "--snapshot-every", paramLabel = "TICKS", description = "With --debug: ticks between the snapshots "
            + "time travel restores (default: ${DEFAULT-VALUE}).", defaultValue = "30")
    int snapshotEvery;

    @Option(names = "--max-connections", paramLabel = "N", description = "Open HTTP connections at most; beyond it a "
            + "new connection closes the one idle the longest, or itself (default: " + ServerLimits.MAX_CONNECTIONS + ").")
    Integer maxConnections;

    @Option(names = "--max-connections-per-client", paramLabel = "N", description = "Open HTTP connections from one "
            + "address at most; beyond it a new one closes that address's connection idle the longest, or itself "
            + "(default: " + HttpLimits.MAX_CONNECTIONS_PER_CLIENT + "; on loopback every client is one address).")
    Integer maxConnectionsPerClient;

    @Option(names = "--max-frame-streams", paramLabel = "N", description = "Frame requests (waiting or being sent) "
            + "at once; more get 503 and Retry-After: 1 (default: " + ServerLimits.MAX_FRAME_STREAMS + ").")
    Integer maxFrameStreams;

    @Option(names = "--speed", description = "Initial speed, simulated seconds per real second, 0.1..16 (default: ${DEFAULT-VALUE}).",
            defaultValue = "1.0")
    double speed;

    @Option(names = "--lod", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Level of detail: StateTree tick periods by distance to the observer, who stands at the "
                    + "selected agent, or at --observer while none is selected (default: on; --no-lod to switch off).")
    boolean lod;

    /** The server's limits; the options above change the caps, tests shorten the timeouts. */
    ServerLimits limits = ServerLimits.DEFAULTS;

    private final PrintStream out;
    private final PrintStream err;

    /** The command as picocli builds it: prints to {@code System.out} and {@code System.err}. */
    public ServeCommand() {
        this(System.out, System.err);
    }

    /** The command printing to the given streams (tests). */
    ServeCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        InetAddress address;
        AccessToken access;
        ServerLimits serverLimits;
        try {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port = " + port + " is out of range; valid range is 0..65535");
            }
            if (!(speed >= SimLoop.MIN_SPEED && speed <= SimLoop.MAX_SPEED)) {
                throw new IllegalArgumentException("--speed = " + speed + " is out of range; valid range is "
                        + SimLoop.MIN_SPEED + ".." + (int) SimLoop.MAX_SPEED);
            }
            serverLimits = limits;
            if (maxConnections != null) {
                serverLimits = serverLimits.withMaxConnections(maxConnections);
            }
            if (maxConnectionsPerClient != null) {
                serverLimits = serverLimits.withMaxConnectionsPerClient(maxConnectionsPerClient);
            }
            if (maxFrameStreams != null) {
                serverLimits = serverLimits.withMaxFrameStreams(maxFrameStreams);
            }
            address = InetAddress.getByName(bind);
            access = tokens.resolve();
            if (access == null && !address.isLoopbackAddress()) {
                throw new IllegalArgumentException("--bind " + bind + " is not a loopback address and requires --token TOKEN, "
                        + "--token-file FILE or $" + TokenOptions.ENV + " (16+ characters, e.g. from: openssl rand -hex 16), "
                        + "which every request must carry");
            }
        } catch (UnknownHostException e) {
            err.println("error: --bind " + bind + " is not a known host or address");
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }

        SimOptions.Plan plan = options.plan(null, err, InputFiles.DEFAULT_MAX_BYTES);
        if (plan == null) {
            return 2;
        }
        if (debug) {
            return debug(plan, access, serverLimits);
        }
        CrowdServer server;
        try {
            server = CrowdServer.bind(new InetSocketAddress(address, port), serverLimits, access);
        } catch (BindException e) {
            err.println("error: " + HttpFront.bindProblem(bind, address, port, e));
            return 2;
        } catch (IOException e) {
            err.println("error: cannot listen on " + bind + ":" + port + ": " + e.getMessage());
            return 2;
        }
        // THREADING: the hook runs on a JVM shutdown thread (Ctrl+C) while call() waits in awaitStop;
        // CrowdServer.close() is synchronized and idempotent, so both may call it.
        Thread hook = new Thread(server::close, "crowd-serve-shutdown");
        try {
            long setup0 = System.nanoTime();
            Simulation sim = options.open(plan, lod, err);
            if (sim == null) {
                return 2;
            }
            SimSettings config = sim.settings();
            try {
                server.start(sim, speed);
            } catch (IllegalArgumentException e) {
                sim.close();
                err.println("error: " + e.getMessage());
                return 2;
            }
            Runtime.getRuntime().addShutdownHook(hook);
            out.printf(Locale.ROOT, "crowdtree serve: %,d agents, %d workers, seed %d, tree %s (%d states), speed %s, "
                            + "LOD %s, setup %.2f s%n",
                    config.agents(), config.workers(), config.seed(),
                    plan.treeName(), sim.tree().stateCount,
                    Json.number(speed), sim.lod() == null ? "off" : "on", (System.nanoTime() - setup0) / 1e9);
            out.println("mode: " + Printable.escape(sim.mode()));
            if (!address.isLoopbackAddress()) {
                err.println("warning: --bind " + bind + " is not a loopback address: anyone who can reach this machine "
                        + "and has the token can watch and control the simulation (plain HTTP: the token is not "
                        + "encrypted on the way)");
            }
            out.println("serving " + (sim.modelName().equals("crowd") ? "the crowd" : "model " + sim.modelName())
                    + " on " + url(server.address()) + " (Ctrl+C to stop)");
            if (access != null) {
                out.println("every request needs the token: open " + url(server.address()) + "?token=<the token>");
            }
            out.flush();
            server.awaitStop();
            Throwable failure = server.failure();
            if (failure != null) {
                err.println("error: the simulation stopped: " + failure);
                return 1;
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } finally {
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running or ran
            }
        }
    }

    /** The page's address: the bound address, or 127.0.0.1 when bound to all addresses. */
    static String url(InetSocketAddress a) {
        InetAddress ip = a.getAddress();
        String host;
        if (ip.isAnyLocalAddress()) {
            host = "127.0.0.1";
        } else if (ip instanceof Inet6Address) {
            host = "[" + ip.getHostAddress() + "]";
        } else {
            host = ip.getHostAddress();
        }
        return "http://" + host + ":" + a.getPort() + "/";
    }

    /** {@code serve --debug}: the debugger on the simulation. */
    private int debug(SimOptions.Plan plan, AccessToken access, ServerLimits limits) {
        if (history < 0 || snapshotEvery < 1) {
            return Problems.usage(err, "--history must be >= 0 and --snapshot-every >= 1");
        }
        long setup0 = System.nanoTime();
        Simulation sim = options.open(plan, lod, err);
        if (sim == null) {
            return 2;
        }
        SimSettings config = sim.settings();
        Debugger.Options options = Debugger.Options.defaults().port(port).bind(bind).token(access == null ? null : access.value())
                .ticksPerSecond(speed / config.dt()).history(history, snapshotEvery).limits(limits.http());
        Debugger d;
        try {
            d = Debugger.openSimulation(sim, plan.model(), this.options.nodeErrorPolicy(), options);
        } catch (BindException e) {
            sim.close();
            return Problems.usage(err, e.getMessage()); // Debugger says which: the port in use, or not this machine's address
        } catch (IOException | IllegalArgumentException e) {
            sim.close();
            return Problems.usage(err, e.getMessage());
        }
        out.printf(Locale.ROOT, "setup %.2f s%n", (System.nanoTime() - setup0) / 1e9);
        return DebugCommand.serve(d, out, err);
    }
}
