package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.statetree.exec.Recorder;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The explained trace lines the debugger keeps of its watched agents: after each tick it copies the
 * tick's lines of each one from the runtime's recorder rings ({@code Recorder.trace}) into a list of
 * its own, tick-stamped, at most {@value #LINES_PER_AGENT} per agent. A tick already collected is
 * not collected again when time travel re-simulates it.
 *
 * <p>An agent is watched while something uses it: its panel is open, or breakpoints name it. The
 * panel is one user however often it is opened (opening an open agent again changes nothing, and
 * one close closes it); each breakpoint naming the agent is one more. At most {@value #MAX_WATCHED}
 * agents are watched at once: watching one more is refused (409) naming the cap.
 *
 * <p>THREADING: the session thread only.
 */
final class WatchedLines {
    static final int LINES_PER_AGENT = 2000;
    /** Agents watched at once at most (open panels and breakpoints naming an agent). */
    static final int MAX_WATCHED = 32;

    private final StateTreeRuntime runtime;
    private final Map<Integer, AgentLines> lines = new HashMap<>();
    /** The serial number of the next agent watched afresh. */
    private long nextSerial = 1;

    /** The lines kept of one watched agent, with the tick of each. */
    private static final class AgentLines {
        final ArrayList<String> text = new ArrayList<>();
        final ArrayList<Long> ticks = new ArrayList<>();
        /** Which watching this is: a new number each time the agent is watched afresh. */
        final long serial;
        long collectedUpTo;
        /** Whether its panel is open. */
        boolean panel;
        /** Breakpoints naming it. */
        int breakpoints;

        AgentLines(long serial) {
            this.serial = serial;
        }
    }

    WatchedLines(StateTreeRuntime runtime) {
        this.runtime = runtime;
    }

    boolean isWatched(int agent) {
        return lines.containsKey(agent);
    }

    /** Agents watched. */
    int watchedCount() {
        return lines.size();
    }

    /**
     * Opens the agent's panel (nothing when it is open already); true when it was not watched
     * before: its lines start after {@code tick}.
     *
     * @throws BadRequest 409 when {@value #MAX_WATCHED} other agents are watched
     */
    boolean openPanel(int agent, long tick) {
        AgentLines a = watch(agent, tick);
        boolean fresh = !a.panel && a.breakpoints == 0;
        a.panel = true;
        return fresh;
    }

    /** Closes the agent's panel; it stays watched while a breakpoint names it. */
    void closePanel(int agent) {
        AgentLines a = lines.get(agent);
        if (a != null) {
            a.panel = false;
            forgetUnused(agent, a);
        }
    }

    /**
     * One more breakpoint naming the agent.
     *
     * @throws BadRequest 409 when {@value #MAX_WATCHED} other agents are watched
     */
    void addBreakpoint(int agent, long tick) {
        watch(agent, tick).breakpoints++;
    }

    /** One breakpoint naming the agent fewer; without a panel or another breakpoint it is no longer watched. */
    void removeBreakpoint(int agent) {
        AgentLines a = lines.get(agent);
        if (a != null) {
            a.breakpoints = Math.max(0, a.breakpoints - 1);
            forgetUnused(agent, a);
        }
    }

    /**
     * Whether watching {@code agent} would pass the cap (it is not watched, and {@value #MAX_WATCHED}
     * others are): the check before anything that would watch it is changed.
     *
     * @throws BadRequest 409 naming the cap
     */
    void checkRoomFor(int agent) {
        if (!lines.containsKey(agent) && lines.size() >= MAX_WATCHED) {
            throw new BadRequest(409, "agent " + agent + " cannot be watched: " + MAX_WATCHED + " agents are watched "
                    + "already, the most at once (agents whose panel is open or that a breakpoint names); close one "
                    + "(POST /api/agent/close?id=N) or remove such a breakpoint first");
        }
    }

    /** Which watching of the agent this is (a new number each time it is watched afresh); 0 when not watched. */
    long serialOf(int agent) {
        AgentLines a = lines.get(agent);
        return a == null ? 0 : a.serial;
    }

    private AgentLines watch(int agent, long tick) {
        AgentLines a = lines.get(agent);
        if (a == null) {
            checkRoomFor(agent);
            runtime.recorder().watch(agent);
            a = new AgentLines(nextSerial++);
            a.collectedUpTo = tick;
            lines.put(agent, a);
        }
        return a;
    }

    private void forgetUnused(int agent, AgentLines a) {
        if (!a.panel && a.breakpoints <= 0) {
            lines.remove(agent);
            runtime.recorder().unwatch(agent);
        }
    }

    /**
     * Puts {@code text} (the agent's lines of earlier ticks, {@code ticks} each, oldest first, all
     * before the first line kept) before its lines, when the agent is still watched as serial
     * {@code serial} (not closed and opened again meanwhile); the oldest go past
     * {@value #LINES_PER_AGENT}. Whether they were kept.
     */
    boolean prepend(int agent, long serial, List<String> text, List<Long> ticks) {
        AgentLines a = lines.get(agent);
        if (a == null || a.serial != serial) {
            return false;
        }
        long first = a.ticks.isEmpty() ? Long.MAX_VALUE : a.ticks.get(0);
        List<String> t = new ArrayList<>();
        List<Long> k = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (ticks.get(i) < first) {
                t.add(text.get(i));
                k.add(ticks.get(i));
            }
        }
        a.text.addAll(0, t);
        a.ticks.addAll(0, k);
        trim(a);
        return true;
    }

    /** After tick {@code k}: each watched agent's lines of it, unless collected already. */
    void collect(long k) {
        if (lines.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, AgentLines> e : lines.entrySet()) {
            AgentLines a = e.getValue();
            if (k <= a.collectedUpTo) {
                continue;
            }
            int before = a.text.size();
            linesOfTick(runtime.recorder(), e.getKey(), k, a.text);
            for (int i = before; i < a.text.size(); i++) {
                a.ticks.add(k);
            }
            trim(a);
            a.collectedUpTo = k;
        }
    }

    /** Adds the agent's lines of tick {@code k} in the recorder's rings ({@code Recorder.trace}) to {@code out}. */
    static void linesOfTick(Recorder recorder, int agent, long k, List<String> out) {
        String prefix = k + " ";
        for (String line : recorder.trace(agent)) {
            if (line.startsWith(prefix)) {
                out.add(line);
            }
        }
    }

    private static void trim(AgentLines a) {
        int over = a.text.size() - LINES_PER_AGENT;
        if (over > 0) {
            a.text.subList(0, over).clear();
            a.ticks.subList(0, over).clear();
        }
    }

    /** The watched agent's lines of tick {@code k} (empty when none or not watched). */
    List<String> ofTick(int agent, long k) {
        AgentLines a = lines.get(agent);
        List<String> out = new ArrayList<>();
        if (a != null) {
            for (int i = a.ticks.size() - 1; i >= 0 && a.ticks.get(i) >= k; i--) {
                if (a.ticks.get(i) == k) {
                    out.add(0, a.text.get(i));
                }
            }
        }
        return out;
    }

    /** The watched agent's lines up to tick {@code tick}, oldest first (empty when not watched). */
    List<String> upTo(int agent, long tick) {
        AgentLines a = lines.get(agent);
        List<String> out = new ArrayList<>();
        if (a != null) {
            for (int i = 0; i < a.text.size() && a.ticks.get(i) <= tick; i++) {
                out.add(a.text.get(i));
            }
        }
        return out;
    }
}
