package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The compiler marks the plain leaves, between which a move exits the one's tasks, enters the
 * other's and does nothing else ({@link CompiledStateTree#isSiblingLeafMove}): the batched runtime
 * applies such a move without comparing the two paths, every other move takes the general path.
 * (That both give the same traces is the differential and golden tests' business: they fail when
 * the fast path leaves out a step.)
 */
class SiblingMoveTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();
    private static final String A = "{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1}]}";
    private static final String B = "{'name': 'B', 'tasks': [{'type': 'run'}]}";
    private static final String G = "{'name': 'G', 'children': [{'name': 'G1', 'tasks': [{'type': 'run'}]}]}";

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    /** A tree ({@code top} keys first) whose root has the children {@code children}. */
    private static CompiledStateTree tree(String top, String children) throws Exception {
        return StateTreeJson.compile("t.json", json("{'name': 'T', " + top + "'root': {'name': 'Root', 'children': ["
                + children + "]}}"), COMPILER);
    }

    private static boolean move(CompiledStateTree t, String from, String to) {
        return t.isSiblingLeafMove(t.stateByPath(from), t.stateByPath(to));
    }

    @Test
    void twoPlainLeavesUnderOneParent() throws Exception {
        CompiledStateTree t = tree("", A + ", " + B + ", " + G);
        assertEquals(true, move(t, "Root/A", "Root/B"));
        assertEquals(true, move(t, "Root/B", "Root/A"));
        assertEquals(false, move(t, "Root/A", "Root/A"), "itself: entered again as sustained");
        assertEquals(false, move(t, "Root/A", "Root/G"), "a state with children");
        assertEquals(false, move(t, "Root/A", "Root/G/G1"), "a leaf under another parent");
        assertEquals(false, move(t, "Root/G/G1", "Root/A"));
    }

    @Test
    void notToALeafThatDoesMoreOnEnter() throws Exception {
        assertEquals(false, move(tree("", A + ", {'name': 'B', 'parameters': {'n': {'type': 'int', 'default': 1}},"
                + " 'tasks': [{'type': 'run'}]}"), "Root/A", "Root/B"), "parameters");
        assertEquals(false, move(tree("", A + ", {'name': 'B', 'requiredEvent': {'tag': 'Go'}, 'tasks': [{'type': 'run'}]}"),
                "Root/A", "Root/B"), "a required event");
        assertEquals(false, move(tree("", A + ", {'name': 'B', 'completion': 'all', 'tasks': [{'type': 'run'}]}"),
                "Root/A", "Root/B"), "completion all");
        assertEquals(false, move(tree("'rules': 'unreal-5.8', ", A + ", " + B), "Root/A", "Root/B"), "under unreal-5.8");
    }

    @Test
    void notBelowALinkedState() throws Exception {
        CompiledStateTree linked = StateTreeJson.compile("t.json", json("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'S'}]}, 'subtrees': [{'name': 'S', 'type': 'subtree',"
                + " 'children': [" + A + ", " + B + "]}]}"), COMPILER);
        CompiledStateTree plain = tree("", "{'name': 'S', 'children': [" + A + ", " + B + "]}");
        assertEquals(false, moveBetween(linked), "a linked state's values are copied again on every enter below it");
        assertEquals(true, moveBetween(plain));
    }

    /** Whether a move from the state named A to the one named B is a sibling leaf move (both must exist). */
    private static boolean moveBetween(CompiledStateTree t) {
        int a = -1;
        int b = -1;
        for (int s = 0; s < t.stateCount; s++) {
            a = t.stateName(s).equals("A") ? s : a;
            b = t.stateName(s).equals("B") ? s : b;
        }
        if (a < 0 || b < 0) {
            throw new AssertionError("no A or B");
        }
        return t.isSiblingLeafMove(a, b);
    }
}
