package dev.crowdtree.demo.serve;

import dev.crowdtree.demo.testing.Sockets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code serve} against hostile-but-fair clients, on the real server with short timeouts: clients
 * that stall (a partial header, a trickled header, a short body, pipelined frames never read) do
 * not keep others from being answered and are dropped by the server; a crowd of frame long-polls
 * does not delay {@code /meta}; connections beyond the cap are closed at once; {@code --bind} off
 * loopback needs {@code --token}, which every request must then carry. The bounds asserted are
 * generous (the point is "not blocked for the stall's duration", not a latency figure).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeHardeningTest {
    /**
     * Short timeouts so the stalls end within the test: header and body 1.5 s, writes 2 s; room for
     * the 150 long-polls of one client (the caps are tested on their own below).
     */
    private static final ServerLimits SHORT = ServerLimits.DEFAULTS.withTimeouts(1500, 1500, 2000).withMaxConnections(256)
            .withMaxConnectionsPerClient(256);
    private static final long SLACK_MS = 4000;
    private static final long ANSWER_MS = 2000;
    private static final Pattern SERVING = Pattern.compile("serving (?:the crowd|model [^ ]+) on (http://127\\.0\\.0\\.1:(\\d+)/)");

    private static Served main;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        // ~100 KB frames, so that pipelined frames nobody reads fill the socket buffers
        main = Served.start(SHORT, "--port", "0", "--agents", "20000", "--workers", "1", "--seed", "3");
    }

    @AfterAll
    static void stop() throws Exception {
        if (main != null) {
            main.stop();
        }
    }

    // ---- stalled clients ------------------------------------------------------------------------

    @Test
    void stalledClientsDoNotBlockOthersAndAreDropped() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Thread trickler = null;
        try {
            // 1. a partial header, then nothing
            stalled.add(send(main.port, "GET /meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
            names.add("partial header");
            // 2. connects and sends nothing
            stalled.add(send(main.port, ""));
            names.add("silent connection");
            // 3. a short POST body: Content-Length 1000, 10 bytes sent
            stalled.add(send(main.port, "POST /control HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\npause&play"));
            names.add("short body");
            // 4, 5. pipelined frame requests whose answers are never read
            int pipelined = 60;
            for (int k = 0; k < 2; k++) {
                Socket s = new Socket();
                s.setReceiveBufferSize(4096);
                s.connect(new InetSocketAddress("127.0.0.1", main.port), 5000);
                s.getOutputStream().write("GET /frame HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".repeat(pipelined)
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                stalled.add(s);
                names.add("pipelined frames never read");
            }
            // 6. a header trickled a byte every 200 ms: never idle, never complete
            Socket trickled = send(main.port, "GET /meta HTTP/1.1\r\n");
            stalled.add(trickled);
            names.add("trickled header");
            trickler = new Thread(() -> {
                try {
                    OutputStream o = trickled.getOutputStream();
                    for (int i = 0; i < 100; i++) { // bounded: 20 s at most
                        o.write('x');
                        o.flush();
                        Thread.sleep(200);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server (expected) or by the test
                }
            }, "trickler");
            trickler.setDaemon(true);
            trickler.start();
            long t0 = System.nanoTime();
            Thread.sleep(300); // let the server take them all in

            // others are answered at once, on fresh connections, again and again
            for (int i = 0; i < 3; i++) {
                long a = System.nanoTime();
                HttpResponse<String> r = get(main.base + "meta");
                long ms = (System.nanoTime() - a) / 1_000_000;
                assertEquals(200, r.statusCode());
                assertTrue(ms < ANSWER_MS, "GET /meta took " + ms + " ms while " + stalled.size() + " clients stall");
                assertEquals(200, get(main.base + "stats").statusCode());
            }

            // the server drops every stalled client within its timeout plus slack
            long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(Math.max(SHORT.headerTimeoutMs(), SHORT.writeTimeoutMs())
                    + SLACK_MS);
            for (int i = 0; i < stalled.size(); i++) {
                Socket s = stalled.get(i);
                if (names.get(i).startsWith("pipelined")) {
                    // without reading, wait past the write timeout; then what is left in flight ends in EOF
                    // before all the answers arrive
                    Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()) - 1000));
                    int answers = drainCountingAnswers(s, 5000);
                    assertTrue(answers >= 0, names.get(i) + ": the server kept the connection open");
                    assertTrue(answers < pipelined, names.get(i) + ": all " + answers + " answers were written");
                } else {
                    assertTrue(Sockets.closedBy(s, deadline), names.get(i) + ": not closed by the server within "
                            + TimeUnit.NANOSECONDS.toMillis(deadline - t0) + " ms");
                }
            }
            assertEquals(200, get(main.base + "meta").statusCode(), "the server answers after the stalls");
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
            if (trickler != null) {
                trickler.interrupt();
                trickler.join(5000);
            }
        }
    }

    // ---- long-polls -----------------------------------------------------------------------------

    @Test
    void manyFrameLongPollsDoNotDelayMeta() throws Exception {
        int polls = 150;
        HttpClient pollers = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<CompletableFuture<HttpResponse<byte[]>>> inFlight = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            inFlight.add(pollers.sendAsync(HttpRequest.newBuilder(URI.create(main.base + "frame?after=" + Long.MAX_VALUE))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
        }
        Thread.sleep(200);
        for (int i = 0; i < 3; i++) {
            long a = System.nanoTime();
            HttpResponse<String> r = get(main.base + "meta");
            long ms = (System.nanoTime() - a) / 1_000_000;
            assertEquals(200, r.statusCode());
            assertTrue(ms < ANSWER_MS, "GET /meta took " + ms + " ms during " + polls + " frame long-polls");
        }
        int ok = 0;
        int busy = 0;
        for (CompletableFuture<HttpResponse<byte[]>> f : inFlight) {
            HttpResponse<byte[]> r = f.get(30, TimeUnit.SECONDS);
            if (r.statusCode() == 200) {
                ok++;
            } else {
                assertEquals(503, r.statusCode());
                assertTrue(r.headers().firstValue("Retry-After").isPresent(), "503 without Retry-After");
                busy++;
            }
        }
        assertTrue(ok >= 1, "no long-poll was answered with a frame");
        assertTrue(busy >= 1, "the frame stream cap (" + SHORT.maxFrameStreams() + ") did not apply to " + polls
                + " long-polls");
        assertEquals(200, get(main.base + "frame").statusCode(), "frames are served again afterwards");
    }

    @Test
    void anOversizedHeaderOrBodyIsRefused() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(main.base + "meta"))
                .timeout(Duration.ofSeconds(10)).header("X-Big", "y".repeat(SHORT.maxHeaderBytes() + 100)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(431, r.statusCode());
        r = http.send(HttpRequest.newBuilder(URI.create(main.base + "control")).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("pause&".repeat(1000))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, r.statusCode());
        assertEquals(200, get(main.base + "meta").statusCode());
    }

    // ---- the connection cap ---------------------------------------------------------------------

    @Test
    void connectionsBeyondTheCapAreClosedAtOnce() throws Exception {
        int cap = 8;
        Served small = Served.start(ServerLimits.DEFAULTS.withTimeouts(3000, 3000, 3000).withMaxConnections(cap),
                "--port", "0", "--agents", "500", "--workers", "1");
        List<Socket> sockets = new ArrayList<>();
        try {
            // idle (header not complete) connections beyond the cap: the oldest are dropped at once
            for (int i = 0; i < cap + 4; i++) {
                sockets.add(send(small.port, "GET /meta HTTP/1.1\r\n"));
                Thread.sleep(20);
            }
            int closed = Sockets.closedAmong(sockets, 4, 1500); // well before the 3 s header timeout
            assertTrue(closed >= 4, closed + " of " + sockets.size() + " connections were closed; the cap is " + cap);
            long a = System.nanoTime();
            assertEquals(200, get(small.base + "meta").statusCode());
            assertTrue(System.nanoTime() - a < TimeUnit.MILLISECONDS.toNanos(ANSWER_MS), "GET /meta at the cap");
            closeAll(sockets);

            // the cap full of requests in progress (bodies not sent yet): a new connection is closed at once
            for (int i = 0; i < cap; i++) {
                sockets.add(send(small.port, "POST /control HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\npause&play"));
            }
            Thread.sleep(500);
            try (Socket extra = send(small.port, "GET /meta HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) {
                String answer = readUntilClosed(extra, 1500);
                assertTrue(answer != null, "a connection beyond the cap was not closed at once");
                assertFalse(answer.startsWith("HTTP/1.1 200"), "a connection beyond the cap was answered: " + answer);
            }
            // once the stalled bodies time out, everyone is served again
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3000 + SLACK_MS);
            for (Socket s : sockets) {
                assertTrue(Sockets.closedBy(s, deadline), "a short body was not dropped after the body timeout");
            }
            assertEquals(200, get(small.base + "meta").statusCode());
        } finally {
            closeAll(sockets);
            small.stop();
        }
    }

    @Test
    void connectionsOfOneClientBeyondItsCapAreClosedAtOnce() throws Exception {
        int perClient = 4;
        Served small = Served.start(ServerLimits.DEFAULTS.withTimeouts(3000, 3000, 3000).withMaxConnectionsPerClient(perClient),
                "--port", "0", "--agents", "500", "--workers", "1");
        List<Socket> sockets = new ArrayList<>();
        try {
            // the total cap (64) is far; the client's own cap (4) closes its oldest idle connections at once
            for (int i = 0; i < perClient + 4; i++) {
                sockets.add(send(small.port, "GET /meta HTTP/1.1\r\n"));
                Thread.sleep(20);
            }
            int closed = Sockets.closedAmong(sockets, 4, 1500); // well before the 3 s header timeout
            assertTrue(closed >= 4, closed + " of " + sockets.size() + " connections of one client were closed; its cap is "
                    + perClient);
            assertEquals(200, get(small.base + "meta").statusCode(), "a new request of the client is served");
        } finally {
            closeAll(sockets);
            small.stop();
        }
    }

    // ---- --bind and --token ---------------------------------------------------------------------

    @Test
    void bindingAnAddressNotOfThisMachineSaysSoNotThatThePortIsInUse() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine
        for (String[] mode : new String[][]{{}, {"--debug"}}) {
            List<String> args = new ArrayList<>(List.of("--bind", "192.0.2.1", "--port", "0", "--agents", "100",
                    "--token", "0123456789abcdef0123"));
            args.addAll(List.of(mode));
            Served.Result r = Served.run(ServerLimits.DEFAULTS, args.toArray(new String[0]));
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("192.0.2.1 is not an address of this machine"), r.err());
            assertFalse(r.err().contains("in use"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
    }

    @Test
    void bindingBeyondLoopbackNeedsAToken() {
        Served.Result r = Served.run(ServerLimits.DEFAULTS, "--bind", "0.0.0.0", "--port", "0", "--agents", "100");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("error: ") && r.err().contains("requires --token"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        r = Served.run(ServerLimits.DEFAULTS, "--bind", "0.0.0.0", "--port", "0", "--agents", "100", "--token", "short");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--token"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    }

    @Test
    void withATokenEveryRequestMustCarryIt() throws Exception {
        String token = "s3cret-token-0123456789";
        Served open = Served.start(ServerLimits.DEFAULTS, "--bind", "0.0.0.0", "--token", token,
                "--port", "0", "--agents", "500", "--workers", "1");
        try {
            assertEquals(401, get(open.base + "meta").statusCode());
            assertEquals(401, get(open.base + "meta", "Bearer wrong-token-0123456789").statusCode());
            assertEquals(401, get(open.base + "meta?token=wrong").statusCode());
            assertEquals(401, get(open.base).statusCode(), "the page without the token");
            assertEquals(401, get(open.base + "frame").statusCode());
            HttpResponse<String> r = get(open.base + "meta", "Bearer " + token);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(200, get(open.base + "meta?token=" + token).statusCode());
            assertEquals(200, get(open.base + "frame", "Bearer " + token).statusCode());
            HttpResponse<String> c = http.send(HttpRequest.newBuilder(URI.create(open.base + "control"))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString("speed=1")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, c.statusCode(), c.body());
            // the page, opened with ?token=, loads its script and style with it, and its script sends it
            HttpResponse<String> page = get(open.base + "?token=" + token);
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("viewer.js?token=" + token), page.body());
            assertTrue(page.body().contains("viewer.css?token=" + token), page.body());
            HttpResponse<String> js = get(open.base + "viewer.js?token=" + token);
            assertEquals(200, js.statusCode());
            assertTrue(js.body().contains("Authorization"), "viewer.js does not forward the token");
            assertEquals(200, get(open.base + "viewer.css?token=" + token).statusCode());
            // and in a browser, when there is one: the page opened with the token draws frames
            if (Files.isExecutable(CHROMIUM)) {
                assertTrue(framesDrawnInChromium(open.base + "?token=" + token) >= 2, "the page drew no frames");
            }
        } finally {
            open.stop();
        }
    }

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    /** Loads {@code url} in headless Chromium and returns the page's count of drawn frames. */
    private static int framesDrawnInChromium(String url) throws Exception {
        Path profile = Files.createTempDirectory("crowdtree-chromium-");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=800,600",
                "--virtual-time-budget=5000", "--dump-dom", url)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium did not finish");
            Matcher m = Pattern.compile("data-frames=\"(\\d+)\"").matcher(dom);
            assertTrue(m.find(), "no data-frames in the page:\n" + dom.substring(0, Math.min(1500, dom.length())));
            return Integer.parseInt(m.group(1));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // chromium may still be writing: leave the rest to the OS
            }
        }
    }

    @Test
    void badLimitOptionsExit2WithOneLine() {
        Served.Result r = Served.run(ServerLimits.DEFAULTS, "--port", "0", "--agents", "100", "--max-connections", "0");
        assertEquals(2, r.code(), r.err());
        assertEquals("error: --max-connections = 0 is out of range; valid range is 1.." + ServerLimits.MAX_CONNECTIONS_LIMIT,
                r.err().strip());
        r = Served.run(ServerLimits.DEFAULTS, "--port", "0", "--agents", "100", "--max-frame-streams", "1000");
        assertEquals(2, r.code(), r.err());
        assertEquals("error: --max-frame-streams = 1000 is out of range; valid range is 1.."
                + ServerLimits.MAX_FRAME_STREAMS_LIMIT, r.err().strip());
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** One {@code serve} command running on its own thread. */
    static final class Served {
        final Thread thread;
        final ByteArrayOutputStream out;
        final ByteArrayOutputStream err;
        final int[] exit = {-1};
        String base;
        int port;

        private Served(Thread thread, ByteArrayOutputStream out, ByteArrayOutputStream err) {
            this.thread = thread;
            this.out = out;
            this.err = err;
        }

        record Result(int code, String out, String err) {
        }

        static Served start(ServerLimits limits, String... args) throws InterruptedException {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            ByteArrayOutputStream e = new ByteArrayOutputStream();
            int[] exit = {-1};
            Thread t = new Thread(() -> {
                int code = command(limits, o, e).execute(args);
                synchronized (exit) {
                    exit[0] = code;
                }
            }, "serve-hardening");
            Served s = new Served(t, o, e);
            t.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (s.base == null) {
                Matcher m = SERVING.matcher(o.toString(StandardCharsets.UTF_8));
                if (m.find()) {
                    s.base = m.group(1);
                    s.port = Integer.parseInt(m.group(2));
                } else if (!t.isAlive() || System.nanoTime() > deadline) {
                    fail("serve did not start; stdout:\n" + o.toString(StandardCharsets.UTF_8)
                            + "\nstderr:\n" + e.toString(StandardCharsets.UTF_8));
                } else {
                    Thread.sleep(50);
                }
            }
            return s;
        }

        static Result run(ServerLimits limits, String... args) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            ByteArrayOutputStream e = new ByteArrayOutputStream();
            int code = command(limits, o, e).execute(args);
            return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        }

        private static CommandLine command(ServerLimits limits, ByteArrayOutputStream o, ByteArrayOutputStream e) {
            ServeCommand c = new ServeCommand(new PrintStream(o, true, StandardCharsets.UTF_8),
                    new PrintStream(e, true, StandardCharsets.UTF_8));
            c.limits = limits;
            CommandLine cl = new CommandLine(c);
            cl.setErr(new PrintWriter(e, true, StandardCharsets.UTF_8));
            return cl;
        }

        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join(15_000);
            assertFalse(thread.isAlive(), "serve did not stop when interrupted");
        }
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return get(url, null);
    }

    private static HttpResponse<String> get(String url, String authorization) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A connected socket that has sent {@code text}. */
    private static Socket send(int port, String text) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        if (!text.isEmpty()) {
            s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        return s;
    }

    /**
     * Reads what is left on {@code s} until EOF or reset; returns the number of HTTP answers seen, or
     * -1 when the connection is still open after {@code millis}.
     */
    private static int drainCountingAnswers(Socket s, long millis) throws IOException {
        InputStream in = s.getInputStream();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        byte[] buf = new byte[65536];
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return -1;
            }
            s.setSoTimeout((int) left);
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                return -1;
            } catch (SocketException e) {
                n = -1;
            }
            if (n < 0) {
                String text = all.toString(StandardCharsets.ISO_8859_1);
                int count = 0;
                for (int i = text.indexOf("HTTP/1.1 "); i >= 0; i = text.indexOf("HTTP/1.1 ", i + 1)) {
                    count++;
                }
                return count;
            }
            all.write(buf, 0, n);
        }
    }

    /** What arrives on {@code s} until the server closes it (EOF or reset), or null if it is still open after {@code millis}. */
    private static String readUntilClosed(Socket s, long millis) throws IOException {
        InputStream in = s.getInputStream();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return null;
            }
            s.setSoTimeout((int) left);
            try {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                all.write(buf, 0, n);
            } catch (SocketTimeoutException e) {
                return null;
            } catch (SocketException e) {
                break; // reset
            }
        }
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }
}
