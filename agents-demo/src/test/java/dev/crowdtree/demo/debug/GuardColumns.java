package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crowdtree.demo.testing.NodeJars;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import dev.crowdtree.statetree.nodes.NodeProviders;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A scenario whose tree reads and writes host columns, for the debugger's column views: the
 * embedding example's guards (examples/embedding: its node types compiled from the example's
 * sources by {@link NodeJars#guardClasses}, its tree {@code guards.json} with a parameter
 * {@code shift} added, {@code agent % 3}), {@value #AGENTS} guards for {@value #TICKS} ticks.
 * Host column {@code distance} (1000 unless set; only the scenario writes it) is set by {@link #SETS};
 * {@code x} and {@code y} are written by the guards' tasks.
 */
final class GuardColumns implements AutoCloseable {
    static final int AGENTS = 20;
    static final int TICKS = 16;
    static final String DISTANCE = "distance";
    /** The scenario's settings of {@code distance}: {tick, agent, value}. */
    static final double[][] SETS = {
            {2, 0, 12.5},
            {3, 1, 5},
            {4, 3, 5}, {4, 5, 5}, {4, 7, 5}, {4, 9, 5}, {4, 11, 5}, {4, 13, 5}, {4, 15, 5},
            {6, 3, 15},
            {8, 3, 15},
            {10, 3, 14.5},
            {12, 5, 15}, {12, 17, 1},
    };

    final Path scenario;
    private final NodeProviders.Loaded nodes;

    private GuardColumns(Path scenario, NodeProviders.Loaded nodes) {
        this.scenario = scenario;
        this.nodes = nodes;
    }

    /** Compiles the guards' node types and writes the tree and the scenario into {@code dir}. */
    static GuardColumns create(Path dir) throws Exception {
        Path classes = NodeJars.guardClasses(dir);
        NodeProviders.Loaded nodes = NodeProviders.load(BuiltinNodes.registry(), java.util.List.of(classes),
                GuardColumns.class.getClassLoader());
        ObjectMapper json = new ObjectMapper();
        ObjectNode tree = (ObjectNode) json.readTree(NodeJars.GUARDS_TREE.toFile());
        tree.putObject("parameters").putObject("shift").put("type", "int").put("default", 0);
        Files.writeString(dir.resolve("guards.json"), json.writeValueAsString(tree));
        ObjectNode s = json.createObjectNode();
        s.put("tree", "guards.json").put("dt", 0.1).put("ticks", TICKS).put("agents", AGENTS).put("seed", 3);
        ArrayNode inputs = s.putArray("inputs");
        for (int a = 0; a < AGENTS; a++) {
            ObjectNode in = inputs.addObject().put("tick", 0).put("agent", a);
            in.putObject("set").put("shift", a % 3);
        }
        for (double[] set : SETS) {
            inputs.addObject().put("tick", (int) set[0]).put("agent", (int) set[1]).put("column", DISTANCE)
                    .put("value", set[2]);
        }
        Path scenario = dir.resolve("scenario.json");
        Files.writeString(scenario, json.writerWithDefaultPrettyPrinter().writeValueAsString(s));
        return new GuardColumns(scenario, nodes);
    }

    /** The built-in node types and the guards'. */
    NodeRegistry registry() {
        return nodes.registry();
    }

    @Override
    public void close() throws IOException {
        nodes.close();
    }
}
