package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bounded event lists (issue 11): an agent holds at most {@link StateTreeRuntime#MAX_PENDING_EVENTS}
 * events in a window; the first ones are kept, the rest dropped and counted, alike in both runtimes.
 */
class EventOverflowTest {
    private static String tree(int wanted) {
        return "{\"name\": \"Flood\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Wait\", \"tasks\": [{\"type\": \"run\"}], \"transitions\": [{\"trigger\": \"onEvent\","
                + " \"event\": \"N\", \"to\": \"Got\", \"payloadFields\": {\"n\": \"int\"}, \"conditions\": [{\"type\": \"compare\","
                + " \"input\": {\"event\": \"n\"}, \"op\": \"==\", \"value\": " + wanted + "}]}]},"
                + "{\"name\": \"Got\", \"tasks\": [{\"type\": \"run\"}]}]}}";
    }

    private static List<String> flood(StateTreeRuntime rt) {
        try (rt) {
            rt.startAll(0);
            for (int n = 0; n < 100; n++) {
                rt.sendEvent(0, "N", Map.of("n", n));
            }
            rt.tickAll(1, 0.1f);
            return List.of(rt.activePath(0), rt.activePath(1), Long.toString(rt.overflowedEvents()));
        }
    }

    @Test
    void theFirstEventsAreKeptAndTheRestCounted() throws Exception {
        for (int wanted : new int[] {63, 64}) {
            CompiledStateTree t = StateTreeJson.compile("flood.json", tree(wanted), StateTreeCompiler.withBuiltins());
            String expected = wanted < StateTreeRuntime.MAX_PENDING_EVENTS ? "Root/Got" : "Root/Wait";
            assertEquals(List.of(expected, "Root/Wait", "36"), flood(new ReferenceInterpreter(t, 2, 1)), "reference " + wanted);
            assertEquals(List.of(expected, "Root/Wait", "36"), flood(StateTreeSystem.standalone(t, 2, 1, 1, 64)),
                    "batched " + wanted);
        }
    }
}
