package dev.crowdtree.demo.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The HTTP front both of our servers ({@code serve}'s {@code CrowdServer} and the debugger's
 * {@code DebugServer}) stand behind: one Jetty 12 server (core API, no servlets) with the same
 * guards against slow, stalled and numerous clients ({@link HttpLimits}):
 * <ul>
 *   <li>a request head must arrive whole within the header timeout, and the connections are capped
 *       in all and per client address ({@link ConnectionGuard});</li>
 *   <li>a body is read without a thread, within the body timeout and above a rate floor, and is at
 *       most the body limit ({@link #readBody}, {@link BodyReader}); heads above the head limit get 431;</li>
 *   <li>an answer the client does not read, or an idle connection, is dropped after the idle timeout;</li>
 *   <li>a fixed budget of worker threads runs the handlers, which never wait: what takes time (a
 *       body, the simulation, a long-poll) completes a future, and the answer is written from a
 *       worker then ({@link #reply}), so the threads stay free for the answers that take none
 *       ({@code /api/status}, {@code /meta}).</li>
 * </ul>
 * A server gives its {@link Route}; the front counts each request in and out of the guard and turns
 * a {@link BadRequest} (or another failure) into a JSON error.
 *
 * <p>THREADING: built, bound, started and closed on one thread; {@link Route#handle} runs on the
 * worker threads, several at once; everything else here is safe from any thread (Jetty's objects).
 */
public final class HttpFront implements AutoCloseable {
    /** What a server answers: called on a worker thread; must not wait. */
    @FunctionalInterface
    public interface Route {
        /**
         * Answers {@code request}, now or later, completing {@code done} once.
         *
         * @throws BadRequest before it has handed the request on (answered as a JSON error)
         */
        void handle(Request request, Response response, Callback done);
    }

    private final Server server;
    private final ServerConnector connector;
    private final QueuedThreadPool threads;
    private final ScheduledExecutorScheduler scheduler;
    private final ConnectionGuard guard;
    private final HttpLimits limits;
    private final InetAddress host;

    /**
     * A front (not bound yet) at {@code address} with {@code limits}, its threads named after
     * {@code name}, answering with {@code route}.
     */
    public HttpFront(InetSocketAddress address, HttpLimits limits, String name, Route route) {
        this.limits = limits;
        this.host = address.getAddress();
        // workers, plus the acceptor and the selector, which Jetty takes from the same pool
        threads = new QueuedThreadPool(limits.threads() + 2, 2, 60_000);
        threads.setName(name);
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        scheduler = new ScheduledExecutorScheduler(name + "-timer", true);
        server = new Server(threads, scheduler, null);
        server.setStopTimeout(2000); // lets the selector close its connections before it stops
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host.getHostAddress());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(limits.idleTimeoutMs());
        guard = new ConnectionGuard(limits, scheduler);
        connector.addEventListener(guard);
        server.addConnector(connector);
        server.setHandler(new Dispatch(route));
    }

    /**
     * Binds the port (port 0 picks a free one); requests are answered once {@link #start()}ed.
     *
     * @throws BindException when the port is in use or the address is not this machine's
     *                       ({@link #bindProblem} says which)
     */
    public void bind() throws IOException {
        try {
            connector.open();
        } catch (IOException e) {
            connector.close();
            if (e.getCause() instanceof BindException) {
                throw (BindException) e.getCause(); // Jetty wraps it
            }
            throw e;
        }
    }

    /**
     * Starts answering.
     *
     * @throws IllegalStateException when Jetty does not start
     */
    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP server did not start: " + e, e);
        }
        guard.start();
    }

    /** The port listened on. */
    public int port() {
        return connector.getLocalPort();
    }

    /** The address listened on. */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, port());
    }

    /** The limits. */
    public HttpLimits limits() {
        return limits;
    }

    /** The worker threads, to write answers from (never the simulation's thread). */
    public Executor threads() {
        return threads;
    }

    /** The timer of the deadlines. */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** The connection guard (its counts). */
    public ConnectionGuard guard() {
        return guard;
    }

    /** Stops answering and closes every connection and the port. Idempotent. */
    @Override
    public void close() {
        guard.stop();
        try {
            server.stop(); // closes the connector and every connection, stops the threads
        } catch (Exception e) {
            // stopping anyway: the threads are daemon and go with the JVM
        }
        connector.close(); // bound but never started when start() was not reached
    }

    // ---- what the routes share --------------------------------------------------------------------

    /**
     * The body of {@code request} as UTF-8, read without a thread: at most the body limit (else the
     * future fails with {@link BodyReader.TooLarge}, 413; a Content-Length above it is refused at
     * once), within the body timeout and above the rate floor (else {@link BodyReader.TooSlow}, 408).
     */
    public CompletableFuture<String> readBody(Request request) {
        int max = limits.maxBodyBytes();
        if (request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH) > max) {
            throw new BadRequest(413, "the request body is longer than " + max + " bytes");
        }
        return BodyReader.read(request, max, limits.bodyTimeoutMs(), scheduler);
    }

    /** Writes the JSON {@code json} completes with, from a worker thread, or the failure it completes with ({@link #fail}). */
    public void reply(CompletableFuture<String> json, Request request, Response response, Callback done) {
        json.whenCompleteAsync((j, e) -> {
            if (e == null) {
                Answers.send(request, response, done, 200, Answers.JSON, j.getBytes(StandardCharsets.UTF_8));
            } else {
                fail(request, response, done, e);
            }
        }, threads);
    }

    /**
     * Answers a failure: a {@link BadRequest} with its status, a body too large with 413, one too
     * slow with 408 (closing the connection), an {@link IllegalStateException} (the simulation has
     * stopped, or did not answer) with 503, an {@link IOException} (the client went away) not at
     * all, anything else with 500.
     */
    public static void fail(Request request, Response response, Callback done, Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof BadRequest) {
            Answers.sendError(request, response, done, (BadRequest) t);
        } else if (t instanceof BodyReader.TooLarge) {
            Answers.sendError(request, response, done, 413, t.getMessage());
        } else if (t instanceof BodyReader.TooSlow) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            Answers.sendError(request, response, done, 408, t.getMessage());
        } else if (t instanceof IllegalStateException) {
            Answers.sendError(request, response, done, 503, t.getMessage());
        } else if (t instanceof IOException) {
            done.failed(t); // the client went away: nothing to answer
        } else {
            Answers.sendError(request, response, done, 500, "internal error: " + t);
        }
    }

    /**
     * Refuses (405, with {@code Allow}) a request whose method is not {@code allowed} ({@code HEAD}
     * passes where {@code GET} does).
     *
     * @throws BadRequest 405
     */
    public static void allow(Request request, Response response, String allowed) {
        String method = request.getMethod();
        if (method.equals(allowed) || method.equals("HEAD") && allowed.equals("GET")) {
            return;
        }
        response.getHeaders().put(HttpHeader.ALLOW, allowed.equals("GET") ? "GET, HEAD" : allowed);
        throw new BadRequest(405, request.getHttpURI().getDecodedPath() + " takes " + allowed + ", not " + method);
    }

    /**
     * Why {@code --bind bind --port port} could not be listened on, in one line: the port is in use,
     * or {@code bind} is not an address of this machine.
     */
    public static String bindProblem(String bind, InetAddress address, int port, BindException e) {
        if (isLocal(address)) {
            return "port " + port + " is already in use on " + bind + "; choose another with --port";
        }
        return "cannot listen on " + bind + ":" + port + ": " + address.getHostAddress() + " is not an address of "
                + "this machine (" + e.getMessage() + "); --bind must be one of its addresses, such as 127.0.0.1 or "
                + "0.0.0.0 (all of them)";
    }

    /** Whether {@code a} is an address of this machine (loopback, the wildcard, or an interface's). */
    public static boolean isLocal(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** Every request: counted by the guard, answered by the route; a failure before it hands on is answered here. */
    private final class Dispatch extends Handler.Abstract.NonBlocking {
        private final Route route;

        Dispatch(Route route) {
            this.route = route;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            Connection c = request.getConnectionMetaData().getConnection();
            guard.requestStarted(c);
            Callback done = Answers.runFirst(() -> guard.requestEnded(c), callback);
            try {
                route.handle(request, response, done);
            } catch (BadRequest e) {
                Answers.sendError(request, response, done, e);
            } catch (RuntimeException e) {
                Answers.sendError(request, response, done, 500, "internal error: " + e);
            }
            return true;
        }
    }
}
