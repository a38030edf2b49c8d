package dev.crowdtree.demo.http;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Map;

/** Who may talk to our HTTP servers ({@code serve}, the debugger). Stateless. */
public final class Access {
    private Access() {
    }

    /**
     * The checks every request of a server of ours passes first: bound to loopback, it must name a
     * loopback host (403, against DNS rebinding); with a token, it must carry it (401). Returns the
     * query's parameters.
     *
     * @throws BadRequest when a check fails
     */
    public static Map<String, String> check(Request request, Response response, boolean loopbackOnly,
                                            AccessToken token) {
        HttpFields headers = request.getHeaders();
        if (loopbackOnly && !loopbackHost(headers.get(HttpHeader.HOST))) {
            throw new BadRequest(403, "this server answers only requests addressed to a loopback host (127.0.0.1, "
                    + "localhost or [::1])");
        }
        Map<String, String> q = Params.parse(request.getHttpURI().getQuery());
        if (token != null && !token.allows(headers.get(HttpHeader.AUTHORIZATION), q.get("token"))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"crowdtree\"");
            throw new BadRequest(401, "this server needs its token: open the page as /?token=<token>, or send "
                    + "Authorization: Bearer <token>");
        }
        return q;
    }

    /**
     * Refuses (403) a request that changes what others see when a browser says it comes from a page
     * of another origin; {@code what} names such requests in the message ("control requests", ...).
     * A request without an Origin header (not from a browser page) passes.
     *
     * @throws BadRequest when the origin differs
     */
    public static void sameOrigin(Request request, String what) {
        HttpFields headers = request.getHeaders();
        String origin = headers.get(HttpHeader.ORIGIN);
        if (origin != null && !origin.equals("http://" + headers.get(HttpHeader.HOST))) {
            throw new BadRequest(403, what + " from another origin (" + origin + ") are refused");
        }
    }

    /** Whether a Host header names a loopback host (127.0.0.0/8, localhost, ::1), with or without a port. */
    public static boolean loopbackHost(String host) {
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
}
