package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The explained trace lines the debugger keeps of its watched agents: after each tick it copies the
 * tick's lines of each one from the runtime's recorder rings ({@code Recorder.trace}) into a list of
 * its own, tick-stamped, at most {@value #LINES_PER_AGENT} per agent. A tick already collected is
 * not collected again when time travel re-simulates it. An agent is watched while something uses
 * it (the panel, breakpoints naming it). THREADING: the session thread only.
 */
final class WatchedLines {
    static final int LINES_PER_AGENT = 2000;

    private final StateTreeRuntime runtime;
    private final Map<Integer, AgentLines> lines = new HashMap<>();

    /** The lines kept of one watched agent, with the tick of each. */
    private static final class AgentLines {
        final ArrayList<String> text = new ArrayList<>();
        final ArrayList<Long> ticks = new ArrayList<>();
        long collectedUpTo;
        int users;
    }

    WatchedLines(StateTreeRuntime runtime) {
        this.runtime = runtime;
    }

    boolean isWatched(int agent) {
        return lines.containsKey(agent);
    }

    /** One more user of {@code agent}; true when it was not watched before (its lines start after {@code tick}). */
    boolean watch(int agent, long tick) {
        AgentLines a = lines.get(agent);
        boolean fresh = a == null;
        if (fresh) {
            runtime.recorder().watch(agent);
            a = new AgentLines();
            a.collectedUpTo = tick;
            lines.put(agent, a);
        }
        a.users++;
        return fresh;
    }

    /** One user fewer; the last one stops watching it and forgets its lines. */
    void unwatch(int agent) {
        AgentLines a = lines.get(agent);
        if (a != null && --a.users <= 0) {
            lines.remove(agent);
            runtime.recorder().unwatch(agent);
        }
    }

    /** The agent's lines are to be collected again from the tick after {@code tick} (a re-simulation fills them). */
    void collectAfter(int agent, long tick) {
        lines.get(agent).collectedUpTo = tick;
    }

    /** After tick {@code k}: each watched agent's lines of it, unless collected already. */
    void collect(long k) {
        if (lines.isEmpty()) {
            return;
        }
        String prefix = k + " ";
        for (Map.Entry<Integer, AgentLines> e : lines.entrySet()) {
            AgentLines a = e.getValue();
            if (k <= a.collectedUpTo) {
                continue;
            }
            for (String line : runtime.recorder().trace(e.getKey())) {
                if (line.startsWith(prefix)) {
                    a.text.add(line);
                    a.ticks.add(k);
                }
            }
            while (a.text.size() > LINES_PER_AGENT) {
                a.text.remove(0);
                a.ticks.remove(0);
            }
            a.collectedUpTo = k;
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
