package dev.crowdtree.statetree.readme;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node examples of docs/guides/node-types.md ("Adding a task") and of the README's tour, verbatim:
 * they compile against the API and do what the guide says (CountTask succeeds after n ticks;
 * TimeoutTask fails when its timer runs out, with the agent asleep meanwhile; DriftTask moves agents
 * along the host's x column). Every Java block of those two documents is checked to be quoted from
 * this file ({@link #theDocumentsJavaBlocksAreQuotedFromThisFile}).
 */
class ReadmeNodesTest {
    public static final class CountTask extends Task {
        private final int n;
        private final int countSlot;

        public CountTask(NodeConfig c) {
            super(c, true);                       // true: this task has a tick
            this.n = c.intValue("n");
            this.countSlot = c.field("count");    // the column the compiler assigned
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.ints(countSlot)[row] = 0;
            return RunStatus.RUNNING;
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            final int[] count = ctx.ints(countSlot);
            for (int i = from; i < to; i++) {
                int r = rows[i];
                if (++count[r] >= n) {
                    ctx.succeed(r);
                }
            }
        }
    }

    public static final class TimeoutTask extends Task {
        private final ValueInput seconds;

        public TimeoutTask(NodeConfig c) {
            super(c, false);                      // no tick: the agent may sleep
            this.seconds = c.input("seconds");
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.startTimer(row, seconds.getFloat(ctx, row));
            return RunStatus.RUNNING;
        }

        @Override
        public void onTimer(NodeContext ctx, int[] rows, int from, int to) {
            for (int i = from; i < to; i++) {
                ctx.fail(rows[i]);                // timed out
            }
        }
    }

    public static final class FleeOnEnterTask extends Task {
        private final int shelter;

        public FleeOnEnterTask(NodeConfig c) {
            super(c, false);
            this.shelter = c.state("to");         // a state index, resolved by the compiler
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.requestTransition(row, shelter, 3); // 3: high
            return RunStatus.RUNNING;
        }
    }

    public static final class DriftTask extends Task {
        private final int x;
        private final int speed;

        public DriftTask(NodeConfig c) {
            super(c, true);
            this.x = c.column("x");               // handles of the declared columns
            this.speed = c.column("speed");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            final float[] xs = ctx.hostFloats(x);  // the table's arrays, bound by the runtime
            final float[] v = ctx.hostFloats(speed);
            final float dt = ctx.dt();
            for (int i = from; i < to; i++) {
                int r = rows[i];
                xs[r] += v[r] * dt;
            }
        }
    }

    /** The documents whose Java blocks are this file's code. */
    private static final List<String> QUOTING = List.of("README.md", "docs/guides/node-types.md");

    @Test
    void theDocumentsJavaBlocksAreQuotedFromThisFile() throws IOException {
        int chunks = ReadmeEmbeddingTest.assertBlocksQuoted(QUOTING, "ReadmeNodesTest.java");
        assertTrue(chunks >= 15, "runs of lines checked: " + chunks);
    }

    private static CompiledStateTree compile(String json) throws Exception {
        Path file = Path.of("my-tree.json"); // as the documents name it: the module's directory, removed below
        Files.writeString(file, json);
        try {
            return compileFile(registry());
        } finally {
            Files.delete(file);
        }
    }

    private static CompiledStateTree compileFile(NodeRegistry registry) throws Exception {
        CompiledStateTree tree = StateTreeJson.compile(Path.of("my-tree.json"), new StateTreeCompiler(registry));
        return tree;
    }

    private static NodeRegistry registry() {
        NodeRegistry registry = BuiltinNodes.registry();
        registry.register(NodeType.task("count")
                .constant("n", ValueType.INT, p -> p.required().range(1, Integer.MAX_VALUE))
                .field("count", ValueType.INT)
                .factory(CountTask::new)
                .build());
        registry.register(NodeType.task("timeout")
                .input("seconds", ValueType.FLOAT, p -> p.required().min(0))
                .timer("remaining", TimerKind.SECONDS)
                .factory(TimeoutTask::new)
                .build());
        registry.register(NodeType.task("fleeOnEnter")
                .state("to", NodeType.Property::required)
                .requestsTransitions()
                .factory(FleeOnEnterTask::new)
                .build());
        registry.register(NodeType.task("drift")
                .reads("speed", HostColumn.Type.FLOAT)
                .writes("x", HostColumn.Type.FLOAT)
                .factory(DriftTask::new)
                .build());
        return registry;
    }

    @Test
    void countTaskSucceedsAfterNTicks() throws Exception {
        CompiledStateTree tree = compile("{\"name\": \"C\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Count\", \"tasks\": [{\"type\": \"count\", \"n\": 3}],"
                + " \"transitions\": [{\"trigger\": \"onStateSucceeded\", \"to\": \"Root/Done\"}]},"
                + "{\"name\": \"Done\", \"tasks\": [{\"type\": \"run\"}]}]}}");
        try (StateTreeRuntime rt = StateTreeSystem.create(tree, 2, 1, 1)) {
            rt.startAll(0);
            for (int k = 1; k <= 3; k++) {
                assertEquals("Root/Count", rt.activePath(0), "tick " + k);
                rt.tickAll(k, 0.1f);
            }
            rt.tickAll(4, 0.1f);
            assertEquals("Root/Done", rt.activePath(0));
        }
    }

    @Test
    void timeoutTaskFailsWhenItsTimerRunsOutAndTheAgentSleepsMeanwhile() throws Exception {
        CompiledStateTree tree = compile("{\"name\": \"T\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Wait\", \"tasks\": [{\"type\": \"timeout\", \"seconds\": 1.0}],"
                + " \"transitions\": [{\"trigger\": \"onStateFailed\", \"to\": \"Root/TimedOut\"}]},"
                + "{\"name\": \"TimedOut\", \"tasks\": [{\"type\": \"run\"}]}]}}");
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 4, 1, 1, 64)) {
            sys.startAll(0);
            // the float countdown 1.0 - 0.1f - 0.1f ... is 0.09999993 after nine steps, -7.4e-8 after ten
            for (int k = 1; k <= 9; k++) {
                sys.tickAll(k, 0.1f);
                assertEquals("Root/Wait", sys.activePath(0), "tick " + k);
                assertEquals(0, sys.awakeLastTick(), "asleep at tick " + k);
            }
            sys.tickAll(10, 0.1f);
            assertEquals(4, sys.awakeLastTick(), "every agent's timer ran out at tick 10");
            assertEquals("Root/TimedOut", sys.activePath(0));
        }
    }

    @Test
    void fleeOnEnterRequestsItsStateWhichTheNextTickEntersOverANormalTransition() throws Exception {
        CompiledStateTree tree = compile("{\"name\": \"F\", \"root\": {\"name\": \"Root\", \"children\": ["
                + "{\"name\": \"Graze\", \"tasks\": [{\"type\": \"fleeOnEnter\", \"to\": \"Root/Shelter\"}],"
                + " \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"Root/Wander\"}]},"
                + "{\"name\": \"Wander\", \"tasks\": [{\"type\": \"run\"}]},"
                + "{\"name\": \"Shelter\", \"tasks\": [{\"type\": \"run\"}]}]}}");
        try (StateTreeSystem sys = StateTreeSystem.standalone(tree, 2, 1, 1, 64)) {
            sys.startAll(0);
            sys.tickAll(1, 0.1f);
            assertEquals("Root/Shelter", sys.activePath(0), "the high request outranks the normal onTick transition");
        }
    }

    @Test
    void driftTaskMovesAgentsAlongTheHostsColumnsOnAnyTableThatHasThem() throws Exception {
        CompiledStateTree tree = compile("{\"name\": \"D\", \"root\": {\"name\": \"Root\","
                + " \"tasks\": [{\"type\": \"drift\"}]}}");
        try (World world = World.builder().workers(1).maxAgents(8).initialCapacity(8).build()) {
            SoaTable agents = world.createTable("agents");
            FloatColumn x = agents.addFloat("x");
            FloatColumn speed = agents.addFloat("speed");
            StateTreeSystem brains = new StateTreeSystem(world, agents, tree);
            for (int i = 0; i < 3; i++) {
                world.commands().spawn(agents, brains.spawnInitializer((t, row, id, arg) -> speed.set(row, id + 1)), 0);
            }
            world.sync();
            brains.setAccessChecks(true);
            brains.startAll(0);
            for (int k = 1; k <= 4; k++) {
                brains.tickAll(k, 0.5f);
            }
            for (int id = 0; id < 3; id++) {
                assertEquals(2f * (id + 1), x.get(world.rowOf(id)), "agent " + id);
            }
        }
    }
}
