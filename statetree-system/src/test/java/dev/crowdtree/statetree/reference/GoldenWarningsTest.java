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
            // its scenario never sends Ping (the transition shows that an enabled one on the root stays)
            Map.entry("enabled_flags", List.of("W5 Root transitions[0].event")),
            // the 'note' field no transition declares is dropped on send (rule E4)
            Map.entry("event_payload", List.of("W3 Root/Dismiss tasks[0].payload.note")),
            // B1 shows what B's own selection would pick, which never runs: B is entered on the way to
            // B2, or on H's remembered path to B2 (rule Y4)
            Map.entry("hist_deep_enter_conditions", List.of("W2 Root/H/B/B1 null")),
            // Unreal's test sends Tag1 only: A and D, which require Tag2, are never selected (rule V1)
            Map.entry("ue58_state_requiring_event", List.of("W5 Root/A requiredEvent.tag", "W5 Root/D requiredEvent.tag")),
            // seed twins of unreal_* cases: under the seed's rules a terminal transition in the subtree
            // finishes the tree, so Run never fails (U2's seed half) ...
            Map.entry("unreal_linked_completes_seed", List.of("W1 Root/Run transitions[1].trigger")),
            // ... and a path without tasks never completes (U6's seed half)
            Map.entry("unreal_no_tasks_seed", List.of("W1 Root/A transitions[0].trigger",
                    "W1 Root/B transitions[1].trigger")));

    @Test
    void goldenCasesAndExamplesHaveOnlyTheWarningsTheyWarrant() throws Exception {
        Map<String, List<String>> actual = new TreeMap<>();
        int compiled = 0;
        for (Path c : GoldenTraceTest.cases()) {
            if (Files.isRegularFile(c.resolve("expected.error"))) {
                continue;
            }
            // as trace does: the scenario's events are the host's (warning W5)
            Path scenario = c.resolve("scenario.json");
            List<String> sent = Files.isRegularFile(scenario) ? Scenario.load(scenario).eventTags() : List.of();
            CompiledStateTree t = StateTreeJson.compile(c.resolve("tree.json"), TestNodes.compiler().withHostEvents(sent));
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
        assertEquals(expected, actual);
    }
}
