package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.HttpLimits;
import dev.crowdtree.demo.nodes.DemoNodes;
import dev.crowdtree.demo.testing.Sockets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 2: the debugger's server ({@code debug}, {@code serve --debug}) behind the front it
 * shares with {@code serve}. Before, 8 local connections trickling a POST body held all of its 10
 * threads and {@code /api/status} stopped answering while they trickled, a partial head was kept for
 * good, and 3,000 connections were accepted. Now: bodies are read without a thread, with a deadline
 * and a rate floor; heads have a deadline; connections are capped. The bounds asserted are generous
 * (the point is "not blocked for the trickle's duration", not a latency figure).
 */
@Timeout(90)
class DebugServerLimitsTest {
    /** Short timeouts so the stalls end within the test: header and body 1.5 s, idle 2 s. */
    private static final HttpLimits SHORT = HttpLimits.DEFAULTS.withTimeouts(1500, 1500, 2000);
    private static final long ANSWER_MS = 2000;
    private static final long SLACK_MS = 4000;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Debugger debugger;

    @BeforeEach
    void open() throws Exception {
        debugger = Debugger.openScenario(DebuggerTest.SCENARIO, DemoNodes.registry(),
                Debugger.Options.defaults().port(0).paused(true).limits(SHORT));
    }

    @AfterEach
    void close() {
        debugger.close();
    }

    @Test
    void tricklingBodiesDoNotStopStatusAndAreDropped() throws Exception {
        int trickling = 12; // more than the server's threads
        String head = "POST /api/breakpoints HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n{";
        List<Socket> sockets = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> tricklers = new ArrayList<>();
        try {
            for (int i = 0; i < trickling; i++) {
                Socket s = send(head);
                sockets.add(s);
                Thread t = new Thread(() -> {
                    try {
                        OutputStream o = s.getOutputStream();
                        for (int k = 0; k < 100 && !stop.get(); k++) { // a byte every 200 ms, 20 s at most
                            o.write(' ');
                            o.flush();
                            Thread.sleep(200);
                        }
                    } catch (IOException | InterruptedException e) {
                        // dropped by the server (expected) or stopped by the test
                    }
                }, "trickler-" + i);
                t.setDaemon(true);
                t.start();
                tricklers.add(t);
            }
            long t0 = System.nanoTime();
            Thread.sleep(300); // the server has taken them all in

            // /api/status answers at once, again and again, while they trickle
            for (int i = 0; i < 5; i++) {
                long a = System.nanoTime();
                HttpResponse<String> r = get("api/status");
                long ms = (System.nanoTime() - a) / 1_000_000;
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(ms < ANSWER_MS, "GET /api/status took " + ms + " ms while " + trickling + " bodies trickle");
                assertEquals(200, get("api/breakpoints").statusCode(), "a request the session answers");
                Thread.sleep(100);
            }

            // every trickling body is dropped (408 and closed) within the body timeout plus slack
            long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(SHORT.bodyTimeoutMs() + SLACK_MS);
            for (Socket s : sockets) {
                String answer = readUntilClosed(s, deadline);
                assertTrue(answer != null, "a trickling body was not dropped within "
                        + TimeUnit.NANOSECONDS.toMillis(deadline - t0) + " ms");
                assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 408"), answer);
            }
            assertEquals(200, get("api/status").statusCode(), "the server answers after the trickles");
        } finally {
            stop.set(true);
            for (Socket s : sockets) {
                s.close();
            }
            for (Thread t : tricklers) {
                t.join(5000);
            }
        }
    }

    @Test
    void aHeadNotFinishedInTimeIsDropped() throws Exception {
        try (Socket s = send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHORT.headerTimeoutMs() + SLACK_MS);
            assertTrue(readUntilClosed(s, deadline) != null, "a partial head was kept past the header timeout");
        }
    }

    @Test
    void connectionsBeyondTheCapAreClosedAtOnce() throws Exception {
        // long head and idle timeouts here, so that only the cap can close a connection within the test
        debugger.close();
        debugger = Debugger.openScenario(DebuggerTest.SCENARIO, DemoNodes.registry(), Debugger.Options.defaults()
                .port(0).paused(true).limits(HttpLimits.DEFAULTS.withTimeouts(60_000, 60_000, 60_000)));
        int cap = SHORT.maxConnectionsPerClient();
        int n = cap + 16; // all from 127.0.0.1: one client
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(send("GET /api/status HTTP/1.1\r\n"));
            }
            int count = Sockets.closedAmong(sockets, 16, 20_000);
            assertEquals(16, count, count + " of " + n + " connections were closed; one client may keep " + cap);
            assertEquals(200, get("api/status").statusCode(), "a new request is answered at the cap");
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void anOversizedBodyIsRefused() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(debugger.url() + "api/breakpoints"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(" ".repeat(5000) + "{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, r.statusCode(), r.body());
    }

    // ---- helpers --------------------------------------------------------------------------------

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(debugger.url() + path)).timeout(Duration.ofSeconds(20)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A connected socket that has sent {@code text}. */
    private Socket send(String text) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", debugger.port()), 5000);
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /** What arrives on {@code s} until the server closes it (EOF or reset), or null if still open at {@code deadline}. */
    private static String readUntilClosed(Socket s, long deadlineNanos) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder all = new StringBuilder();
        byte[] buf = new byte[4096];
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (left <= 0) {
                return null;
            }
            s.setSoTimeout((int) left);
            try {
                int k = in.read(buf);
                if (k < 0) {
                    return all.toString();
                }
                all.append(new String(buf, 0, k, StandardCharsets.ISO_8859_1));
            } catch (SocketTimeoutException e) {
                return null;
            } catch (SocketException e) {
                return all.toString(); // reset
            }
        }
    }
}
