package dev.crowdtree.demo.http;

import dev.crowdtree.core.util.Printable;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Query and form parameters of our servers' requests ({@code serve}, the debugger), parsed strictly:
 * integers are digits in a range, never wrapped; floats finite; bad values throw {@link BadRequest}
 * (400) saying what would be valid. Stateless.
 */
public final class Params {
    /** An optional sign and digits: what an integer parameter may be. */
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private Params() {
    }

    /** {@code v} as a long; 400 if it is not one. */
    public static long parseLong(String name, String v) {
        return parseLong(name, v, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * {@code v} as a long in {@code min..max}; 400 naming the range if it is not an integer (a
     * fraction, an exponent, anything but digits) or lies outside it (never wrapped: 4294967301 is
     * not 5).
     */
    public static long parseLong(String name, String v, long min, long max) {
        String s = v == null ? "" : v.strip();
        String valid = "valid range is " + min + ".." + max;
        if (!INTEGER.matcher(s).matches()) {
            throw new BadRequest(400, name + " = '" + Printable.clean(String.valueOf(v), 40) + "' is not an integer; "
                    + valid);
        }
        long n;
        try {
            n = Long.parseLong(s);
        } catch (NumberFormatException e) { // digits, but more than a long holds
            throw new BadRequest(400, name + " = '" + Printable.clean(s, 40) + "' is out of range; " + valid);
        }
        if (n < min || n > max) {
            throw new BadRequest(400, name + " = '" + Printable.clean(s, 40) + "' is out of range; " + valid);
        }
        return n;
    }

    /** {@code v} as an int in {@code min..max}; 400 naming the range otherwise ({@link #parseLong(String, String, long, long)}). */
    public static int parseInt(String name, String v, int min, int max) {
        return (int) parseLong(name, v, min, max);
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
