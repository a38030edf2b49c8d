package dev.crowdtree.demo.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.crowdtree.demo.http.Json;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.Suggestions;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.ValueType;

import java.util.List;

/**
 * What the debugger's page reads of a runtime between ticks, as JSON: the tree, the finder's
 * agents, the breakpoint list, and the occupancy counted by a scan (docs/DEBUGGER.md, "The JSON
 * API"). The host columns shown are the target's ({@link DebugTarget#columnNames()}, read once).
 * THREADING: the session thread only.
 */
final class DebugViews {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DebugTarget target;
    private final StateTreeRuntime runtime;
    private final CompiledStateTree tree;
    private final List<String> columns;

    DebugViews(DebugTarget target) {
        this.target = target;
        this.runtime = target.runtime();
        this.tree = runtime.tree();
        this.columns = List.copyOf(target.columnNames());
    }

    /**
     * What the finder looks for ({@code GET /api/find}): agents whose active path passes through
     * {@code state} (null: any), whose parameter {@code param} (null: none) lies in [min, max] and
     * whose host column {@code column} (null: none) lies in [columnMin, columnMax]; at most
     * {@code limit} of them are listed.
     */
    record Query(String state, String param, double min, double max, String column, double columnMin,
                 double columnMax, int limit) {
    }

    /** The host columns shown, in order ({@link DebugTarget#columnNames()}). */
    List<String> columnNames() {
        return columns;
    }

    /**
     * Checks that {@code column} (a request's field {@code column}) is one of the host columns shown.
     *
     * @throws IllegalArgumentException naming the column and listing the valid ones
     */
    void checkColumn(String column) {
        if (column == null || !columns.contains(column)) {
            throw new IllegalArgumentException((column == null ? "column is missing" : "column '" + column
                    + "' is not a host column of this run") + "; "
                    + (columns.isEmpty() ? "there are none (the tree's node types read or write no host column)"
                    : "the columns are " + String.join(", ", columns))
                    + (column == null ? "" : Suggestions.didYouMean(column, columns)));
        }
    }

    /** The agent's value of a host column shown, or NaN when the agent was despawned. */
    double columnValue(int agent, String column) {
        try {
            return target.columnValue(agent, column);
        } catch (IllegalArgumentException e) {
            return Double.NaN; // despawned (a column shown always exists)
        }
    }

    /**
     * A column's value as a JSON number that is always valid JSON ({@link Json#number}): a whole
     * value (an int or byte column's, or a whole float) as an integer, a float column's value in
     * float's shortest form, any other value in double's; NaN and the infinities as {@code null}.
     */
    static String columnNumber(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Json.number(v);
        }
        float f = (float) v;
        return f == v ? Json.number(f) : Json.number(v);
    }

    boolean despawned(int agent) {
        try {
            runtime.treeStatus(agent);
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    /** The agent's last active state, -1 when none, -2 when despawned. */
    int activeState(int agent) {
        try {
            return runtime.activeState(agent);
        } catch (IllegalArgumentException e) {
            return -2; // despawned
        }
    }

    /** The agents {@code q} asks for, ascending, at most {@code q.limit()}; and how many. */
    String find(Query q, long tick) {
        String statePath = q.state();
        String param = q.param();
        int s = statePath == null ? -1 : Breakpoint.stateId(tree, statePath);
        int p = -1;
        if (param != null) {
            p = tree.paramIndex(param);
            if (p < 0) {
                throw new IllegalArgumentException("no parameter '" + param + "' in tree '" + tree.name + "'; it has "
                        + tree.paramNames());
            }
        }
        String column = q.column();
        if (column != null) {
            checkColumn(column);
        }
        int end = s < 0 ? -1 : tree.stateSubtreeEnd(s);
        ArrayNode agents = JSON.createArrayNode();
        long total = 0;
        for (int a = 0, n = runtime.agentCount(); a < n; a++) {
            int at = activeState(a);
            if (at == -2 || s >= 0 && (at < s || at >= end)) {
                continue;
            }
            if (p >= 0) {
                double v = runtime.parameter(a, p);
                if (!(v >= q.min() && v <= q.max())) {
                    continue;
                }
            }
            if (column != null) {
                double v = columnValue(a, column);
                if (!(v >= q.columnMin() && v <= q.columnMax())) {
                    continue;
                }
            }
            if (total++ < q.limit()) {
                agents.add(a);
            }
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("tick", tick);
        o.put("total", total);
        o.set("agents", agents);
        return o.toString();
    }

    /** Running agents per last active state, counted by a scan of every agent. */
    long[] scanOccupancy() {
        long[] occ = new long[tree.stateCount];
        for (int a = 0, n = runtime.agentCount(); a < n; a++) {
            int s = activeState(a);
            if (s >= 0 && runtime.treeStatus(a) == RunStatus.RUNNING) {
                occ[s]++;
            }
        }
        return occ;
    }

    /** The tree as the page draws it. */
    String treeJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", tree.name);
        ArrayNode states = o.putArray("states");
        for (int s = 0; s < tree.stateCount; s++) {
            ObjectNode st = states.addObject();
            st.put("id", s);
            st.put("path", tree.statePath(s));
            st.put("name", tree.stateName(s));
            st.put("parent", tree.stateParent(s));
            st.put("depth", tree.stateDepth(s));
        }
        ArrayNode trs = o.putArray("transitions");
        for (int tr = 0; tr < tree.transitionCount; tr++) {
            ObjectNode t = trs.addObject();
            t.put("id", tr);
            t.put("state", tree.transitionSource(tr));
            t.put("statePath", tree.statePath(tree.transitionSource(tr)));
            t.put("index", tree.transitionDeclaredIndex(tr) & 0xFF);
            t.put("trigger", Vocabulary.Trigger.of(tree.transitionTrigger(tr)).assetName());
            if (tree.transitionTrigger(tr) == CompiledStateTree.TRIGGER_EVENT) {
                t.put("event", tree.tagName(tree.transitionEvent(tr)));
            } else {
                t.putNull("event");
            }
            t.put("target", tree.transitionTargetName(tr));
            int target = tree.transitionTarget(tr);
            t.put("targetId", target >= 0 && target < tree.stateCount ? target : -1);
            t.put("priority", Vocabulary.Priority.of(tree.transitionPriority(tr)).assetName());
            if (tree.isGated(tr)) {
                t.put("delay", tree.transitionDelay(tr));
            }
            t.put("text", Breakpoint.describeTransition(tree, tr));
        }
        ArrayNode params = o.putArray("parameters");
        for (int p = 0; p < tree.paramCount(); p++) {
            ObjectNode pa = params.addObject();
            pa.put("name", tree.paramName(p));
            pa.put("type", tree.enumValues(p) != null ? "enum" : tree.paramType(p).assetName());
        }
        ArrayNode cols = o.putArray("columns");
        columns.forEach(cols::add);
        return o.toString();
    }

    String breakpointsJson(List<Breakpoint> breakpoints) {
        ArrayNode a = JSON.createArrayNode();
        for (Breakpoint b : breakpoints) {
            ObjectNode o = a.addObject();
            o.put("id", b.id());
            o.put("kind", b.kind().name);
            if (b.state() >= 0) {
                o.put("state", tree.statePath(b.state()));
            }
            if (b.transition() >= 0) {
                o.put("transition", b.transition());
            }
            if (b.tag() != null) {
                o.put("tag", b.tag());
            }
            if (b.crossing() != null) {
                o.put("column", b.crossing().column());
                o.put("crosses", b.crossing().threshold());
            }
            o.put("agent", b.agent());
            o.put("text", b.describe(tree));
        }
        return a.toString();
    }

    /**
     * The agent panel's JSON ({@code GET /api/agent}) at tick {@code tick}, with the watched lines
     * given and what is said of filling them from the history ({@code backfill}, null: nothing).
     */
    String agentJson(int agent, long tick, List<String> trace, boolean watched, String backfill) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", agent);
        o.put("tick", tick);
        o.put("watched", watched);
        if (backfill != null) {
            o.put("backfill", backfill);
        } else {
            o.putNull("backfill");
        }
        if (despawned(agent)) {
            o.put("status", "despawned");
            o.put("activePath", "");
            return o.toString();
        }
        o.put("status", RunStatus.name(runtime.treeStatus(agent)));
        o.put("activePath", runtime.activePath(agent));
        ObjectNode params = o.putObject("parameters");
        for (int p = 0; p < tree.paramCount(); p++) {
            double v = runtime.parameter(agent, p);
            List<String> names = tree.enumValues(p);
            if (names != null) {
                params.put(tree.paramName(p), names.get((int) v));
            } else if (tree.paramType(p) == ValueType.BOOL) {
                params.put(tree.paramName(p), v != 0);
            } else if (tree.paramType(p) == ValueType.FLOAT) {
                params.put(tree.paramName(p), (float) v);
            } else {
                params.put(tree.paramName(p), (long) v);
            }
        }
        ObjectNode cols = o.putObject("columns");
        for (String c : columns) {
            cols.putRawValue(c, new RawValue(columnNumber(columnValue(agent, c))));
        }
        ArrayNode ev = o.putArray("queuedEvents");
        runtime.queuedEvents(agent).forEach(ev::add);
        ArrayNode tr = o.putArray("trace");
        trace.forEach(tr::add);
        return o.toString();
    }

    /**
     * The status's counts: running agents, the occupancy per state (the recorder's, or
     * {@code occupancyScan} when a scan counted it) and below each state, the last tick's firings
     * and their mean per transition, the node failures, dropped and rejected events of the tick.
     */
    void putCounts(ObjectNode o, Recorder r, long[] occupancyScan, RateWindow rates, long k) {
        long[] occ = new long[tree.stateCount];
        for (int s = 0; s < occ.length; s++) {
            occ[s] = occupancyScan != null ? occupancyScan[s] : r.occupancy(s);
        }
        long[] below = new long[tree.stateCount];
        for (int s = tree.stateCount - 1; s >= 0; s--) {
            below[s] += occ[s];
            if (tree.stateParent(s) >= 0) {
                below[tree.stateParent(s)] += below[s];
            }
        }
        o.put("running", tree.stateCount == 0 ? 0 : below[0]);
        ArrayNode oa = o.putArray("occupancy");
        ArrayNode ob = o.putArray("occupancyBelow");
        for (int s = 0; s < occ.length; s++) {
            oa.add(occ[s]);
            ob.add(below[s]);
        }
        ArrayNode fired = o.putArray("fired");
        ArrayNode rate = o.putArray("rate");
        for (int tr = 0; tr < tree.transitionCount; tr++) {
            fired.add(rates.last(k, tr));
            rate.add(rates.mean(k, tr));
        }
        boolean counted = !rates.isEmpty();
        o.put("failures", counted ? r.failures() : 0);
        o.put("dropped", counted ? r.droppedEvents() : 0);
        o.put("rejected", counted ? r.rejectedEvents() : 0);
    }
}
