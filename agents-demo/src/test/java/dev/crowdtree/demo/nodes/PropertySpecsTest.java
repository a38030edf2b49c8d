package dev.crowdtree.demo.nodes;

import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.PropertySpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The property schema of every node type in {@link DemoNodes#registry()}, the built-ins and the
 * crowd's, pinned: kind, value type, required, default (and its Java class), min, max, choices and
 * typeFrom of each property, as {@code property-specs.txt} records them. A change to how node types
 * are declared must not change what they accept.
 */
class PropertySpecsTest {
    @Test
    void everyPropertyIsAsPinned() throws IOException {
        StringBuilder actual = new StringBuilder();
        for (NodeType t : DemoNodes.registry().types().values()) {
            actual.append(t.category().word()).append(' ').append(t.name()).append('\n');
            for (PropertySpec p : t.properties().values()) {
                actual.append("  ").append(p);
                if (p.defaultValue() != null) {
                    actual.append(" default:").append(p.defaultValue().getClass().getSimpleName());
                }
                actual.append('\n');
            }
        }
        try (InputStream in = getClass().getResourceAsStream("property-specs.txt")) {
            String expected = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expected, actual.toString());
        }
    }
}
