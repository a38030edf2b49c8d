package dev.crowdtree.statetree.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict JSON text to plain Java values: {@link LinkedHashMap} (key order kept), {@link ArrayList},
 * {@link String}, {@link Boolean}, {@link Long} (integer literals that fit in a long), {@link Double}
 * (every other number) and {@code null}.
 *
 * <p>The parse is iterative (an explicit stack, no recursion), so nesting is bounded only by
 * the parser limits of {@link JsonLimits} (1000 levels, 1,000,000 tokens, ...), which fail cleanly
 * with a location. Duplicate keys are rejected ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}), as
 * is any content after the document. On failure the partial document built so far is kept, so that
 * the caller can name the state the error is in "as far as known".
 *
 * <p>THREADING: stateless; the shared {@link JsonFactory} is thread-safe.
 */
final class RawJson {
    /**
     * Jackson's factory for assets: strict JSON, duplicate keys are errors, the limits of
     * {@link JsonLimits}. Keys are not interned: Jackson's table of interned names gets slow with
     * hundreds of thousands of distinct keys, which a hostile asset has.
     */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
            .streamReadConstraints(JsonLimits.constraints())
            .build();

    private RawJson() {
    }

    /**
     * The outcome of a parse: the document (partial when {@link #failed()}), and on failure what went
     * wrong, where in the text, and the path of keys (String) and indexes (Integer) to the failure.
     */
    record Parsed(Object document, String error, long line, long column, List<Object> path) {
        boolean failed() {
            return error != null;
        }
    }

    /** One container under construction. */
    private static final class Frame {
        final Map<String, Object> map;
        final List<Object> list;
        String key;

        Frame(Map<String, Object> map, List<Object> list) {
            this.map = map;
            this.list = list;
        }
    }

    /** Parses {@code text}; never throws for bad input. */
    static Parsed parse(String text) {
        Deque<Frame> stack = new ArrayDeque<>();
        Object[] root = new Object[1];
        JsonParser p = null;
        try {
            p = FACTORY.createParser(text);
            JsonToken t = p.nextToken();
            if (t == null) {
                return new Parsed(null, "the text is empty; an asset is a JSON object {...}", 1, 1, List.of());
            }
            while (true) {
                switch (t) {
                    case START_OBJECT: {
                        Map<String, Object> m = new LinkedHashMap<>();
                        attach(stack, root, m);
                        stack.push(new Frame(m, null));
                        break;
                    }
                    case START_ARRAY: {
                        List<Object> l = new ArrayList<>();
                        attach(stack, root, l);
                        stack.push(new Frame(null, l));
                        break;
                    }
                    case FIELD_NAME:
                        stack.peek().key = p.currentName();
                        break;
                    case END_OBJECT:
                    case END_ARRAY:
                        stack.pop();
                        break;
                    case VALUE_STRING:
                        attach(stack, root, p.getText());
                        break;
                    case VALUE_NUMBER_INT:
                        attach(stack, root, integer(p));
                        break;
                    case VALUE_NUMBER_FLOAT:
                        attach(stack, root, p.getDoubleValue());
                        break;
                    case VALUE_TRUE:
                        attach(stack, root, Boolean.TRUE);
                        break;
                    case VALUE_FALSE:
                        attach(stack, root, Boolean.FALSE);
                        break;
                    case VALUE_NULL:
                        attach(stack, root, null);
                        break;
                    default:
                        // VALUE_EMBEDDED_OBJECT / NOT_AVAILABLE: cannot come from a String source.
                        JsonLocation loc = p.currentTokenLocation();
                        return new Parsed(root[0], "unexpected JSON token " + t, loc.getLineNr(), loc.getColumnNr(),
                                path(p.getParsingContext()));
                }
                if (stack.isEmpty()) {
                    break;
                }
                t = p.nextToken();
                if (t == null) {
                    // Jackson reports unclosed containers itself; this is a safety net.
                    JsonLocation loc = p.currentLocation();
                    return new Parsed(root[0], "unexpected end of the text", loc.getLineNr(), loc.getColumnNr(),
                            path(p.getParsingContext()));
                }
            }
            JsonToken after = p.nextToken();
            if (after != null) {
                JsonLocation loc = p.currentTokenLocation();
                return new Parsed(root[0], "JSON syntax error at line " + loc.getLineNr() + ", column "
                        + loc.getColumnNr() + ": unexpected content after the end of the JSON document",
                        loc.getLineNr(), loc.getColumnNr(), List.of());
            }
            return new Parsed(root[0], null, 0, 0, List.of());
        } catch (JsonProcessingException e) {
            return failure(e, p, root[0]);
        } catch (IOException e) {
            // Reading from a String cannot fail with I/O; keep a clear message anyway.
            return new Parsed(root[0], "could not read the JSON text: " + e.getMessage(), 1, 1, List.of());
        } finally {
            if (p != null) {
                try {
                    p.close();
                } catch (IOException ignored) {
                    // closing a String-backed parser does no I/O
                }
            }
        }
    }

    private static Object integer(JsonParser p) throws IOException {
        JsonParser.NumberType nt = p.getNumberType();
        if (nt == JsonParser.NumberType.INT || nt == JsonParser.NumberType.LONG) {
            return p.getLongValue();
        }
        // Does not fit in a long: the nearest double (may be infinite; the compiler rejects that).
        return p.getBigIntegerValue().doubleValue();
    }

    private static void attach(Deque<Frame> stack, Object[] root, Object value) {
        Frame f = stack.peek();
        if (f == null) {
            root[0] = value;
        } else if (f.map != null) {
            f.map.put(f.key, value);
        } else {
            f.list.add(value);
        }
    }

    private static Parsed failure(JsonProcessingException e, JsonParser p, Object partial) {
        JsonLocation loc = e.getLocation();
        if ((loc == null || loc.getLineNr() < 0) && p != null) {
            loc = p.currentLocation();
        }
        long line = loc == null ? -1 : loc.getLineNr();
        long column = loc == null ? -1 : loc.getColumnNr();
        String where = line < 0 ? "" : " at line " + line + ", column " + column;
        List<Object> path = p == null ? List.of() : path(p.getParsingContext());
        String original = JsonLimits.clean(e.getOriginalMessage());
        String message;
        if (original.startsWith("Duplicate field '")) {
            String key = original.substring("Duplicate field '".length());
            key = key.endsWith("'") ? key.substring(0, key.length() - 1) : key;
            message = "duplicate key '" + key + "'" + where + " (each key may appear only once in an object)";
        } else if (e instanceof StreamConstraintsException) {
            message = "the JSON exceeds a parser limit" + where + ": " + original;
        } else {
            message = "JSON syntax error" + where + ": " + original;
        }
        return new Parsed(partial, message, line, column, path);
    }

    /** Keys and indexes from the document root to the parser's current position. */
    private static List<Object> path(JsonStreamContext ctx) {
        List<Object> out = new ArrayList<>();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject()) {
                String name = c.getCurrentName();
                if (name != null) {
                    out.add(name);
                }
            } else if (c.inArray()) {
                out.add(Math.max(0, c.getCurrentIndex()));
            }
        }
        Collections.reverse(out);
        return out;
    }
}
