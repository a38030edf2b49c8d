package dev.crowdtree.statetree.json;

import com.fasterxml.jackson.core.StreamReadConstraints;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What parsing an input file (an asset or a scenario) may cost, and how its JSON errors read.
 *
 * <p>On top of the size limit of {@link InputFiles}, the parser stops at {@value #MAX_NESTING}
 * levels of nesting, {@value #MAX_NUMBER_LENGTH} characters in a number, {@value #MAX_STRING_LENGTH}
 * characters in a string or key and {@value #MAX_TOKENS} JSON tokens (every {@code {}, {@code }},
 * {@code [}, {@code ]}, key and value counts one), so that a file under the size limit cannot make
 * the reader build more than a few hundred megabytes of objects.
 *
 * <p>{@link #clean} turns the parser's messages into one line that names line and column but
 * quotes no word of the text (a file that is not JSON at all, say a password file, is not echoed)
 * and no Java names. THREADING: stateless.
 */
public final class JsonLimits {
    /** Deepest nesting of JSON objects and lists. */
    public static final int MAX_NESTING = 1000;
    /** Longest number literal, in characters. */
    public static final int MAX_NUMBER_LENGTH = 1000;
    /** Longest string or key, in characters. */
    public static final int MAX_STRING_LENGTH = 1 << 20;
    /** Most JSON tokens in one file. */
    public static final int MAX_TOKENS = 1_000_000;

    private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNestingDepth(MAX_NESTING)
            .maxNumberLength(MAX_NUMBER_LENGTH)
            .maxStringLength(MAX_STRING_LENGTH)
            .maxNameLength(MAX_STRING_LENGTH)
            .maxTokenCount(MAX_TOKENS)
            .build();

    /** A location inside one of Jackson's messages: {@code [Source: REDACTED...; line: 3, column: 66]}. */
    private static final Pattern SOURCE_REF = Pattern.compile(
            "\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");
    private static final Pattern ANY_SOURCE_REF = Pattern.compile("\\s*\\[Source: [^\\]]*\\]");
    /** A bare word of the text: quoted by Jackson, not by us. */
    private static final Pattern UNRECOGNIZED = Pattern.compile("(?s)^Unrecognized token '.*?': was expecting");
    private static final Pattern NON_STANDARD = Pattern.compile("(?s)^Non-standard token '([^']{1,12})'.*");
    /** Where a limit comes from, in Jackson's words: {@code , from `StreamReadConstraints.getMaxTokenCount()`}. */
    private static final Pattern FROM_SETTING = Pattern.compile(",\\s*from `[^`]*`");
    private static final Pattern ANY_SETTING = Pattern.compile("`[^`]*`");

    private JsonLimits() {
    }

    /** The parser limits above, for a Jackson factory (the scenario reader builds the same from the constants). */
    static StreamReadConstraints constraints() {
        return CONSTRAINTS;
    }

    /**
     * A message of the parser ({@code getOriginalMessage()}) without the (redacted) source, the
     * words of the text and Java names; line and column stay.
     */
    public static String clean(String message) {
        if (message == null) {
            return "malformed JSON";
        }
        String s = SOURCE_REF.matcher(message).replaceAll("line $1, column $2");
        s = ANY_SOURCE_REF.matcher(s).replaceAll("");
        s = UNRECOGNIZED.matcher(s).replaceFirst("Unrecognized token: was expecting");
        Matcher ns = NON_STANDARD.matcher(s);
        if (ns.matches()) {
            s = "Non-standard token '" + ns.group(1) + "': JSON has no NaN or Infinity";
        }
        s = FROM_SETTING.matcher(s).replaceAll("");
        s = ANY_SETTING.matcher(s).replaceAll("a parser setting");
        return s.trim();
    }
}
