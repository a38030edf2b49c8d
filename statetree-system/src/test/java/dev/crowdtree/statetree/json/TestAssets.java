package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** The valid test assets and a compiler that knows the built-ins plus a task with outputs. */
final class TestAssets {
    /** Every valid asset under src/test/resources/dev/crowdtree/statetree/json. */
    static final List<String> NAMES = List.of("soldier.json", "guard.json", "shopper.json", "listener.json",
            "raider.json");

    private TestAssets() {
    }

    /** Built-ins plus {@code claim}: a task with outputs {@code slotX} (float) and {@code granted} (bool). */
    static NodeRegistry registry() {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.task("claim")
                .input("capacity", ValueType.INT, p -> p.byDefault(1).range(1, 1000))
                .output("slotX", ValueType.FLOAT)
                .output("granted", ValueType.BOOL)
                .factory(c -> new Task(c, false) {
                })
                .build());
        return r;
    }

    static StateTreeCompiler compiler() {
        return new StateTreeCompiler(registry());
    }

    static String text(String name) {
        try (InputStream in = TestAssets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path path(String name) {
        try {
            return Path.of(TestAssets.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
