package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Event payloads from the host API (docs/SEMANTICS.md section 8, E1-E4): {@code sendEvent(agent,
 * tag, Map)}, {@link Payload}, the number form and the external queue reach the conditions of
 * {@code payloadFields} transitions alike in both runtimes, on 1 and 2 workers; bad payloads are
 * rejected naming the field.
 */
class EventPayloadTest {
    private static final Path TREE = Path.of("src/test/resources/golden/event_payload/tree.json");

    /** Each agent gets different events at tick 1; returns the active paths after ticks 1 and 2. */
    private static List<String> run(StateTreeRuntime rt) {
        List<String> out = new ArrayList<>();
        try (rt) {
            rt.startAll(0);
            rt.sendEvent(0, "Noise", Map.of("volume", 12.5));             // passes > 10
            rt.sendEvent(1, "Noise", Map.of("volume", 3));                // int accepted for float, fails
            rt.sendEvent(2, "Noise", Payload.of(Map.of("volume", true))); // wrong type: no match
            rt.sendEvent(3, "Noise", 11f, true);                          // field 'value', not 'volume'
            Map<String, Object> two = new LinkedHashMap<>();
            two.put("volume", 50);
            two.put("unknown", 1.5f);
            rt.sendEvent(4, "Noise", two);                                // unknown fields are dropped
            rt.sendEvent(5, "Noise", Map.of("volume", 4));
            rt.sendEvent(5, "Noise", Map.of("volume", 40));               // the second one passes
            rt.tickAll(1, 0.1f);
            for (int a = 0; a < rt.agentCount(); a++) {
                out.add("1 " + a + " " + rt.activePath(a));
            }
            rt.sendEvent(StateTreeRuntime.ALL, "Noise", -1f, true);      // Alarm -> Idle for every agent in Alarm
            rt.tickAll(2, 0.1f);
            for (int a = 0; a < rt.agentCount(); a++) {
                out.add("2 " + a + " " + rt.activePath(a));
            }
        }
        return out;
    }

    @Test
    void apiPayloadsReachTheConditionsAlikeInBothRuntimes() throws Exception {
        CompiledStateTree t = StateTreeJson.compile(TREE, new StateTreeCompiler(BuiltinNodes.registry()));
        List<String> reference = run(new ReferenceInterpreter(t, 6, 1));
        assertEquals(List.of(
                "1 0 Root/Alarm", "1 1 Root/Idle", "1 2 Root/Idle", "1 3 Root/Idle", "1 4 Root/Alarm",
                "1 5 Root/Dismiss",
                "2 0 Root/Idle", "2 1 Root/Idle", "2 2 Root/Idle", "2 3 Root/Idle", "2 4 Root/Idle",
                "2 5 Root/Alarm"), reference);
        for (int workers = 1; workers <= 2; workers++) {
            assertEquals(reference, run(StateTreeSystem.standalone(t, 6, 1, workers, 2)), workers + " workers");
        }
    }

    @Test
    void externalQueuePayloadsAreOrderedAndDelivered() throws Exception {
        CompiledStateTree t = StateTreeJson.compile(TREE, new StateTreeCompiler(BuiltinNodes.registry()));
        IntFunction<List<String>> run = workers -> {
            List<String> out = new ArrayList<>();
            try (StateTreeSystem sys = StateTreeSystem.standalone(t, 2, 1, workers, 1)) {
                sys.startAll(0);
                sys.externalEvents().offer(new ExternalEvent(0, "Noise", Payload.of(Map.of("volume", 20))));
                sys.externalEvents().offer(new ExternalEvent(1, "Noise", Payload.of(Map.of("volume", 2))));
                sys.tickAll(1, 0.1f);
                out.add(sys.activePath(0));
                out.add(sys.activePath(1));
            }
            return out;
        };
        assertEquals(List.of("Root/Alarm", "Root/Idle"), run.apply(1));
        assertEquals(run.apply(1), run.apply(2));
    }

    @Test
    void badPayloadsAreRejectedNamingTheField() {
        Map<String, Object> nan = new LinkedHashMap<>();
        nan.put("volume", Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Payload.of(nan));
        assertTrue(e.getMessage().contains("'volume'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Payload.of(Map.of("volume", "loud")));
        assertTrue(e.getMessage().contains("'volume'") && e.getMessage().contains("String"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Payload.of(Map.of("event", 1)));
        assertTrue(e.getMessage().contains("'event'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Payload.of(Map.of("big", 1L << 40)));
        assertTrue(e.getMessage().contains("'big'"), e.getMessage());
    }

    @Test
    void payloadsCompareByFieldsSoExternalEventsHaveOneOrder() {
        Payload a = Payload.of(Map.of("a", 1, "b", true));
        Payload b = Payload.of(Map.of("b", true, "a", 1));
        assertEquals(a, b);
        assertEquals(0, a.compareTo(b));
        assertEquals("{a=1, b=true}", a.toString());
        assertTrue(Payload.of(Map.of("a", 1)).compareTo(Payload.of(Map.of("a", 2))) < 0);
        assertTrue(new ExternalEvent(0, "X", null).compareTo(new ExternalEvent(0, "X", Payload.number(1))) < 0);
    }
}
