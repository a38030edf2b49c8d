package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kind of "unknown name" error suggests the closest valid names by edit distance
 * ({@link dev.crowdtree.statetree.compiler.Suggestions}), and none when nothing is close. Assets are
 * written with single quotes for readability.
 */
class DidYouMeanTest {
    private static final String FILE = "typo.json";

    /** The one error of {@code singleQuoted}, which must be at {@code field}. */
    private static CompileError onlyError(String singleQuoted, String field) {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(FILE, singleQuoted.replace('\'', '"'), TestAssets.compiler()));
        assertEquals(1, e.errors().size(), e.errors().toString());
        CompileError err = e.errors().get(0);
        assertEquals(field, err.field(), err.toString());
        return err;
    }

    private static void assertSuggests(String singleQuoted, String field, String suggestion) {
        CompileError e = onlyError(singleQuoted, field);
        assertTrue(e.message().endsWith("; did you mean " + suggestion + "?"), e.toString());
    }

    private static void assertSuggestsNothing(String singleQuoted, String field) {
        CompileError e = onlyError(singleQuoted, field);
        assertTrue(!e.message().contains("did you mean"), e.toString());
    }

    /** A tree with a parameter, an evaluator, a root task with outputs and the given children. */
    private static String tree(String children) {
        return "{'name': 'T', 'parameters': {'speed': {'type': 'float'}, 'mode': {'type': 'enum', 'values': ['Calm', 'Alert']}},"
                + " 'evaluators': [{'type': 'time', 'name': 'clock'}], 'root': {'name': 'Root', 'tasks': [{'type': 'claim'}],"
                + " 'children': [" + children + "]}}";
    }

    private static final String CHASE = "{'name': 'Chase', 'tasks': [{'type': 'run'}]}";

    @Test
    void targetStates() {
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Chace'}]}, " + CHASE),
                "transitions[0].to", "[Root/Chase]");
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Root/Chace'}]}, " + CHASE),
                "transitions[0].to", "[Root/Chase]");
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'chase'}]}, " + CHASE),
                "transitions[0].to", "[Root/Chase]");
        // a path whose last name exists elsewhere
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Root/Idle/Chase'}]}, " + CHASE),
                "transitions[0].to", "[Root/Chase]");
        // closest first: Cheese (one edit) before Chest and Chase (two each, in declared order)
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Chesse'}]}, "
                + "{'name': 'Chase'}, {'name': 'Chest'}, {'name': 'Cheese'}"), "transitions[0].to",
                "[Root/Cheese, Root/Chase, Root/Chest]");
        assertSuggestsNothing(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': 'Flee'}]}, " + CHASE),
                "transitions[0].to");
        assertSuggests(tree("{'name': 'Idle', 'transitions': [{'trigger': 'onTick', 'to': '@nxet'}]}, " + CHASE),
                "transitions[0].to", "[@next]");
    }

    @Test
    void targetsInsideAnotherSubtreeCopyAreNotSuggested() {
        String asset = "{'name': 'T', 'root': {'name': 'Root', 'children': ["
                + "{'name': 'A', 'type': 'linked', 'linkedSubtree': 'S', 'transitions': [{'trigger': 'onTick', 'to': 'TO'}]},"
                + "{'name': 'Rest'}]},"
                + " 'subtrees': [{'name': 'S', 'type': 'subtree', 'children': [{'name': 'Run', 'tasks': [{'type': 'run'}]}]}]}";
        assertSuggests(asset.replace("TO", "Rst"), "transitions[0].to", "[Root/Rest]");
        // Root/A/S/Run is one edit away, but a state inside a subtree copy is no target for A's transitions
        assertSuggestsNothing(asset.replace("TO", "Rn"), "transitions[0].to");
    }

    @Test
    void parameters() {
        assertSuggests(tree("{'name': 'A', 'enterConditions': [{'type': 'compare', 'param': 'sped', 'op': '>', 'value': 1}]}"),
                "enterConditions[0].param", "[speed]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'param': 'Speed'}}]}"),
                "tasks[0].duration", "[speed]");
        assertSuggestsNothing(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'param': 'ammo'}}]}"),
                "tasks[0].duration");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'setParameter', 'param': 'mode', 'value': 'Alret'}]}"),
                "tasks[0].value", "[Alert]");
    }

    @Test
    void evaluatorAndTaskOutputs() {
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'eval': 'clock.elapsd'}}]}"),
                "tasks[0].duration", "[elapsed]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'eval': 'clok.elapsed'}}]}"),
                "tasks[0].duration", "[clock]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'task': 'claim.slotx'}}]}"),
                "tasks[0].duration", "[slotX]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'task': 'clam.slotX'}}]}"),
                "tasks[0].duration", "[claim]");
        assertSuggestsNothing(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'task': 'claim.size'}}]}"),
                "tasks[0].duration");
    }

    @Test
    void nodeTypesAndTheirProperties() {
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'dealy', 'duration': 1}]}"), "tasks[0].type", "[delay]");
        assertSuggests(tree("{'name': 'A', 'enterConditions': [{'type': 'Compare', 'param': 'speed', 'op': '>', 'value': 1}]}"),
                "enterConditions[0].type", "[compare]");
        assertSuggestsNothing(tree("{'name': 'A', 'tasks': [{'type': 'teleport'}]}"), "tasks[0].type");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'durration': 1, 'duration': 1}]}"),
                "tasks[0].durration", "[duration]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': 1, 'reselct': false}]}"),
                "tasks[0].reselct", "[reselect]");
    }

    @Test
    void assetKeys() {
        assertSuggests(tree("{'name': 'A', 'childern': []}"), "childern", "[children]");
        assertSuggests(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': 'A', 'delai': 1}]}"),
                "transitions[0].delai", "[delay]");
        assertSuggests("{'name': 'T', 'root': {'name': 'R'}, 'subtree': []}", "subtree", "[subtrees]");
        assertSuggests("{'name': 'T', 'parameters': {'p': {'type': 'int', 'defualt': 1}}, 'root': {'name': 'R'}}",
                "parameters.p.defualt", "[default]");
        assertSuggestsNothing(tree("{'name': 'A', 'colour': 'red'}"), "colour");
    }

    @Test
    void wordsOfTheFormat() {
        assertSuggests(tree("{'name': 'A', 'transitions': [{'trigger': 'onTik', 'to': 'A'}]}"),
                "transitions[0].trigger", "[onTick]");
        assertSuggests(tree("{'name': 'A', 'selection': 'tryEntreState'}"), "selection", "[tryEnterState]");
        assertSuggests(tree("{'name': 'A', 'type': 'grop'}"), "type", "[group]");
        assertSuggests(tree("{'name': 'A', 'transitions': [{'trigger': 'onTick', 'to': 'A', 'priority': 'hihg'}]}"),
                "transitions[0].priority", "[high]");
        assertSuggests("{'name': 'T', 'parameters': {'p': {'type': 'flaot'}}, 'root': {'name': 'R'}}",
                "parameters.p.type", "[float]");
        assertSuggests(tree("{'name': 'A', 'tasks': [{'type': 'delay', 'duration': {'fn': 'ad', 'args': [1, 2]}}]}"),
                "tasks[0].duration.fn", "[add]");
    }

    @Test
    void subtreesAndPayloadFields() {
        assertSuggests("{'name': 'T', 'root': {'name': 'R', 'children': [{'name': 'L', 'type': 'linked', 'linkedSubtree': 'Escpae'}]},"
                + " 'subtrees': [{'name': 'Escape', 'type': 'subtree'}]}", "linkedSubtree", "[Escape]");
        assertSuggests("{'name': 'T', 'root': {'name': 'R', 'children': [{'name': 'L', 'type': 'linked', 'linkedSubtree': 'E',"
                + " 'linkedParameters': {'sped': 1}}]},"
                + " 'subtrees': [{'name': 'E', 'type': 'subtree', 'parameters': {'speed': {'type': 'float'}}}]}",
                "linkedParameters.sped", "[speed]");
        assertSuggests(tree("{'name': 'A', 'transitions': [{'trigger': 'onEvent', 'event': 'Noise', 'to': 'A',"
                        + " 'payloadFields': {'volume': 'float'},"
                        + " 'conditions': [{'type': 'compare', 'input': {'event': 'volum'}, 'op': '>', 'value': 1}]}]}"),
                "transitions[0].conditions[0].input", "[volume]");
    }
}
