package dev.crowdtree.statetree.readme;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.DotWriter;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.json.StateTreeJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java block at the top of docs/ASSET_FORMAT.md (compile, read, write and draw a tree) is this
 * test's code, and does what its comments say.
 */
class AssetFormatSnippetTest {
    @Test
    void theAssetFormatsJavaBlockRunsAsShown() throws Exception {
        Path file = Path.of("villager.json"); // as the document names it: the module's directory, removed below
        Files.writeString(file, "{\"name\": \"Villager\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Work\", \"tasks\": [{\"type\": \"delay\", \"duration\": 2}],"
                + " \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Rest\"}]},"
                + "{\"name\": \"Rest\", \"tasks\": [{\"type\": \"delay\", \"duration\": 1}],"
                + " \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Work\"}]}]}}");
        try {
            CompiledStateTree tree = StateTreeJson.compile(Path.of("villager.json"), StateTreeCompiler.withBuiltins());
            TreeDef def = StateTreeJson.read(Path.of("villager.json"));   // authoring model, not compiled
            String json = StateTreeJson.write(def);                       // back to JSON (pretty printed)
            String dot  = DotWriter.toDot(tree);                          // Graphviz picture of the compiled tree
            assertEquals(3, tree.stateCount);
            assertEquals(json, StateTreeJson.write(StateTreeJson.read("villager.json", json)), "read again, the same JSON");
            assertTrue(json.contains("\n"), "pretty printed");
            assertTrue(dot.startsWith("digraph") && dot.contains("Work") && dot.contains("Rest"), dot);
        } finally {
            Files.delete(file);
        }
        int chunks = ReadmeEmbeddingTest.assertBlocksQuoted(List.of("docs/ASSET_FORMAT.md"), "AssetFormatSnippetTest.java");
        assertEquals(1, chunks);
    }
}
