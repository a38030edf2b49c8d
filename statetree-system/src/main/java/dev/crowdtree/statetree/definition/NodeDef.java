package dev.crowdtree.statetree.definition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A task, condition or evaluator as authored: its type name, an optional display name and its
 * properties. Property values are plain data: {@link String}, {@link Boolean}, {@link Long},
 * {@link Double}, {@link Binding}, nested {@link NodeDef} (for conditions), {@link java.util.List}
 * and {@link Map}; the compiler checks them against the node type's schema.
 */
public final class NodeDef {
    private final String type;
    private final String name;
    private final Map<String, Object> properties;

    public NodeDef(String type, String name, Map<String, Object> properties) {
        this.type = type;
        this.name = name;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /**
     * A node from a raw JSON-like object: {@code type} and {@code name} are taken out when they are
     * strings; everything else (including a {@code type} or {@code name} that is not a string, for
     * the compiler to report) stays in the properties.
     */
    public static NodeDef fromMap(Map<?, ?> raw) {
        Map<String, Object> props = new LinkedHashMap<>();
        String type = null;
        String name = null;
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object v = e.getValue();
            if (key.equals("type") && v instanceof String) {
                type = (String) v;
            } else if (key.equals("name") && v instanceof String) {
                name = (String) v;
            } else {
                props.put(key, v);
            }
        }
        return new NodeDef(type, name, props);
    }

    /** The node type name, e.g. {@code delay}; may be null in a broken asset. */
    public String type() {
        return type;
    }

    /** The authored name, or null for "the type name". */
    public String name() {
        return name;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    @Override
    public String toString() {
        return "NodeDef[" + type + (name == null ? "" : " '" + name + "'") + " " + properties + "]";
    }
}
