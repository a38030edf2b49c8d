package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompileWarning;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The authoring warnings of every asset in the repository that the reference package's
 * GoldenWarningsTest does not compile (the test assets of this package and the whole assets in the
 * Markdown files: README, the guides in docs/guides and docs/ASSET_FORMAT.md): the documents' assets have none; the test
 * assets only those listed here. The crowd's tree and the embedding example's need their own node
 * types: agents-demo's tests check them.
 */
class AssetWarningsTest {
    /** Places checked by other tests: golden cases and examples, and trees of other modules' node types. */
    private static final List<String> ELSEWHERE = List.of("statetree-system/src/test/resources/golden/", "examples/",
            "agents-demo/");
    private static final String TEST_ASSETS = "statetree-system/src/test/resources/dev/crowdtree/statetree/json/";

    /** Asset -> its warnings as {@code <id> <state path> <field>}. */
    private static final Map<String, List<String>> EXPECTED = Map.of(
            // Count's only task is a delay, which never fails
            TEST_ASSETS + "shopper.json", List.of("W1 Root/Shop/Buy/Pay/Count transitions[0].trigger"),
            // the loader's everything-asset: a delayed onEvent, a Fight that never fails, and Calm's
            // tryEnterState never selects Idle
            TEST_ASSETS + "soldier.json", List.of("W4 Root transitions[1].delay", "W1 Root/Danger/Fight transitions[1].trigger",
                    "W2 Root/Calm/Idle null"));

    @Test
    void everyOtherAssetHasOnlyTheWarningsItWarrants() throws Exception {
        AssetSchemaTest.loadSchema();
        Map<String, List<String>> actual = new TreeMap<>();
        int compiled = 0;
        for (AssetSchemaTest.Asset a : AssetSchemaTest.assets()) {
            if (ELSEWHERE.stream().anyMatch(a.where()::startsWith)) {
                continue;
            }
            CompiledStateTree t = StateTreeJson.compile(a.where(), a.text(), TestAssets.compiler());
            compiled++;
            List<String> ws = new ArrayList<>();
            for (CompileWarning w : t.warnings) {
                ws.add(w.id() + " " + w.statePath() + " " + w.field());
            }
            if (!ws.isEmpty()) {
                actual.put(a.where(), ws);
            }
        }
        assertTrue(compiled >= 8, compiled + " assets");
        assertEquals(new TreeMap<>(EXPECTED), actual);
    }
}
