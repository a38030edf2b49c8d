package dev.crowdtree.demo.http;

/** The little JSON the server writes: strings escaped per RFC 8259, numbers that are always valid JSON. */
public final class Json {
    private Json() {
    }

    /** {@code s} as a JSON string literal (null as {@code null}). */
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
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString();
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
