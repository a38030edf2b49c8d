package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One test per kind of error an asset can contain: each checks that the error names the source
 * file, the state path and the field, and says what is wrong. Assets are written with single quotes
 * for readability.
 */
class CompileErrorsTest {
    private static final String FILE = "assets/broken.json";

    private static List<CompileError> errors(String singleQuoted) {
        String text = singleQuoted.replace('\'', '"');
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(FILE, text, TestAssets.compiler()));
        for (CompileError err : e.errors()) {
            assertEquals(FILE, err.source(), err.toString());
        }
        return e.errors();
    }

    /** Asserts that one of the errors is at {@code statePath} / {@code field} and mentions {@code what}. */
    private static CompileError assertError(List<CompileError> errors, String statePath, String field, String what) {
        for (CompileError e : errors) {
            if (Objects.equals(statePath, e.statePath()) && Objects.equals(field, e.field())
                    && e.message().contains(what)) {
                assertTrue(e.toString().startsWith(FILE + ": "), e.toString());
                return e;
            }
        }
        fail("no error at state '" + statePath + "', field '" + field + "' mentioning '" + what + "' in:\n"
                + String.join("\n", errors.stream().map(CompileError::toString).toList()));
        return null;
    }

    private static CompileError assertOnlyError(String asset, String statePath, String field, String what) {
        List<CompileError> errors = errors(asset);
        CompileError e = assertError(errors, statePath, field, what);
        assertEquals(1, errors.size(), errors.toString());
        return e;
    }

    /** A tree whose root has the given children (JSON list items, single-quoted). */
    private static String tree(String children) {
        return "{'name': 'T', 'parameters': {'flag': {'type': 'bool', 'default': true}, 'speed': {'type': 'float'}},"
                + " 'evaluators': [{'type': 'time'}], 'root': {'name': 'Root', 'tasks': [{'type': 'claim'}],"
                + " 'children': [" + children + "]}}";
    }

    // ---- hierarchy and targets -------------------------------------------------------------------

    @Test
    void duplicateSiblingNames() {
        assertOnlyError(tree("{'name': 'A'}, {'name': 'B'}, {'name': 'A'}"), "Root", "children[2]",
                "duplicate child name 'A'");
    }

    @Test
    void unknownTarget() {
        CompileError e = assertOnlyError(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Patrol'}]},"
                + " {'name': 'Patroll'}"), "Root/Idle", "transitions[0].to", "unknown target state 'Patrol'");
        assertTrue(e.message().contains("did you mean [Root/Patroll]") || e.message().contains("unknown"), e.message());
        assertOnlyError(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Root/Nope/Idle'}]}"),
                "Root/Idle", "transitions[0].to", "unknown target state path 'Root/Nope/Idle'");
    }

    @Test
    void ambiguousTarget() {
        assertOnlyError(tree("{'name': 'X', 'children': [{'name': 'Leaf'}]}, {'name': 'Y', 'children': [{'name': 'Leaf'}]},"
                        + " {'name': 'Z', 'transitions': [{'trigger': 'onTick', 'to': 'Leaf'}]}"),
                "Root/Z", "transitions[0].to", "ambiguous target 'Leaf': [Root/X/Leaf, Root/Y/Leaf]");
    }

    @Test
    void nextWithoutANextSibling() {
        assertOnlyError(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': '@next'}]},"
                + " {'name': 'B', 'transitions': [{'trigger': 'onTick', 'to': '@next'}]}"),
                "Root/B", "transitions[0].to", "@next: state 'B' has no next sibling");
    }

    @Test
    void relativeTargetsWithoutTheStatesTheyName() {
        // rules J2-J5: the root has no parent; a last child has no later sibling, nor does the root's child
        List<CompileError> errors = errors("{'name': 'T', 'root': {'name': 'Root', 'transitions': ["
                + "{'trigger': 'onTick', 'to': '@parent'}, {'trigger': 'onTick', 'to': '@next-parent'}], 'children': ["
                + "{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': '@next-parent'},"
                + " {'trigger': 'onTick', 'to': '@next-selectable', 'delay': 1}]},"
                + "{'name': 'B', 'transitions': [{'trigger': 'onTick', 'to': '@next-selectable'},"
                + " {'trigger': 'onTick', 'to': '@next-selectable-parent'}, {'trigger': 'onTick', 'to': '@next-selectible'}]}]}}");
        assertError(errors, "Root", "transitions[0].to", "@parent: state 'Root' is the root, which has no parent");
        assertError(errors, "Root", "transitions[1].to", "@next-parent: state 'Root' is the root, which has no parent");
        assertError(errors, "Root/A", "transitions[0].to",
                "@next-parent: state 'Root' has no next sibling (it is the parent of 'A')");
        assertError(errors, "Root/B", "transitions[0].to", "@next-selectable: state 'B' has no next sibling");
        assertError(errors, "Root/B", "transitions[1].to",
                "@next-selectable-parent: state 'Root' has no next sibling (it is the parent of 'B')");
        assertError(errors, "Root/B", "transitions[2].to", "unknown target \"@next-selectible\"");
        assertTrue(errors.get(errors.size() - 1).message().contains("did you mean [@next-selectable]?"),
                errors.toString());
        assertEquals(6, errors.size(), errors.toString()); // (a delay on @next-selectable is valid: one gate, J2)
    }

    @Test
    void tasksOnAGroup() {
        assertOnlyError(tree("{'name': 'G', 'type': 'group', 'tasks': [{'type': 'run'}]}"), "Root/G", "tasks",
                "a group state cannot have tasks");
    }

    @Test
    void linkedStateNotPointingAtASubtree() {
        assertOnlyError(tree("{'name': 'Idle'}, {'name': 'L', 'type': 'linked', 'linkedSubtree': 'Idle'}"),
                "Root/L", "linkedSubtree", "unknown subtree 'Idle'");
        assertOnlyError(tree("{'name': 'L', 'type': 'linked'}"), "Root/L", "linkedSubtree",
                "a linked state must name a subtree");
        // a state in the subtrees list that is not of type subtree
        List<CompileError> errors = errors(tree("{'name': 'L', 'type': 'linked', 'linkedSubtree': 'S'}")
                .replaceFirst("}$", ", 'subtrees': [{'name': 'S', 'type': 'state'}]}"));
        assertError(errors, "S", "type", "must have \"type\": \"subtree\"");
        // one of type linked: its root links another subtree, which runs below it (rule L1's chained frames)
        compiles(tree("{'name': 'L', 'type': 'linked', 'linkedSubtree': 'S'}").replaceFirst("}$", ", 'subtrees': ["
                + "{'name': 'S', 'type': 'linked', 'linkedSubtree': 'T'}, {'name': 'T', 'type': 'subtree', 'tasks': "
                + "[{'type': 'run'}]}]}"));
    }

    @Test
    void cycleOfLinkedStates() {
        List<CompileError> errors = errors("{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'A'}]}, 'subtrees': ["
                + "{'name': 'A', 'type': 'subtree', 'children': [{'name': 'ToB', 'type': 'linked', 'linkedSubtree': 'B'}]},"
                + "{'name': 'B', 'type': 'subtree', 'children': [{'name': 'ToA', 'type': 'linked', 'linkedSubtree': 'A'}]}]}");
        assertError(errors, "Root/L/A/ToB/B/ToA", "linkedSubtree", "cycle of linked states: A -> B -> A");
    }

    @Test
    void pathDeeperThanEightStates() {
        String s = "{'name': 'S9'}";
        for (int i = 8; i >= 2; i--) {
            s = "{'name': 'S" + i + "', 'children': [" + s + "]}";
        }
        assertOnlyError(tree(s), "Root/S2/S3/S4/S5/S6/S7/S8", "children[0]",
                "state 'S9' makes the path deeper than 8 states");
    }

    // ---- bindings --------------------------------------------------------------------------------

    @Test
    void enterConditionBoundToATaskOutputIsOutOfScope() {
        assertOnlyError(tree("{'name': 'A', 'enterConditions': [{'type': 'bool', 'input': {'task': 'claim.granted'}}]}"),
                "Root/A", "enterConditions[0].input", "out of scope: enter conditions can bind to parameters and evaluators only");
    }

    @Test
    void taskBoundToALaterTaskOfItsStateIsOutOfScope() {
        assertOnlyError("{'name': 'T', 'root': {'name': 'Root', 'tasks': [{'type': 'delay', 'duration': {'task': 'claim.slotX'}},"
                + " {'type': 'claim'}]}}", "Root", "tasks[0].duration", "no task 'claim' is in scope for task inputs");
        // the same binding from a child state is fine (ancestor tasks are in scope)
        List<CompileError> errors = errors(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'task': 'claim.slotX'}},"
                + " {'type': 'delay', 'duration': {'task': 'nope.slotX'}}]}"));
        assertEquals(1, errors.size(), errors.toString());
        assertError(errors, "Root/A", "tasks[1].duration", "no task 'nope'");
    }

    @Test
    void bindingOfTheWrongType() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'param': 'flag'}}]}"),
                "Root/A", "tasks[0].duration", "binding {\"param\": \"flag\"} is bool but this field needs float");
    }

    @Test
    void bindingToAnEvaluatorOutputThatDoesNotExist() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'eval': 'time.now'}}]}"),
                "Root/A", "tasks[0].duration", "evaluator 'time' has no output 'now'");
    }

    // ---- global tasks (docs/SEMANTICS.md, rules G4, G5) ------------------------------------------

    /** {@link #tree} with the given global tasks (JSON list items, single-quoted). */
    private static String withGlobals(String globalTasks, String children) {
        return tree(children).replace("'root':", "'globalTasks': [" + globalTasks + "], 'root':");
    }

    @Test
    void globalTaskBoundToALaterGlobalTask() {
        assertOnlyError(withGlobals("{'type': 'delay', 'duration': {'task': 'camp.slotX'}}, {'type': 'claim', 'name': 'camp'}",
                ""), null, "globalTasks[0].duration", "global task 'camp' (globalTasks[1]) is listed after this one; "
                + "a global task may bind only to the global tasks listed before it");
        // the other way round is fine, and so is a state's task binding either
        List<CompileError> errors = errors(withGlobals("{'type': 'claim', 'name': 'camp'},"
                + " {'type': 'delay', 'duration': {'task': 'camp.slotX'}}, {'type': 'delay', 'duration': {'task': 'nope.slotX'}}",
                "{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'task': '@global:camp.slotX'}}]}"));
        assertEquals(1, errors.size(), errors.toString());
        assertError(errors, null, "globalTasks[2].duration", "no task 'nope' is in scope for global task inputs "
                + "(visible: the global tasks listed before this one)");
    }

    @Test
    void globalTaskCannotBindAStateTask() {
        assertOnlyError(withGlobals("{'type': 'delay', 'duration': {'task': 'Root:claim.slotX'}}", ""), null,
                "globalTasks[0].duration", "no task 'claim' in state 'Root' is in scope for global task inputs");
    }

    @Test
    void globalTaskOutputsAreOutOfScopeForEnterConditionsAndEvaluators() {
        assertOnlyError(withGlobals("{'type': 'claim', 'name': 'camp'}",
                "{'name': 'A', 'enterConditions': [{'type': 'bool', 'input': {'task': 'camp.granted'}}]}"),
                "Root/A", "enterConditions[0].input", "out of scope: enter conditions can bind to parameters and evaluators only");
        assertOnlyError(withGlobals("{'type': 'claim', 'name': 'camp'}", "{'name': 'A', 'tasks': [{'type': 'delay',"
                + " 'duration': {'task': '@global:nope.slotX'}}]}"), "Root/A", "tasks[0].duration",
                "no global task 'nope' is in scope for task inputs (visible: earlier tasks of this state, the tasks of its"
                        + " ancestor states and the global tasks)");
    }

    @Test
    void reselectOnAGlobalTask() {
        assertOnlyError(withGlobals("{'type': 'run', 'reselect': true}", ""), null, "globalTasks[0].reselect",
                "'reselect' is not valid on a global task: a global task is entered once when the tree starts and exited"
                        + " when it finishes, never re-selected; remove it");
    }

    @Test
    void aGlobalTaskMustBeATaskObject() {
        assertOnlyError(withGlobals("{'type': 'compare', 'param': 'speed', 'op': '>', 'value': 1}", ""), null,
                "globalTasks[0].type", "'compare' is a condition type, not a task type; valid task types are delay,");
        assertOnlyError(withGlobals("7", ""), null, "globalTasks[0]", "expected a task object {\"type\": ...}, got 7");
        assertOnlyError(withGlobals("{'type': 'run', 'considerForCompletion': 'no'}", ""), null,
                "globalTasks[0].considerForCompletion", "expected a boolean, got \"no\" (a string)");
        assertOnlyError(tree("").replace("'root':", "'globalTasks': {'type': 'run'}, 'root':"), null, "globalTasks",
                "expected a list of task objects, got an object");
    }

    // ---- nodes -----------------------------------------------------------------------------------

    @Test
    void unknownNodeType() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'teleport'}]}"), "Root/A", "tasks[0].type",
                "unknown task type \"teleport\"; valid task types are delay, succeed, fail, run");
        assertOnlyError(tree("{'name': 'A', 'enterConditions': [{'type': 'delay', 'duration': 1}]}"), "Root/A",
                "enterConditions[0].type", "'delay' is a task type, not a condition type");
    }

    @Test
    void unknownParameter() {
        assertOnlyError(tree("{'name': 'A', 'enterConditions': [{'type': 'compare', 'param': 'ammo', 'op': '>', 'value': 0}]}"),
                "Root/A", "enterConditions[0].param", "unknown parameter 'ammo'; parameters in scope are [flag, speed]");
    }

    @Test
    void unknownFieldOnANode() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1, 'durration': 2}]}"),
                "Root/A", "tasks[0].durration", "unknown field 'durration' for task type 'delay'; valid fields are "
                        + "[duration, randomDeviation, name, reselect, considerForCompletion, enabled]");
    }

    @Test
    void wrongValueType() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 'soon'}]}"), "Root/A",
                "tasks[0].duration", "expected a number, got \"soon\" (a string)");
        // an any-number input says "a number", not "an integer"
        assertOnlyError(tree("{'name': 'A', 'enterConditions': [{'type': 'compare', 'param': 'speed', 'op': '<', 'value': 'x'}]}"),
                "Root/A", "enterConditions[0].value", "expected a number, got \"x\" (a string)");
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'succeed', 'afterTicks': 1.5}]}"), "Root/A",
                "tasks[0].afterTicks", "expected an integer, got 1.5");
    }

    @Test
    void missingRequiredField() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay'}]}"), "Root/A", "tasks[0].duration",
                "missing required field 'duration'");
        assertOnlyError(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick'}]}"), "Root/A", "transitions[0].to",
                "a transition needs a target 'to'");
    }

    @Test
    void errorsInsideAnUnlinkedSubtreeNameTheSubtreePath() {
        // The root's name ends in "Link": the subtree path must still be found correctly.
        List<CompileError> errors = errors("{'name': 'T', 'root': {'name': 'MainLink'}, 'subtrees': ["
                + "{'name': 'S', 'type': 'subtree', 'children': [{'name': 'A', 'tasks': [{'type': 'nope'}]}]}]}");
        assertError(errors, "subtree S/A", "tasks[0].type", "unknown task type \"nope\"");
    }

    // ---- many errors at once ---------------------------------------------------------------------

    @Test
    void reportsAllErrorsAtOnce() {
        List<CompileError> errors = errors("{'name': 'T', 'colour': 'red', 'parameters': {'p': {'type': 'double'}},"
                + " 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'tasks': [{'type': 'delay'}], 'transitions': [{'trigger': 'onTick', 'to': 'Nowhere'}]},"
                + "{'name': 'A'},"
                + "{'name': 'G', 'type': 'group', 'tasks': [{'type': 'run'}]},"
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'Missing'},"
                + "{'name': 'B', 'tsks': [], 'enterConditions': [{'type': 'randomChance', 'probability': 2}],"
                + " 'transitions': [{'trigger': 'onSomething', 'to': '@next'}]}]}}");
        assertError(errors, null, "colour", "unknown key 'colour' at the top level");
        assertError(errors, "Root/B", "tsks", "unknown key 'tsks' in a state");
        assertError(errors, null, "parameters.p.type", "unknown parameter type \"double\"");
        assertError(errors, "Root/A", "tasks[0].duration", "missing required field 'duration'");
        assertError(errors, "Root/A", "transitions[0].to", "unknown target state 'Nowhere'");
        assertError(errors, "Root", "children[1]", "duplicate child name 'A'");
        assertError(errors, "Root/G", "tasks", "a group state cannot have tasks");
        assertError(errors, "Root/L", "linkedSubtree", "unknown subtree 'Missing'");
        assertError(errors, "Root/B", "enterConditions[0].probability", "out of range; valid range is 0..1");
        assertError(errors, "Root/B", "transitions[0].trigger", "unknown trigger \"onSomething\"");
        // a bad trigger does not hide the same transition's other errors
        assertError(errors, "Root/B", "transitions[0].to", "@next: state 'B' has no next sibling");
        assertEquals(11, errors.size(), errors.toString());
        // the reader's errors come first
        assertEquals("colour", errors.get(0).field());
        assertEquals("tsks", errors.get(1).field());
    }

    // ---- the tree's rules (rule U1) -------------------------------------------------------------

    /** {@link #tree} with {@code "rules": <rules>} (a single-quoted JSON value) at the top level. */
    private static String underRules(String rules, String children) {
        String t = tree(children);
        assertTrue(t.startsWith("{'name': 'T',"), t);
        return "{'name': 'T', 'rules': " + rules + "," + t.substring("{'name': 'T',".length());
    }

    private static void compiles(String singleQuoted) {
        try {
            StateTreeJson.compile(FILE, singleQuoted.replace('\'', '"'), TestAssets.compiler());
        } catch (StateTreeCompileException e) {
            fail(e.getMessage());
        }
    }

    private static final String SEQUENCE = "{'name': 'Seq', 'composite': 'sequence', 'children': ["
            + "{'name': 'A', 'tasks': [{'type': 'run'}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}]}";
    private static final String ALL = "{'name': 'Both', 'completion': 'all', 'tasks': [{'type': 'delay', 'duration': 1},"
            + " {'type': 'delay', 'duration': 2}]}";

    @Test
    void unknownRules() {
        CompileError e = assertOnlyError(underRules("'unreal-5.9'", "{'name': 'A'}"), null, "rules",
                "unknown rules \"unreal-5.9\"; valid values are seed, unreal-5.8");
        assertTrue(e.message().contains("did you mean [unreal-5.8]"), e.message());
        assertOnlyError(underRules("'Seed'", "{'name': 'A'}"), null, "rules", "valid values are seed, unreal-5.8");
        assertOnlyError(underRules("''", "{'name': 'A'}"), null, "rules", "valid values are seed, unreal-5.8");
        assertOnlyError(underRules("5.8", "{'name': 'A'}"), null, "rules", "expected a string, got 5.8 (a number)");
        assertOnlyError(underRules("null", "{'name': 'A'}"), null, "rules", "expected a string, got null");
    }

    @Test
    void whatUnrealRulesRefuse() {
        assertOnlyError(underRules("'unreal-5.8'", SEQUENCE), "Root/Seq", "composite",
                "composite \"sequence\" cannot be used in a tree with \"rules\": \"unreal-5.8\" (rule U1)");
        compiles(underRules("'unreal-5.8'", ALL)); // rules U9, U10: Unreal 5.6's task completion "all"
        assertOnlyError(underRules("'unreal-5.8', 'transitionScan': 'rootFirst'", "{'name': 'A'}"), null, "rules",
                "\"rules\": \"unreal-5.8\" cannot be combined with \"transitionScan\": \"rootFirst\"");
        // one error per refused element, each at its own state
        List<CompileError> errors = errors(underRules("'unreal-5.8'", SEQUENCE + ", " + ALL + ", "
                + SEQUENCE.replace("'Seq'", "'Seq2'").replace("'sequence'", "'selector'")));
        assertEquals(2, errors.size(), errors.toString());
        assertError(errors, "Root/Seq", "composite", "(rule U1)");
        assertError(errors, "Root/Seq2", "composite", "composite \"selector\" cannot be used");
        // the seeds' rules, said or not, take all three
        for (String rules : List.of("'seed'", "'seed', 'transitionScan': 'leafFirst'")) {
            compiles(underRules(rules, SEQUENCE + ", " + ALL));
        }
        compiles(underRules("'seed', 'transitionScan': 'rootFirst'", ALL));
    }

    @Test
    void reactivateTargetNeedsABooleanAndAStateTarget() {
        for (String to : List.of("@none", "@succeeded", "@failed")) {
            assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', "
                    + "'to': '" + to + "', 'reactivateTarget': true}]}"), "Root/A", "transitions[0].reactivateTarget",
                    "'reactivateTarget' is only valid with a state target (a state path or name, or a relative "
                            + "target such as @parent); " + to + " enters no state");
        }
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', "
                + "'to': 'A', 'reactivateTarget': 'yes'}]}"), "Root/A", "transitions[0].reactivateTarget",
                "expected a boolean, got");
        for (String to : List.of("A", "Root", "@parent")) {
            compiles(tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', "
                    + "'to': '" + to + "', 'reactivateTarget': true}]}"));
        }
    }

    @Test
    void unrealRulesRefuseADelayOnACompletionTransition() {
        for (String trigger : List.of("onStateCompleted", "onStateSucceeded", "onStateFailed")) {
            String late = "{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1}], 'transitions': [{'trigger': '"
                    + trigger + "', 'to': 'A', 'delay': 0.5}]}";
            assertOnlyError(underRules("'unreal-5.8'", late), "Root/A", "transitions[0].delay",
                    "a delay is only valid on onTick and onEvent transitions in a tree with \"rules\": \"unreal-5.8\""
                            + " (rule U1; trigger is " + trigger + ")");
            assertOnlyError(underRules("'unreal-5.8'", late.replace("'delay': 0.5", "'delayVariance': 0.5")), "Root/A",
                    "transitions[0].delayVariance", "(rule U1; trigger is " + trigger + ")");
            compiles(underRules("'seed'", late)); // the seeds' rules gate any transition (section 4)
        }
        compiles(underRules("'unreal-5.8'", "{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger':"
                + " 'onTick', 'to': 'A', 'delay': 0.5}, {'trigger': 'onEvent', 'event': 'E', 'to': 'A', 'delay': 0.5}]}"));
    }

    @Test
    void whatUnrealRulesRefuseInsideALinkedSubtree() {
        String linked = "{'name': 'T', 'rules': 'unreal-5.8', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'L', 'type': 'linked', 'linkedSubtree': 'S'}]}, 'subtrees': [{'name': 'S', 'type': 'subtree',"
                + " 'children': [" + SEQUENCE + ", " + ALL + "]}]}";
        List<CompileError> errors = errors(linked);
        assertError(errors, "Root/L/S/Seq", "composite", "(rule U1)");
        assertEquals(1, errors.size(), errors.toString()); // completion "all" is accepted (rules U9, U10)
    }

    // ---- JSON-level errors -----------------------------------------------------------------------

    @Test
    void syntaxErrorNamesLineAndColumn() {
        String text = "{\n  'name': 'T',\n  'root': {\n    'name': 'Root',\n    'tasks': [{'type': 'run'}}\n  }\n}";
        CompileError e = assertOnlyError(text, "Root", "tasks[0]", "JSON syntax error at line 5, column 30");
        assertTrue(e.message().endsWith("Unexpected close marker '}': expected ']' (for Array starting at line 5, column 14)"),
                e.message());
    }

    @Test
    void truncatedTextNamesWhereItEnds() {
        CompileError e = assertOnlyError("{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'A', 'tasks': [",
                "Root/A", "tasks[0]", "line 1, column ");
        assertTrue(e.message().contains("end-of-input"), e.message());
    }

    @Test
    void duplicateKey() {
        assertOnlyError(tree("{'name': 'A', 'tasks': [], 'tasks': [{'type': 'run'}]}"), "Root/A", "tasks",
                "duplicate key 'tasks' at line 1, column ");
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1, 'duration': 2}]}"), "Root/A",
                "tasks[0].duration", "duplicate key 'duration'");
    }

    @Test
    void unknownKeys() {
        assertOnlyError(tree("{'name': 'A', 'taks': []}"), "Root/A", "taks", "unknown key 'taks' in a state; valid keys are "
                + "name, type, selection, linkedSubtree, asset, linkedParameters, parameters, enterConditions, tasks, transitions, children, weight, considerations");
        assertOnlyError(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': '@none', 'delai': 1}]}"),
                "Root/A", "transitions[0].delai", "unknown key 'delai' in a transition; valid keys are trigger, event, to,"
                        + " conditions, delay, delayVariance");
        assertOnlyError("{'name': 'T', 'parameters': {'p': {'type': 'int', 'valeu': 1}}, 'root': {'name': 'R'}}",
                null, "parameters.p.valeu", "unknown key 'valeu' in a parameter; valid keys are type, default, values, value");
        assertOnlyError("{'name': 'T', 'parameters': {'p': {'type': 'int', 'value': 1}}, 'root': {'name': 'R'}}",
                null, "parameters.p.value", "'value' is only valid on a state's parameters");
        assertOnlyError("{'name': 'T', 'root': {'name': 'R'}, 'subtree': []}", null, "subtree",
                "unknown key 'subtree' at the top level; valid keys are name, transitionScan, rules, parameters,"
                        + " evaluators, globalTasks, root, subtrees, hostEvents");
    }

    @Test
    void wrongJsonTypes() {
        assertOnlyError(tree("{'name': 'A', 'children': {'name': 'B'}}"), "Root/A", "children",
                "expected a list of state objects, got an object");
        assertOnlyError(tree("{'name': 'A', 'children': [{'name': 'B'}, 7]}"), "Root/A", "children[1]",
                "expected a state object");
        // a state without a usable name is reported at its parent, with the field leading to it
        assertOnlyError(tree("{'name': 42, 'tasks': [{'type': 'run'}]}"), "Root", "children[0].name",
                "expected a string, got 42 (a number)");
        assertOnlyError(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': true}]}"), "Root/A",
                "transitions[0].to", "expected a string, got true (a boolean)");
        assertOnlyError("{'name': 'T', 'parameters': {'p': {'type': 'int', 'default': 'three'}}, 'root': {'name': 'R'}}",
                null, "parameters.p.default", "expected an integer, got \"three\" (a string)");
        assertOnlyError("{'name': 'T', 'parameters': [], 'root': {'name': 'R'}}", null, "parameters",
                "expected an object mapping parameter names");
        assertOnlyError(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': null}]}"), "Root/A",
                "tasks[0].duration", "null is not a valid value");
        assertOnlyError("[]", null, null, "an asset is a JSON object");
    }

    @Test
    void aParameterWithABadDefaultIsStillKnown() {
        // only the default is reported, not every use of the parameter as "unknown parameter"
        assertOnlyError("{'name': 'T', 'parameters': {'ammo': {'type': 'int', 'default': 1.5}}, 'root': {'name': 'R',"
                + " 'enterConditions': [{'type': 'compare', 'param': 'ammo', 'op': '>', 'value': 0}]}}",
                null, "parameters.ammo.default", "expected an integer, got 1.5");
    }

    @Test
    void readerErrorsInsideASubtreeUseTheSubtreePath() {
        List<CompileError> errors = errors("{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'L', 'type': 'linked',"
                + " 'linkedSubtree': 'S'}]}, 'subtrees': [{'name': 'S', 'type': 'subtree', 'children': [{'name': 'A',"
                + " 'transitions': [{'trigger': 'onTick', 'to': 3}]}]}]}");
        assertError(errors, "S/A", "transitions[0].to", "expected a string");
        // the compiler's "needs a target" about the inlined copy is the same problem and is not repeated
        assertEquals(1, errors.size(), errors.toString());
    }
}
