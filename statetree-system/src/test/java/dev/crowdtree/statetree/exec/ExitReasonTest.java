package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.ChangeType;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.nodes.BuiltinNodes;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ExitState gets the reason (docs/SEMANTICS.md section 6): {@code exitStatus()} says whether a tick
 * or event transition (RUNNING), a completion (SUCCEEDED/FAILED) or a stop or despawn (STOPPED)
 * ended the state, alike in both runtimes.
 */
class ExitReasonTest {
    /** {@code probe}: on exit, logs "tick state status change" to the host's list. */
    static final class ProbeTask extends Task {
        private final External<Log> log;

        ProbeTask(NodeConfig c) {
            super(c, false);
            log = c.external("log", Log.class);
        }

        @Override
        public void exitState(NodeContext ctx, int row) {
            ctx.external(log).lines.add(ctx.tick() + " " + ctx.currentState() + " " + RunStatus.name(ctx.exitStatus())
                    + " " + (ctx.changeType() == ChangeType.CHANGED ? "changed" : "sustained"));
        }
    }

    /** The host's log. */
    static final class Log {
        final List<String> lines = new ArrayList<>();
    }

    private static List<String> run(CompiledStateTree t, StateTreeRuntime rt) {
        Log log = new Log();
        try (rt) {
            rt.bindExternal("log", log);
            rt.startAll(0);
            for (int k = 1; k <= 4; k++) {
                if (k == 3) {
                    rt.sendEvent(0, "Go", 0f, false);
                }
                rt.tickAll(k, 0.1f);
            }
            rt.stop(0, 5);
        }
        return log.lines;
    }

    @Test
    void exitStatusSaysWhyTheStateEndedInBothRuntimes() throws Exception {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.task("probe").external("log", Log.class).factory(ProbeTask::new).build());
        CompiledStateTree t = StateTreeJson.compile("exit.json", "{\"name\": \"Exit\", \"root\": {\"name\": \"Root\","
                + " \"children\": ["
                + "{\"name\": \"A\", \"tasks\": [{\"type\": \"probe\"}, {\"type\": \"succeed\", \"afterTicks\": 1}],"
                + " \"transitions\": [{\"trigger\": \"onStateSucceeded\", \"to\": \"B\"}]},"
                + "{\"name\": \"B\", \"tasks\": [{\"type\": \"probe\"}, {\"type\": \"run\"}],"
                + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Go\", \"to\": \"C\"}]},"
                + "{\"name\": \"C\", \"tasks\": [{\"type\": \"probe\"}, {\"type\": \"run\"}]}]}}", new StateTreeCompiler(r));
        List<String> reference = run(t, new ReferenceInterpreter(t, 1, 1));
        List<String> batched = run(t, StateTreeSystem.standalone(t, 1, 1, 1, 64));
        int a = t.stateByPath("Root/A");
        int b = t.stateByPath("Root/B");
        int c = t.stateByPath("Root/C");
        assertEquals(List.of("1 " + a + " succeeded changed", "3 " + b + " running changed", "5 " + c + " stopped changed"),
                reference);
        assertEquals(reference, batched);
    }

    /**
     * Global tasks exit after the states, with the reason the states got (rule G3): a terminal
     * transition's last tick status, the status of the global task that finished the tree, or a stop.
     * Their state is -1.
     */
    @Test
    void globalTasksExitWithTheStatesReasonInBothRuntimes() throws Exception {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.task("probe").external("log", Log.class).factory(ProbeTask::new).build());
        StateTreeCompiler compiler = new StateTreeCompiler(r);
        String root = "\"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"probe\"}],"
                + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Go\", \"to\": \"@succeeded\"}]}";
        Map<String, List<String>> expected = Map.of(
                "[{\"type\": \"probe\"}]", List.of("3 0 running changed", "3 -1 running changed"),
                "[{\"type\": \"probe\"}, {\"type\": \"fail\", \"afterTicks\": 2}]",
                List.of("2 0 failed changed", "2 -1 failed changed"));
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            CompiledStateTree t = StateTreeJson.compile("exit.json", "{\"name\": \"Exit\", \"globalTasks\": " + e.getKey()
                    + ", " + root + "}", compiler);
            List<String> reference = run(t, new ReferenceInterpreter(t, 1, 1));
            assertEquals(e.getValue(), reference, e.getKey());
            assertEquals(reference, run(t, StateTreeSystem.standalone(t, 1, 1, 1, 64)), e.getKey());
        }
        CompiledStateTree stopped = StateTreeJson.compile("exit.json", "{\"name\": \"Exit\", \"globalTasks\":"
                + " [{\"type\": \"probe\"}], \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"probe\"}]}}", compiler);
        List<String> reference = run(stopped, new ReferenceInterpreter(stopped, 1, 1));
        assertEquals(List.of("5 0 stopped changed", "5 -1 stopped changed"), reference);
        assertEquals(reference, run(stopped, StateTreeSystem.standalone(stopped, 1, 1, 1, 64)));
    }
}
