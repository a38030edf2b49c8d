package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.http.Answers;
import dev.crowdtree.demo.http.Params;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.demo.http.Json;
import dev.crowdtree.demo.http.Access;
import dev.crowdtree.demo.http.HttpFront;
import dev.crowdtree.demo.render.Palette;
import dev.crowdtree.demo.sim.Scene;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The HTTP side of {@code serve}, on Jetty 12 (its core API, no servlets):
 * <ul>
 *   <li>{@code GET /}, {@code /viewer.js}, {@code /viewer.css}: the page (from {@code web/} on the class path);</li>
 *   <li>{@code GET /meta}: JSON with the state paths and colours, world size, agent count, smart objects;</li>
 *   <li>{@code GET /frame[?after=seq]}: the latest snapshot in {@link FrameFormat}; with {@code after}, waits
 *       up to a second for a newer one;</li>
 *   <li>{@code POST /control}: {@code play}, {@code pause}, {@code speed=x}, {@code deselect}
 *       (form body or query, several joined with {@code &});</li>
 *   <li>{@code POST /agent?x=&y=} selects the agent nearest to a world position, {@code POST /agent?id=}
 *       selects one (the selection is shared: every viewer's frames show it, its trace is kept and
 *       the LOD observer stands at it, so only a POST of the page's own origin changes it);
 *       {@code GET /agent?id=} or {@code ?x=&y=} describes one without selecting it: JSON with its
 *       active path, position and, for the selected agent, its last trace lines;</li>
 *   <li>{@code GET /stats}: JSON with running agents, the share awake in the StateTree phase, the LOD
 *       observer and the agents per LOD band.</li>
 * </ul>
 * Bound to loopback by default; then requests must name a loopback host (against DNS rebinding), and
 * a {@code POST} from a page of another origin is refused. With an {@link AccessToken} (required by
 * {@code serve} off loopback) every request must carry it, else 401.
 *
 * <p>WHY JETTY AND NOT THE JDK's {@code HttpServer}: slow clients must not stop the server for
 * others. The JDK server reads and writes with blocking calls on its worker threads, so every
 * client that stalls mid-request or does not read its answer holds a worker until something closes
 * its socket; its only guards (in JDK 17: {@code sun.net.httpserver.maxReqTime}, {@code maxRspTime},
 * {@code idleInterval}, {@code jdk.httpserver.maxConnections}) are JVM-wide system properties read
 * once when the class loads, checked by a timer once a second, and {@code maxRspTime} counts the
 * whole answer including a long-poll's wait. Jetty reads request heads and bodies and writes
 * answers without blocking (a selector, no thread per stalled client), has a per-connection idle
 * timeout on reads and writes, a request head size limit and asynchronous answers, so a stalled
 * client costs a connection slot and nothing else, and all of it is configured per server.
 *
 * <p>LIMITS ({@link ServerLimits}, defaults in brackets), those of the {@link HttpFront} it shares with
 * the debugger: a request head (line and headers) must arrive whole within the header timeout [5 s]
 * of the connection opening or of its previous answer ({@link dev.crowdtree.demo.http.ConnectionGuard},
 * a total deadline: trickling does not extend it) and be at most [8 KB] (else 431); a body must
 * arrive within [5 s], at [512] bytes per second or more after its first half second
 * ({@link dev.crowdtree.demo.http.BodyReader}; else 408, connection closed) and be at most [4 KB]
 * (else 413); an answer that makes no progress for the write timeout [5 s] (the client does not
 * read) fails and the connection is closed (Jetty's idle timeout); at most [64] connections are
 * open, [32] of them from one address (a new one beyond a cap closes the connection idle the
 * longest among those the cap counts, or itself when every one has a request in progress); at most
 * [16] {@code /frame} requests wait or are written at once ({@link FrameStreams}: a new one takes
 * the slot of an answer left unread for [250 ms], whose connection is closed; when none is, it gets
 * 503 with {@code Retry-After: 1}), and a frame answer must be written whole within the write
 * timeout. Waiting for a frame, for a body and for the simulation holds no thread, so {@code /meta},
 * {@code /stats}, {@code /control} and {@code /agent} are answered while any number of long-polls
 * wait; [8] worker threads run the handlers, which never block.
 *
 * <p>THREADING: handlers run on Jetty's worker threads and never block. They read only immutable
 * data built before the simulation thread started ({@link #meta}, the static files) and published
 * frames ({@link FrameBuffers}); everything that touches the simulation goes through
 * {@link SimLoop#call}, whose future completes on the simulation thread; the answer is then
 * written from a worker thread (never from the simulation thread).
 */
public final class CrowdServer implements AutoCloseable {
        private static final Map<String, String> STATIC = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/viewer.js", "viewer.js",
            "/viewer.css", "viewer.css");

    private final HttpFront front;
    private final ServerLimits limits;
    private final boolean loopbackOnly;
    private final AccessToken token;
    private final Map<String, byte[]> files = new LinkedHashMap<>();
    // THREADING: all three written once in start() before the HTTP server starts (Server.start
    // orders them before every request); read-only afterwards.
    private SimLoop loop;
    private FrameStreams frames;
    private byte[] meta;
    private boolean closed;

    private CrowdServer(InetSocketAddress address, ServerLimits limits, AccessToken token) {
        this.limits = limits;
        this.token = token;
        this.loopbackOnly = address.getAddress().isLoopbackAddress();
        front = new HttpFront(address, limits.http(), "crowd-http", this::route);
        for (String name : STATIC.values()) {
            files.computeIfAbsent(name, CrowdServer::resource);
        }
        if (token != null) { // the page loads its script and style with the token it was opened with
            String page = new String(files.get("index.html"), StandardCharsets.UTF_8)
                    .replace("src=\"viewer.js\"", "src=\"viewer.js?token=" + token.value() + "\"")
                    .replace("href=\"viewer.css\"", "href=\"viewer.css?token=" + token.value() + "\"");
            files.put("index.html", page.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Binds the server (not started yet) to {@code address} with the default limits and no token;
     * port 0 picks a free port.
     *
     * @throws java.net.BindException when the port is in use or the address is not local
     */
    public static CrowdServer bind(InetSocketAddress address) throws IOException {
        return bind(address, ServerLimits.DEFAULTS, null);
    }

    /**
     * Binds the server (not started yet) to {@code address}; port 0 picks a free port. With a token,
     * every request must carry it.
     *
     * @throws java.net.BindException when the port is in use or the address is not local
     */
    static CrowdServer bind(InetSocketAddress address, ServerLimits limits, AccessToken token) throws IOException {
        CrowdServer s = new CrowdServer(address, limits, token);
        s.front.bind();
        return s;
    }

    /** The port the server listens on. */
    public int port() {
        return front.port();
    }

    /** The address the server listens on. */
    public InetSocketAddress address() {
        return front.address();
    }

    /**
     * Starts serving {@code sim}, which from now on belongs to the server: its own thread runs it at
     * {@code speed} (0.1..16) and closes it when the server closes. Call once, from the thread that
     * built the sim.
     */
    public void start(Simulation sim, double speed) {
        if (loop != null) {
            throw new IllegalStateException("the server is already started");
        }
        if (!(speed >= SimLoop.MIN_SPEED && speed <= SimLoop.MAX_SPEED)) {
            throw new IllegalArgumentException("speed = " + speed + " is out of range; valid range is "
                    + SimLoop.MIN_SPEED + ".." + (int) SimLoop.MAX_SPEED);
        }
        if (sim.tree().stateCount > FrameFormat.MAX_STATES) {
            throw new IllegalArgumentException("the tree has " + sim.tree().stateCount + " states; the live view "
                    + "sends a state as one byte and supports at most " + FrameFormat.MAX_STATES);
        }
        meta = metaJson(sim).getBytes(StandardCharsets.UTF_8);
        loop = new SimLoop(sim, speed, limits.maxFrameStreams());
        frames = new FrameStreams(loop.frames(), front.threads(), front.scheduler(), limits.maxFrameStreams(),
                limits.writeTimeoutMs());
        loop.start();
        front.start();
    }

    /** Waits until the simulation stops: closed, or failed (see {@link #failure()}). */
    public void awaitStop() throws InterruptedException {
        if (loop != null) {
            loop.join();
        }
    }

    /** Why the simulation failed, or null. */
    public Throwable failure() {
        return loop == null ? null : loop.failure();
    }

    /** Stops the HTTP server and the simulation (which closes the sim). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // a caller that was interrupted (serve's thread) still gets an orderly stop: Jetty's and the
        // loop's waits would otherwise end at once; the interrupt is restored afterwards
        boolean interrupted = Thread.interrupted();
        front.close(); // closes every connection and the port, stops the threads
        if (loop != null) {
            try {
                loop.stop(10_000);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- /meta ----------------------------------------------------------------------------------

    private static String metaJson(Simulation sim) {
        CompiledStateTree t = sim.tree();
        Scene d = sim.scene();
        int[] colors = Palette.stateColors(t);
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("{\"format\":{\"magic\":\"CTF1\",\"version\":").append(FrameFormat.VERSION)
                .append(",\"headerBytes\":").append(FrameFormat.HEADER_BYTES)
                .append(",\"threatBytes\":").append(FrameFormat.THREAT_BYTES)
                .append(",\"noState\":").append(FrameFormat.NO_STATE)
                .append(",\"qmax\":").append(FrameFormat.QMAX).append('}');
        sb.append(",\"tree\":").append(Json.string(t.name));
        sb.append(",\"model\":").append(Json.string(sim.modelName()));
        sb.append(",\"agents\":").append(sim.settings().agents());
        sb.append(",\"seed\":").append(sim.settings().seed());
        sb.append(",\"workers\":").append(sim.settings().workers());
        sb.append(",\"dt\":").append(Json.number(sim.settings().dt()));
        sb.append(",\"worldSize\":").append(Json.number(SimLoop.worldSize(sim)));
        sb.append(",\"states\":[");
        for (int s = 0; s < t.stateCount; s++) {
            sb.append(s == 0 ? "" : ",").append("{\"id\":").append(s)
                    .append(",\"name\":").append(Json.string(t.stateName(s)))
                    .append(",\"path\":").append(Json.string(t.statePath(s)))
                    .append(",\"depth\":").append(t.stateDepth(s))
                    .append(",\"leaf\":").append(!t.hasChildren(s))
                    .append(",\"color\":\"").append(String.format(Locale.ROOT, "#%06x", colors[s] & 0xFFFFFF))
                    .append("\"}");
        }
        sb.append("],\"threats\":{\"count\":").append(d.threats())
                .append(",\"kinds\":[\"predator\",\"fire\"]}");
        sb.append(",\"smartObjects\":{\"count\":").append(d.objects())
                .append(",\"slots\":").append(d.slots()).append(",\"x\":[");
        for (int o = 0; o < d.objects(); o++) {
            sb.append(o == 0 ? "" : ",").append(Json.number(Math.round(d.objectX()[o] * 10) / 10f));
        }
        sb.append("],\"y\":[");
        for (int o = 0; o < d.objects(); o++) {
            sb.append(o == 0 ? "" : ",").append(Json.number(Math.round(d.objectY()[o] * 10) / 10f));
        }
        return sb.append("]}}").toString();
    }

    // ---- dispatch -------------------------------------------------------------------------------

    /**
     * Answers a request (on an HTTP worker, counted by the front's guard); never blocks: answers now,
     * or when a future or a frame completes. Throws {@link BadRequest} only before it hands the
     * request on.
     */
    private void route(Request request, Response response, Callback done) {
        String method = request.getMethod();
        String path = request.getHttpURI().getDecodedPath();
        Map<String, String> q = Access.check(request, response, loopbackOnly, token);
        switch (path) {
            case "/meta":
                if (allow(request, response, done, "GET")) {
                    Answers.send(request, response, done, 200, Answers.JSON, meta);
                }
                break;
            case "/frame":
                if (allow(request, response, done, "GET")) {
                    String after = q.get("after");
                    frames.serve(after == null ? null : Params.parseLong("after", after), request, response, done);
                }
                break;
            case "/control":
                if (allow(request, response, done, "POST")) {
                    control(request, response, done);
                }
                break;
            case "/agent":
                if (request.getMethod().equals("POST")) {
                    Access.sameOrigin(request, "selection requests");
                    reply(agent(q, true), request, response, done);
                } else if (allow(request, response, done, "GET")) {
                    reply(agent(q, false), request, response, done);
                }
                break;
            case "/stats":
                if (allow(request, response, done, "GET")) {
                    reply(loop.call(loop::statsJson), request, response, done);
                }
                break;
            default:
                String file = STATIC.get(path);
                if (file == null) {
                    throw new BadRequest(404, "no such page: " + path);
                } else if (allow(request, response, done, "GET")) {
                    Answers.send(request, response, done, 200, contentType(file), files.get(file));
                }
        }
    }

    /** {@link HttpFront#allow}, as a test: true when the method is allowed (else throws 405). */
    private static boolean allow(Request request, Response response, Callback done, String allowed) {
        HttpFront.allow(request, response, allowed);
        return true;
    }

    /** Writes the JSON the future completes with, from a worker thread, or the error it fails with ({@link HttpFront#fail}). */
    private void reply(CompletableFuture<String> json, Request request, Response response, Callback done) {
        front.reply(json, request, response, done);
    }

    // ---- /control -------------------------------------------------------------------------------

    private void control(Request request, Response response, Callback done) {
        Access.sameOrigin(request, "control requests");
        String query = request.getHttpURI().getQuery();
        reply(front.readBody(request).thenCompose(body -> loop.call(controlAction(query, body))), request, response,
                done);
    }

    /** The control request in {@code query} and {@code body}, checked, as an action for the simulation thread. */
    private Supplier<String> controlAction(String query, String body) {
        String all = (query == null ? "" : query) + "&" + body.strip();
        Boolean pause = null;
        Double speed = null;
        boolean deselect = false;
        boolean any = false;
        for (String item : all.split("&")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            String key = Params.decode(eq < 0 ? item : item.substring(0, eq)).strip();
            String value = eq < 0 ? null : Params.decode(item.substring(eq + 1)).strip();
            if (key.equals("token")) {
                continue; // the access token, checked already
            }
            any = true;
            if (key.equals("action") && value != null) {
                key = value;
                value = null;
            }
            switch (key) {
                case "play":
                    pause = false;
                    break;
                case "pause":
                    pause = true;
                    break;
                case "deselect":
                    deselect = true;
                    break;
                case "speed":
                    speed = parseSpeed(value);
                    break;
                default:
                    throw new BadRequest(400, "unknown control '" + item
                            + "'; use play, pause, speed=<" + SimLoop.MIN_SPEED + ".." + (int) SimLoop.MAX_SPEED
                            + "> or deselect");
            }
        }
        if (!any) {
            throw new BadRequest(400, "empty control; send play, pause, speed=<x> or deselect");
        }
        final Boolean p = pause;
        final Double s = speed;
        final boolean d = deselect;
        return () -> loop.control(p, s, d);
    }

    // ---- /agent ---------------------------------------------------------------------------------

    /** Describes the agent {@code q} names ({@code id}, or nearest to {@code x, y}), selecting it with {@code select}. */
    private CompletableFuture<String> agent(Map<String, String> q, boolean select) {
        if (q.containsKey("id")) {
            long id = Params.parseLong("id", q.get("id"));
            if (id < 0 || id > Integer.MAX_VALUE) {
                throw new BadRequest(404, "no agent " + id);
            }
            return loop.call(() -> loop.agentById((int) id, select)).thenApply(json -> {
                if (json == null) {
                    throw new BadRequest(404, "no agent " + id);
                }
                return json;
            });
        } else if (q.containsKey("x") && q.containsKey("y")) {
            float x = Params.parseFloat("x", q.get("x"));
            float y = Params.parseFloat("y", q.get("y"));
            return loop.call(() -> loop.agentNearest(x, y, select)).thenApply(json -> {
                if (json == null) {
                    throw new BadRequest(404, "there are no agents");
                }
                return json;
            });
        }
        throw new BadRequest(400, "give ?id=<agent id> or ?x=<world x>&y=<world y>");
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** A speed for {@code /control}, in range; 400 otherwise. */
    private static Double parseSpeed(String value) {
        double v;
        try {
            v = Double.parseDouble(value == null ? "" : value);
        } catch (NumberFormatException e) {
            throw new BadRequest(400, "speed = '" + value + "' is not a number");
        }
        if (!(v >= SimLoop.MIN_SPEED && v <= SimLoop.MAX_SPEED)) {
            throw new BadRequest(400, "speed = " + value + " is out of range; valid range is " + SimLoop.MIN_SPEED
                    + ".." + (int) SimLoop.MAX_SPEED);
        }
        return v;
    }

    private static String contentType(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (file.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (file.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "application/octet-stream";
    }

    private static byte[] resource(String name) {
        String path = "web/" + name;
        try (InputStream in = CrowdServer.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the page resource " + path + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
