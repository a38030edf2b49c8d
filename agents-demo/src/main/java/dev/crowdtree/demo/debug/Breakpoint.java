package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.Suggestions;
import dev.crowdtree.statetree.exec.Recorder;

import java.util.List;
import java.util.Locale;

/**
 * Where the debugger pauses: after a tick in which an agent (any, or {@link #agent}) entered a
 * state ({@code enter}), a transition fired ({@code transition}), a node failed ({@code failure}),
 * an event with a tag arrived ({@code event}), or a host column's value crossed a threshold
 * ({@code column}, {@link ColumnCrossing}). "Any agent" is read from the recorder's counters of
 * the tick; a given agent is watched, and its explained trace lines of the tick decide (an event is
 * checked before the tick, among the events queued for it and those the host sends it). A column
 * breakpoint reads the column's values after each tick, of the agent or of every agent.
 *
 * <p>THREADING: the session thread only ({@link #crossing} is mutable; the rest is immutable).
 *
 * @param state      the state's id ({@code enter}), else -1
 * @param transition the transition's id ({@code transition}), else -1
 * @param tag        the event's tag ({@code event}), else null
 * @param agent      the agent, or -1 for any
 * @param crossing   the column, the threshold and the values of the tick before ({@code column}),
 *                   else null
 */
record Breakpoint(int id, Kind kind, int state, int transition, String tag, int agent, ColumnCrossing crossing) {
    enum Kind {
        ENTER("enter"), TRANSITION("transition"), FAILURE("failure"), EVENT("event"), COLUMN("column");

        final String name;

        Kind(String name) {
            this.name = name;
        }

        static Kind parse(String name) {
            for (Kind k : values()) {
                if (k.name.equals(name)) {
                    return k;
                }
            }
            StringBuilder valid = new StringBuilder();
            for (Kind k : values()) {
                valid.append(valid.length() == 0 ? "" : ", ").append(k.name);
            }
            throw new IllegalArgumentException("breakpoint kind '" + name + "' is not one of " + valid);
        }
    }

    /**
     * A breakpoint as a user asks for it ({@code POST /api/breakpoints}); the fields its kind does
     * not use are ignored.
     *
     * @param state      a state path ({@code enter}), or null
     * @param transition a transition id ({@code transition}), or null
     * @param tag        an event tag ({@code event}), or null
     * @param agent      the agent, or -1 for any
     * @param column     a host column ({@code column}), or null
     * @param crosses    the threshold ({@code column}), or null
     */
    record Spec(String kind, String state, Integer transition, String tag, int agent, String column, Double crosses) {
    }

    /**
     * Builds a breakpoint from what a user typed, checked against the tree and the host columns
     * shown ({@code views}).
     *
     * @throws IllegalArgumentException naming the field, what is wrong and what would be valid
     */
    static Breakpoint of(int id, Spec spec, CompiledStateTree tree, int agents, DebugViews views) {
        Kind k = Kind.parse(spec.kind() == null ? "" : spec.kind());
        int agent = spec.agent();
        if (agent < -1 || agent >= agents) {
            throw new IllegalArgumentException("agent " + agent + " is out of range: 0.." + (agents - 1) + ", or -1 for any");
        }
        switch (k) {
            case ENTER: {
                int s = stateId(tree, spec.state());
                return new Breakpoint(id, k, s, -1, null, agent, null);
            }
            case TRANSITION: {
                Integer transition = spec.transition();
                if (transition == null || transition < 0 || transition >= tree.transitionCount) {
                    throw new IllegalArgumentException("transition " + transition + " is not a transition id: valid ids are 0.."
                            + (tree.transitionCount - 1) + " (GET /api/tree lists them)");
                }
                return new Breakpoint(id, k, -1, transition, null, agent, null);
            }
            case EVENT:
                if (spec.tag() == null || spec.tag().isBlank()) {
                    throw new IllegalArgumentException("an event breakpoint needs a tag");
                }
                return new Breakpoint(id, k, -1, -1, spec.tag().strip(), agent, null);
            case COLUMN: {
                views.checkColumn(spec.column());
                Double crosses = spec.crosses();
                if (crosses == null || !Double.isFinite(crosses)) {
                    throw new IllegalArgumentException("crosses " + (crosses == null ? "is missing" : "= " + crosses
                            + " is not a finite number") + ": a column breakpoint needs the threshold the column's value"
                            + " crosses, a finite number such as 15");
                }
                return new Breakpoint(id, k, -1, -1, null, agent, new ColumnCrossing(spec.column(), crosses, agent));
            }
            default:
                return new Breakpoint(id, k, -1, -1, null, agent, null);
        }
    }

    static int stateId(CompiledStateTree tree, String path) {
        if (path != null) {
            for (int s = 0; s < tree.stateCount; s++) {
                if (tree.statePath(s).equals(path)) {
                    return s;
                }
            }
        }
        throw new IllegalArgumentException("no state '" + path + "' in tree '" + tree.name + "'; states are paths such as '"
                + tree.statePath(Math.min(1, tree.stateCount - 1)) + "'"
                + Suggestions.didYouMean(String.valueOf(path), tree.statePaths()));
    }

    /** Whether the watched agent's lines call for a pause (any agent: the recorder's counts). */
    String hit(CompiledStateTree tree, Recorder r, long tick, List<String> agentLinesOfTick) {
        if (agent < 0) {
            switch (kind) {
                case ENTER:
                    long n = r.entered(state);
                    return n == 0 ? null : tree.statePath(state) + " entered" + agents(n, r.enteredAgents(state));
                case TRANSITION:
                    long f = r.fired(transition);
                    return f == 0 ? null : describeTransition(tree, transition) + " fired" + agents(f, r.firedAgents(transition));
                case FAILURE:
                    return r.failures() == 0 ? null : r.failures() + " node failure" + (r.failures() == 1 ? "" : "s");
                case EVENT:
                    long e = r.eventsArrived(tag);
                    return e == 0 ? null : "event " + tag + " arrived" + agents(e, r.arrivedAgents(tag));
                default:
                    return null; // a column: checked by its ColumnCrossing
            }
        }
        String prefix;
        switch (kind) {
            case ENTER:
                prefix = tick + " enter " + tree.statePath(state) + " ";
                break;
            case TRANSITION:
                prefix = tick + " why " + tree.statePath(tree.transitionSource(transition)) + " transitions["
                        + (tree.transitionDeclaredIndex(transition) & 0xFF) + "] ";
                break;
            case FAILURE:
                prefix = tick + " fault ";
                break;
            default:
                return null; // an event: checked before the tick (eventQueued); a column: by its ColumnCrossing
        }
        for (String line : agentLinesOfTick) {
            if (line.startsWith(prefix)) {
                return "agent " + agent + ": " + line;
            }
        }
        return null;
    }

    /** An event breakpoint of a given agent, before the tick: whether {@code queued} holds its tag. */
    String eventQueued(List<String> queued, List<DebugTarget.HostEvent> host) {
        for (String e : queued) {
            if (e.equals(tag) || e.startsWith(tag + " ")) {
                return "event " + e + " arrives at agent " + agent;
            }
        }
        for (DebugTarget.HostEvent h : host) {
            if ((h.agent() == agent || h.agent() < 0) && h.tag().equals(tag)) {
                return "event " + tag + " arrives at agent " + agent;
            }
        }
        return null;
    }

    /**
     * How many times, and which agents: all of them when the recorder named every one, else the
     * first it named ({@code Recorder.NAMED}): {@code " (2 times: agents 12, 40)"},
     * {@code " (1,234 times; first agents 12, 40, 77)"}.
     */
    static String agents(long n, int[] named) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, " (%,d time%s", n, n == 1 ? "" : "s"));
        if (named.length > 0) {
            b.append(named.length < n ? "; first agent" : ": agent").append(named.length == 1 ? " " : "s ");
            for (int i = 0; i < named.length; i++) {
                b.append(i == 0 ? "" : ", ").append(named[i]);
            }
        }
        return b.append(')').toString();
    }

    static String describeTransition(CompiledStateTree tree, int tr) {
        return tree.statePath(tree.transitionSource(tr)) + " transitions[" + (tree.transitionDeclaredIndex(tr) & 0xFF)
                + "] -> " + tree.transitionTargetName(tr);
    }

    /** What the breakpoint list shows. */
    String describe(CompiledStateTree tree) {
        String who = agent < 0 ? "any agent" : "agent " + agent;
        switch (kind) {
            case ENTER:
                return who + " enters " + tree.statePath(state);
            case TRANSITION:
                return describeTransition(tree, transition) + " fires (" + who + ")";
            case FAILURE:
                return "a node fails (" + who + ")";
            case COLUMN:
                return crossing.describe();
            default:
                return "event " + tag + " arrives (" + who + ")";
        }
    }
}
