package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link StateTreeSystem#sendEvent(int, int, float, boolean)}: an event whose tag the host resolved
 * once does exactly what the same event sent by name does (the traces are equal); -1 is dropped and
 * counted like an unknown tag; an id that is no tag is refused saying what is valid.
 */
class SendEventByTagIdTest {
    private static final String TREE = "{\"name\": \"Go\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"A\", \"tasks\": [{\"type\": \"run\"}], \"transitions\": ["
            + "  {\"trigger\": \"onEvent\", \"event\": \"Go\", \"to\": \"B\"},"
            + "  {\"trigger\": \"onEvent\", \"event\": \"Alarm\", \"to\": \"B\"}]},"
            + "{\"name\": \"B\", \"tasks\": [{\"type\": \"run\"}], \"transitions\": ["
            + "  {\"trigger\": \"onEvent\", \"event\": \"Go\", \"to\": \"A\"}]}]}}";

    @Test
    void byIdIsByName() throws Exception {
        CompiledStateTree t = StateTreeJson.compile("go.json", TREE, StateTreeCompiler.withBuiltins());
        assertEquals(runByName(t), runById(t));
    }

    @Test
    void minusOneIsDroppedAndAnIdThatIsNoTagIsRefused() throws Exception {
        CompiledStateTree t = StateTreeJson.compile("go.json", TREE, StateTreeCompiler.withBuiltins());
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 2, 1, 1, 64)) {
            sys.startAll(0);
            sys.sendEvent(0, t.eventTagId("Unknown"), 0f, false);
            sys.tickAll(1, 0.1f);
            assertEquals(1, sys.droppedEvents());
            assertEquals("Root/A", sys.activePath(0));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sys.sendEvent(0, t.tags().size(), 0f, false));
            assertTrue(e.getMessage().contains("valid are -1 (dropped) and 0.." + (t.tags().size() - 1)), e.getMessage());
        }
    }

    private static List<String> runByName(CompiledStateTree t) {
        return run(t, (sys, agent, tag) -> sys.sendEvent(agent, tag, 0f, false));
    }

    private static List<String> runById(CompiledStateTree t) {
        int go = t.eventTagId("Go");
        int alarm = t.eventTagId("Alarm");
        return run(t, (sys, agent, tag) -> sys.sendEvent(agent, tag.equals("Go") ? go : alarm, 0f, false));
    }

    interface Sender {
        void send(StateTreeSystem sys, int agent, String tag);
    }

    private static List<String> run(CompiledStateTree t, Sender sender) {
        List<String> lines = new ArrayList<>();
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 8, 1, 2, 4)) {
            sys.setTrace((agent, line) -> lines.add(agent + " " + line));
            sys.startAll(0);
            for (int k = 1; k <= 12; k++) {
                for (int a = 0; a < 8; a++) {
                    if ((a + k) % 3 == 0) {
                        sender.send(sys, a, (a + k) % 2 == 0 ? "Go" : "Alarm");
                    }
                }
                sys.tickAll(k, 0.1f);
            }
        }
        return lines;
    }
}
