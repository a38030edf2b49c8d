package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Linked assets beyond the golden cases: text without a file, evaluators or global tasks in an
 * included asset, one subtree per file.
 */
class LinkedAssetTest {
    @TempDir
    Path dir;

    private static final String MAIN = "{\"name\": \"Main\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"A\", \"type\": \"linkedAsset\", \"asset\": \"part.json\"},"
            + "{\"name\": \"B\", \"type\": \"linkedAsset\", \"asset\": \"./part.json\"}]}}";

    @Test
    void aFileLinkedTwiceIsOneSubtreeWithACopyPerLinkingState() throws Exception {
        Files.writeString(dir.resolve("main.json"), MAIN);
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"root\": {\"name\": \"Root\","
                + " \"tasks\": [{\"type\": \"run\"}]}}");
        CompiledStateTree t = StateTreeJson.compile(dir.resolve("main.json"), StateTreeCompiler.withBuiltins());
        assertEquals(0, t.stateByPath("Root"));
        assertTrue(t.stateByPath("Root/A/Part") > 0 && t.stateByPath("Root/B/Part") > 0);
        assertEquals(1, StateTreeJson.read(dir.resolve("main.json")).subtrees().size());
    }

    /** Warning W5: the events a linked asset's host sends are the including tree's too (its agents are). */
    @Test
    void aLinkedAssetsHostEventsAddToTheIncludingTrees() throws Exception {
        Files.writeString(dir.resolve("main.json"), MAIN.replace("{\"name\": \"Main\",",
                "{\"name\": \"Main\", \"hostEvents\": [\"Go\"],"));
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"hostEvents\": [\"Quit\", \"Go\"],"
                + " \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}],"
                + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Quit\", \"to\": \"@succeeded\"}]}}");
        assertEquals(java.util.List.of("Go", "Quit"), StateTreeJson.read(dir.resolve("main.json")).hostEvents());
        // no W5 on the asset's Quit (MAIN's B, after the always selected A, gets its W2)
        assertEquals(java.util.List.of("W2"), StateTreeJson.compile(dir.resolve("main.json"),
                StateTreeCompiler.withBuiltins()).warnings.stream().map(w -> w.id()).toList());
    }

    /**
     * Issue 23, defect 7: containment was checked on the path's text, so a link inside the directory
     * to a file outside it was read (its strings appeared in errors). Links are resolved first.
     */
    @Test
    void aSymbolicLinkToAFileOutsideTheDirectoryIsNotRead(@TempDir Path outside) throws Exception {
        Path inner = Files.createDirectory(dir.resolve("assets"));
        Files.writeString(inner.resolve("main.json"), MAIN);
        Path secret = Files.writeString(outside.resolve("secret.json"), "{\"name\": \"TOPSECRET\", \"root\": 7}");
        try {
            Files.createSymbolicLink(inner.resolve("part.json"), secret);
        } catch (UnsupportedOperationException | java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no symbolic links here: " + e);
        }
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(inner.resolve("main.json"), StateTreeCompiler.withBuiltins()));
        assertTrue(e.getMessage().contains("linked asset \"part.json\" is a symbolic link to a file outside the directory "
                + "of main.json"), e.getMessage());
        assertFalse(e.getMessage().contains("TOPSECRET"), e.getMessage());
        // a link that stays inside the directory is followed
        Files.delete(inner.resolve("part.json"));
        Files.writeString(inner.resolve("real.json"), "{\"name\": \"Part\", \"root\": {\"name\": \"Root\","
                + " \"tasks\": [{\"type\": \"run\"}]}}");
        Files.createSymbolicLink(inner.resolve("part.json"), inner.resolve("real.json"));
        assertTrue(StateTreeJson.compile(inner.resolve("main.json"), StateTreeCompiler.withBuiltins())
                .stateByPath("Root/A/Part") > 0);
    }

    @Test
    void anAssetGivenAsTextCannotLinkAFile() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("main.json", MAIN, StateTreeCompiler.withBuiltins()));
        assertTrue(e.getMessage().contains("this asset was not read from a file"), e.getMessage());
    }

    @Test
    void anIncludedAssetMayNotDeclareEvaluators() throws Exception {
        Files.writeString(dir.resolve("main.json"), MAIN);
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"evaluators\": [{\"type\": \"time\"}],"
                + " \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}]}}");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(dir.resolve("main.json"), StateTreeCompiler.withBuiltins()));
        assertTrue(e.getMessage().contains("linked asset \"part.json\" declares evaluators"), e.getMessage());
    }

    @Test
    void anIncludedAssetMayNotDeclareGlobalTasks() throws Exception {
        Files.writeString(dir.resolve("main.json"), MAIN);
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"globalTasks\": [{\"type\": \"delay\","
                + " \"duration\": 5}], \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}]}}");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(dir.resolve("main.json"), StateTreeCompiler.withBuiltins()));
        // reported at each state linking it, naming the including file, the state, the field and the asset
        assertEquals(2, e.errors().size(), e.getMessage());
        assertTrue(e.getMessage().contains(dir.resolve("main.json") + ": state 'Root/A': asset: linked asset \"part.json\""
                + " declares globalTasks; a linked asset cannot have its own"), e.getMessage());
        assertTrue(e.getMessage().contains("state 'Root/B': asset: linked asset \"./part.json\" declares globalTasks"),
                e.getMessage());
    }

    @Test
    void errorsInsideAnIncludedAssetNameItsFile() throws Exception {
        Files.writeString(dir.resolve("main.json"), MAIN);
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"root\": {\"name\": \"Root\", \"bogus\": 1}}");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(dir.resolve("main.json"), StateTreeCompiler.withBuiltins()));
        assertTrue(e.getMessage().contains(dir.resolve("part.json").toString() + ": state 'Root': bogus"), e.getMessage());
    }

    /** The main asset {@code main} linking {@code part.json} with text {@code part}, compiled. */
    private CompiledStateTree compile(String main, String part) throws Exception {
        Files.writeString(dir.resolve("main.json"), main);
        Files.writeString(dir.resolve("part.json"), part);
        return StateTreeJson.compile(dir.resolve("main.json"), StateTreeCompiler.withBuiltins());
    }

    @Test
    void anIncludedAssetsRootMayItselfLink() throws Exception {
        // Unreal chains the frames: the included asset's root stays linked, and runs what it links below it
        Files.writeString(dir.resolve("third.json"), "{\"name\": \"Third\", \"root\": {\"name\": \"T\","
                + " \"tasks\": [{\"type\": \"run\"}]}}");
        String linksAnAsset = "{\"name\": \"Part\", \"root\": {\"name\": \"R\", \"type\": \"linkedAsset\","
                + " \"asset\": \"third.json\"}}";
        String linksItsSubtree = "{\"name\": \"Part\", \"root\": {\"name\": \"R\", \"type\": \"linked\","
                + " \"linkedSubtree\": \"S\"}, \"subtrees\": [{\"name\": \"S\", \"type\": \"subtree\", \"tasks\":"
                + " [{\"type\": \"run\"}]}]}";
        for (String[] c : new String[][] {{linksAnAsset, "Root/A/Part/Third"}, {linksItsSubtree, "Root/A/Part/S"}}) {
            CompiledStateTree t = compile(MAIN, c[0]);
            int leaf = -1;
            for (int st = 0; st < t.stateCount; st++) {
                leaf = t.statePath(st).equals(c[1]) ? st : leaf;
            }
            assertTrue(leaf >= 0, c[1] + " in " + c[0]);
            assertEquals(CompiledStateTree.LINKED, t.stateType(t.stateParent(leaf)), "the included asset's root links");
            assertEquals(1, t.stateTasksNum(leaf), "the linked root's target runs below it");
        }
    }

    @Test
    void anIncludedAssetIsScannedAsTheIncludingTreeAndKeepsItsRootsComposite() throws Exception {
        String rootFirst = MAIN.replace("{\"name\": \"Main\",", "{\"name\": \"Main\", \"transitionScan\": \"rootFirst\",");
        String leaf = "\"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}]}}";
        // no transitionScan of its own: it takes the including tree's; the same as the including tree's: accepted
        assertTrue(compile(rootFirst, "{\"name\": \"Part\", " + leaf).scanRules.rootFirst);
        assertTrue(compile(rootFirst, "{\"name\": \"Part\", \"transitionScan\": \"rootFirst\", " + leaf).scanRules.rootFirst);
        // a composite at the asset's root stays one in the subtree it becomes
        CompiledStateTree t = compile(MAIN, "{\"name\": \"Part\", \"root\": {\"name\": \"Root\","
                + " \"composite\": \"sequence\", \"children\": [{\"name\": \"X\", \"tasks\": [{\"type\": \"run\"}]},"
                + " {\"name\": \"Y\", \"tasks\": [{\"type\": \"run\"}]}]}}");
        assertTrue(t.scanRules.isSequence(t.stateByPath("Root/A/Part")));
        assertTrue(t.scanRules.isSequence(t.stateByPath("Root/B/Part")));
    }

    @Test
    void anIncludedAssetMayNotBeScannedOtherwiseThanTheIncludingTree() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> compile(MAIN,
                "{\"name\": \"Part\", \"transitionScan\": \"rootFirst\", \"root\": {\"name\": \"Root\","
                        + " \"tasks\": [{\"type\": \"run\"}]}}"));
        assertTrue(e.getMessage().contains("state 'Root/A': asset: linked asset \"part.json\" declares \"transitionScan\":"
                + " \"rootFirst\" but the including tree's is \"leafFirst\"; the scan order is the whole tree's"), e.getMessage());
    }

    /** {@link #MAIN} with {@code "rules": <rules>} (a JSON value), or as it is for null. */
    private static String mainUnder(String rules) {
        return rules == null ? MAIN : MAIN.replace("{\"name\": \"Main\",", "{\"name\": \"Main\", \"rules\": " + rules + ",");
    }

    /** A one-state asset with {@code "rules": <rules>}, or without the key for null. */
    private static String partUnder(String rules) {
        return "{\"name\": \"Part\", " + (rules == null ? "" : "\"rules\": " + rules + ", ")
                + "\"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}]}}";
    }

    @Test
    void anIncludedAssetFollowsTheIncludingTreesRules() throws Exception {
        // no rules of its own, or the including tree's: accepted, and the whole tree follows the including tree's
        assertTrue(compile(mainUnder("\"unreal-5.8\""), partUnder(null)).unreal.on);
        assertTrue(compile(mainUnder("\"unreal-5.8\""), partUnder("\"unreal-5.8\"")).unreal.on);
        assertFalse(compile(MAIN, partUnder(null)).unreal.on);
        assertFalse(compile(MAIN, partUnder("\"seed\"")).unreal.on, "the default said out loud");
        assertFalse(compile(mainUnder("\"seed\""), partUnder("\"seed\"")).unreal.on);
        assertFalse(compile(mainUnder("\"seed\""), partUnder(null)).unreal.on);
    }

    @Test
    void anIncludedAssetMayNotDeclareOtherRules() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> compile(MAIN, partUnder("\"unreal-5.8\"")));
        // at each state linking it, naming the field that links it
        assertEquals(2, e.errors().size(), e.getMessage());
        assertEquals("Root/A", e.errors().get(0).statePath());
        assertEquals("asset", e.errors().get(0).field());
        assertTrue(e.errors().get(0).message().startsWith("linked asset \"part.json\" declares \"rules\": \"unreal-5.8\""
                + " but the including tree's is \"seed\"; the rule set is the whole tree's"), e.getMessage());
        assertEquals("Root/B", e.errors().get(1).statePath());
        e = assertThrows(StateTreeCompileException.class,
                () -> compile(mainUnder("\"unreal-5.8\""), partUnder("\"seed\"")));
        assertTrue(e.getMessage().contains("state 'Root/A': asset: linked asset \"part.json\" declares \"rules\": \"seed\""
                + " but the including tree's is \"unreal-5.8\""), e.getMessage());
    }

    @Test
    void anIncludedAssetsUnknownRulesAreReportedOnce() {
        // an unknown value in the including tree is the compiler's error (U1), not one per linked asset
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> compile(mainUnder("\"unreal\""), partUnder(null)));
        assertEquals(1, e.errors().size(), e.getMessage());
        assertEquals("rules", e.errors().get(0).field());
        // an unknown value in the included asset differs from the including tree's: at the linking states
        e = assertThrows(StateTreeCompileException.class, () -> compile(MAIN, partUnder("\"unreal\"")));
        assertTrue(e.getMessage().contains("state 'Root/A': asset: linked asset \"part.json\" declares \"rules\":"
                + " \"unreal\""), e.getMessage());
    }

    @Test
    void anIncludedAssetUnderUnrealRulesMayNotHaveWhatTheyRefuse() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> compile(
                mainUnder("\"unreal-5.8\""), "{\"name\": \"Part\", \"root\": {\"name\": \"Root\","
                        + " \"composite\": \"sequence\", \"children\": [{\"name\": \"X\", \"tasks\": [{\"type\": \"run\"}]}]}}"));
        assertTrue(e.getMessage().contains("composite \"sequence\" cannot be used in a tree with \"rules\": \"unreal-5.8\""),
                e.getMessage());
    }
}
