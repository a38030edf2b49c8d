package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Property functions compute what they say in int and float arithmetic, and a division by zero
 * gives 0 and is counted on the tree, in both runtimes. Each case sets {@code out} with
 * {@code setParameter} on entering Set, and Set goes to Ok when {@code out} is within 1e-4 of the
 * expected value.
 */
class PropertyFunctionTest {
    private static CompiledStateTree tree(String value, String type, double expected) throws Exception {
        return StateTreeJson.compile("fn.json", "{\"name\": \"F\", \"parameters\": {"
                + "\"a\": {\"type\": \"int\", \"default\": 7}, \"b\": {\"type\": \"int\", \"default\": -2},"
                + "\"x\": {\"type\": \"float\", \"default\": 1.5}, \"out\": {\"type\": \"" + type + "\", \"default\": 99}},"
                + "\"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Set\", \"tasks\": [{\"type\": \"setParameter\", \"param\": \"out\", \"value\": " + value + "},"
                + " {\"type\": \"run\"}], \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"Ok\", \"conditions\": "
                + "[{\"type\": \"floatRange\", \"param\": \"out\", \"min\": " + (expected - 1e-4) + ", \"max\": "
                + (expected + 1e-4) + "}]}]},"
                + "{\"name\": \"Ok\", \"tasks\": [{\"type\": \"run\"}]}]}}", StateTreeCompiler.withBuiltins());
    }

    private static void check(String value, String type, double expected) throws Exception {
        CompiledStateTree t = tree(value, type, expected);
        for (StateTreeRuntime rt : List.<StateTreeRuntime>of(new ReferenceInterpreter(t, 1, 1),
                StateTreeSystem.standalone(t, 1, 1, 1, 64))) {
            try (rt) {
                rt.startAll(0);
                rt.tickAll(1, 0.1f);
                assertEquals("Root/Ok", rt.activePath(0), value + " on " + rt.getClass().getSimpleName());
            }
        }
    }

    @Test
    void intArgumentsGiveIntArithmeticAndAnyFloatArgumentGivesFloat() throws Exception {
        check("{\"fn\": \"add\", \"args\": [{\"param\": \"a\"}, {\"param\": \"b\"}]}", "int", 5);
        check("{\"fn\": \"div\", \"args\": [{\"param\": \"a\"}, {\"param\": \"b\"}]}", "int", -3);
        check("{\"fn\": \"clamp\", \"args\": [100, 0, {\"param\": \"a\"}]}", "int", 7);
        check("{\"fn\": \"abs\", \"args\": [{\"param\": \"b\"}]}", "int", 2);
        check("{\"fn\": \"mul\", \"args\": [{\"param\": \"a\"}, {\"param\": \"b\"}, 1]}", "int", -14);
        check("{\"fn\": \"sub\", \"args\": [{\"param\": \"a\"}, {\"fn\": \"max\", \"args\": [1, 2, 3]}]}", "int", 4);
        check("{\"fn\": \"div\", \"args\": [{\"param\": \"a\"}, {\"param\": \"x\"}]}", "float", 7f / 1.5f);
        check("{\"fn\": \"neg\", \"args\": [{\"param\": \"x\"}]}", "float", -1.5);
        check("{\"fn\": \"min\", \"args\": [{\"param\": \"a\"}, {\"param\": \"x\"}, {\"param\": \"b\"}]}", "float", -2);
    }

    @Test
    void aDivisionByZeroGivesZeroAndIsCounted() throws Exception {
        CompiledStateTree t = tree("{\"fn\": \"div\", \"args\": [{\"param\": \"a\"}, 0]}", "int", 0);
        try (StateTreeSystem sys = StateTreeSystem.standalone(t, 3, 1, 1, 64)) {
            sys.startAll(0);
            sys.tickAll(1, 0.1f);
            assertEquals("Root/Ok", sys.activePath(2));
        }
        assertEquals(3, t.divisionsByZero(), "one division by zero per agent entering Set");
    }
}
