package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.Access;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.Answers;
import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.demo.http.Params;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The debugger's HTTP side, on Jetty 12's core API: the page ({@code GET /}) and a JSON API
 * (docs/DEBUGGER.md): {@code GET /api/tree}, {@code /api/status}, {@code /api/find},
 * {@code /api/agent}, {@code /api/breakpoints}; {@code POST /api/pause}, {@code /api/continue},
 * {@code /api/step}, {@code /api/seek?tick=N}, {@code /api/breakpoints} (a JSON body),
 * {@code /api/agent/close?id=N}; {@code DELETE /api/breakpoints?id=N}. Errors are
 * {@code {"error": "..."}} with 400 (bad input, saying what would be valid), 404, 405 or 500.
 *
 * <p>Bound to loopback unless told otherwise, and then requests must name a loopback host (against
 * DNS rebinding); a {@code POST} or {@code DELETE} from a page of another origin is refused; with a
 * token (required off loopback), every request must carry it. Bodies are at most 4 KB.
 *
 * <p>THREADING: handlers run on Jetty's threads and wait for the session thread ({@link
 * DebugSession#await}); the tree JSON and the page are immutable; the status is a published string.
 */
final class DebugServer implements AutoCloseable {
    private static final int MAX_BODY = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DebugSession session;
    private final Server server;
    private final ServerConnector connector;
    private final AccessToken token;
    private final boolean loopbackOnly;
    private final byte[] page;
    private final byte[] tree;

    private DebugServer(DebugSession session, InetSocketAddress address, AccessToken token) {
        this.session = session;
        this.token = token;
        this.loopbackOnly = address.getAddress().isLoopbackAddress();
        QueuedThreadPool threads = new QueuedThreadPool(10, 2, 60_000);
        threads.setName("crowdtree-debug-http");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        server = new Server(threads);
        server.setStopTimeout(1000);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(8192);
        http.setSendServerVersion(false);
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(address.getAddress().getHostAddress());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(30_000);
        server.addConnector(connector);
        server.setHandler(new Dispatch());
        String html = resource("debug.html");
        if (token != null) {
            html = html.replace("const TOKEN = null;", "const TOKEN = " + JSON.valueToTree(token.value()) + ";");
        }
        page = html.getBytes(StandardCharsets.UTF_8);
        tree = session.treeJson().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Binds (port 0 picks a free port) and starts serving {@code session}.
     *
     * @throws BindException when the port is in use or the address is not this machine's
     */
    static DebugServer start(DebugSession session, InetSocketAddress address, AccessToken token) throws IOException {
        DebugServer s = new DebugServer(session, address, token);
        try {
            s.connector.open();
        } catch (IOException e) {
            s.connector.close();
            if (e.getCause() instanceof BindException) {
                throw (BindException) e.getCause();
            }
            throw e;
        }
        try {
            s.server.start();
        } catch (Exception e) {
            s.connector.close();
            throw new IOException("the HTTP server did not start: " + e, e);
        }
        return s;
    }

    int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping anyway: the threads are daemon
        }
        connector.close();
    }

    private static String resource(String name) {
        try (InputStream in = DebugServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + DebugServer.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final class Dispatch extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            try {
                route(request, response, callback);
            } catch (BadRequest e) {
                Answers.sendError(request, response, callback, e.status, e.getMessage());
            } catch (IllegalArgumentException e) {
                Answers.sendError(request, response, callback, 400, e.getMessage());
            } catch (IllegalStateException e) {
                Answers.sendError(request, response, callback, 503, e.getMessage());
            } catch (RuntimeException e) {
                Answers.sendError(request, response, callback, 500, "internal error: " + e);
            }
            return true;
        }
    }

    private void route(Request request, Response response, Callback done) {
        String method = request.getMethod();
        String path = request.getHttpURI().getDecodedPath();
        Map<String, String> q = Access.check(request, response, loopbackOnly, token);
        if (!method.equals("GET") && !method.equals("HEAD")) {
            Access.sameOrigin(request, "requests that change the run");
        }
        String answer;
        switch (path) {
            case "/":
            case "/index.html":
                allow(method, "GET");
                Answers.send(request, response, done, 200, "text/html; charset=utf-8", page);
                return;
            case "/api/tree":
                allow(method, "GET");
                Answers.send(request, response, done, 200, Answers.JSON, tree);
                return;
            case "/api/status":
                allow(method, "GET");
                answer = session.status();
                break;
            case "/api/pause":
                allow(method, "POST");
                answer = session.await(session::pauseNow);
                break;
            case "/api/continue":
                allow(method, "POST");
                answer = session.await(session::continueRun);
                break;
            case "/api/step":
                allow(method, "POST");
                answer = session.await(session::stepOnce);
                break;
            case "/api/seek": {
                allow(method, "POST");
                long t = Params.parseLong("tick", required(q, "tick"));
                answer = session.await(() -> session.seek(t));
                break;
            }
            case "/api/find": {
                allow(method, "GET");
                DebugViews.Query query = findQuery(q);
                answer = session.await(() -> session.find(query));
                break;
            }
            case "/api/agent": {
                allow(method, "GET");
                int id = (int) Params.parseLong("id", required(q, "id"));
                boolean open = "1".equals(q.get("open")) || "true".equals(q.get("open"));
                answer = session.await(() -> session.agent(id, open));
                break;
            }
            case "/api/agent/close": {
                allow(method, "POST");
                int id = (int) Params.parseLong("id", required(q, "id"));
                answer = session.await(() -> session.close(id));
                break;
            }
            case "/api/breakpoints":
                answer = breakpoints(method, request, q);
                break;
            default:
                throw new BadRequest(404, "no such page: " + path);
        }
        Answers.send(request, response, done, 200, Answers.JSON, answer.getBytes(StandardCharsets.UTF_8));
    }

    private String breakpoints(String method, Request request, Map<String, String> q) {
        switch (method) {
            case "GET":
            case "HEAD":
                return session.await(session::breakpointsJson);
            case "DELETE": {
                int id = (int) Params.parseLong("id", required(q, "id"));
                return session.await(() -> session.removeBreakpoint(id));
            }
            case "POST": {
                JsonNode b = body(request);
                String kind = text(b, "kind");
                String state = text(b, "state");
                Integer transition = b.hasNonNull("transition") ? b.get("transition").asInt(-1) : null;
                String tag = text(b, "tag");
                int agent = b.hasNonNull("agent") && !b.get("agent").asText().isBlank() ? b.get("agent").asInt(-1) : -1;
                Breakpoint.Spec spec = new Breakpoint.Spec(kind, state, transition, tag, agent, text(b, "column"),
                        crosses(b));
                return session.await(() -> session.addBreakpoint(spec));
            }
            default:
                throw new BadRequest(405, "/api/breakpoints takes GET, POST or DELETE, not " + method);
        }
    }

    /**
     * The finder's query: {@code state}, {@code param} with {@code min}/{@code max}, {@code column}
     * with {@code columnMin}/{@code columnMax} (or {@code min}/{@code max} when no {@code param} is
     * given), {@code limit}; a bound left out is no bound, a bound given must be a finite number.
     */
    private static DebugViews.Query findQuery(Map<String, String> q) {
        String state = blankToNull(q.get("state"));
        String param = blankToNull(q.get("param"));
        String column = blankToNull(q.get("column"));
        double min = bound(q, "min", Double.NEGATIVE_INFINITY);
        double max = bound(q, "max", Double.POSITIVE_INFINITY);
        double columnMin = bound(q, "columnMin", Double.NEGATIVE_INFINITY);
        double columnMax = bound(q, "columnMax", Double.POSITIVE_INFINITY);
        if (column != null && param == null) {
            boolean own = blankToNull(q.get("columnMin")) != null || blankToNull(q.get("columnMax")) != null;
            boolean shared = blankToNull(q.get("min")) != null || blankToNull(q.get("max")) != null;
            if (own && shared) {
                throw new BadRequest(400, "the column's range is given twice: give min/max or columnMin/columnMax, "
                        + "not both (min/max bound the parameter when param is given, else the column)");
            }
            if (shared) {
                columnMin = min;
                columnMax = max;
            }
        }
        int limit = (int) Math.min(100_000, Math.max(1, number(q, "limit", 1000)));
        return new DebugViews.Query(state, param, min, max, column, columnMin, columnMax, limit);
    }

    /** The threshold of a column breakpoint ({@code "crosses"}: a number, or a string holding one), or null. */
    private static Double crosses(JsonNode b) {
        JsonNode c = b.get("crosses");
        if (c == null || c.isNull() || c.isTextual() && c.asText().isBlank()) {
            return null;
        }
        if (c.isNumber()) {
            return c.doubleValue();
        }
        if (c.isTextual()) {
            try {
                return Double.parseDouble(c.asText().strip());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new BadRequest(400, "crosses = " + c + " is not a number: a column breakpoint needs the threshold the "
                + "column's value crosses, a finite number such as 15");
    }

    private static JsonNode body(Request request) {
        if (request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH) > MAX_BODY) {
            throw new BadRequest(413, "the request body is longer than " + MAX_BODY + " bytes");
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new BadRequest(413, "the request body is longer than " + MAX_BODY + " bytes");
            }
            JsonNode n = JSON.readTree(bytes);
            if (n == null || !n.isObject()) {
                throw new BadRequest(400, "the body must be a JSON object such as {\"kind\":\"enter\",\"state\":\"Root/A\"}");
            }
            return n;
        } catch (IOException e) {
            throw new BadRequest(400, "the body is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText();
    }

    private static void allow(String method, String allowed) {
        if (!method.equals(allowed) && !(method.equals("HEAD") && allowed.equals("GET"))) {
            throw new BadRequest(405, "this path takes " + allowed + ", not " + method);
        }
    }

    private static String required(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null || v.isBlank()) {
            throw new BadRequest(400, "missing query parameter '" + name + "'");
        }
        return v;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** {@link #number}, and when given, a finite one (a range's bound). */
    private static double bound(Map<String, String> q, String name, double otherwise) {
        double d = number(q, name, otherwise);
        if (blankToNull(q.get(name)) != null && !Double.isFinite(d)) {
            throw new BadRequest(400, name + " = '" + q.get(name) + "' is not a finite number: give a finite number "
                    + "such as 20, or leave " + name + " out for no bound");
        }
        return d;
    }

    private static double number(Map<String, String> q, String name, double otherwise) {
        String v = blankToNull(q.get(name));
        if (v == null) {
            return otherwise;
        }
        try {
            double d = Double.parseDouble(v);
            if (Double.isNaN(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BadRequest(400, name + " = '" + v + "' is not a number");
        }
    }
}
