package dev.crowdtree.demo.serve;

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
    static float parseFloat(String name, String v) {
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
    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(400, "'" + s + "' is not URL-encoded properly");
        }
    }

    /** A speed for {@code /control}, in range; 400 otherwise. */
    static Double parseSpeed(String value) {
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
}
