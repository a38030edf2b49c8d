package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.definition.Binding;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.ParameterDef;
import dev.crowdtree.statetree.definition.RequiredEventDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Equivalence of authored trees, independent of {@link StateTreeJson#write}: both sides are turned
 * into plain ordered data (bindings and nested nodes as the objects they stand for, Integer as Long,
 * Float as Double, null properties as absent) and compared, key order included. The source is
 * ignored.
 */
final class DefEquivalence {
    private DefEquivalence() {
    }

    static void assertEquivalent(TreeDef expected, TreeDef actual) {
        Object e = canonical(expected);
        Object a = canonical(actual);
        assertEquals(String.valueOf(e), String.valueOf(a));
        assertEquals(e, a);
    }

    static Object canonical(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return ((Float) v).doubleValue();
        }
        if (v instanceof Binding) {
            Binding b = (Binding) v;
            return map(b.kind().key(), b.ref());
        }
        if (v instanceof NodeDef) {
            NodeDef n = (NodeDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "type", n.type());
            put(m, "name", n.name());
            n.properties().forEach((k, x) -> put(m, k, canonical(x)));
            return m;
        }
        if (v instanceof TreeDef) {
            TreeDef t = (TreeDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "name", t.name());
            put(m, "transitionScan", t.transitionScan());
            put(m, "rules", t.rules());
            put(m, "parameters", structural(t.parameters()));
            put(m, "evaluators", structural(t.evaluators()));
            put(m, "globalTasks", structural(t.globalTasks()));
            put(m, "root", canonical(t.root()));
            put(m, "subtrees", structural(t.subtrees()));
            return m;
        }
        if (v instanceof StateDef) {
            StateDef s = (StateDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "name", s.name());
            put(m, "type", s.type());
            put(m, "selection", s.selection());
            put(m, "composite", s.composite());
            put(m, "history", s.history());
            put(m, "tickPeriod", canonical(s.tickPeriod()));
            put(m, "linkedSubtree", s.linkedSubtree());
            put(m, "linkedParameters", structural(s.linkedParameters()));
            put(m, "requiredEvent", canonical(s.requiredEvent()));
            put(m, "parameters", structural(s.parameters()));
            put(m, "enterConditions", structural(s.enterConditions()));
            put(m, "tasks", structural(s.tasks()));
            put(m, "transitions", structural(s.transitions()));
            put(m, "children", structural(s.children()));
            return m;
        }
        if (v instanceof RequiredEventDef) {
            RequiredEventDef r = (RequiredEventDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "tag", r.tag());
            put(m, "payloadFields", canonical(r.payloadFields()));
            put(m, "consumeEvent", canonical(r.consumeEvent()));
            return m;
        }
        if (v instanceof TransitionDef) {
            TransitionDef t = (TransitionDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "trigger", t.trigger());
            put(m, "event", t.event());
            put(m, "to", t.to());
            put(m, "conditions", structural(t.conditions()));
            put(m, "delay", canonical(t.delay()));
            put(m, "delayVariance", canonical(t.delayVariance()));
            return m;
        }
        if (v instanceof ParameterDef) {
            ParameterDef p = (ParameterDef) v;
            Map<String, Object> m = new LinkedHashMap<>();
            put(m, "name", p.name());
            put(m, "type", p.type());
            put(m, "default", canonical(p.defaultValue()));
            put(m, "value", canonical(p.value()));
            return m;
        }
        if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) v) {
                out.add(canonical(o));
            }
            return out;
        }
        if (v instanceof Map) {
            Map<String, Object> m = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, x) -> put(m, String.valueOf(k), canonical(x)));
            return m;
        }
        throw new IllegalArgumentException("unexpected value " + v.getClass());
    }

    /** Structural lists and maps: empty is the same as absent. */
    private static Object structural(Object v) {
        Object c = canonical(v);
        if (c instanceof List && ((List<?>) c).isEmpty() || c instanceof Map && ((Map<?, ?>) c).isEmpty()) {
            return null;
        }
        return c;
    }

    private static Map<String, Object> map(String k, Object v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k, v);
        return m;
    }

    private static void put(Map<String, Object> m, String k, Object v) {
        if (v != null) {
            m.put(k, v);
        }
    }
}
