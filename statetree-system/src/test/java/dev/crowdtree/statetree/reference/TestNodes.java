package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.NodeConfig;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Node types for tests, on top of the built-ins:
 * <ul>
 *   <li>{@code counted} condition: returns its constant {@code value} and counts its evaluations
 *       per node name in {@link #EVALUATIONS} (to prove a condition was, or was not, evaluated);</li>
 *   <li>{@code tickSend} task: sends event {@code tag} to itself on every tick;</li>
 *   <li>{@code evalSend} evaluator: sends event {@code tag} to itself on every tick, the one at the
 *       start included (an evaluator whose work shows in a trace, for the enabled flags);</li>
 *   <li>{@code tickSendNext} task: sends event {@code tag} to agent {@code (id + 1) % agents} on every tick;</li>
 *   <li>{@code exitSend} task: sends event {@code tag} to itself from ExitState;</li>
 *   <li>{@code counter} task: output {@code count} (int), {@code start} on enter (default 0) and one
 *       more at each of its ticks (a task with an output for the binding rules, which built-in tasks
 *       lack; golden trees may use it);</li>
 *   <li>{@code tickSendEntity} task: sends event {@code tag} on every tick to the agent the entity
 *       parameter {@code target} names (a stale handle: dropped and counted);</li>
 *   <li>{@code boomTask}: throws from {@code in}
 *       ({@code enter}, {@code tick} or {@code exit}) for a row whose {@code armed} input is true
 *       (an exception, or with {@code "error": "stackOverflow"} a real stack overflow)
 *       (the fault isolation rules R1-R4); {@code boomCondition} throws when {@code armed}, else
 *       passes.</li>
 * </ul>
 */
final class TestNodes {
    /** Evaluations of {@code counted} conditions by node name. */
    static final Map<String, AtomicInteger> EVALUATIONS = new ConcurrentHashMap<>();

    private TestNodes() {
    }

    static NodeRegistry registry() {
        NodeRegistry r = BuiltinNodes.registry();
        r.register(NodeType.condition("counted")
                .constant("value", ValueType.BOOL, NodeType.Property::required)
                .factory(CountedCondition::new).build());
        r.register(NodeType.task("tickSend").tag("tag", NodeType.Property::required)
                .factory(TickSendTask::new).build());
        r.register(NodeType.task("tickSendNext").tag("tag", NodeType.Property::required)
                .constant("agents", ValueType.INT, p -> p.required().range(1, Integer.MAX_VALUE))
                .factory(TickSendNextTask::new).build());
        r.register(NodeType.evaluator("evalSend").tag("tag", NodeType.Property::required)
                .factory(EvalSendEvaluator::new).build());
        r.register(NodeType.task("exitSend").tag("tag", NodeType.Property::required)
                .factory(ExitSendTask::new).build());
        r.register(NodeType.task("boomTask")
                .choice("in", List.of("enter", "tick", "exit"), NodeType.Property::required)
                .choice("error", List.of("exception", "stackOverflow"), p -> p.byDefault("exception"))
                .input("armed", ValueType.BOOL, p -> p.byDefault(true)).factory(BoomTask::new).build());
        r.register(NodeType.condition("boomCondition").input("armed", ValueType.BOOL, p -> p.byDefault(true))
                .factory(BoomCondition::new).build());
        r.register(NodeType.task("tickSendEntity")
                .tag("tag", NodeType.Property::required).param("target", NodeType.Property::required)
                .factory(TickSendEntityTask::new).build());
        r.register(NodeType.task("counter")
                .input("start", ValueType.INT, p -> p.byDefault(0).range(Integer.MIN_VALUE, Integer.MAX_VALUE))
                .output("count", ValueType.INT).factory(CounterTask::new).build());
        // Unreal's FTestTask_Stand: completes with tickResult on its ticksToCompletion-th tick (or with
        // enterResult on enter); its output counts the ticks it got
        r.register(NodeType.task("stand")
                .constant("ticksToCompletion", ValueType.INT, p -> p.byDefault(1).range(1, Integer.MAX_VALUE))
                .choice("tickResult", List.of("succeeded", "failed"), p -> p.byDefault("succeeded"))
                .choice("enterResult", List.of("running", "succeeded", "failed"), p -> p.byDefault("running"))
                .output("ticks", ValueType.INT).factory(StandTask::new).build());
        return r;
    }

    static StateTreeCompiler compiler() {
        return new StateTreeCompiler(registry());
    }

    static CompiledStateTree compile(TreeDef def) {
        try {
            return compiler().compile(def);
        } catch (StateTreeCompileException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * Runs an inline scenario (no {@code tree} field) on the reference interpreter and returns its
     * trace, after checking that every runtime of {@link GoldenTraceTest#RUNTIMES} produces the same.
     */
    static List<String> run(CompiledStateTree tree, String scenarioJson) {
        List<String> reference = run(tree, scenarioJson, ScenarioRunner.REFERENCE);
        for (GoldenTraceTest.NamedRuntime r : GoldenTraceTest.RUNTIMES) {
            List<String> other = run(tree, scenarioJson, r.factory());
            if (!other.equals(reference)) {
                throw new AssertionError("runtime " + r.name() + " disagrees with the reference:\n"
                        + GoldenTraceTest.unifiedDiff("reference", r.name(), reference, other));
            }
        }
        return reference;
    }

    static List<String> run(CompiledStateTree tree, String scenarioJson, RuntimeFactory factory) {
        try {
            return ScenarioRunner.run(Scenario.parse(scenarioJson, "<test>", null), tree, factory);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    static int evaluations(String conditionName) {
        AtomicInteger n = EVALUATIONS.get(conditionName);
        return n == null ? 0 : n.get();
    }

    static final class CountedCondition extends Condition {
        private final boolean value;

        CountedCondition(NodeConfig c) {
            super(c);
            this.value = c.bool("value");
        }

        @Override
        public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
            EVALUATIONS.computeIfAbsent(name(), k -> new AtomicInteger()).addAndGet(to - from);
            for (int i = from; i < to; i++) {
                out[i] = value;
            }
        }
    }

    static final class TickSendTask extends Task {
        private final int tag;

        TickSendTask(NodeConfig c) {
            super(c, true);
            this.tag = c.tag("tag");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            sendToSelf(ctx, rows, from, to, tag);
        }
    }

    /** Sends event {@code tag} from each agent of {@code rows[from .. to-1]} to itself. */
    private static void sendToSelf(NodeContext ctx, int[] rows, int from, int to, int tag) {
        for (int i = from; i < to; i++) {
            ctx.sendEvent(rows[i], tag, 0f, false);
        }
    }

    static final class EvalSendEvaluator extends Evaluator {
        private final int tag;

        EvalSendEvaluator(NodeConfig c) {
            super(c);
            this.tag = c.tag("tag");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            sendToSelf(ctx, rows, from, to, tag);
        }
    }

    static final class TickSendNextTask extends Task {
        private final int tag;
        private final int agents;

        TickSendNextTask(NodeConfig c) {
            super(c, true);
            this.tag = c.tag("tag");
            this.agents = c.intValue("agents");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            for (int i = from; i < to; i++) {
                ctx.sendEventToAgent((ctx.agentId(rows[i]) + 1) % agents, tag, 0f, false);
            }
        }
    }

    /** Sends {@code tag} every tick to the agent the entity parameter {@code target} names. */
    static final class TickSendEntityTask extends Task {
        private final int tag;
        private final dev.crowdtree.statetree.node.ParamRef target;

        TickSendEntityTask(NodeConfig c) {
            super(c, true);
            this.tag = c.tag("tag");
            this.target = c.param("target");
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            for (int i = from; i < to; i++) {
                ctx.sendEventToEntity(target, rows[i], tag, null);
            }
        }
    }

    /** Throws from EnterState, tick or ExitState for armed rows. */
    static final class BoomTask extends Task {
        private final String in;
        private final boolean overflow;
        private final ValueInput armed;

        BoomTask(NodeConfig c) {
            super(c, "tick".equals(c.string("in")));
            this.in = c.string("in");
            this.overflow = "stackOverflow".equals(c.string("error"));
            this.armed = c.input("armed");
        }

        private void maybeThrow(NodeContext ctx, int row, String where) {
            if (in.equals(where) && armed.getBool(ctx, row)) {
                if (overflow) {
                    recurse(row);
                }
                throw new IllegalStateException("boom in " + where + " of agent " + ctx.agentId(row));
            }
        }

        /** Recurses until the thread's stack overflows. */
        private static int recurse(int depth) {
            return recurse(depth + 1) + 1;
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            maybeThrow(ctx, row, "enter");
            return RunStatus.RUNNING;
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            for (int i = from; i < to; i++) {
                maybeThrow(ctx, rows[i], "tick");
            }
        }

        @Override
        public void exitState(NodeContext ctx, int row) {
            maybeThrow(ctx, row, "exit");
        }
    }

    /** Throws for armed rows, else passes. */
    static final class BoomCondition extends Condition {
        private final ValueInput armed;

        BoomCondition(NodeConfig c) {
            super(c);
            this.armed = c.input("armed");
        }

        @Override
        public void test(NodeContext ctx, int[] rows, int from, int to, boolean[] out) {
            for (int i = from; i < to; i++) {
                if (armed.getBool(ctx, rows[i])) {
                    throw new IllegalStateException("boom in a condition of agent " + ctx.agentId(rows[i]));
                }
                out[i] = true;
            }
        }
    }

    static final class ExitSendTask extends Task {
        private final int tag;

        ExitSendTask(NodeConfig c) {
            super(c, false);
            this.tag = c.tag("tag");
        }

        @Override
        public void exitState(NodeContext ctx, int row) {
            ctx.sendEvent(row, tag, 0f, false);
        }
    }

    /** {@code stand}: see {@link #registry()}. */
    static final class StandTask extends Task {
        private final int ticksToCompletion;
        private final byte tickResult;
        private final byte enterResult;
        private final int ticks;

        StandTask(NodeConfig c) {
            super(c, true);
            this.ticksToCompletion = c.intValue("ticksToCompletion");
            this.tickResult = c.string("tickResult").equals("failed") ? RunStatus.FAILED : RunStatus.SUCCEEDED;
            String enter = c.string("enterResult");
            this.enterResult = enter.equals("failed") ? RunStatus.FAILED
                    : enter.equals("succeeded") ? RunStatus.SUCCEEDED : RunStatus.RUNNING;
            this.ticks = c.field("ticks");
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.ints(ticks)[row] = 0;
            return enterResult;
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            int[] n = ctx.ints(ticks);
            for (int i = from; i < to; i++) {
                int r = rows[i];
                if (++n[r] >= ticksToCompletion) {
                    ctx.complete(r, tickResult);
                }
            }
        }
    }

    static final class CounterTask extends Task {
        private final ValueInput start;
        private final int count;

        CounterTask(NodeConfig c) {
            super(c, true);
            this.start = c.input("start");
            this.count = c.field("count");
        }

        @Override
        public byte enterState(NodeContext ctx, int row) {
            ctx.ints(count)[row] = start.getInt(ctx, row);
            return RunStatus.RUNNING;
        }

        @Override
        public void tick(NodeContext ctx, int[] rows, int from, int to) {
            int[] n = ctx.ints(count);
            for (int i = from; i < to; i++) {
                n[rows[i]]++;
            }
        }
    }
}
