package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transition requests from a user's task (docs/SEMANTICS.md section 21, rules O1-O4): a request made
 * in EnterState waits, the agent awake, for the next tick's scan (O3), in a snapshot too; a task
 * type that requests without declaring it fails with a message that says how to declare it.
 */
class TransitionRequestTest {
    /** {@code askOnEnter}: on enter, requests state {@code to} at normal priority. */
    static final class AskOnEnter extends Task {
        private final int target;

        AskOnEnter(NodeConfig c) {
            super(c, false);
            target = c.state("to");
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.requestTransition(row, target, 1);
            return RunStatus.RUNNING;
        }
    }

    /** {@code askOnExit}: on exit, requests state {@code to} at normal priority. */
    static final class AskOnExit extends Task {
        private final int target;

        AskOnExit(NodeConfig c) {
            super(c, false);
            target = c.state("to");
        }

        @Override
        public void exitState(NodeContext ctx, int row) {
            ctx.requestTransition(row, target, 1);
        }
    }

    /**
     * A request made in ExitState keeps its task's state as its source in both runtimes: under
     * {@code unreal-5.8}, X's task requests C as X is left for B, B succeeds on enter, and the next
     * round's scan drops the request (X is below the completed B, rule U3), so the tree restarts
     * into P/X; under {@code seed} the request fires.
     */
    @Test
    void aRequestMadeOnExitKeepsItsSourceInBothRuntimes() throws Exception {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.task("askOnExit").state("to", NodeType.Property::required).requestsTransitions()
                .factory(AskOnExit::new).build());
        for (String rules : java.util.List.of("unreal-5.8", "seed")) {
            CompiledStateTree t = StateTreeJson.compile("exit.json", "{\"name\": \"Exit\", \"rules\": \"" + rules
                    + "\", \"root\": {\"name\": \"Root\", \"children\": ["
                    + "{\"name\": \"P\", \"children\": [{\"name\": \"X\", \"tasks\": [{\"type\": \"askOnExit\","
                    + " \"to\": \"Root/C\"}, {\"type\": \"run\"}], \"transitions\": [{\"trigger\": \"onTick\", \"to\": \"Root/B\"}]}]},"
                    + "{\"name\": \"B\", \"tasks\": [{\"type\": \"succeed\", \"onEnter\": true}]},"
                    + "{\"name\": \"C\", \"tasks\": [{\"type\": \"run\"}]}]}}", new StateTreeCompiler(r));
            int expected = t.stateByPath(rules.equals("seed") ? "Root/C" : "Root/P/X");
            for (Supplier<StateTreeRuntime> make : java.util.List.<Supplier<StateTreeRuntime>>of(
                    () -> new ReferenceInterpreter(t, 2, 1),
                    () -> StateTreeSystem.standalone(t, 2, 1, 1, 64))) {
                try (StateTreeRuntime rt = make.get()) {
                    rt.startAll(0);
                    rt.tickAll(1, 0.1f);
                    assertEquals(expected, rt.activeState(0), rules + " on " + rt.getClass().getSimpleName());
                }
            }
        }
    }

    private static final String TREE = "{\"name\": \"Ask\", \"root\": {\"name\": \"Root\", \"children\": ["
            + "{\"name\": \"A\", \"tasks\": [{\"type\": \"askOnEnter\", \"to\": \"@next\"}, {\"type\": \"delay\", \"duration\": 5}]},"
            + "{\"name\": \"B\", \"tasks\": [{\"type\": \"run\"}]}]}}";

    private static CompiledStateTree compile(boolean declared) throws StateTreeCompileException {
        NodeRegistry r = BuiltinNodes.registry();
        NodeType.Builder b = NodeType.task("askOnEnter").state("to", NodeType.Property::required);
        if (declared) {
            b.requestsTransitions();
        }
        r.register(b.factory(AskOnEnter::new).build());
        return StateTreeJson.compile("ask.json", TREE, new StateTreeCompiler(r));
    }

    @Test
    void aRequestMadeOnEnterFiresAtTheNextTickAndSurvivesASnapshot() throws Exception {
        CompiledStateTree t = compile(true);
        int a = t.stateByPath("Root/A");
        int b = t.stateByPath("Root/B");
        for (Supplier<StateTreeRuntime> make : java.util.List.<Supplier<StateTreeRuntime>>of(
                () -> new ReferenceInterpreter(t, 3, 1),
                () -> StateTreeSystem.standalone(t, 3, 1, 1, 64))) {
            byte[] snap;
            try (StateTreeRuntime rt = make.get()) {
                rt.startAll(0);
                assertEquals(a, rt.activeState(0), "the request waits for the next scan");
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                rt.snapshot(out);
                snap = out.toByteArray();
                rt.tickAll(1, 0.1f);
                assertEquals(b, rt.activeState(0), "taken by the next tick's scan (the delay would sleep until 5 s)");
            }
            try (StateTreeRuntime rt = make.get()) {
                rt.restore(new ByteArrayInputStream(snap));
                assertEquals(a, rt.activeState(2));
                rt.tickAll(1, 0.1f);
                assertEquals(b, rt.activeState(2), "the snapshot kept the request");
            }
        }
    }

    @Test
    void aTaskThatRequestsWithoutDeclaringItFailsItsAgentWithTheFix() throws Exception {
        CompiledStateTree t = compile(false);
        assertTrue(!t.requestsTransitions);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            try (StateTreeRuntime rt = new ReferenceInterpreter(t, 1, 1)) {
                rt.setNodeErrorPolicy(NodeErrorPolicy.FAIL);
                rt.startAll(0);
            }
        });
        assertTrue(e.getMessage().contains("NodeType.Builder.requestsTransitions()"), e.getMessage());
    }
}
