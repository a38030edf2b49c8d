package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompileWarning;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The authoring warnings W1-W5 (docs/SEMANTICS.md, "Authoring warnings"): for each kind, trees that get it and
 * near misses that do not. A warning does not stop the tree from compiling. Assets are written with
 * single quotes for readability.
 */
class AuthoringWarningsTest {
    private static final String FILE = "warn.json";

    /**
     * The warnings of an asset, but W5: the tests of W1-W4 receive events that their host would send
     * (W5 has tests of its own, which use {@link #allWarnings}).
     */
    private static List<CompileWarning> warnings(String singleQuoted) throws Exception {
        return allWarnings(singleQuoted).stream().filter(w -> !CompileWarning.NEVER_SENT.equals(w.id())).toList();
    }

    private static List<CompileWarning> allWarnings(String singleQuoted) throws Exception {
        CompiledStateTree t = StateTreeJson.compile(FILE, singleQuoted.replace('\'', '"'), TestAssets.compiler());
        for (CompileWarning w : t.warnings) {
            assertEquals(FILE, w.source());
            assertTrue(w.toString().startsWith(FILE + ": ") && w.toString().contains("[" + w.id() + "] "), w.toString());
        }
        return t.warnings;
    }

    /** The one warning of {@code asset}: its id, state path and field, and a part of its message. */
    private static CompileWarning assertOnlyWarning(String asset, String id, String statePath, String field, String what)
            throws Exception {
        List<CompileWarning> ws = warnings(asset);
        assertEquals(1, ws.size(), ws.toString());
        CompileWarning w = ws.get(0);
        assertEquals(List.of(id, String.valueOf(statePath), String.valueOf(field)),
                List.of(w.id(), String.valueOf(w.statePath()), String.valueOf(w.field())), w.toString());
        assertTrue(w.message().contains(what), w.toString());
        return w;
    }

    private static void assertNoWarning(String asset) throws Exception {
        assertEquals(List.of(), warnings(asset));
    }

    /** A tree whose root has the given children. */
    private static String tree(String children) {
        return "{'name': 'T', 'root': {'name': 'Root', 'children': [" + children + "]}}";
    }

    /** A first child that ends on a completion transition to {@code Root/Next}, with these tasks. */
    private static String completing(String tasks, String trigger) {
        return tree("{'name': 'A', 'tasks': [" + tasks + "], 'transitions': [{'trigger': '" + trigger
                + "', 'to': 'Root/Next'}]}, {'name': 'Next', 'tasks': [{'type': 'run'}]}");
    }

    // ---- with disabled elements (rules N1-N5) ----------------------------------------------------

    @Test
    void disabledElementsAreNotWarnedAboutButWhatTheyLeaveBehindIs() throws Exception {
        // a disabled state is not reported as unreachable, a disabled delayed onEvent transition not as W4
        assertNoWarning(tree("{'name': 'A', 'tasks': [{'type': 'run'}]},"
                + "{'name': 'Off', 'enabled': false, 'tasks': [{'type': 'run'}],"
                + " 'transitions': [{'trigger': 'onEvent', 'event': 'E', 'to': 'Root/A', 'delay': 1, 'enabled': false}]}"));
        // a completion transition whose only completing task is disabled can never fire
        assertOnlyWarning(completing("{'type': 'delay', 'duration': 1, 'enabled': false}, {'type': 'run'}",
                "onStateCompleted"), CompileWarning.NEVER_COMPLETES, "Root/A", "transitions[0].trigger", "run");
    }

    // ---- W1 --------------------------------------------------------------------------------------

    @Test
    void w1ACompletionTransitionOnAStateThatNeverCompletes() throws Exception {
        // the case: a state whose only task is run
        CompileWarning w = assertOnlyWarning(completing("{'type': 'run'}", "onStateCompleted"), "W1", "Root/A",
                "transitions[0].trigger", "onStateCompleted can never fire: no task of this state or of a state below "
                        + "it can complete it (their counted task types: run)");
        assertEquals("warn.json: state 'Root/A': transitions[0].trigger: [W1] " + w.message(), w.toString());
        assertOnlyWarning(completing("{'type': 'setParameter', 'param': 'p', 'value': 1}, {'type': 'sendEvent', 'tag': 'X'}",
                "onStateCompleted").replace("'root'", "'parameters': {'p': {'type': 'int'}}, 'root'"), "W1", "Root/A",
                "transitions[0].trigger", "(their counted task types: setParameter, sendEvent)");
        assertOnlyWarning(completing("", "onStateCompleted"), "W1", "Root/A", "transitions[0].trigger",
                "they have no tasks counted for completion");
        // a background task does not complete its state
        assertOnlyWarning(completing("{'type': 'delay', 'duration': 1, 'considerForCompletion': false}, {'type': 'run'}",
                "onStateCompleted"), "W1", "Root/A", "transitions[0].trigger", "(their counted task types: run)");
    }

    @Test
    void w1SucceededAndFailedAreToldApart() throws Exception {
        assertOnlyWarning(completing("{'type': 'delay', 'duration': 1}, {'type': 'waitUntil', 'condition': {'type': 'randomChance', "
                + "'probability': 0.5}}", "onStateFailed"), "W1", "Root/A", "transitions[0].trigger",
                "onStateFailed can never fire: no task of this state or of a state below it can fail it");
        assertOnlyWarning(completing("{'type': 'fail'}", "onStateSucceeded"), "W1", "Root/A", "transitions[0].trigger",
                "onStateSucceeded can never fire");
        // under completion: all, one task that never succeeds keeps the state from succeeding
        String all = completing("{'type': 'delay', 'duration': 1}, {'type': 'fail', 'afterTicks': 3}", "onStateSucceeded")
                .replace("'name': 'A',", "'name': 'A', 'completion': 'all',");
        assertOnlyWarning(all, "W1", "Root/A", "transitions[0].trigger",
                "under \"completion\": \"all\" every counted task must be able to succeed");
        assertNoWarning(all.replace("onStateSucceeded", "onStateFailed"));
        assertNoWarning(all.replace("'completion': 'all',", ""));
    }

    @Test
    void w1NearMisses() throws Exception {
        assertNoWarning(completing("{'type': 'run'}, {'type': 'delay', 'duration': 1}", "onStateCompleted"));
        assertNoWarning(completing("{'type': 'fail', 'onEnter': true}", "onStateFailed"));
        assertNoWarning(completing("{'type': 'succeed'}", "onStateSucceeded"));
        // a node type that does not say: it may do either (the test registry's claim)
        assertNoWarning(completing("{'type': 'claim'}", "onStateFailed"));
        // completion is scoped: a child's completion is matched by its parent's transitions
        assertNoWarning(tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onStateCompleted',"
                + " 'to': 'Root/Next'}], 'children': [{'name': 'Wait', 'tasks': [{'type': 'delay', 'duration': 1}]}]},"
                + " {'name': 'Next', 'tasks': [{'type': 'run'}]}"));
        // ... through a linked subtree too
        assertNoWarning("{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'L', 'type': 'linked',"
                + " 'linkedSubtree': 'S', 'transitions': [{'trigger': 'onStateSucceeded', 'to': 'Root/Next'}]},"
                + " {'name': 'Next', 'tasks': [{'type': 'run'}]}]}, 'subtrees': [{'name': 'S', 'type': 'subtree',"
                + " 'tasks': [{'type': 'succeed', 'afterTicks': 2}]}]}");
    }

    // ---- W2 --------------------------------------------------------------------------------------

    @Test
    void w2TheChildrenOfATryEnterStateAreReachedOnlyByTransitions() throws Exception {
        String asset = tree("{'name': 'Guard', 'selection': 'tryEnterState', 'tasks': [{'type': 'run'}],"
                + " 'children': [{'name': 'Alert', 'tasks': [{'type': 'run'}]}]}");
        assertOnlyWarning(asset, "W2", "Root/Guard/Alert", null, "this state can never become active: its parent "
                + "selects with tryEnterState, which never selects a child, and no transition targets it or a state below it");
        assertNoWarning(asset.replace("'selection': 'tryEnterState', 'tasks': [{'type': 'run'}],",
                "'selection': 'tryEnterState', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent',"
                        + " 'event': 'Alarm', 'to': 'Alert'}],"));
    }

    @Test
    void w2ChildrenAfterAChildThatIsAlwaysSelected() throws Exception {
        String asset = tree("{'name': 'Patrol', 'tasks': [{'type': 'run'}]}, {'name': 'Rest', 'children': ["
                + "{'name': 'Sit', 'enterConditions': [{'type': 'randomChance', 'probability': 0.5}], 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Lie', 'tasks': [{'type': 'run'}]}]}");
        assertOnlyWarning(asset, "W2", "Root/Rest", null, "its parent tries its children in order and stops at "
                + "'Patrol', which is always selected (no enter conditions), and no transition targets it or a state "
                + "below it (nor can the 2 states below it)");
        // near misses: Patrol may fail its enter conditions; a transition targets Rest; random order
        assertNoWarning(asset.replace("{'name': 'Patrol',", "{'name': 'Patrol', 'enterConditions': [{'type': 'randomChance',"
                + " 'probability': 0.5}],"));
        assertNoWarning(asset.replace("{'name': 'Patrol', 'tasks': [{'type': 'run'}]}", "{'name': 'Patrol', 'tasks':"
                + " [{'type': 'delay', 'duration': 1}], 'transitions': [{'trigger': 'onStateCompleted', 'to': '@next'}]}"));
        assertNoWarning(asset.replace("'children': [{'name': 'Patrol'",
                "'selection': 'trySelectChildrenAtRandom', 'children': [{'name': 'Patrol'"));
        // a child with children counts as always selected when its first child is
        assertOnlyWarning(tree("{'name': 'G', 'children': [{'name': 'X', 'tasks': [{'type': 'run'}]}]},"
                + " {'name': 'Late', 'tasks': [{'type': 'run'}]}"), "W2", "Root/Late", null, "stops at 'G'");
    }

    @Test
    void w2TransitionsOfStatesThatCanNeverBeActiveDoNotCount() throws Exception {
        List<CompileWarning> ws = warnings(tree("{'name': 'A', 'tasks': [{'type': 'run'}]},"
                + " {'name': 'B', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 'C'}]},"
                + " {'name': 'C', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick', 'to': 'B'}]}"));
        assertEquals(2, ws.size(), ws.toString());
        assertEquals("Root/B", ws.get(0).statePath());
        assertTrue(ws.get(0).message().endsWith("and the only transitions to it or below it are on states that can "
                + "never become active either"), ws.get(0).toString());
        assertEquals("Root/C", ws.get(1).statePath());
    }

    @Test
    void w2AParentEnteredOnlyOnTheWayToATarget() throws Exception {
        // Lobby is never selected itself (Hall is always selected first); Desk is a target, Stairs is not
        assertOnlyWarning(tree("{'name': 'Hall', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onTick',"
                + " 'to': 'Root/Lobby/Desk'}]}, {'name': 'Lobby', 'children': [{'name': 'Stairs', 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Desk', 'tasks': [{'type': 'run'}]}]}"), "W2", "Root/Lobby/Stairs", null,
                "its parent is entered only on the way to a transition target below it, so the parent's selection never runs");
    }

    @Test
    void w2AStateAHistoryStateSelectsWhenItResumesIsReachable() throws Exception {
        // B is entered only on the way to B2, so B never selects B1 ... unless H, a shallow history
        // state, remembers B and selects it again when the agent comes back (rule Y3)
        String asset = tree("{'name': 'H', HISTORY 'transitions': [{'trigger': 'onEvent', 'event': 'Out', 'to': 'Root/Away'}],"
                + " 'children': [{'name': 'A', 'tasks': [{'type': 'run'}],"
                + "  'transitions': [{'trigger': 'onEvent', 'event': 'Go', 'to': 'Root/H/B/B2'}]},"
                + " {'name': 'B', 'children': [{'name': 'B1', 'tasks': [{'type': 'run'}]},"
                + "  {'name': 'B2', 'tasks': [{'type': 'run'}]}]}]},"
                + " {'name': 'Away', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'Back',"
                + " 'to': 'Root/H'}]}");
        assertOnlyWarning(asset.replace("HISTORY ", ""), "W2", "Root/H/B/B1", null,
                "its parent is entered only on the way to a transition target below it");
        assertNoWarning(asset.replace("HISTORY", "'history': 'shallow',"));
        // deep history remembers the last state, B2, and selects the path to it: B's selection never runs
        assertOnlyWarning(asset.replace("HISTORY", "'history': 'deep',"), "W2", "Root/H/B/B1", null,
                "its parent is entered only on the way to a transition target below it");
        // ... unless B can end the path itself (a failure on enter of one of its tasks cuts it there)
        assertNoWarning(asset.replace("HISTORY", "'history': 'deep',").replace("{'name': 'B', 'children'",
                "{'name': 'B', 'tasks': [{'type': 'run'}], 'children'"));
    }

    // ---- W3 --------------------------------------------------------------------------------------

    /** A root listening for Noise with these payload fields, and a child that sends Noise with this payload. */
    private static String noise(String payloadFields, String payload) {
        return "{'name': 'T', 'root': {'name': 'Root', 'transitions': [{'trigger': 'onEvent', 'event': 'Noise', 'to': 'Root/Hear'"
                + (payloadFields == null ? "" : ", 'payloadFields': " + payloadFields) + "}], 'children': ["
                + "{'name': 'Talk', 'tasks': [{'type': 'sendEvent', 'tag': 'Noise'" + (payload == null ? "" : ", 'payload': " + payload)
                + "}, {'type': 'delay', 'duration': 1}], 'transitions': [{'trigger': 'onStateCompleted', 'to': '@next'}]},"
                + " {'name': 'Hear', 'tasks': [{'type': 'run'}]}]}}";
    }

    @Test
    void w3APayloadFieldOfAnotherType() throws Exception {
        // the case: volume: true to a transition declaring volume as float
        assertOnlyWarning(noise("{'volume': 'float'}", "{'volume': true}"), "W3", "Root/Talk", "tasks[0].payload.volume",
                "payload field 'volume' of event 'Noise' is sent as bool but transitions[0] of state 'Root' declares it "
                        + "float: that transition never matches this event");
        assertNoWarning(noise("{'volume': 'float'}", "{'volume': 3}"));
        assertNoWarning(noise("{'volume': 'float'}", "{'volume': 2.5}"));
        assertOnlyWarning(noise("{'volume': 'int'}", "{'volume': 2.5}"), "W3", "Root/Talk", "tasks[0].payload.volume",
                "is sent as float but");
        // the number form sends the float field 'value'
        assertOnlyWarning(noise("{'value': 'int'}", "2.5"), "W3", "Root/Talk", "tasks[0].payload.value", "is sent as float");
        assertNoWarning(noise("{'value': 'float'}", "2"));
        // a binding's type counts
        assertOnlyWarning(noise("{'volume': 'bool'}", "{'volume': {'fn': 'add', 'args': [1, 2]}}"), "W3", "Root/Talk",
                "tasks[0].payload.volume", "sent as int");
    }

    @Test
    void w3AFieldNoTransitionDeclares() throws Exception {
        List<CompileWarning> ws = warnings(noise("{'volume': 'float'}", "{'volum': 2.5}"));
        assertEquals(2, ws.size(), ws.toString());
        assertEquals("tasks[0].payload.volum", ws.get(0).field());
        assertTrue(ws.get(0).message().endsWith("is declared by no onEvent transition on that tag, so it is dropped when "
                + "sent (they declare [volume]); did you mean [volume]?"), ws.get(0).toString());
        assertEquals("tasks[0].payload", ws.get(1).field());
        assertTrue(ws.get(1).message().contains("event 'Noise' is sent without payload field 'volume', which "
                + "transitions[0] of state 'Root' declares (float), and no transition on that tag matches it as sent"),
                ws.get(1).toString());
        // no payload at all
        assertOnlyWarning(noise("{'volume': 'float'}", null), "W3", "Root/Talk", "tasks[0]", "sent without payload field 'volume'");
        // an extra field is dropped, though the event matches
        assertOnlyWarning(noise("{'volume': 'float'}", "{'volume': 1, 'pitch': 2}"), "W3", "Root/Talk",
                "tasks[0].payload.pitch", "dropped when sent");
    }

    @Test
    void w3NearMisses() throws Exception {
        // no receiving transition declares payload fields: nothing to fit (the fields are dropped, as E4 says)
        assertNoWarning(noise(null, "{'volume': true}"));
        // another transition on the tag takes any payload: an event without the field still matches one
        String both = noise("{'volume': 'float'}", null).replace("'transitions': [{'trigger': 'onEvent'",
                "'transitions': [{'trigger': 'onEvent', 'event': 'Noise', 'to': 'Root/Talk'}, {'trigger': 'onEvent'");
        assertNoWarning(both);
        // tags match hierarchically: a transition on Noise receives Noise.Loud, one on Noise.Loud not Noise
        assertOnlyWarning(noise("{'volume': 'float'}", "{'volume': true}").replace("'tag': 'Noise'", "'tag': 'Noise.Loud'"),
                "W3", "Root/Talk", "tasks[0].payload.volume", "event 'Noise.Loud' is sent as bool");
        assertNoWarning(noise("{'volume': 'float'}", "{'volume': true}").replace("'event': 'Noise'", "'event': 'Noise.Loud'"));
        // another node type with a tag is not the tree's own sendEvent
        assertNoWarning(noise("{'volume': 'float'}", null).replace("'type': 'sendEvent', 'tag': 'Noise'", "'type': 'claim'"));
    }

    @Test
    void w3AGlobalSendEvent() throws Exception {
        String asset = noise("{'volume': 'float'}", "{'volume': 1}").replace("'root':",
                "'globalTasks': [{'type': 'sendEvent', 'tag': 'Noise', 'payload': {'volume': false}}], 'root':");
        assertOnlyWarning(asset, "W3", null, "globalTasks[0].payload.volume", "is sent as bool");
    }

    // ---- with required events (rules V1-V6) ------------------------------------------------------

    @Test
    void aStateWithARequiredEventIsNotAlwaysSelected() throws Exception {
        // W2: Wait has no enter conditions and is a leaf, but its required event may be missing, so
        // the in-order selection may go on to Idle
        assertNoWarning(tree("{'name': 'Wait', 'requiredEvent': {'tag': 'Go'}, 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Idle', 'tasks': [{'type': 'run'}]}"));
        assertOnlyWarning(tree("{'name': 'Wait', 'tasks': [{'type': 'run'}]}, {'name': 'Idle', 'tasks': [{'type': 'run'}]}"),
                "W2", "Root/Idle", null, "stops at 'Wait', which is always selected");
    }

    @Test
    void w3ChecksTheTreesOwnPayloadAgainstARequiredEvent() throws Exception {
        String asset = tree("{'name': 'Talk', 'tasks': [{'type': 'sendEvent', 'tag': 'Noise', 'payload': {'volume': true}},"
                + " {'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'Noise', 'to': 'Hear'}]},"
                + " {'name': 'Hear', 'requiredEvent': {'tag': 'Noise', 'payloadFields': {'volume': 'float'}},"
                + " 'tasks': [{'type': 'run'}]}");
        assertOnlyWarning(asset, "W3", "Root/Talk", "tasks[0].payload.volume", "payload field 'volume' of event 'Noise' "
                + "is sent as bool but the requiredEvent of state 'Root/Hear' declares it float: that state never matches "
                + "this event");
        assertNoWarning(asset.replace("'volume': true", "'volume': 2"));
    }

    // ---- W4 --------------------------------------------------------------------------------------

    @Test
    void w4ADelayedOnEventTransition() throws Exception {
        String asset = tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent',"
                + " 'event': 'Alarm', 'to': 'B', 'delay': 1.5}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}");
        assertOnlyWarning(asset, "W4", "Root/A", "transitions[0].delay", "a delayed onEvent transition fires only if an "
                + "event 'Alarm' is in the agent's window on every tick until the delay runs out");
        assertOnlyWarning(asset.replace("'delay': 1.5", "'delayVariance': 0.5"), "W4", "Root/A",
                "transitions[0].delayVariance", "a delayed onEvent transition");
        assertNoWarning(asset.replace(", 'delay': 1.5", ""));
        assertNoWarning(asset.replace("'delay': 1.5", "'delay': 0"));
        assertNoWarning(asset.replace("'trigger': 'onEvent', 'event': 'Alarm'", "'trigger': 'onTick'"));
    }

    // ---- under Unreal 5.8's rules (section 20) -------------------------------------------------------

    /** {@code asset} (a tree named 'T') under {@code "rules": "unreal-5.8"}. */
    private static String unreal(String asset) {
        return asset.replace("{'name': 'T',", "{'name': 'T', 'rules': 'unreal-5.8',");
    }

    @Test
    void underUnrealRulesOneEventFiresADelayedOnEventTransition() throws Exception {
        // rule U4: the event need not come again, so W4 does not apply
        assertNoWarning(unreal(tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent',"
                + " 'event': 'Alarm', 'to': 'B', 'delay': 1.5}]}, {'name': 'B', 'tasks': [{'type': 'run'}]}")));
    }

    @Test
    void underUnrealRulesATasklessPathAndALinkedSubtreeCanComplete() throws Exception {
        // rule U6: a leaf on a path without tasks succeeds (seed: W1, it never completes)
        String taskless = tree("{'name': 'A', 'transitions': [{'trigger': 'onStateSucceeded', 'to': 'Root/Next'}]},"
                + " {'name': 'Next', 'tasks': [{'type': 'run'}]}");
        assertOnlyWarning(taskless, "W1", "Root/A", "transitions[0].trigger", "can never fire");
        assertNoWarning(unreal(taskless));
        // ... but not one whose path has a task (here on Root: the path is not task-less)
        assertOnlyWarning(unreal(taskless.replace("'name': 'Root',", "'name': 'Root', 'tasks': [{'type': 'run'}],")),
                "W1", "Root/A", "transitions[0].trigger", "can never fire");
        // rule U2: a linked state completes as the @succeeded/@failed transitions below it say
        String linked = "{'name': 'T', 'root': {'name': 'Root', 'children': [{'name': 'L', 'type': 'linked',"
                + " 'linkedSubtree': 'Sub', 'transitions': [{'trigger': 'onStateFailed', 'to': 'Root/Next'}]},"
                + " {'name': 'Next', 'tasks': [{'type': 'run'}]}]}, 'subtrees': [{'name': 'Sub', 'type': 'subtree',"
                + " 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': 'Quit', 'to': '@failed'}]}]}";
        assertOnlyWarning(linked, "W1", "Root/L", "transitions[0].trigger", "can never fire");
        assertNoWarning(unreal(linked));
        // an onStateSucceeded on it still can never fire: nothing below succeeds it
        assertOnlyWarning(unreal(linked.replace("'onStateFailed'", "'onStateSucceeded'")), "W1", "Root/L",
                "transitions[0].trigger", "can never fire");
    }

    // ---- all of them -----------------------------------------------------------------------------

    @Test
    void warningsComeInStateOrderAndDoNotStopTheTree() throws Exception {
        CompiledStateTree t = StateTreeJson.compile(FILE, tree("{'name': 'A', 'tasks': [{'type': 'run'}], 'transitions': ["
                + "{'trigger': 'onEvent', 'event': 'E', 'to': 'A', 'delay': 1}, {'trigger': 'onStateCompleted', 'to': 'A'}]},"
                + " {'name': 'B', 'tasks': [{'type': 'run'}]}").replace('\'', '"'), TestAssets.compiler());
        assertEquals(List.of("W4 Root/A transitions[0].delay", "W1 Root/A transitions[1].trigger", "W2 Root/B null",
                        "W5 Root/A transitions[0].event"),
                t.warnings.stream().map(w -> w.id() + " " + w.statePath() + " " + w.field()).toList());
        assertEquals(3, t.stateCount);
        assertThrows(UnsupportedOperationException.class, () -> t.warnings.clear());
    }

    // ---- W5 --------------------------------------------------------------------------------------

    /** A shop: Idle goes to Serve on Purchase (or the given tag), and the given extra top-level keys. */
    private static String shop(String onEvent, String extra) {
        return "{'name': 'T', " + extra + "'root': {'name': 'Root', 'children': ["
                + "{'name': 'Idle', 'tasks': [{'type': 'run'}], 'transitions': [{'trigger': 'onEvent', 'event': '" + onEvent
                + "', 'to': 'Root/Serve'}]},"
                + " {'name': 'Serve', 'tasks': [{'type': 'sendEvent', 'tag': 'Served'}, {'type': 'run'}],"
                + "  'transitions': [{'trigger': 'onEvent', 'event': 'Served', 'to': 'Root/Idle'}]}]}}";
    }

    @Test
    void w5AnEventTagThatNothingSends() throws Exception {
        // issue 36's case: a typo of a tag the host sends
        List<CompileWarning> ws = allWarnings(shop("Purchse", "'hostEvents': ['Purchase'], "));
        assertEquals(1, ws.size(), ws.toString());
        CompileWarning w = ws.get(0);
        assertEquals(List.of("W5", "Root/Idle", "transitions[0].event"), List.of(w.id(), w.statePath(), w.field()));
        assertEquals("warn.json: state 'Root/Idle': transitions[0].event: [W5] event 'Purchse' is never sent: no node "
                + "of the tree sends it and the tree's \"hostEvents\" does not list it; did you mean [Purchase]?; if your "
                + "program (or a scenario) sends it, list it in the tree's top-level \"hostEvents\"", w.toString());
        // listed by the host, sent by a node (Served), or a tag below it sent (tags are hierarchical)
        assertEquals(List.of(), allWarnings(shop("Purchase", "'hostEvents': ['Purchase'], ")));
        assertEquals(List.of(), allWarnings(shop("Served", "")));
        assertEquals(List.of(), allWarnings(shop("Purchase", "'hostEvents': ['Purchase.Cash'], ")));
        // not the other way round: a parent tag sent does not reach a transition on a tag below it
        assertOnlyW5(shop("Purchase.Cash", "'hostEvents': ['Purchase'], "), "Root/Idle", "transitions[0].event");
        // nothing sent at all: no suggestion among sent tags but the tree's own received ones
        assertOnlyW5(shop("Purchase", ""), "Root/Idle", "transitions[0].event");
    }

    private static void assertOnlyW5(String asset, String statePath, String field) throws Exception {
        List<CompileWarning> ws = allWarnings(asset);
        assertEquals(1, ws.size(), ws.toString());
        assertEquals(List.of("W5", statePath, field), List.of(ws.get(0).id(), ws.get(0).statePath(), ws.get(0).field()));
    }

    @Test
    void w5RequiredEventsDisabledTransitionsAndTheCompilersHostEvents() throws Exception {
        String waiting = tree("{'name': 'Wait', 'requiredEvent': {'tag': 'Go'}, 'tasks': [{'type': 'run'}]},"
                + " {'name': 'Idle', 'tasks': [{'type': 'run'}]}");
        assertOnlyW5(waiting, "Root/Wait", "requiredEvent.tag");
        // a scenario's events, given to the compiler (trace and debug do so)
        CompiledStateTree t = StateTreeJson.compile(FILE, waiting.replace('\'', '"'),
                TestAssets.compiler().withHostEvents(List.of("Go")));
        assertEquals(List.of(), t.warnings);
        // a disabled transition is not warned about (rule N1; W2 then says Serve cannot be reached)
        assertEquals(List.of("W2"), allWarnings(shop("Purchse", "'hostEvents': ['Purchase'], ")
                .replace("'to': 'Root/Serve'}", "'to': 'Root/Serve', 'enabled': false}")).stream().map(CompileWarning::id).toList());
        // a tag property of any node counts as sent: here a sendEvent that is a global task
        assertEquals(List.of(), allWarnings(shop("Purchase", "'globalTasks': [{'type': 'sendEvent', 'tag': 'Purchase'}], ")));
    }

    @Test
    void hostEventsAreReadWrittenAndChecked() throws Exception {
        String asset = shop("Purchase", "'hostEvents': ['Purchase', 'Purchase', 'Refund'], ").replace('\'', '"');
        dev.crowdtree.statetree.definition.TreeDef def = StateTreeJson.read(FILE, asset);
        assertEquals(List.of("Purchase", "Refund"), def.hostEvents(), "a repeated tag is kept once");
        assertEquals(def.hostEvents(), StateTreeJson.read(FILE, StateTreeJson.write(def)).hostEvents());
        dev.crowdtree.statetree.compiler.StateTreeCompileException e = assertThrows(
                dev.crowdtree.statetree.compiler.StateTreeCompileException.class,
                () -> StateTreeJson.read(FILE, shop("Purchase", "'hostEvents': ['Purchase', 3], ").replace('\'', '"')));
        assertTrue(e.getMessage().contains("hostEvents[1]: expected an event tag (a non-empty string) that the host "
                + "sends, got 3"), e.getMessage());
    }
}
