package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The compiler marks the transitions that move from a leaf to a sibling leaf and do nothing else
 * ({@link CompiledStateTree#transitionSiblingMove}), which the batched runtime applies without
 * comparing the two paths; every other transition takes the general path. (That both give the same
 * traces is the differential and golden tests' business: they fail when the fast path leaves out a
 * step.)
 */
class SiblingMoveTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    /** A tree whose root has the leaves A (a delay, with transition {@code transition}) and {@code b}, and {@code extra} after them. */
    private static CompiledStateTree tree(String top, String transition, String b, String extra) throws Exception {
        return StateTreeJson.compile("t.json", json("{'name': 'T', " + top + "'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1}], 'transitions': [" + transition + "]},"
                + b + extra + "]}}"), COMPILER);
    }

    private static boolean firstOfA(CompiledStateTree t) {
        return t.transitionSiblingMove(t.stateTransitionsBegin(t.stateByPath("Root/A")));
    }

    private static final String B = "{'name': 'B', 'tasks': [{'type': 'run'}]}";
    private static final String TO_B = "{'trigger': 'onStateCompleted', 'to': 'Root/B'}";

    @Test
    void aLeafToASiblingLeafIsASiblingMove() throws Exception {
        assertEquals(true, firstOfA(tree("", TO_B, B, "")));
        assertEquals(true, firstOfA(tree("", "{'trigger': 'onTick', 'to': 'Root/B'}", B, "")), "whatever the trigger");
        assertEquals(true, firstOfA(tree("", "{'trigger': 'onEvent', 'event': 'Go', 'to': 'Root/B'}", B, "")));
    }

    @Test
    void everythingElseTakesTheGeneralPath() throws Exception {
        assertEquals(false, firstOfA(tree("", "{'trigger': 'onStateCompleted', 'to': 'Root/A'}", B, "")), "itself");
        assertEquals(false, firstOfA(tree("", "{'trigger': 'onStateCompleted', 'to': 'Root'}", B, "")), "its parent");
        assertEquals(false, firstOfA(tree("", "{'trigger': 'onStateCompleted', 'to': '@succeeded'}", B, "")), "an outcome");
        assertEquals(false, firstOfA(tree("", "{'trigger': 'onStateCompleted', 'to': 'Root/G'}", B,
                ", {'name': 'G', 'children': [" + B.replace("'B'", "'G1'") + "]}")), "a state with children");
        assertEquals(false, firstOfA(tree("", "{'trigger': 'onStateCompleted', 'to': 'Root/G/G1'}", B,
                ", {'name': 'G', 'children': [" + B.replace("'B'", "'G1'") + "]}")), "a leaf elsewhere");
        assertEquals(false, firstOfA(tree("", TO_B, "{'name': 'B', 'parameters': {'n': {'type': 'int', 'default': 1}},"
                + " 'tasks': [{'type': 'run'}]}", "")), "a leaf with parameters");
        assertEquals(false, firstOfA(tree("", TO_B, "{'name': 'B', 'requiredEvent': {'tag': 'Go'}, 'tasks': [{'type': 'run'}]}",
                "")), "a leaf with a required event");
        assertEquals(false, firstOfA(tree("", TO_B, "{'name': 'B', 'completion': 'all', 'tasks': [{'type': 'run'}]}", "")),
                "a leaf with completion all");
        assertEquals(false, firstOfA(tree("'rules': 'unreal-5.8', ", TO_B, B, "")), "under unreal-5.8");
    }

    @Test
    void notBelowALinkedState() throws Exception {
        String subtree = "{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1}],"
                + " 'transitions': [{'trigger': 'onStateCompleted', 'to': 'S/B'}]}, " + B;
        CompiledStateTree linked = StateTreeJson.compile("t.json", json("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'S'}]}, 'subtrees': [{'name': 'S', 'type': 'subtree',"
                + " 'children': [" + subtree + "]}]}"), COMPILER);
        CompiledStateTree plain = StateTreeJson.compile("t.json", json("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'S', 'children': [" + subtree.replace("S/B", "Root/S/B") + "]}]}}"), COMPILER);
        assertEquals(false, moveOutOfA(linked), "a move between the leaves of a subtree run by a linked state copies its values again");
        assertEquals(true, moveOutOfA(plain));
    }

    /** Whether the one transition out of the leaf named A is a sibling move (it must exist). */
    private static boolean moveOutOfA(CompiledStateTree t) {
        for (int s = 0; s < t.stateCount; s++) {
            if (t.stateName(s).equals("A")) {
                assertEquals(1, t.stateTransitionsNum(s), t.statePath(s));
                return t.transitionSiblingMove(t.stateTransitionsBegin(s));
            }
        }
        throw new AssertionError("no state A");
    }
}
