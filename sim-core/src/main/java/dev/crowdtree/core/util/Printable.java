package dev.crowdtree.core.util;

/**
 * Makes text from outside (file names, names in assets, values in scenarios) safe to print on a
 * terminal or in a log: control characters become visible escapes, and pathologically long text
 * is shortened in the middle.
 *
 * <p>{@link #escape} writes every C0 control character (U+0000-U+001F), DEL (U+007F), every C1
 * control character (U+0080-U+009F), every bidirectional formatting character (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069), the line and paragraph separators (U+2028, U+2029) and
 * every lone surrogate as {@code \}{@code uXXXX} (four upper-case hex digits), so that an escape
 * sequence in a state name cannot drive the terminal, a line break in a name cannot forge a line,
 * and a right-to-left override cannot make a line read other than it is. Everything else, backslashes included, is
 * kept, so printable text comes out unchanged (and the same object is returned).
 *
 * <p>Allocation: none when nothing needs escaping or shortening. Threading: stateless.
 */
public final class Printable {
    private Printable() {
    }

    /**
     * {@code text} with control characters and lone surrogates escaped as {@code \}{@code uXXXX};
     * {@code text} itself when it has none; {@code "null"} for null.
     */
    public static String escape(String text) {
        if (text == null) {
            return "null";
        }
        int n = text.length();
        int i = 0;
        while (i < n && !needsEscape(text, i)) {
            i++;
        }
        if (i == n) {
            return text;
        }
        StringBuilder sb = new StringBuilder(n + 16).append(text, 0, i);
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (needsEscape(text, i)) {
                sb.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
                        .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * {@code text} of at most about {@code max} characters: longer text keeps its start and its end
     * (two thirds and one third) around {@code "...(N characters)..."}, never splitting a surrogate
     * pair. Null stays null.
     */
    public static String shorten(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int head = Math.max(1, max * 2 / 3);
        int tail = Math.max(1, max - head);
        if (Character.isHighSurrogate(text.charAt(head - 1))) {
            head--;
        }
        int tailStart = text.length() - tail;
        if (Character.isLowSurrogate(text.charAt(tailStart))) {
            tailStart++;
        }
        return text.substring(0, head) + "...(" + (tailStart - head) + " characters)..." + text.substring(tailStart);
    }

    /** {@link #escape} of {@link #shorten}: what to show of a name or value quoted in a message. */
    public static String clean(String text, int max) {
        return escape(shorten(text, max));
    }

    private static boolean needsEscape(String s, int i) {
        char c = s.charAt(i);
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C) {
            return true;
        }
        if (c >= 0x200E && isLayoutControl(c)) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }

    /**
     * The characters that reorder or break text without being C0/C1 controls: the bidirectional
     * marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A-U+202E,
     * U+2066-U+2069: U+202E makes the rest of a line read backwards, "Trojan Source") and the
     * line and paragraph separators (U+2028, U+2029, which some terminals and viewers break lines at).
     */
    private static boolean isLayoutControl(char c) {
        return c == 0x200E || c == 0x200F || (c >= 0x2028 && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
}
