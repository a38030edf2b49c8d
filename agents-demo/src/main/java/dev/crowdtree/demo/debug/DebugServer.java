package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.http.Access;
import dev.crowdtree.demo.http.AccessToken;
import dev.crowdtree.demo.http.Answers;
import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.demo.http.HttpFront;
import dev.crowdtree.demo.http.HttpLimits;
import dev.crowdtree.demo.http.Json;
import dev.crowdtree.demo.http.Params;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The debugger's HTTP side, on the {@link HttpFront} it shares with {@code serve}: the page
 * ({@code GET /}) and a JSON API (docs/DEBUGGER.md): {@code GET /api/tree}, {@code /api/status},
 * {@code /api/find}, {@code /api/agent}, {@code /api/breakpoints}; {@code POST /api/pause},
 * {@code /api/continue}, {@code /api/step}, {@code /api/seek?tick=N}, {@code /api/breakpoints} (a
 * JSON body), {@code /api/agent/open?id=N}, {@code /api/agent/close?id=N};
 * {@code DELETE /api/breakpoints?id=N}. A {@code GET} changes nothing (an {@code <img>} on any
 * page can send one); everything that does is a {@code POST} or {@code DELETE}, refused from a
 * page of another origin. Errors are {@code {"error": "..."}} with 400 (bad input, saying what
 * would be valid), 401, 403, 404, 405, 408, 409 (a cap, named), 413, 431, 500 or 503 (busy, with
 * {@code Retry-After}).
 *
 * <p>Every JSON answer has the characters that can reorder or hide text (bidirectional controls and
 * other format characters, C1 controls, line separators) escaped ({@link Json#safe}), whatever a
 * tree or a request named. Numbers in query strings and bodies are parsed strictly: integers in
 * range (never wrapped), typed JSON fields, finite bounds; else a 400 saying what would be valid.
 *
 * <p>Bound to loopback unless told otherwise, and then requests must name a loopback host (against
 * DNS rebinding); a {@code POST} or {@code DELETE} from a page of another origin is refused; with a
 * token (required off loopback), every request must carry it. The front's limits apply
 * ({@link HttpLimits}: head and body deadlines, a rate floor on bodies, connection caps in all and
 * per address, a fixed thread budget); bodies are at most 4 KB.
 *
 * <p>THREADING: handlers run on the front's worker threads and never wait: what reads or changes
 * the run is posted to the session thread ({@link DebugSession#call}) and answered from a worker
 * when it completes, so the workers stay free for {@code /api/status} (a published string), the
 * tree and the page (immutable), whatever the session is busy with. At most
 * {@link DebugSession#MAX_PENDING} calls wait for the session; more get 503.
 */
final class DebugServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most agents {@code /api/find} lists ({@code limit}). */
    static final int MAX_FIND_LIMIT = 100_000;
    /** How long a request waits for the session thread before it is answered 503. */
    static final long SESSION_WAIT_MS = 60_000;

    private final DebugSession session;
    private final HttpFront front;
    private final AccessToken token;
    private final boolean loopbackOnly;
    private final byte[] page;
    private final byte[] tree;

    private DebugServer(DebugSession session, InetSocketAddress address, AccessToken token, HttpLimits limits) {
        this.session = session;
        this.token = token;
        this.loopbackOnly = address.getAddress().isLoopbackAddress();
        this.front = new HttpFront(address, limits, "crowdtree-debug-http", this::route);
        String html = resource("debug.html");
        if (token != null) {
            html = html.replace("const TOKEN = null;", "const TOKEN = " + JSON.valueToTree(token.value()) + ";");
        }
        page = html.getBytes(StandardCharsets.UTF_8);
        tree = Json.safe(session.treeJson()).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Binds (port 0 picks a free port) and starts serving {@code session} with {@code limits}.
     *
     * @throws BindException when the port is in use or the address is not this machine's
     */
    static DebugServer start(DebugSession session, InetSocketAddress address, AccessToken token, HttpLimits limits)
            throws IOException {
        DebugServer s = new DebugServer(session, address, token, limits);
        s.front.bind();
        try {
            s.front.start();
        } catch (IllegalStateException e) {
            s.front.close();
            throw new IOException(e.getMessage(), e);
        }
        return s;
    }

    int port() {
        return front.port();
    }

    @Override
    public void close() {
        front.close();
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

    /**
     * {@code work} on the session thread, as the answer's future: its JSON with the characters that
     * reorder or hide text escaped ({@link Json#safe}); a refusal there
     * ({@link IllegalArgumentException}) is a 400, no answer within {@link #SESSION_WAIT_MS} a 503.
     */
    private CompletableFuture<String> ask(Supplier<String> work) {
        return session.call(() -> {
            try {
                return work.get();
            } catch (IllegalArgumentException e) {
                throw new BadRequest(400, e.getMessage());
            }
        }).thenApply(Json::safe).orTimeout(SESSION_WAIT_MS, TimeUnit.MILLISECONDS).exceptionally(e -> {
            Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (t instanceof TimeoutException) {
                throw BadRequest.busy("the debugging session did not answer within " + SESSION_WAIT_MS / 1000 + " s",
                        5);
            }
            throw e instanceof CompletionException ? (CompletionException) e : new CompletionException(t);
        });
    }

    /** Answers a request (on a worker of the front); throws {@link BadRequest} only before it hands it on. */
    private void route(Request request, Response response, Callback done) {
        String method = request.getMethod();
        String path = request.getHttpURI().getDecodedPath();
        Map<String, String> q = Access.check(request, response, loopbackOnly, token);
        if (!method.equals("GET") && !method.equals("HEAD")) {
            Access.sameOrigin(request, "requests that change the run");
        }
        CompletableFuture<String> answer;
        switch (path) {
            case "/":
            case "/index.html":
                HttpFront.allow(request, response, "GET");
                Answers.send(request, response, done, 200, "text/html; charset=utf-8", page);
                return;
            case "/api/tree":
                HttpFront.allow(request, response, "GET");
                Answers.send(request, response, done, 200, Answers.JSON, tree);
                return;
            case "/api/status":
                HttpFront.allow(request, response, "GET");
                Answers.send(request, response, done, 200, Answers.JSON,
                        Json.safe(session.status()).getBytes(StandardCharsets.UTF_8));
                return;
            case "/api/pause":
                HttpFront.allow(request, response, "POST");
                answer = ask(session::pauseNow);
                break;
            case "/api/continue":
                HttpFront.allow(request, response, "POST");
                answer = ask(session::continueRun);
                break;
            case "/api/step":
                HttpFront.allow(request, response, "POST");
                answer = ask(session::stepOnce);
                break;
            case "/api/seek": {
                HttpFront.allow(request, response, "POST");
                long t = Params.parseLong("tick", required(q, "tick"), 0, Long.MAX_VALUE); // the session: in the history
                answer = ask(() -> session.seek(t));
                break;
            }
            case "/api/find": {
                HttpFront.allow(request, response, "GET");
                DebugViews.Query query = findQuery(q);
                answer = ask(() -> session.find(query));
                break;
            }
            case "/api/agent": {
                HttpFront.allow(request, response, "GET");
                int id = agentId(q);
                if (q.containsKey("open")) {
                    throw new BadRequest(400, "GET /api/agent changes nothing, so it takes no 'open': to open agent "
                            + id + "'s panel (watch it), POST /api/agent/open?id=" + id);
                }
                answer = ask(() -> session.panels().agent(id));
                break;
            }
            case "/api/agent/open": {
                HttpFront.allow(request, response, "POST");
                int id = agentId(q);
                answer = ask(() -> session.panels().open(id));
                break;
            }
            case "/api/agent/close": {
                HttpFront.allow(request, response, "POST");
                int id = agentId(q);
                answer = ask(() -> session.panels().close(id));
                break;
            }
            case "/api/breakpoints":
                answer = breakpoints(method, request, response, q);
                break;
            default:
                throw new BadRequest(404, "no such page: " + path);
        }
        front.reply(answer, request, response, done);
    }

    private CompletableFuture<String> breakpoints(String method, Request request, Response response,
                                                  Map<String, String> q) {
        switch (method) {
            case "GET":
            case "HEAD":
                return ask(session::breakpointsJson);
            case "DELETE": {
                int id = Params.parseInt("id", required(q, "id"), 1, Integer.MAX_VALUE); // the session: one that exists
                return ask(() -> session.removeBreakpoint(id));
            }
            case "POST":
                return front.readBody(request).thenCompose(body -> {
                    Breakpoint.Spec spec = spec(json(body));
                    return ask(() -> session.addBreakpoint(spec));
                });
            default:
                response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST, DELETE");
                throw new BadRequest(405, "/api/breakpoints takes GET, POST or DELETE, not " + method);
        }
    }

    /** The {@code id} of an agent: an integer in {@code 0..agents-1}, else 400 naming the range. */
    private int agentId(Map<String, String> q) {
        return Params.parseInt("id", required(q, "id"), 0, session.agents() - 1);
    }

    /**
     * The breakpoint a body asks for, its fields typed strictly: {@code kind}, {@code state},
     * {@code tag} and {@code column} strings; {@code transition} an integer (a transition id);
     * {@code agent} an integer, an agent id or -1 for any (left out or null: any); {@code crosses} a
     * number ({@link #crosses}). A field of the wrong type is a 400 saying what it must be.
     */
    private Breakpoint.Spec spec(JsonNode b) {
        String kind = text(b, "kind");
        String state = text(b, "state");
        // the ranges are checked with the tree (Breakpoint.of); here, that the numbers are integers at all
        int transitions = session.tree().transitionCount;
        Long transition = integer(b, "transition", Integer.MIN_VALUE, Integer.MAX_VALUE,
                "a transition id, 0.." + (transitions - 1) + " (GET /api/tree lists them)");
        String tag = text(b, "tag");
        Long agent = integer(b, "agent", Integer.MIN_VALUE, Integer.MAX_VALUE, "an agent id, 0.."
                + (session.agents() - 1) + ", or -1 for any agent");
        return new Breakpoint.Spec(kind, state, transition == null ? null : transition.intValue(), tag,
                agent == null ? -1 : agent.intValue(), text(b, "column"), crosses(b));
    }

    /**
     * Field {@code field} of {@code n}: null when left out or null, else an integer (a JSON number
     * with no fraction: 3 or 3.0, not 3.5 or "3") in {@code min..max}; else 400 saying it must be
     * {@code what}.
     */
    private static Long integer(JsonNode n, String field, long min, long max, String what) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || !v.canConvertToExactIntegral() || !v.canConvertToLong()) {
            throw new BadRequest(400, field + " = " + Printable.clean(v.toString(), 40) + " is not an integer: give "
                    + what);
        }
        long x = v.longValue();
        if (x < min || x > max) {
            throw new BadRequest(400, field + " = " + v + " is out of range: give " + what);
        }
        return x;
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
        String given = blankToNull(q.get("limit"));
        int limit = given == null ? 1000 : Params.parseInt("limit", given, 1, MAX_FIND_LIMIT);
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

    /** A request body as a JSON object. */
    private static JsonNode json(String body) {
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            throw new BadRequest(400, "the body is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (n == null || !n.isObject()) {
            throw new BadRequest(400, "the body must be a JSON object such as {\"kind\":\"enter\",\"state\":\"Root/A\"}");
        }
        return n;
    }

    /** Field {@code field} of {@code n}: null when left out, null or blank; else a string (400 if it is another type). */
    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new BadRequest(400, field + " = " + Printable.clean(v.toString(), 40) + " is not a string: give "
                    + field + " as text in quotes");
        }
        return v.asText().isBlank() ? null : v.asText();
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
