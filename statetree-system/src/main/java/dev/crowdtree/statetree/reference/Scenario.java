package dev.crowdtree.statetree.reference;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.crowdtree.statetree.compiler.Suggestions;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.exec.NodeErrorPolicy;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.JsonLimits;
import dev.crowdtree.statetree.node.Payload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario: which tree to run, for how long, with how many agents, and what happens from
 * outside at which tick. Written as JSON:
 *
 * <pre>{@code
 * {"tree": "asset.json", "dt": 0.1, "ticks": 20, "seed": 1, "agents": 1, "workers": 1,
 *  "inputs": [{"tick": 3, "set": {"threat": 0.9}},
 *             {"tick": 5, "event": "Alarm"},
 *             {"tick": 6, "event": {"tag": "Hit", "payload": 2}, "agent": 0},
 *             {"tick": 6, "event": "Noise", "payload": {"volume": 12, "loud": true}},
 *             {"tick": 7, "period": 4, "agent": 0},
 *             {"tick": 8, "column": "distance", "value": 4.5, "agent": 0},
 *             {"tick": 9, "stop": true}]}
 * }</pre>
 *
 * <p>{@code tree} is relative to the scenario file and must stay in its directory (or below): an
 * absolute path, a path out of it with {@code ..} or one with a control character is refused when
 * the scenario's tree is used ({@link #resolveTree()}), not when the scenario is read, so that a
 * runner given the tree directly (the command line's {@code trace --tree FILE}) can run the
 * scenario anyway. Tick 0 is the start, ticks 1..{@code ticks}
 * are ticks of {@code dt} seconds; the inputs of tick k apply just before tick k runs, in the
 * order listed: {@code set} sets parameters, {@code event} queues an event (its {@code payload} a
 * number, read as the field {@code value}, or an object of bool, int and float fields), {@code period} requests
 * a tick period (1, 2, 4, ..., 64; docs/SEMANTICS.md section 12), {@code column} with {@code value}
 * sets a host column the tree's nodes declare (a number, or a boolean as 1 or 0), {@code stop} stops the tree, for
 * the given {@code agent} or for every agent, {@code start} makes the tick a Start of every agent (A3); {@code despawn}
 * (with an {@code agent}) stops its tree and removes it, and no later input may name it. Defaults: dt 0.1, seed 1, agents 1,
 * workers 1, no inputs; {@code ticks} is required. At most {@value #MAX_AGENTS} agents and
 * {@value #MAX_WORKERS} workers; the file is read through {@link InputFiles} (at most 16 MB unless
 * raised, regular files only).
 *
 * <p>Parsing is strict: unknown fields, wrong types, duplicate keys and out-of-range ticks or agents
 * are {@link ScenarioException}s naming the file and the field. Parameter names and value types are
 * checked against the tree when the scenario is run. Immutable.
 */
public final class Scenario {
    public static final float DEFAULT_DT = 0.1f;
    public static final long DEFAULT_SEED = 1;
    /**
     * The most agents a scenario may have. A trace of more would not be read by anyone, and the
     * runner also refuses a scenario whose agents would not fit in the heap
     * ({@link ScenarioRunner#estimatedBytesPerAgent}).
     */
    public static final int MAX_AGENTS = 10_000_000;
    /** The most worker threads a scenario may ask for (the batched runtime's limit). */
    public static final int MAX_WORKERS = 256;

    private static final List<String> FIELDS = List.of("tree", "dt", "ticks", "seed", "agents", "workers", "inputs",
            "onNodeError");
    private static final List<String> INPUT_FIELDS = List.of("tick", "agent", "set", "event", "payload", "period",
            "stop", "start", "despawn", "column", "value");
    private static final List<String> EVENT_FIELDS = List.of("tag", "payload");
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(JsonLimits.MAX_NESTING)
                            .maxNumberLength(JsonLimits.MAX_NUMBER_LENGTH)
                            .maxStringLength(JsonLimits.MAX_STRING_LENGTH)
                            .maxNameLength(JsonLimits.MAX_STRING_LENGTH)
                            .maxTokenCount(JsonLimits.MAX_TOKENS)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Something that happens from outside just before a tick. */
    public sealed interface Input permits SetInput, EventInput, PeriodInput, StopInput, StartInput, DespawnInput, ColumnInput {
        /** Position in the {@code inputs} list (for error messages). */
        int index();

        /** The tick it applies before (0 = before the start). */
        int tick();

        /** The agent, or {@link dev.crowdtree.statetree.exec.StateTreeRuntime#ALL}. */
        int agent();
    }

    /** A value for a parameter: a number, or a boolean (stored as 1 or 0). */
    public record Value(double number, boolean isBoolean, boolean isInteger, String name) {
        /** A number or a boolean. */
        public Value(double number, boolean isBoolean, boolean isInteger) {
            this(number, isBoolean, isInteger, null);
        }
    }

    /** Sets parameters by name. */
    public record SetInput(int index, int tick, int agent, Map<String, Value> values) implements Input {
        public SetInput {
            values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }
    }

    /** Queues an event with a payload (null: none). */
    public record EventInput(int index, int tick, int agent, String tag, Payload payload) implements Input {
        /** Whether the event carries a payload. */
        public boolean hasPayload() {
            return payload != null;
        }
    }

    /** Requests a tick period. */
    public record PeriodInput(int index, int tick, int agent, int period) implements Input {
    }

    /** Stops the tree. */
    public record StopInput(int index, int tick, int agent) implements Input {
    }

    /** Makes its tick a Start of every agent's tree instead of a Tick, as tick 0 is (docs/SEMANTICS.md section 2). */
    public record StartInput(int index, int tick, int agent) implements Input {
    }

    /**
     * Sets a host column the tree's nodes declare ({@code {"column": "distance", "value": 4.5}}) for
     * one agent or every agent; a boolean is 1 or 0.
     */
    public record ColumnInput(int index, int tick, int agent, String column, double value) implements Input {
    }

    /** Despawns one agent (its tree stops first). */
    public record DespawnInput(int index, int tick, int agent) implements Input {
    }

    private final String source;
    private final Path tree;
    /** Why the {@code tree} field cannot be used, or null. */
    private final String treeProblem;
    private final float dt;
    private final int ticks;
    private final long seed;
    private final int agents;
    private final int workers;
    private final List<Input> inputs;
    private NodeErrorPolicy onNodeError = NodeErrorPolicy.FAIL;

    /**
     * A scenario built in code.
     *
     * @param source a label for error messages (a file name)
     * @param tree   the tree asset, or null when the tree is given to the runner directly
     * @throws IllegalArgumentException if a value or an input's tick or agent is out of range
     */
    public Scenario(String source, Path tree, float dt, int ticks, long seed, int agents, int workers,
                    List<Input> inputs) {
        this(source, tree, null, dt, ticks, seed, agents, workers, inputs);
    }

    private Scenario(String source, Path tree, String treeProblem, float dt, int ticks, long seed, int agents,
                     int workers, List<Input> inputs) {
        if (!(dt > 0) || Float.isInfinite(dt) || ticks < 0 || agents < 1 || workers < 1 || agents > MAX_AGENTS
                || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("bad scenario: dt " + dt + ", ticks " + ticks + ", agents " + agents
                    + ", workers " + workers);
        }
        for (Input in : inputs) {
            if (in.tick() < 0 || in.tick() > ticks || in.agent() < dev.crowdtree.statetree.exec.StateTreeRuntime.ALL
                    || in.agent() >= agents) {
                throw new IllegalArgumentException("input " + in + " is out of range (ticks 0.." + ticks
                        + ", agents 0.." + (agents - 1) + ")");
            }
        }
        this.source = source == null ? "<scenario>" : source;
        this.tree = tree;
        this.treeProblem = treeProblem;
        this.dt = dt;
        this.ticks = ticks;
        this.seed = seed;
        this.agents = agents;
        this.workers = workers;
        this.inputs = List.copyOf(inputs);
    }

    /** Reads and validates a scenario file of at most {@link InputFiles#DEFAULT_MAX_BYTES}. */
    public static Scenario load(Path file) throws ScenarioException {
        return load(file, InputFiles.DEFAULT_MAX_BYTES);
    }

    /**
     * Reads and validates a scenario file of at most {@code maxBytes} (see {@link InputFiles}).
     *
     * @param maxBytes the limit, 1..{@link InputFiles#MAX_ARRAY}
     */
    public static Scenario load(Path file, long maxBytes) throws ScenarioException {
        String label = file.toString();
        String text;
        try {
            text = InputFiles.read(file, maxBytes);
        } catch (InputFileException e) {
            throw new ScenarioException(label, null, e.problem());
        }
        return parse(text.startsWith("\uFEFF") ? text.substring(1) : text, label, file.toAbsolutePath().getParent());
    }

    /**
     * Parses and validates scenario JSON.
     *
     * @param json    the text
     * @param source  the file name (or a label) for error messages
     * @param baseDir the directory {@code tree} is relative to and may not leave, or null (then
     *                {@code tree} is relative to the working directory and may not leave that)
     */
    public static Scenario parse(String json, String source, Path baseDir) throws ScenarioException {
        String src = source == null ? "<scenario>" : source;
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw new ScenarioException(src, null, "invalid JSON" + where + ": " + JsonLimits.clean(e.getOriginalMessage()));
        }
        if (root == null || root.isMissingNode()) {
            throw new ScenarioException(src, null, "the file is empty; expected a scenario object");
        }
        if (!root.isObject()) {
            throw new ScenarioException(src, null, "expected a scenario object {...}, got " + describe(root));
        }
        checkFields(src, root, FIELDS, "");

        Path tree = null;
        String treeProblem = null;
        JsonNode t = root.get("tree");
        if (t != null) {
            if (!t.isTextual() || t.asText().isBlank()) {
                throw new ScenarioException(src, "tree", "expected the tree asset's file name (a non-empty string), got "
                        + describe(t));
            }
            treeProblem = ScenarioTreePath.problem(t.asText(), baseDir);
            tree = treeProblem != null ? null : baseDir == null ? Path.of(t.asText()).normalize()
                    : baseDir.resolve(t.asText()).normalize();
        }
        float dt = DEFAULT_DT;
        JsonNode d = root.get("dt");
        if (d != null) {
            if (!d.isNumber() || !(d.asDouble() > 0) || Double.isInfinite(d.asDouble())
                    || (float) d.asDouble() <= 0f || Float.isInfinite((float) d.asDouble())) {
                throw new ScenarioException(src, "dt", "expected a positive number of seconds, got " + describe(d));
            }
            dt = (float) d.asDouble();
        }
        if (root.get("ticks") == null) {
            throw new ScenarioException(src, "ticks", "missing required field 'ticks' (the number of ticks after the start)");
        }
        int ticks = (int) integer(src, "ticks", root.get("ticks"), 0, Integer.MAX_VALUE - 1);
        long seed = root.get("seed") == null ? DEFAULT_SEED
                : integer(src, "seed", root.get("seed"), Long.MIN_VALUE, Long.MAX_VALUE);
        int agents = root.get("agents") == null ? 1 : (int) integer(src, "agents", root.get("agents"), 1, MAX_AGENTS);
        int workers = root.get("workers") == null ? 1
                : (int) integer(src, "workers", root.get("workers"), 1, MAX_WORKERS);

        List<Input> inputs = new ArrayList<>();
        JsonNode in = root.get("inputs");
        if (in != null) {
            if (!in.isArray()) {
                throw new ScenarioException(src, "inputs", "expected a list of inputs [...], got " + describe(in));
            }
            for (int i = 0; i < in.size(); i++) {
                inputs.add(input(src, "inputs[" + i + "]", i, in.get(i), ticks, agents));
            }
        }
        Scenario s = new Scenario(src, tree, treeProblem, dt, ticks, seed, agents, workers, inputs);
        JsonNode policy = root.get("onNodeError");
        if (policy != null) {
            if (!policy.isTextual() || !List.of("fail", "isolate").contains(policy.asText())) {
                throw new ScenarioException(src, "onNodeError", "expected \"fail\" or \"isolate\", got " + describe(policy));
            }
            s.onNodeError = NodeErrorPolicy.valueOf(policy.asText().toUpperCase(java.util.Locale.ROOT));
        }
        return s;
    }

    /** What a throwing node does in this scenario ({@code "onNodeError": "fail" | "isolate"}, default fail; rule R1). */
    public NodeErrorPolicy onNodeError() {
        return onNodeError;
    }

    private static Input input(String src, String f, int index, JsonNode n, int ticks, int agents)
            throws ScenarioException {
        if (!n.isObject()) {
            throw new ScenarioException(src, f, "expected an input object {\"tick\": ..., ...}, got " + describe(n));
        }
        checkFields(src, n, INPUT_FIELDS, f + ".");
        if (n.get("tick") == null) {
            throw new ScenarioException(src, f + ".tick", "missing required field 'tick'");
        }
        JsonNode tn = n.get("tick");
        if (!tn.isIntegralNumber()) {
            throw new ScenarioException(src, f + ".tick", "expected an integer tick, got " + describe(tn));
        }
        if (!tn.canConvertToLong() || tn.asLong() < 0 || tn.asLong() > ticks) {
            throw new ScenarioException(src, f + ".tick", "tick " + tn.asText() + " is out of range 0.." + ticks
                    + " (0 is the start, 1.." + ticks + " are the ticks)");
        }
        int tick = tn.asInt();
        int agent = dev.crowdtree.statetree.exec.StateTreeRuntime.ALL;
        JsonNode an = n.get("agent");
        if (an != null) {
            if (!an.isIntegralNumber()) {
                throw new ScenarioException(src, f + ".agent", "expected an agent id (an integer), got " + describe(an));
            }
            if (!an.canConvertToLong() || an.asLong() < 0 || an.asLong() >= agents) {
                throw new ScenarioException(src, f + ".agent", "agent " + an.asText() + " is out of range 0.."
                        + (agents - 1) + " (the scenario has " + agents + (agents == 1 ? " agent)" : " agents)"));
            }
            agent = an.asInt();
        }
        int kinds = (n.has("set") ? 1 : 0) + (n.has("event") ? 1 : 0) + (n.has("period") ? 1 : 0)
                + (n.has("stop") ? 1 : 0) + (n.has("start") ? 1 : 0) + (n.has("despawn") ? 1 : 0) + (n.has("column") ? 1 : 0);
        if (kinds != 1) {
            throw new ScenarioException(src, f, "an input needs exactly one of 'set', 'event', 'period', 'stop', "
                    + "'start', 'despawn', 'column'" + (kinds == 0 ? "" : ", not several"));
        }
        if (n.has("value") != n.has("column")) {
            throw new ScenarioException(src, f + (n.has("value") ? ".value" : ".column"),
                    "'column' and 'value' go together: {\"column\": \"distance\", \"value\": 4.5}");
        }
        if (n.has("column")) {
            JsonNode c = n.get("column");
            JsonNode v = n.get("value");
            if (!c.isTextual() || c.asText().isEmpty()) {
                throw new ScenarioException(src, f + ".column", "expected the name of a host column, got " + describe(c));
            }
            if (!(v.isBoolean() || v.isNumber() && Double.isFinite(v.asDouble()))) {
                throw new ScenarioException(src, f + ".value", "expected a finite number or a boolean, got " + describe(v));
            }
            return new ColumnInput(index, tick, agent, c.asText(), v.isBoolean() ? (v.asBoolean() ? 1 : 0) : v.asDouble());
        }
        if (n.has("despawn")) {
            JsonNode dn = n.get("despawn");
            if (!dn.isBoolean() || !dn.asBoolean()) {
                throw new ScenarioException(src, f + ".despawn", "expected true, got " + describe(dn));
            }
            if (agent == dev.crowdtree.statetree.exec.StateTreeRuntime.ALL) {
                throw new ScenarioException(src, f + ".agent", "a despawn names one agent: give 'agent'");
            }
            return new DespawnInput(index, tick, agent);
        }
        if (n.has("period")) {
            JsonNode pn = n.get("period");
            long p = pn.isIntegralNumber() && pn.canConvertToLong() ? pn.asLong() : -1;
            if (p < 1 || p > 64 || Long.bitCount(p) != 1) {
                throw new ScenarioException(src, f + ".period", "expected a tick period 1, 2, 4, 8, 16, 32 or 64, got "
                        + describe(pn));
            }
            return new PeriodInput(index, tick, agent, (int) p);
        }
        if (n.has("set")) {
            return setInput(src, f, index, tick, agent, n.get("set"));
        }
        if (n.has("payload") && !n.has("event")) {
            throw new ScenarioException(src, f + ".payload", "'payload' goes with an 'event' input");
        }
        if (n.has("event")) {
            return eventInput(src, f, index, tick, agent, n);
        }
        String key = n.has("start") ? "start" : "stop";
        JsonNode st = n.get(key);
        if (!st.isBoolean() || !st.asBoolean()) {
            throw new ScenarioException(src, f + "." + key, "expected true, got " + describe(st));
        }
        if (key.equals("stop")) {
            return new StopInput(index, tick, agent);
        }
        if (agent != dev.crowdtree.statetree.exec.StateTreeRuntime.ALL || tick == 0) {
            throw new ScenarioException(src, f, "a start starts every agent (no 'agent'), at a tick after 0 (the first start)");
        }
        return new StartInput(index, tick, agent);
    }

    /** A {@code "set"} input at {@code f}: parameter values {@code s} (numbers, booleans, enum value names). */
    private static Input setInput(String src, String f, int index, int tick, int agent, JsonNode s) throws ScenarioException {
        if (!s.isObject() || s.isEmpty()) {
            throw new ScenarioException(src, f + ".set", "expected an object of parameter values "
                    + "{\"name\": value, ...} with at least one entry, got " + describe(s));
        }
        Map<String, Value> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : s.properties()) {
            JsonNode v = e.getValue();
            if (v.isTextual()) {
                values.put(e.getKey(), new Value(0, false, false, v.asText())); // an enum value name
            } else if (v.isBoolean()) {
                values.put(e.getKey(), new Value(v.asBoolean() ? 1 : 0, true, false));
            } else if (v.isNumber() && Double.isFinite(v.asDouble())) {
                values.put(e.getKey(), new Value(v.asDouble(), false, v.isIntegralNumber()
                        || v.asDouble() == Math.rint(v.asDouble())));
            } else {
                throw new ScenarioException(src, f + ".set." + e.getKey(), "expected a number, a boolean or an enum value name, got "
                        + describe(v));
            }
        }
        return new SetInput(index, tick, agent, values);
    }

    /** An {@code "event"} input at {@code f} of input object {@code n}: a tag, or a tag with a payload. */
    private static Input eventInput(String src, String f, int index, int tick, int agent, JsonNode n) throws ScenarioException {
        JsonNode e = n.get("event");
        if (e.isTextual()) {
            if (e.asText().isEmpty()) {
                throw new ScenarioException(src, f + ".event", "an event tag must not be empty");
            }
            return new EventInput(index, tick, agent, e.asText(), payload(src, n.get("payload"), f + ".payload"));
        }
        if (!e.isObject()) {
            throw new ScenarioException(src, f + ".event", "expected an event tag (a string) or "
                    + "{\"tag\": ..., \"payload\": ...}, got " + describe(e));
        }
        checkFields(src, e, EVENT_FIELDS, f + ".event.");
        JsonNode tag = e.get("tag");
        if (tag == null || !tag.isTextual() || tag.asText().isEmpty()) {
            throw new ScenarioException(src, f + ".event.tag", "expected a non-empty event tag (a string), got "
                    + (tag == null ? "nothing" : describe(tag)));
        }
        if (n.has("payload") && e.has("payload")) {
            throw new ScenarioException(src, f + ".payload", "the payload is given twice (here and in 'event')");
        }
        JsonNode p = e.has("payload") ? e.get("payload") : n.get("payload");
        return new EventInput(index, tick, agent, tag.asText(), payload(src, p, f + (e.has("payload")
                ? ".event.payload" : ".payload")));
    }

    /** An event payload: a number (the field {@code value}) or an object of bool/int/float fields; null when absent. */
    private static Payload payload(String src, JsonNode p, String f) throws ScenarioException {
        if (p == null) {
            return null;
        }
        if (p.isNumber()) {
            if (!Float.isFinite((float) p.asDouble())) {
                throw new ScenarioException(src, f, "expected a finite number, got " + describe(p));
            }
            return Payload.number((float) p.asDouble());
        }
        if (!p.isObject()) {
            throw new ScenarioException(src, f, "expected a number or an object of bool/int/float fields, got "
                    + describe(p));
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : p.properties()) {
            JsonNode v = e.getValue();
            String ff = f + "." + e.getKey();
            if (e.getKey().isEmpty() || Payload.RESERVED.contains(e.getKey())) {
                throw new ScenarioException(src, ff, "payload field name '" + e.getKey() + "' is not allowed (not empty, "
                        + "and not one of " + Payload.RESERVED + ")");
            }
            if (v.isBoolean()) {
                fields.put(e.getKey(), v.asBoolean());
            } else if (v.isIntegralNumber() && v.canConvertToInt()) {
                fields.put(e.getKey(), v.asInt());
            } else if (v.isNumber() && !v.isIntegralNumber() && Float.isFinite((float) v.asDouble())) {
                fields.put(e.getKey(), v.asDouble());
            } else {
                throw new ScenarioException(src, ff, "expected a boolean, a 32-bit integer or a finite float, got "
                        + describe(v));
            }
        }
        return Payload.of(fields);
    }

    private static void checkFields(String src, JsonNode obj, List<String> valid, String prefix)
            throws ScenarioException {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!valid.contains(name)) {
                throw new ScenarioException(src, prefix + name, "unknown field '" + name + "'; valid fields are " + valid
                        + Suggestions.didYouMean(name, valid));
            }
        }
    }

    private static long integer(String src, String field, JsonNode n, long min, long max) throws ScenarioException {
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new ScenarioException(src, field, "expected an integer, got " + describe(n));
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new ScenarioException(src, field, "value " + v + " is out of range; it must be at least " + min
                    + (max == Long.MAX_VALUE || max >= Integer.MAX_VALUE - 1 ? "" : " and at most " + max));
        }
        return v;
    }

    /** {@link Values#describe} of a JSON node. */
    static String describe(JsonNode n) {
        if (n == null || n.isNull()) {
            return Values.describe(null);
        }
        if (n.isTextual()) {
            return Values.describe(n.asText());
        }
        if (n.isBoolean()) {
            return Values.describe(n.asBoolean());
        }
        if (n.isNumber()) {
            return Values.describe(n.numberValue());
        }
        return Values.describe(n.isArray() ? List.of() : Map.of());
    }

    /** The file name or label used in error messages. */
    public String source() {
        return source;
    }

    /**
     * The tree asset (resolved against the scenario's directory), or null when the scenario names
     * none or names one it may not use (see {@link #resolveTree()}).
     */
    public Path tree() {
        return tree;
    }

    /**
     * The tree asset to run the scenario with.
     *
     * @throws ScenarioException if the scenario names no tree, or one outside its directory or with
     *                           control characters in its name
     */
    public Path resolveTree() throws ScenarioException {
        if (treeProblem != null) {
            throw new ScenarioException(source, "tree", treeProblem);
        }
        if (tree == null) {
            throw new ScenarioException(source, "tree",
                    "missing field 'tree' (the tree asset's file name, relative to the scenario)");
        }
        return tree;
    }

    public float dt() {
        return dt;
    }

    public int ticks() {
        return ticks;
    }

    public long seed() {
        return seed;
    }

    public int agents() {
        return agents;
    }

    public int workers() {
        return workers;
    }

    public List<Input> inputs() {
        return inputs;
    }

    /** The tags of the events the scenario sends, in order of first use (the tree's host events for warning W5). */
    public List<String> eventTags() {
        java.util.LinkedHashSet<String> tags = new java.util.LinkedHashSet<>();
        for (Input in : inputs) {
            if (in instanceof EventInput e) {
                tags.add(e.tag());
            }
        }
        return List.copyOf(tags);
    }

    @Override
    public String toString() {
        return "Scenario[" + source + ", tree=" + tree + ", dt=" + dt + ", ticks=" + ticks + ", seed=" + seed
                + ", agents=" + agents + ", workers=" + workers + ", " + inputs.size() + " inputs]";
    }
}
