package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompileWarning;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The authoring warnings (docs/SEMANTICS.md, "Authoring warnings") of every golden case and every example that
 * compiles: the examples have none, and the golden cases only those listed here, each genuinely
 * warranted (they pin runtime rules, and some do it with logic that cannot fire on purpose).
 */
class GoldenWarningsTest {
    /** Case -> its warnings as {@code <id> <state path> <field>}. */
    private static final Map<String, List<String>> EXPECTED = Map.ofEntries(
            // the background fail task never fails Main: that is the rule the case shows
            Map.entry("background_task", List.of("W1 Root/Main transitions[0].trigger")),
            // Strict has a counted fail task under "completion": "all": it can only fail
            Map.entry("completion_all", List.of("W1 Root/Strict transitions[1].trigger")),
            // both routes on both states, for symmetry: Celebrate only succeeds, Sulk only fails
            Map.entry("d11d_completion_routing", List.of("W1 Root/Celebrate transitions[0].trigger",
                    "W1 Root/Sulk transitions[0].trigger")),
            // Guard (tryEnterState, no enter conditions) is always selected before Fallback
            Map.entry("d11k_try_enter", List.of("W2 Root/Fallback null")),
            // Flee has no enter conditions, and nothing targets AssessSituation
            Map.entry("d1_no_leaf_at_start", List.of("W2 Root/Danger/AssessSituation null")),
            // Wander has no enter conditions, and nothing targets Idle
            Map.entry("d1_peaceful_danger", List.of("W2 Root/Peaceful/Idle null")),
            // the 'note' field no transition declares is dropped on send (rule E4)
            Map.entry("event_payload", List.of("W3 Root/Dismiss tasks[0].payload.note")),
            // B1 shows what B's own selection would pick, which never runs: B is entered on the way to
            // B2, or on H's remembered path to B2 (rule Y4)
            Map.entry("hist_deep_enter_conditions", List.of("W2 Root/H/B/B1 null")),
            // seed twins of unreal_* cases: under the seed's rules a terminal transition in the subtree
            // finishes the tree, so Run never fails (U2's seed half) ...
            Map.entry("unreal_linked_completes_seed", List.of("W1 Root/Run transitions[1].trigger")),
            // ... and a path without tasks never completes (U6's seed half)
            Map.entry("unreal_no_tasks_seed", List.of("W1 Root/A transitions[0].trigger",
                    "W1 Root/B transitions[1].trigger")),
            // unreal-5.8, but with a global task: the path is not task-less (U6), A and B never complete
            Map.entry("unreal_no_tasks_global", List.of("W1 Root/A transitions[0].trigger",
                    "W1 Root/B transitions[1].trigger")));

    /**
     * Warnings the compiler gives today on trees under {@code "rules": "unreal-5.8"} that the cases'
     * traces prove wrong: the authoring warnings (docs/SEMANTICS.md section 16) still follow the
     * seeds' rules. W1 ignores U2 (a terminal transition inside a linked subtree completes the linked
     * state with the transition's status) and U6 (a path without tasks succeeds); W4 ignores U4 (one
     * event is enough for a delayed onEvent transition). Pinned here so that a change shows; to be
     * removed from this list once the warnings know the rules (src/main, not changed with these cases).
     */
    private static final Map<String, List<String>> WRONG_UNDER_UNREAL_5_8 = Map.ofEntries(
            // Linked completes with succeeded at tick 4 (U2)
            Map.entry("ue58_empty_state_tick_transition", List.of("W1 Root/Linked transitions[0].trigger")),
            // each linked copy completes with succeeded (U2)
            Map.entry("ue58_multiple_same_linked_asset", List.of("W1 Root/LinkedA transitions[0].trigger",
                    "W1 Root/LinkedB transitions[0].trigger", "W1 Root/LinkedC transitions[0].trigger")),
            // Linked completes with failed through SubLinkedState's @failed (U2)
            Map.entry("ue58_subtree_cascaded_succeeded", List.of("W1 Root/Linked transitions[0].trigger")),
            // one Tag is enough: A -> B fires at tick 3 (U4)
            Map.entry("ue58_transition_delay", List.of("W4 Root/A transitions[0].delay",
                    "W4 Root/B transitions[1].delay")),
            // one Go arms A -> B, which fires at tick 4 (U4)
            Map.entry("unreal_delayed_event", List.of("W4 Root/A transitions[0].delay")),
            // Run completes with failed at tick 4 through Work's @failed (U2)
            Map.entry("unreal_linked_completes", List.of("W1 Root/Run transitions[1].trigger")),
            // the task-less path succeeds at every tick (U6)
            Map.entry("unreal_no_tasks", List.of("W1 Root/A transitions[0].trigger",
                    "W1 Root/B transitions[1].trigger")));

    @Test
    void goldenCasesAndExamplesHaveOnlyTheWarningsTheyWarrant() throws Exception {
        Map<String, List<String>> actual = new TreeMap<>();
        int compiled = 0;
        for (Path c : GoldenTraceTest.cases()) {
            if (Files.isRegularFile(c.resolve("expected.error"))) {
                continue;
            }
            CompiledStateTree t = StateTreeJson.compile(c.resolve("tree.json"), TestNodes.compiler());
            compiled++;
            List<String> ws = new ArrayList<>();
            for (CompileWarning w : t.warnings) {
                ws.add(w.id() + " " + w.statePath() + " " + w.field());
                assertTrue(w.toString().startsWith(c.resolve("tree.json") + ": "), w.toString());
            }
            if (!ws.isEmpty()) {
                actual.put(c.getFileName().toString(), ws);
            }
        }
        assertTrue(compiled > 50, compiled + " cases");
        Map<String, List<String>> expected = new TreeMap<>(EXPECTED);
        expected.putAll(WRONG_UNDER_UNREAL_5_8);
        assertEquals(expected, actual);
    }
}
