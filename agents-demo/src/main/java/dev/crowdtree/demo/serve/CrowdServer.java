package dev.crowdtree.demo.serve;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.crowdtree.demo.render.Palette;
import dev.crowdtree.demo.serve.FrameBuffers.Frame;
import dev.crowdtree.demo.sim.CrowdData;
import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP side of {@code serve}, on the JDK's {@link HttpServer}:
 * <ul>
 *   <li>{@code GET /}, {@code /viewer.js}, {@code /viewer.css}: the page (from {@code web/} on the class path);</li>
 *   <li>{@code GET /meta}: JSON with the state paths and colours, world size, agent count, smart objects;</li>
 *   <li>{@code GET /frame[?after=seq]}: the latest snapshot in {@link FrameFormat}; with {@code after}, waits
 *       up to a second for a newer one;</li>
 *   <li>{@code POST /control}: {@code play}, {@code pause}, {@code speed=x}, {@code deselect}
 *       (form body or query, several joined with {@code &});</li>
 *   <li>{@code GET /agent?x=&y=} selects the agent nearest to a world position, {@code GET /agent?id=}
 *       selects or polls one: JSON with its active path, position and last trace lines;</li>
 *   <li>{@code GET /stats}: JSON with running agents, the share awake in the StateTree phase, the LOD
 *       observer and the agents per LOD band.</li>
 * </ul>
 * Bound to loopback by default; then requests must name a loopback host (against DNS rebinding), and
 * a {@code POST} from a page of another origin is refused.
 *
 * <p>THREADING: requests run on a small pool of HTTP threads. They read only immutable data built
 * before the simulation thread started ({@link #meta}, the static files) and published frames
 * ({@link FrameBuffers}); everything that touches the simulation goes through
 * {@link SimLoop#call}, which runs it on the simulation thread between ticks.
 */
public final class CrowdServer implements AutoCloseable {
    /** HTTP threads; also the most frames read at once. */
    static final int HTTP_THREADS = 4;
    private static final long FRAME_WAIT_MS = 1000;
    private static final int MAX_BODY = 4096;
    private static final Map<String, String> STATIC = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/viewer.js", "viewer.js",
            "/viewer.css", "viewer.css");

    private final HttpServer http;
    private final ExecutorService pool;
    private final boolean loopbackOnly;
    private final Map<String, byte[]> files = new LinkedHashMap<>();
    // THREADING: both written once in start() before the HTTP server starts (HttpServer.start and
    // the executor's queue order them before every request); read-only afterwards.
    private SimLoop loop;
    private byte[] meta;
    private boolean closed;

    private CrowdServer(HttpServer http, boolean loopbackOnly) {
        this.http = http;
        this.loopbackOnly = loopbackOnly;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(HTTP_THREADS, r -> {
            Thread t = new Thread(r, "crowd-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        for (String name : STATIC.values()) {
            files.computeIfAbsent(name, CrowdServer::resource);
        }
        http.setExecutor(pool);
        http.createContext("/", this::handle);
    }

    /**
     * Binds the server (not started yet) to {@code address}; port 0 picks a free port.
     *
     * @throws java.net.BindException when the port is in use or the address is not local
     */
    public static CrowdServer bind(InetSocketAddress address) throws IOException {
        return new CrowdServer(HttpServer.create(address, 64), address.getAddress().isLoopbackAddress());
    }

    /** The port the server listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** The address the server listens on. */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    /**
     * Starts serving {@code sim}, which from now on belongs to the server: its own thread runs it at
     * {@code speed} (0.1..16) and closes it when the server closes. Call once, from the thread that
     * built the sim.
     */
    public void start(CrowdSim sim, double speed) {
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
        loop = new SimLoop(sim, speed, HTTP_THREADS);
        loop.start();
        http.start();
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
        http.stop(0);
        pool.shutdownNow();
        if (loop != null) {
            try {
                loop.stop(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- /meta ----------------------------------------------------------------------------------

    private static String metaJson(CrowdSim sim) {
        CompiledStateTree t = sim.tree();
        CrowdData d = sim.data();
        int[] colors = Palette.stateColors(t);
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("{\"format\":{\"magic\":\"CTF1\",\"version\":").append(FrameFormat.VERSION)
                .append(",\"headerBytes\":").append(FrameFormat.HEADER_BYTES)
                .append(",\"threatBytes\":").append(FrameFormat.THREAT_BYTES)
                .append(",\"noState\":").append(FrameFormat.NO_STATE)
                .append(",\"qmax\":").append(FrameFormat.QMAX).append('}');
        sb.append(",\"tree\":").append(Json.string(t.name));
        sb.append(",\"agents\":").append(sim.config().agents());
        sb.append(",\"seed\":").append(sim.config().seed());
        sb.append(",\"workers\":").append(sim.config().workers());
        sb.append(",\"dt\":").append(Json.number(sim.config().dt()));
        sb.append(",\"worldSize\":").append(Json.number(d.worldSize));
        sb.append(",\"states\":[");
        for (int s = 0; s < t.stateCount; s++) {
            sb.append(s == 0 ? "" : ",").append("{\"id\":").append(s)
                    .append(",\"name\":").append(Json.string(t.stateName[s]))
                    .append(",\"path\":").append(Json.string(t.statePath[s]))
                    .append(",\"depth\":").append(t.stateDepth[s])
                    .append(",\"leaf\":").append(!t.hasChildren(s))
                    .append(",\"color\":\"").append(String.format(Locale.ROOT, "#%06x", colors[s] & 0xFFFFFF))
                    .append("\"}");
        }
        sb.append("],\"threats\":{\"count\":").append(d.threats.count())
                .append(",\"kinds\":[\"predator\",\"fire\"]}");
        sb.append(",\"smartObjects\":{\"count\":").append(d.objects.count())
                .append(",\"slots\":").append(d.objects.slots).append(",\"x\":[");
        for (int o = 0; o < d.objects.count(); o++) {
            sb.append(o == 0 ? "" : ",").append(Json.number(Math.round(d.objects.x[o] * 10) / 10f));
        }
        sb.append("],\"y\":[");
        for (int o = 0; o < d.objects.count(); o++) {
            sb.append(o == 0 ? "" : ",").append(Json.number(Math.round(d.objects.y[o] * 10) / 10f));
        }
        return sb.append("]}}").toString();
    }

    // ---- dispatch -------------------------------------------------------------------------------

    private void handle(HttpExchange ex) {
        try {
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getPath();
            if (loopbackOnly && !loopbackHost(ex.getRequestHeaders().getFirst("Host"))) {
                sendError(ex, 403, "this server answers only requests addressed to a loopback host (127.0.0.1, "
                        + "localhost or [::1])");
                return;
            }
            switch (path) {
                case "/meta":
                    if (allow(ex, method, "GET")) {
                        send(ex, 200, "application/json", meta);
                    }
                    break;
                case "/frame":
                    if (allow(ex, method, "GET")) {
                        frame(ex);
                    }
                    break;
                case "/control":
                    if (allow(ex, method, "POST")) {
                        control(ex);
                    }
                    break;
                case "/agent":
                    if (allow(ex, method, "GET")) {
                        agent(ex);
                    }
                    break;
                case "/stats":
                    if (allow(ex, method, "GET")) {
                        send(ex, 200, "application/json",
                                loop.call(loop::statsJson).getBytes(StandardCharsets.UTF_8));
                    }
                    break;
                default:
                    String file = STATIC.get(path);
                    if (file == null) {
                        sendError(ex, 404, "no such page: " + path);
                    } else if (allow(ex, method, "GET")) {
                        send(ex, 200, contentType(file), files.get(file));
                    }
            }
        } catch (BadRequest e) {
            sendError(ex, e.status, e.getMessage());
        } catch (IllegalStateException e) {
            sendError(ex, 503, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sendError(ex, 503, "the server is stopping");
        } catch (IOException e) {
            // the client went away: nothing to answer
        } catch (RuntimeException e) {
            sendError(ex, 500, "internal error: " + e);
        } finally {
            ex.close();
        }
    }

    private static boolean allow(HttpExchange ex, String method, String allowed) throws IOException {
        if (method.equals(allowed) || method.equals("HEAD") && allowed.equals("GET")) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", allowed);
        sendError(ex, 405, ex.getRequestURI().getPath() + " takes " + allowed + ", not " + method);
        return false;
    }

    // ---- /frame ---------------------------------------------------------------------------------

    private void frame(HttpExchange ex) throws IOException, InterruptedException {
        Map<String, String> q = params(ex.getRequestURI().getRawQuery());
        String after = q.get("after");
        FrameBuffers frames = loop.frames();
        if (after != null) {
            frames.awaitNewer(parseLong("after", after), FRAME_WAIT_MS);
        }
        Frame f = frames.acquire();
        if (f == null) {
            sendError(ex, 503, "no frame yet: the simulation is starting");
            return;
        }
        try {
            Headers h = ex.getResponseHeaders();
            h.set("Content-Type", "application/octet-stream");
            h.set("Cache-Control", "no-store");
            h.set("X-Frame-Seq", Long.toString(f.seq));
            h.set("X-Frame-Tick", Long.toString(f.tick));
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.sendResponseHeaders(200, -1);
                return;
            }
            ex.sendResponseHeaders(200, f.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(f.bytes, 0, f.length);
            }
        } finally {
            frames.release(f);
        }
    }

    // ---- /control -------------------------------------------------------------------------------

    private void control(HttpExchange ex) throws IOException, InterruptedException {
        String origin = ex.getRequestHeaders().getFirst("Origin");
        String host = ex.getRequestHeaders().getFirst("Host");
        if (origin != null && !origin.equals("http://" + host)) {
            throw new BadRequest(403, "control requests from another origin (" + origin + ") are refused");
        }
        String body = readBody(ex);
        String query = ex.getRequestURI().getRawQuery();
        String all = (query == null ? "" : query) + "&" + body.strip();
        Boolean pause = null;
        Double speed = null;
        boolean deselect = false;
        boolean any = false;
        for (String token : all.split("&")) {
            if (token.isBlank()) {
                continue;
            }
            any = true;
            int eq = token.indexOf('=');
            String key = decode(eq < 0 ? token : token.substring(0, eq)).strip();
            String value = eq < 0 ? null : decode(token.substring(eq + 1)).strip();
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
                    throw new BadRequest(400, "unknown control '" + token
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
        String json = loop.call(() -> loop.control(p, s, d));
        send(ex, 200, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

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

    // ---- /agent ---------------------------------------------------------------------------------

    private void agent(HttpExchange ex) throws IOException, InterruptedException {
        Map<String, String> q = params(ex.getRequestURI().getRawQuery());
        String json;
        if (q.containsKey("id")) {
            long id = parseLong("id", q.get("id"));
            if (id < 0 || id > Integer.MAX_VALUE) {
                throw new BadRequest(404, "no agent " + id);
            }
            json = loop.call(() -> loop.selectById((int) id));
            if (json == null) {
                throw new BadRequest(404, "no agent " + id);
            }
        } else if (q.containsKey("x") && q.containsKey("y")) {
            float x = parseFloat("x", q.get("x"));
            float y = parseFloat("y", q.get("y"));
            json = loop.call(() -> loop.selectNearest(x, y));
            if (json == null) {
                throw new BadRequest(404, "there are no agents");
            }
        } else {
            throw new BadRequest(400, "give ?id=<agent id> or ?x=<world x>&y=<world y>");
        }
        send(ex, 200, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** An answer other than 200, with its message. */
    private static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private static long parseLong(String name, String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest(400, name + " = '" + v + "' is not an integer");
        }
    }

    private static float parseFloat(String name, String v) {
        float f;
        try {
            f = Float.parseFloat(v.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest(400, name + " = '" + v + "' is not a number");
        }
        if (!Float.isFinite(f)) {
            throw new BadRequest(400, name + " = '" + v + "' is not a finite number");
        }
        return f;
    }

    private static Map<String, String> params(String rawQuery) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String token : (rawQuery == null ? "" : rawQuery).split("&")) {
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            m.put(decode(eq < 0 ? token : token.substring(0, eq)), eq < 0 ? "" : decode(token.substring(eq + 1)));
        }
        return m;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(400, "'" + s + "' is not URL-encoded properly");
        }
    }

    private static String readBody(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes(MAX_BODY + 1);
            if (b.length > MAX_BODY) {
                throw new BadRequest(413, "the request body is longer than " + MAX_BODY + " bytes");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    /** Whether a Host header names a loopback host (127.0.0.0/8, localhost, ::1), with or without a port. */
    static boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            h = end < 0 ? h : h.substring(1, end);
        } else if (h.indexOf(':') >= 0) {
            h = h.substring(0, h.indexOf(':'));
        }
        if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        if (!h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress(); // a literal: no lookup
        } catch (IOException e) {
            return false;
        }
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

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
        }
    }

    private static void sendError(HttpExchange ex, int status, String message) {
        if (ex.getResponseCode() != -1) {
            return; // headers already sent: the client sees a cut response
        }
        try {
            send(ex, status, "application/json",
                    ("{\"error\":" + Json.string(message) + "}").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the client went away
        }
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
