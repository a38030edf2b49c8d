package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crowdtree.demo.testing.Chromium;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * A small Chrome DevTools Protocol client for the browser tests, on the JDK's HTTP client and
 * WebSocket and Jackson (no new dependency): starts headless Chromium on a fresh profile with
 * {@code --remote-debugging-port=0}, reads the {@code DevTools listening on ws://...} line from its
 * stderr, connects to the page target and sends commands, matching replies by id. {@link #close()}
 * kills the process tree and deletes the profile.
 *
 * <p>Chromium is {@code /usr/bin/chromium} or the first {@code chromium} on the PATH; see
 * {@link #chromiumOrSkip()} for a missing one (a failure under {@code CI=true}, a skip otherwise).
 */
final class Cdp implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final int LOG_LINES = 200;

    private final Process process;
    private final Path profile;
    private final Deque<String> log = new ArrayDeque<>(); // chromium's stderr and the page's console, newest last
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<EventWaiter> waiters = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private WebSocket socket;
    private volatile boolean closed;

    private record EventWaiter(String method, CompletableFuture<JsonNode> future) {
    }

    private Cdp(Process process, Path profile) {
        this.process = process;
        this.profile = profile;
    }

    /** The Chromium to test with, or a failure (CI) or skip ({@link Chromium#orSkip}). */
    static Path chromiumOrSkip() {
        return Chromium.orSkip();
    }

    /** Starts headless Chromium on about:blank (1400x900) and connects to its page. */
    static Cdp launch(Path chromium) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("crowdtree-cdp-");
        List<String> cmd = List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                "--remote-debugging-port=0", "--window-size=1400,900", "about:blank");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Chromium.deleteTree(profile);
            throw e;
        }
        Cdp cdp = new Cdp(p, profile);
        try {
            cdp.connect();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            String tail = cdp.logTail();
            cdp.close();
            throw new IOException("could not connect to chromium: " + e + "\nchromium log:\n" + tail, e);
        }
        return cdp;
    }

    private void connect() throws IOException, InterruptedException {
        CompletableFuture<String> browserUrl = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        browserUrl.complete(m.group(1));
                    }
                    if (!line.contains("dbus/")) { // a container without D-Bus: noise
                        log("chromium: " + line);
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
            browserUrl.completeExceptionally(new IOException("chromium exited before it listened (exit "
                    + (process.isAlive() ? "?" : process.exitValue()) + ")"));
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        String ws = get(browserUrl, START_TIMEOUT, "the DevTools listening line");
        URI browser = URI.create(ws);
        String list = "http://" + browser.getHost() + ":" + browser.getPort() + "/json/list";
        String pageWs = null;
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (pageWs == null) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(list)).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            for (JsonNode t : JSON.readTree(r.body())) {
                if ("page".equals(t.path("type").asText()) && t.hasNonNull("webSocketDebuggerUrl")) {
                    pageWs = t.get("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (pageWs == null) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("no page target in " + list + ": " + r.body());
                }
                Thread.sleep(100);
            }
        }
        socket = get(http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(pageWs), new Listener()), START_TIMEOUT, "the page's DevTools socket");
        send("Page.enable", null);
        send("Runtime.enable", null);
        // the viewport itself 1400x900 (--window-size sizes the window, whose viewport is smaller)
        send("Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", 1400).put("height", 900)
                .put("deviceScaleFactor", 1).put("mobile", false));
    }

    // ---- commands -------------------------------------------------------------------------------

    /** Sends a command and waits for its reply; returns its {@code result}, throws on an error reply. */
    JsonNode send(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        if (params != null) {
            msg.set("params", params);
        }
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        try {
            String text = JSON.writeValueAsString(msg);
            synchronized (this) { // one send at a time (WebSocket refuses overlapping sends)
                get(socket.sendText(text, true), COMMAND_TIMEOUT, "sending " + method);
            }
            JsonNode r = get(reply, COMMAND_TIMEOUT, "the reply to " + method);
            if (r.has("error")) {
                throw new IllegalStateException(method + " failed: " + r.get("error"));
            }
            return r.path("result");
        } catch (IOException e) {
            throw new IllegalStateException(method + ": " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    /** Navigates the page to {@code url} and waits for its load event. */
    void navigate(String url) {
        CompletableFuture<JsonNode> loaded = nextEvent("Page.loadEventFired");
        JsonNode r = send("Page.navigate", JSON.createObjectNode().put("url", url));
        if (r.hasNonNull("errorText") && !r.get("errorText").asText().isEmpty()) {
            throw new IllegalStateException("navigating to " + url + ": " + r.get("errorText").asText());
        }
        get(loaded, COMMAND_TIMEOUT, "the load event of " + url);
    }

    /**
     * Evaluates {@code js} in the page (a promise is awaited) and returns its value: a string as is,
     * null for undefined or null, anything else as JSON text. A JS exception is thrown as an
     * {@link IllegalStateException} with the exception's text.
     */
    String eval(String js) {
        JsonNode v = evalValue(js);
        if (v == null || v.isNull()) {
            return null;
        }
        return v.isTextual() ? v.asText() : v.toString();
    }

    /** {@link #eval}, the value as JSON (a Java null for undefined). */
    JsonNode evalJson(String js) {
        return evalValue(js);
    }

    private JsonNode evalValue(String js) {
        JsonNode r = send("Runtime.evaluate", JSON.createObjectNode().put("expression", js)
                .put("returnByValue", true).put("awaitPromise", true).put("userGesture", true));
        if (r.has("exceptionDetails")) {
            JsonNode d = r.get("exceptionDetails");
            String text = d.path("exception").path("description").asText(d.path("text").asText("exception"));
            throw new IllegalStateException("JS exception in `" + abbreviate(js) + "`: " + text);
        }
        JsonNode result = r.path("result");
        return result.has("value") ? result.get("value") : null;
    }

    /**
     * Polls {@code jsPredicate} (every 50 ms) until it is truthy; a JS exception counts as false.
     *
     * @throws AssertionError after {@code timeout}, naming the predicate and the last exception
     */
    void waitFor(String jsPredicate, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastError = null;
        while (true) {
            try {
                if ("true".equals(eval("!!(" + jsPredicate + ")"))) {
                    return;
                }
                lastError = null;
            } catch (IllegalStateException e) {
                lastError = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for `" + jsPredicate + "`"
                        + (lastError != null ? "; last error: " + lastError : ""));
            }
            Thread.sleep(50);
        }
    }

    /** Saves a PNG of the page's viewport; creates the parent directory. */
    void screenshot(Path png) throws IOException {
        JsonNode r = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        if (png.toAbsolutePath().getParent() != null) {
            Files.createDirectories(png.toAbsolutePath().getParent());
        }
        Files.write(png, Base64.getDecoder().decode(r.get("data").asText()));
    }

    /** The last lines of chromium's stderr and of the page's console and uncaught exceptions. */
    String logTail() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    /** Kills chromium and its children, and deletes the profile. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (socket != null) {
            socket.abort();
        }
        List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
            for (ProcessHandle c : children) {
                c.onExit().get(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // a child that does not go in time: left to the OS
        }
        Chromium.deleteTree(profile);
    }

    /** The process (for tests of this client). */
    Process process() {
        return process;
    }

    /** The profile directory (for tests of this client). */
    Path profile() {
        return profile;
    }

    // ---- the socket -----------------------------------------------------------------------------

    private CompletableFuture<JsonNode> nextEvent(String method) {
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        waiters.add(new EventWaiter(method, f));
        return f;
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                dispatch(message);
            }
            ws.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            log("cdp socket error: " + error);
            failAll(error);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            failAll(new IOException("the DevTools socket closed (" + statusCode + " " + reason + ")"));
            return null;
        }
    }

    private void failAll(Throwable error) {
        pending.values().forEach(f -> f.completeExceptionally(error));
        waiters.forEach(w -> w.future().completeExceptionally(error));
    }

    private void dispatch(String message) {
        JsonNode m;
        try {
            m = JSON.readTree(message);
        } catch (IOException e) {
            log("cdp: unreadable message " + abbreviate(message));
            return;
        }
        if (m.has("id")) {
            CompletableFuture<JsonNode> f = pending.get(m.get("id").asInt());
            if (f != null) {
                f.complete(m);
            }
            return;
        }
        String method = m.path("method").asText();
        JsonNode params = m.path("params");
        for (EventWaiter w : waiters) {
            if (w.method().equals(method)) {
                waiters.remove(w);
                w.future().complete(params);
            }
        }
        if (method.equals("Runtime.consoleAPICalled")) {
            StringBuilder b = new StringBuilder("console.").append(params.path("type").asText()).append(':');
            for (JsonNode a : params.path("args")) {
                b.append(' ').append(a.has("value") ? a.get("value").asText() : a.path("description").asText());
            }
            log(b.toString());
        } else if (method.equals("Runtime.exceptionThrown")) {
            JsonNode d = params.path("exceptionDetails");
            log("page exception: " + d.path("exception").path("description").asText(d.path("text").asText()));
        }
    }

    private void log(String line) {
        synchronized (log) {
            log.addLast(line);
            while (log.size() > LOG_LINES) {
                log.removeFirst();
            }
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static <T> T get(CompletableFuture<T> f, Duration timeout, String what) {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + what, e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
