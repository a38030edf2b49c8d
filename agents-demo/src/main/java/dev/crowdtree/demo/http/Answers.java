package dev.crowdtree.demo.http;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Writing the answers of our HTTP servers ({@code serve}, the debugger) with Jetty, asynchronously. Stateless. */
public final class Answers {
    public static final String JSON = "application/json";

    private Answers() {
    }

    /** Writes a whole answer (no body for HEAD) and completes {@code callback} when it is written. */
    public static void send(Request request, Response response, Callback callback, int status, String type, byte[] body) {
        HttpFields.Mutable h = response.getHeaders();
        h.put(HttpHeader.CONTENT_TYPE, type);
        h.put(HttpHeader.CACHE_CONTROL, "no-store");
        h.put("X-Content-Type-Options", "nosniff");
        response.setStatus(status);
        if (request.getMethod().equals("HEAD") || body.length == 0) {
            response.write(true, null, callback);
            return;
        }
        h.put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** Answers {@code {"error": message}} with {@code status}, unless the answer has begun (then fails it). */
    public static void sendError(Request request, Response response, Callback callback, int status, String message) {
        if (response.isCommitted()) {
            callback.failed(new IOException("cannot answer " + status + " (" + message + "): the answer has begun"));
            return;
        }
        send(request, response, callback, status, JSON,
                ("{\"error\":" + Json.string(message) + "}").getBytes(StandardCharsets.UTF_8));
    }

    /** Answers {@code e} as {@link #sendError} does, with its {@code Retry-After} when it has one. */
    public static void sendError(Request request, Response response, Callback callback, BadRequest e) {
        if (e.retryAfterSeconds > 0 && !response.isCommitted()) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, e.retryAfterSeconds);
        }
        sendError(request, response, callback, e.status, e.getMessage());
    }

    /** A callback that runs {@code first}, then completes {@code next} the same way. */
    public static Callback runFirst(Runnable first, Callback next) {
        return new Callback() {
            @Override
            public void succeeded() {
                try {
                    first.run();
                } finally {
                    next.succeeded();
                }
            }

            @Override
            public void failed(Throwable x) {
                try {
                    first.run();
                } finally {
                    next.failed(x);
                }
            }

            @Override
            public InvocationType getInvocationType() {
                return next.getInvocationType();
            }
        };
    }
}
