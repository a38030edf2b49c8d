package dev.crowdtree.statetree.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.RequiredEventDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link TreeDef} as a pretty-printed asset, keys in the documented order, absent and
 * empty fields left out. See {@link StateTreeJson#write(TreeDef)}.
 */
final class AssetWriter {
    private AssetWriter() {
    }

    static String write(TreeDef def) {
        StringWriter out = new StringWriter();
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter pretty = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance()
                        .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        try (JsonGenerator g = RawJson.FACTORY.createGenerator(out)) {
            g.setPrettyPrinter(pretty);
            g.writeStartObject();
            if (def.name() != null) {
                g.writeStringField("name", def.name());
            }
            stringField(g, "transitionScan", def.transitionScan());
            stringField(g, "rules", def.rules());
            if (!def.hostEvents().isEmpty()) {
                g.writeArrayFieldStart("hostEvents");
                for (String e : def.hostEvents()) {
                    g.writeString(e);
                }
                g.writeEndArray();
            }
            parameters(g, def.parameters());
            nodes(g, "evaluators", def.evaluators());
            nodes(g, "globalTasks", def.globalTasks());
            if (def.root() != null) {
                g.writeFieldName("root");
                state(g, def.root());
            }
            if (!def.subtrees().isEmpty()) {
                g.writeArrayFieldStart("subtrees");
                for (StateDef s : def.subtrees()) {
                    state(g, s);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does no I/O
        }
        return out.append('\n').toString();
    }

    private static void state(JsonGenerator g, StateDef s) throws IOException {
        if (s == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        stringField(g, "name", s.name());
        if (s.enabled() != null) {
            g.writeFieldName("enabled");
            value(g, s.enabled());
        }
        stringField(g, "type", s.type());
        stringField(g, "selection", s.selection());
        stringField(g, "composite", s.composite());
        stringField(g, "history", s.history());
        stringField(g, "completion", s.completion());
        if (s.tickPeriod() != null) {
            g.writeFieldName("tickPeriod");
            value(g, s.tickPeriod());
        }
        stringField(g, "linkedSubtree", s.linkedSubtree());
        if (!s.linkedParameters().isEmpty()) {
            g.writeFieldName("linkedParameters");
            value(g, s.linkedParameters());
        }
        parameters(g, s.parameters());
        requiredEvent(g, s.requiredEvent());
        nodes(g, "enterConditions", s.enterConditions());
        nodes(g, "tasks", s.tasks());
        if (!s.transitions().isEmpty()) {
            g.writeArrayFieldStart("transitions");
            for (TransitionDef t : s.transitions()) {
                transition(g, t);
            }
            g.writeEndArray();
        }
        if (s.weight() != null) {
            g.writeFieldName("weight");
            value(g, s.weight());
        }
        if (!s.considerations().isEmpty()) {
            g.writeFieldName("considerations");
            value(g, s.considerations());
        }
        if (!s.children().isEmpty()) {
            g.writeArrayFieldStart("children");
            for (StateDef c : s.children()) {
                state(g, c);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void requiredEvent(JsonGenerator g, RequiredEventDef e) throws IOException {
        if (e == null) {
            return;
        }
        g.writeObjectFieldStart("requiredEvent");
        stringField(g, "tag", e.tag());
        if (e.payloadFields() != null) {
            g.writeFieldName("payloadFields");
            value(g, e.payloadFields());
        }
        if (e.consumeEvent() != null) {
            g.writeFieldName("consumeEvent");
            value(g, e.consumeEvent());
        }
        g.writeEndObject();
    }

    private static void transition(JsonGenerator g, TransitionDef t) throws IOException {
        if (t == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        stringField(g, "trigger", t.trigger());
        stringField(g, "event", t.event());
        stringField(g, "to", t.to());
        nodes(g, "conditions", t.conditions());
        if (t.delay() != null) {
            g.writeFieldName("delay");
            value(g, t.delay());
        }
        if (t.delayVariance() != null) {
            g.writeFieldName("delayVariance");
            value(g, t.delayVariance());
        }
        stringField(g, "priority", t.priority());
        if (t.consumeEvent() != null) {
            g.writeFieldName("consumeEvent");
            value(g, t.consumeEvent());
        }
        if (t.payloadFields() != null) {
            g.writeFieldName("payloadFields");
            value(g, t.payloadFields());
        }
        if (t.enabled() != null) {
            g.writeFieldName("enabled");
            value(g, t.enabled());
        }
        if (t.reactivateTarget() != null) {
            g.writeFieldName("reactivateTarget");
            value(g, t.reactivateTarget());
        }
        g.writeEndObject();
    }

    private static void parameters(JsonGenerator g, List<ParameterDef> params) throws IOException {
        if (params.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart("parameters");
        for (ParameterDef p : params) {
            if (p == null) {
                continue;
            }
            g.writeObjectFieldStart(p.name() == null ? "" : p.name());
            stringField(g, "type", p.type());
            if (p.defaultValue() != null) {
                g.writeFieldName("default");
                value(g, p.defaultValue());
            }
            if (p.values() != null) {
                g.writeFieldName("values");
                value(g, p.values());
            }
            if (p.value() != null) {
                g.writeFieldName("value");
                value(g, p.value());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void nodes(JsonGenerator g, String key, List<NodeDef> nodes) throws IOException {
        if (nodes.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart(key);
        for (NodeDef n : nodes) {
            node(g, n);
        }
        g.writeEndArray();
    }

    private static void node(JsonGenerator g, NodeDef n) throws IOException {
        if (n == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        stringField(g, "type", n.type());
        stringField(g, "name", n.name());
        for (Map.Entry<String, Object> e : n.properties().entrySet()) {
            // A non-string type or name stays in the properties (NodeDef.fromMap); never write a key twice.
            // A null property means "absent" to the compiler, and JSON null is not valid in an asset.
            if (e.getValue() == null || (e.getKey().equals("type") && n.type() != null)
                    || (e.getKey().equals("name") && n.name() != null)) {
                continue;
            }
            g.writeFieldName(e.getKey());
            value(g, e.getValue());
        }
        g.writeEndObject();
    }

    private static void stringField(JsonGenerator g, String key, String value) throws IOException {
        if (value != null) {
            g.writeStringField(key, value);
        }
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String) {
            g.writeString((String) v);
        } else if (v instanceof Boolean) {
            g.writeBoolean((Boolean) v);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isInfinite(d)) {
                // JSON has no infinity; 1e999 reads back as an infinite double.
                g.writeNumber(d > 0 ? "1e999" : "-1e999");
            } else if (Double.isNaN(d)) {
                g.writeString("NaN"); // not representable in JSON; the compiler rejects either form
            } else {
                g.writeNumber(d);
            }
        } else if (v instanceof BigInteger) {
            g.writeNumber((BigInteger) v);
        } else if (v instanceof BigDecimal) {
            g.writeNumber((BigDecimal) v);
        } else if (v instanceof Binding) {
            Binding b = (Binding) v;
            g.writeStartObject();
            g.writeStringField(b.kind().key(), b.ref());
            g.writeEndObject();
        } else if (v instanceof NodeDef) {
            node(g, (NodeDef) v);
        } else if (v instanceof List) {
            g.writeStartArray();
            for (Object o : (List<?>) v) {
                value(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (e.getValue() == null) {
                    continue; // absent, as the compiler reads it
                }
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalArgumentException("cannot write a value of type " + v.getClass().getName()
                    + " (expected String, Boolean, a number, Binding, NodeDef, List or Map): " + v);
        }
    }
}
