package dev.crowdtree.demo.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Query and form parameters of {@code serve}'s requests; bad values throw {@link BadRequest} (400). Stateless. */
public final class Params {
    private Params() {
    }

    /** {@code v} as a long; 400 if it is not one. */
    public static long parseLong(String name, String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest(400, name + " = '" + v + "' is not an integer");
        }
    }

    /** {@code v} as a finite float; 400 if it is not one. */
    public static float parseFloat(String name, String v) {
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

    /** The parameters of a raw (URL-encoded) query; the last of a repeated name wins. */
    public static Map<String, String> parse(String rawQuery) {
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

    /** URL-decodes {@code s} ({@code +} is a space); 400 if it is malformed. */
    public static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(400, "'" + s + "' is not URL-encoded properly");
        }
    }
}
