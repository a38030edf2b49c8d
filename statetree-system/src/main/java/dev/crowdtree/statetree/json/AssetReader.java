package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.Suggestions;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.RequiredEventDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.definition.Values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns a parsed JSON document (see {@link RawJson}) into a {@link TreeDef}, checking the structure
 * only: known keys, JSON types of the structural fields, no {@code null}s. Everything about meaning
 * (node types and properties, targets, bindings, ranges) is left to the compiler, so every such
 * rule lives in one place.
 *
 * <p>It keeps going after an error. A broken element of a list (a state, transition, node or
 * subtree that is not an object) is replaced by an empty placeholder so that list indexes in the
 * compiler's errors still match the file; the caller suppresses the compiler's errors about such
 * places (see {@link Issue#covers}).
 *
 * <p>State paths in errors are the state names from the root joined by '/'; inside a subtree they
 * start at the subtree's name. A state without a usable name is reported at its parent's path with
 * the field leading to it ({@code children[2].tasks[0]}).
 */
final class AssetReader {
    static final List<String> TOP_KEYS = List.of("name", "transitionScan", "rules", "parameters", "evaluators",
            "globalTasks", "root", "subtrees", "hostEvents");
    /**
     * The top-level key through which editors find the asset's JSON Schema
     * ({@code docs/statetree-asset.schema.json}): a string, accepted and otherwise ignored. It is not
     * listed among the valid keys in errors, which name the keys that describe the tree.
     */
    static final String SCHEMA_KEY = "$schema";
    static final List<String> STATE_KEYS = List.of("name", "type", "selection", "linkedSubtree", LinkedAssets.KEY,
            "linkedParameters", "parameters", "enterConditions", "tasks", "transitions", "children", "weight",
            "considerations", "completion", "enabled", "composite", "history", "requiredEvent", "tickPeriod");
    static final List<String> TRANSITION_KEYS = List.of("trigger", "event", "to", "conditions", "delay",
            "delayVariance", "priority", "consumeEvent", "payloadFields", "enabled", "reactivateTarget");
    static final List<String> PARAMETER_KEYS = List.of("type", "default", "values", "value");
    static final List<String> REQUIRED_EVENT_KEYS = List.of("tag", "payloadFields", "consumeEvent");

    /** A loader error and whether it is inside a subtree (whose compiled paths are prefixed). */
    record Issue(CompileError error, boolean inSubtree) {
        /**
         * Whether this loader error already explains {@code e}, a compiler error: same place, and the
         * compiler's field is this error's field or lies inside it.
         */
        boolean covers(CompileError e) {
            String f = error.field();
            if (f == null || f.isEmpty() || e.field() == null) {
                return false;
            }
            boolean sameField = e.field().equals(f) || e.field().startsWith(f + ".") || e.field().startsWith(f + "[");
            return sameField && samePlace(e.statePath());
        }

        private boolean samePlace(String compiledPath) {
            String p = error.statePath();
            if (p == null || compiledPath == null) {
                return p == null && compiledPath == null;
            }
            if (p.equals(compiledPath)) {
                return true;
            }
            // The compiler reports subtree states inside each linked copy, or as "subtree <path>".
            return inSubtree && (compiledPath.equals("subtree " + p) || compiledPath.endsWith("/" + p));
        }
    }

    /** Most errors the reader keeps; beyond that it only counts (keeps hostile assets cheap). */
    static final int MAX_ISSUES = StateTreeCompileException.MAX_KEPT;

    private final String source;
    private final List<Issue> issues = new ArrayList<>();
    private boolean inSubtree;
    private int dropped;

    private final LinkedAssets links;
    private final Suggestions suggestions = new Suggestions(Suggestions.DEFAULT_BUDGET);

    AssetReader(String source) {
        this(source, new LinkedAssets());
    }

    /** A reader whose {@code linkedAsset} states are included through {@code links}. */
    AssetReader(String source, LinkedAssets links) {
        this.source = source;
        this.links = links;
    }

    /** The first {@link #MAX_ISSUES} errors found. */
    List<Issue> issues() {
        return issues;
    }

    /** The errors found beyond {@link #issues()}, only counted. */
    int dropped() {
        return dropped;
    }

    /** An error found in another file (an included asset), kept as it is. */
    void issue(CompileError e) {
        if (issues.size() >= MAX_ISSUES) {
            dropped++;
            return;
        }
        issues.add(new Issue(e, false));
    }

    /** Errors found in another file (an included asset) and only counted there. */
    void countDropped(int count) {
        dropped += count;
    }

    void error(String statePath, String field, String message) {
        if (issues.size() >= MAX_ISSUES) {
            dropped++;
            return;
        }
        issues.add(new Issue(new CompileError(source, statePath, field, message), inSubtree));
    }

    // ---- tree ------------------------------------------------------------------------------------

    /** The tree, or null when the document is not an object at all. */
    TreeDef tree(Object doc) {
        if (!(doc instanceof Map)) {
            error(null, null, "an asset is a JSON object {\"name\": ..., \"root\": {...}}, got " + Values.describe(doc));
            return null;
        }
        Map<String, Object> m = asMap(doc);
        Map<String, Object> keys = new LinkedHashMap<>(m);
        keys.remove(SCHEMA_KEY);
        checkKeys(keys, TOP_KEYS, null, "", "at the top level");
        string(m, SCHEMA_KEY, null, ""); // only its JSON type is checked; the value is not used
        String name = string(m, "name", null, "");
        String transitionScan = string(m, "transitionScan", null, "");
        String rules = string(m, "rules", null, "");
        links.declareScan(transitionScan, rules); // before the root: the linked assets it includes are checked against them
        List<ParameterDef> params = parameters(m, null, "");
        List<NodeDef> evaluators = nodes(m, "evaluators", null, "", "evaluator");
        List<NodeDef> globalTasks = nodes(m, "globalTasks", null, "", "task");
        StateDef root = null;
        if (m.containsKey("root")) {
            Object r = m.get("root");
            if (r instanceof Map) {
                root = state(asMap(r), null, "root");
            } else {
                error(null, "root", "expected a state object {\"name\": ...}, got " + Values.describe(r));
            }
        }
        List<StateDef> subtrees = new ArrayList<>();
        Object st = m.get("subtrees");
        if (m.containsKey("subtrees")) {
            if (st instanceof List) {
                List<?> l = (List<?>) st;
                for (int i = 0; i < l.size(); i++) {
                    String where = "subtrees[" + i + "]";
                    Object e = l.get(i);
                    if (e instanceof Map) {
                        inSubtree = true;
                        subtrees.add(state(asMap(e), null, where));
                        inSubtree = false;
                    } else {
                        error(null, where, "expected a subtree state object {\"name\": ..., \"type\": \"subtree\"}, got "
                                + Values.describe(e));
                        subtrees.add(placeholderState());
                    }
                }
            } else {
                error(null, "subtrees", "expected a list of subtree states, got " + Values.describe(st));
            }
        }
        subtrees.addAll(links.subtrees());
        java.util.Set<String> hostEvents = hostEvents(m);
        hostEvents.addAll(links.hostEvents()); // a linked asset's agents are the including tree's: its host sends them too
        return new TreeDef(source, name, params, evaluators, root, subtrees, globalTasks, transitionScan, rules,
                List.copyOf(hostEvents));
    }

    /** The top-level {@code hostEvents}: the event tags the host sends, each a non-empty string, each once. */
    private java.util.Set<String> hostEvents(Map<String, Object> m) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        List<?> l = list(m, "hostEvents", null, "", "event tags (strings)");
        for (int i = 0; i < l.size(); i++) {
            Object e = l.get(i);
            if (e instanceof String && !((String) e).isEmpty()) {
                out.add((String) e);
            } else {
                error(null, "hostEvents[" + i + "]", "expected an event tag (a non-empty string) that the host sends, got "
                        + Values.describe(e));
            }
        }
        return out;
    }

    // ---- states ----------------------------------------------------------------------------------

    /**
     * A state at {@code where} under {@code parentPath} ({@code root}, {@code children[2]},
     * {@code subtrees[1]}).
     */
    private StateDef state(Map<String, Object> m, String parentPath, String where) {
        Object rawName = m.get("name");
        String path;
        String pre;
        if (rawName instanceof String && !((String) rawName).isBlank()) {
            path = parentPath == null ? (String) rawName : parentPath + "/" + rawName;
            pre = "";
        } else {
            path = parentPath;
            pre = where + ".";
        }
        checkKeys(m, STATE_KEYS, path, pre, "in a state");
        String name = string(m, "name", parentPath, where + ".");
        String type = string(m, "type", path, pre);
        String selection = string(m, "selection", path, pre);
        String linkedSubtree = string(m, "linkedSubtree", path, pre);
        String asset = string(m, LinkedAssets.KEY, path, pre);
        if (LinkedAssets.TYPE.equals(type)) {
            linkedSubtree = links.include(this, asset, path, pre + LinkedAssets.KEY);
            // a state that cannot be included stays a plain state: its error is the loader's
            type = linkedSubtree == null ? null : Vocabulary.StateType.LINKED.assetName();
        } else if (m.containsKey(LinkedAssets.KEY)) {
            error(path, pre + LinkedAssets.KEY, "'asset' is only valid with \"type\": \"linkedAsset\"");
        }
        Map<String, Object> linkedParameters = new LinkedHashMap<>();
        if (m.containsKey("linkedParameters")) {
            Object lp = m.get("linkedParameters");
            if (lp instanceof Map) {
                for (Map.Entry<String, Object> e : asMap(lp).entrySet()) {
                    Object v = value(e.getValue(), path, pre + "linkedParameters." + e.getKey());
                    if (v != null) {
                        linkedParameters.put(e.getKey(), v);
                    }
                }
            } else {
                error(path, pre + "linkedParameters", "expected an object mapping subtree parameter names to "
                        + "values or bindings, got " + Values.describe(lp));
            }
        }
        List<ParameterDef> params = parameters(m, path, pre);
        List<NodeDef> enter = nodes(m, "enterConditions", path, pre, "condition");
        List<NodeDef> tasks = nodes(m, "tasks", path, pre, "task");
        List<TransitionDef> transitions = new ArrayList<>();
        List<?> tl = list(m, "transitions", path, pre, "transition objects");
        for (int i = 0; i < tl.size(); i++) {
            String f = pre + "transitions[" + i + "]";
            Object t = tl.get(i);
            if (t instanceof Map) {
                transitions.add(transition(asMap(t), path, f + "."));
            } else {
                error(path, f, "expected a transition object {\"trigger\": ..., \"to\": ...}, got " + Values.describe(t));
                transitions.add(new TransitionDef(null, null, null, null, null, null));
            }
        }
        List<StateDef> children = new ArrayList<>();
        List<?> cl = list(m, "children", path, pre, "state objects");
        for (int i = 0; i < cl.size(); i++) {
            String f = "children[" + i + "]";
            Object c = cl.get(i);
            if (c instanceof Map) {
                children.add(state(asMap(c), path, pre + f));
            } else {
                error(path, pre + f, "expected a state object {\"name\": ...}, got " + Values.describe(c));
                children.add(placeholderState());
            }
        }
        Object weight = m.containsKey("weight") ? value(m.get("weight"), path, pre + "weight") : null;
        List<Map<String, Object>> considerations = new ArrayList<>();
        List<?> kl = list(m, "considerations", path, pre, "consideration objects");
        for (int i = 0; i < kl.size(); i++) {
            String f = pre + "considerations[" + i + "]";
            Object k = kl.get(i);
            if (k instanceof Map) {
                considerations.add(asMap(value(k, path, f)));
            } else {
                error(path, f, "expected a consideration object {\"input\": ..., \"min\": ..., \"max\": ...}, got "
                        + Values.describe(k));
            }
        }
        String completion = string(m, "completion", path, pre);
        Object enabled = m.containsKey("enabled") ? value(m.get("enabled"), path, pre + "enabled") : null;
        String composite = string(m, "composite", path, pre);
        String history = string(m, "history", path, pre);
        Object tickPeriod = m.containsKey("tickPeriod") ? value(m.get("tickPeriod"), path, pre + "tickPeriod") : null;
        return new StateDef(name, type, selection, linkedSubtree, linkedParameters, params, enter, tasks,
                transitions, children, weight, considerations, completion, enabled, composite, history, null, tickPeriod)
                .withRequiredEvent(requiredEvent(m, path, pre));
    }

    /** The state's {@code requiredEvent} object (rule V1; its values are the compiler's to check), or null. */
    private RequiredEventDef requiredEvent(Map<String, Object> m, String path, String pre) {
        if (!m.containsKey("requiredEvent")) {
            return null;
        }
        Object raw = m.get("requiredEvent");
        String f = pre + "requiredEvent";
        if (!(raw instanceof Map)) {
            error(path, f, "expected a required event object {\"tag\": ..., \"payloadFields\": {...}, "
                    + "\"consumeEvent\": true}, got " + Values.describe(raw));
            return null;
        }
        Map<String, Object> r = asMap(raw);
        checkKeys(r, REQUIRED_EVENT_KEYS, path, f + ".", "in a requiredEvent");
        String tag = string(r, "tag", path, f + ".");
        Object fields = r.containsKey("payloadFields") ? value(r.get("payloadFields"), path, f + ".payloadFields") : null;
        Object consume = r.containsKey("consumeEvent") ? value(r.get("consumeEvent"), path, f + ".consumeEvent") : null;
        return new RequiredEventDef(tag, fields, consume);
    }

    /** Stands in for a list element that is not an object; the compiler skips it (error suppressed). */
    private static StateDef placeholderState() {
        return new StateDef(null, null, null, null, null, null, null, null, null, null);
    }

    private TransitionDef transition(Map<String, Object> m, String path, String pre) {
        checkKeys(m, TRANSITION_KEYS, path, pre, "in a transition");
        String trigger = string(m, "trigger", path, pre);
        String event = string(m, "event", path, pre);
        String to = string(m, "to", path, pre);
        List<NodeDef> conditions = nodes(m, "conditions", path, pre, "condition");
        Object delay = m.containsKey("delay") ? value(m.get("delay"), path, pre + "delay") : null;
        Object variance = m.containsKey("delayVariance") ? value(m.get("delayVariance"), path, pre + "delayVariance")
                : null;
        String priority = string(m, "priority", path, pre);
        Object consume = m.containsKey("consumeEvent") ? value(m.get("consumeEvent"), path, pre + "consumeEvent") : null;
        Object payload = m.containsKey("payloadFields") ? value(m.get("payloadFields"), path, pre + "payloadFields") : null;
        Object enabled = m.containsKey("enabled") ? value(m.get("enabled"), path, pre + "enabled") : null;
        Object reactivate = m.containsKey("reactivateTarget")
                ? value(m.get("reactivateTarget"), path, pre + "reactivateTarget") : null;
        return new TransitionDef(trigger, event, to, conditions, delay, variance, priority, consume, payload, enabled,
                reactivate);
    }

    // ---- parameters ------------------------------------------------------------------------------

    private List<ParameterDef> parameters(Map<String, Object> m, String path, String pre) {
        List<ParameterDef> out = new ArrayList<>();
        if (!m.containsKey("parameters")) {
            return out;
        }
        Object raw = m.get("parameters");
        if (!(raw instanceof Map)) {
            error(path, pre + "parameters", "expected an object mapping parameter names to "
                    + "{\"type\": \"bool\"|\"int\"|\"float\", \"default\": value}, got " + Values.describe(raw));
            return out;
        }
        for (Map.Entry<String, Object> e : asMap(raw).entrySet()) {
            String f = pre + "parameters." + e.getKey();
            Object v = e.getValue();
            if (!(v instanceof Map)) {
                error(path, f, "expected a parameter object {\"type\": \"bool\"|\"int\"|\"float\", \"default\": value}, got "
                        + Values.describe(v));
                out.add(new ParameterDef(e.getKey(), null, null));
                continue;
            }
            Map<String, Object> pm = asMap(v);
            checkKeys(pm, PARAMETER_KEYS, path, f + ".", "in a parameter");
            String type = string(pm, "type", path, f + ".");
            Object dflt = pm.containsKey("default") ? value(pm.get("default"), path, f + ".default") : null;
            List<Object> values = null;
            if (pm.containsKey("values")) {
                Object vs = value(pm.get("values"), path, f + ".values");
                if (vs instanceof List) {
                    @SuppressWarnings("unchecked")
                    List<Object> l = (List<Object>) vs;
                    values = l;
                } else {
                    error(path, f + ".values", "expected a list of value names [\"Idle\", ...], got " + Values.describe(vs));
                }
            }
            Object given = pm.containsKey("value") ? value(pm.get("value"), path, f + ".value") : null;
            out.add(new ParameterDef(e.getKey(), type, dflt, values, given));
        }
        return out;
    }

    // ---- nodes -----------------------------------------------------------------------------------

    private List<NodeDef> nodes(Map<String, Object> m, String key, String path, String pre, String what) {
        List<NodeDef> out = new ArrayList<>();
        List<?> l = list(m, key, path, pre, what + " objects");
        for (int i = 0; i < l.size(); i++) {
            String f = pre + key + "[" + i + "]";
            Object e = l.get(i);
            if (e instanceof Map) {
                Object v = value(e, path, f);
                out.add(NodeDef.fromMap((Map<?, ?>) v));
            } else {
                error(path, f, "expected " + article(what) + " object {\"type\": ...}, got " + Values.describe(e));
                out.add(new NodeDef(null, null, Map.of()));
            }
        }
        return out;
    }

    /**
     * A property value as plain data (String, Boolean, Long, Double, List, LinkedHashMap), with every
     * JSON {@code null} reported: dropped from objects, kept as null in lists (the compiler reports
     * those at the same field, which the caller suppresses).
     */
    private Object value(Object raw, String path, String field) {
        if (raw == null) {
            error(path, field, "null is not a valid value; give a value or leave the field out");
            return null;
        }
        if (raw instanceof Map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : asMap(raw).entrySet()) {
                Object v = value(e.getValue(), path, field + "." + e.getKey());
                if (v != null) {
                    out.put(e.getKey(), v);
                }
            }
            return out;
        }
        if (raw instanceof List) {
            List<?> l = (List<?>) raw;
            List<Object> out = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) {
                out.add(value(l.get(i), path, field + "[" + i + "]"));
            }
            return out;
        }
        return raw;
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private void checkKeys(Map<String, Object> m, List<String> valid, String path, String pre, String where) {
        for (String k : m.keySet()) {
            if (!valid.contains(k)) {
                error(path, pre + k, "unknown key '" + k + "' " + where + "; valid keys are " + String.join(", ", valid)
                        + suggestions.suggest(k, valid));
            }
        }
    }

    private String string(Map<String, Object> m, String key, String path, String pre) {
        if (!m.containsKey(key)) {
            return null;
        }
        Object v = m.get(key);
        if (v instanceof String) {
            return (String) v;
        }
        error(path, pre + key, "expected a string, got " + Values.describe(v));
        return null;
    }

    private List<?> list(Map<String, Object> m, String key, String path, String pre, String what) {
        if (!m.containsKey(key)) {
            return List.of();
        }
        Object v = m.get(key);
        if (v instanceof List) {
            return (List<?>) v;
        }
        error(path, pre + key, "expected a list of " + what + ", got " + Values.describe(v));
        return List.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static String article(String word) {
        return ("aeiou".indexOf(word.charAt(0)) >= 0 ? "an " : "a ") + word;
    }


    // ---- locating a parse failure ----------------------------------------------------------------

    /** State path and field of a position in a (partial) document, as far as the document tells. */
    record Place(String statePath, String field) {
    }

    /**
     * Where {@code path} (keys and indexes from the root) points, in the terms of errors: the state
     * it is in (names known so far) and the field within it.
     */
    static Place locate(Object doc, List<Object> path) {
        if (path.isEmpty()) {
            return new Place(null, null);
        }
        // Every step below is a lookup in the partial document; names not yet read stay unknown.
        String statePath = null;
        StringBuilder field = new StringBuilder();
        Object cur = doc;
        int i = 0;
        Object first = path.get(0);
        if ("root".equals(first)) {
            cur = child(cur, first);
            field.append("root");
            i = 1;
        } else if ("subtrees".equals(first) && path.size() > 1 && path.get(1) instanceof Integer) {
            cur = child(child(cur, first), path.get(1));
            field.append("subtrees[").append(path.get(1)).append(']');
            i = 2;
        } else {
            return new Place(null, render(path, 0, new StringBuilder()));
        }
        // cur is a state (or unknown); field is how it is reached from statePath.
        while (true) {
            Object name = cur instanceof Map ? ((Map<?, ?>) cur).get("name") : null;
            if (name instanceof String && !((String) name).isBlank()) {
                statePath = statePath == null ? (String) name : statePath + "/" + name;
                field.setLength(0);
            }
            if (i + 1 < path.size() && "children".equals(path.get(i)) && path.get(i + 1) instanceof Integer) {
                cur = child(child(cur, "children"), path.get(i + 1));
                if (field.length() > 0) {
                    field.append('.');
                }
                field.append("children[").append(path.get(i + 1)).append(']');
                i += 2;
                continue;
            }
            String rest = render(path, i, new StringBuilder());
            if (!rest.isEmpty()) {
                if (field.length() > 0 && !rest.startsWith("[")) {
                    field.append('.');
                }
                field.append(rest);
            }
            return new Place(abbreviate(statePath, '/'), field.length() == 0 ? null : abbreviate(field.toString(), '.'));
        }
    }

    /** Keeps a pathologically deep path readable: its first and last few segments. */
    static String abbreviate(String path, char separator) {
        if (path == null) {
            return null;
        }
        String sep = String.valueOf(separator);
        String[] parts = path.split(Pattern.quote(sep), -1);
        if (parts.length <= 16) {
            return path;
        }
        List<String> out = new ArrayList<>(List.of(parts).subList(0, 6));
        out.add("...(" + (parts.length - 10) + " more)...");
        out.addAll(List.of(parts).subList(parts.length - 4, parts.length));
        return String.join(sep, out);
    }

    private static Object child(Object container, Object key) {
        if (container instanceof Map) {
            return ((Map<?, ?>) container).get(key);
        }
        if (container instanceof List && key instanceof Integer) {
            List<?> l = (List<?>) container;
            int k = (Integer) key;
            return k >= 0 && k < l.size() ? l.get(k) : null;
        }
        return null;
    }

    private static String render(List<Object> path, int from, StringBuilder sb) {
        for (int i = from; i < path.size(); i++) {
            Object s = path.get(i);
            if (s instanceof Integer) {
                sb.append('[').append(s).append(']');
            } else {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(s);
            }
        }
        return sb.toString();
    }
}
