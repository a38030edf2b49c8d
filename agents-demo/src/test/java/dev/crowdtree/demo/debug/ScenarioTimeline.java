package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.Scenario;
import dev.crowdtree.statetree.reference.ScenarioRunner;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a scenario does, computed independently of the debugger: the scenario run once on the
 * reference interpreter ({@link ScenarioRunner#REFERENCE}) through {@link ScenarioRunner}, keeping
 * the canonical trace and, after every tick, each agent's active path, parameter values and host
 * column values (the tree's host columns, {@code CompiledStateTree.hostColumns}).
 */
final class ScenarioTimeline {
    private static final Pattern LINE = Pattern.compile("a(\\d+) (\\d+) (.*)");

    final CompiledStateTree tree;
    final Scenario scenario;
    /** The trace, as {@link ScenarioRunner} writes it (a {@code a<k> } prefix on every line). */
    final List<String> trace = new ArrayList<>();
    private final String[][] paths;      // [tick][agent]
    private final double[][][] params;   // [tick][agent][param]
    private final double[][][] columns;  // [tick][agent][host column]

    private ScenarioTimeline(Scenario scenario, CompiledStateTree tree) {
        this.scenario = scenario;
        this.tree = tree;
        this.paths = new String[scenario.ticks() + 1][];
        this.params = new double[scenario.ticks() + 1][][];
        this.columns = new double[scenario.ticks() + 1][][];
    }

    static ScenarioTimeline run(Path scenarioFile, NodeRegistry registry) throws Exception {
        Scenario s = Scenario.load(scenarioFile);
        CompiledStateTree tree = StateTreeJson.compile(s.resolveTree(), new StateTreeCompiler(registry));
        ScenarioTimeline t = new ScenarioTimeline(s, tree);
        int agents = s.agents();
        int paramCount = tree.paramCount();
        int columnCount = tree.hostColumns.size();
        ScenarioRunner.run(s, tree, StandaloneHost.factory(ScenarioRunner.REFERENCE, registry), t.trace::add,
                (runtime, tick) -> {
                    String[] p = new String[agents];
                    double[][] v = new double[agents][paramCount];
                    double[][] c = new double[agents][columnCount];
                    for (int a = 0; a < agents; a++) {
                        p[a] = runtime.activePath(a);
                        for (int k = 0; k < paramCount; k++) {
                            v[a][k] = runtime.parameter(a, k);
                        }
                        for (int k = 0; k < columnCount; k++) {
                            c[a][k] = runtime.hostValue(a, tree.hostColumns.get(k).name());
                        }
                    }
                    t.paths[tick] = p;
                    t.params[tick] = v;
                    t.columns[tick] = c;
                });
        return t;
    }

    int agents() {
        return scenario.agents();
    }

    int lastTick() {
        return scenario.ticks();
    }

    /** The agent's active path after tick {@code tick}. */
    String path(int tick, int agent) {
        return paths[tick][agent];
    }

    /** The agent's value of parameter {@code name} after tick {@code tick}. */
    double param(int tick, int agent, String name) {
        int k = tree.paramIndex(name);
        if (k < 0) {
            throw new IllegalArgumentException("no parameter " + name);
        }
        return params[tick][agent][k];
    }

    /** The agent's value of host column {@code name} after tick {@code tick}. */
    double column(int tick, int agent, String name) {
        for (int k = 0; k < tree.hostColumns.size(); k++) {
            if (tree.hostColumns.get(k).name().equals(name)) {
                return columns[tick][agent][k];
            }
        }
        throw new IllegalArgumentException("no host column " + name + " in " + tree.hostColumns);
    }

    /** Whether {@code path} is {@code state} or lies below it. */
    static boolean passesThrough(String path, String state) {
        return path.equals(state) || path.startsWith(state + "/");
    }

    /** The agents (ascending) after tick {@code tick} that {@code keep} accepts. */
    List<Integer> agentsAt(IntPredicate keep) {
        List<Integer> out = new ArrayList<>();
        for (int a = 0; a < agents(); a++) {
            if (keep.test(a)) {
                out.add(a);
            }
        }
        return out;
    }

    /** How many agents' active paths pass through {@code state} after tick {@code tick}. */
    int occupancyBelow(int tick, String state) {
        return agentsAt(a -> passesThrough(path(tick, a), state)).size();
    }

    /** The first tick after {@code after} with a line {@code a<k> <tick> enter <state> ...}, for any agent or {@code agent}. */
    OptionalInt firstEnter(String state, long after, int agent) {
        return firstLine(after, agent, rest -> rest.equals("enter " + state) || rest.startsWith("enter " + state + " "));
    }

    /**
     * The first tick after {@code after} with a line of any agent (or {@code agent}) whose text after
     * {@code a<k> <tick> } {@code what} accepts.
     */
    OptionalInt firstLine(long after, int agent, Predicate<String> what) {
        for (String line : trace) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalStateException("a trace line without an agent prefix: " + line);
            }
            int tick = Integer.parseInt(m.group(2));
            String rest = m.group(3);
            if (tick > after && (agent < 0 || Integer.parseInt(m.group(1)) == agent)
                    && what.test(rest)) {
                return OptionalInt.of(tick);
            }
        }
        return OptionalInt.empty();
    }
}
