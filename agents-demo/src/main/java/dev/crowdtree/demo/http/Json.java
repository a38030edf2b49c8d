package dev.crowdtree.demo.http;

/**
 * The little JSON our servers write: strings escaped per RFC 8259 and more, numbers that are always
 * valid JSON.
 *
 * <p>Besides what RFC 8259 requires (quotes, backslashes, C0 controls), every character that can
 * make text read other than it is is written as a {@code \}{@code uXXXX} escape, so that a name or
 * tag from outside (a tree's state names, a breakpoint's event tag, an error quoting input) cannot
 * reorder or hide what the page or a terminal shows: DEL and the C1 controls (U+007F-U+009F), the
 * line and paragraph separators (U+2028, U+2029), every format character (Unicode category Cf:
 * the bidirectional marks, embeddings, overrides and isolates U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069, U+061C, zero-width characters such as U+200B-U+200D and U+FEFF, the tag characters
 * U+E0000-U+E007F, ...), and lone surrogates. A JSON parser reads the escapes back as the same
 * characters. Stateless.
 */
public final class Json {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {
    }

    /** {@code s} as a JSON string literal (null as {@code null}), escaped as the class says. */
    public static String string(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        escape(sb, c);
                    } else {
                        i = appendSafe(sb, s, i);
                    }
            }
        }
        return sb.append('"').toString();
    }

    /**
     * {@code json}, JSON text written by another writer (Jackson escapes only what RFC 8259
     * requires), with the characters the class names written as escapes: outside strings valid JSON
     * has only ASCII, so every such character is inside a string, and the text stays valid and reads
     * back the same. {@code json} itself when there is none.
     */
    public static String safe(String json) {
        int n = json.length();
        int i = 0;
        while (i < n && json.charAt(i) < 0x7F) {
            i++;
        }
        if (i == n) {
            return json;
        }
        StringBuilder sb = new StringBuilder(n + 16).append(json, 0, i);
        for (; i < n; i++) {
            i = appendSafe(sb, json, i);
        }
        return sb.toString();
    }

    /**
     * Appends {@code s.charAt(i)} (and its low surrogate, when it starts a pair), escaped when
     * {@link #unsafe}; returns the index of the last char appended.
     */
    private static int appendSafe(StringBuilder sb, String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            char low = s.charAt(i + 1);
            if (unsafe(Character.toCodePoint(c, low))) {
                escape(sb, c);
                escape(sb, low);
            } else {
                sb.append(c).append(low);
            }
            return i + 1;
        }
        if (Character.isSurrogate(c) || unsafe(c)) { // a lone surrogate, or a character named above
            escape(sb, c);
        } else {
            sb.append(c);
        }
        return i;
    }

    /** Whether code point {@code cp} (0x20 or above) is written as an escape. */
    static boolean unsafe(int cp) {
        return (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || Character.getType(cp) == Character.FORMAT;
    }

    private static void escape(StringBuilder sb, char c) {
        sb.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                .append(HEX[c & 15]);
    }

    /** A finite number in the shortest form that round-trips; NaN and infinities as {@code null}. */
    public static String number(double v) {
        if (!Double.isFinite(v)) {
            return "null";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v).replace("E", "e");
    }

    /** A float in the shortest form that round-trips as a float. */
    public static String number(float v) {
        if (!Float.isFinite(v)) {
            return "null";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e7f) {
            return Long.toString((long) v);
        }
        return Float.toString(v).replace("E", "e");
    }
}
