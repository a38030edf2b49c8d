package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A session's breakpoints, numbered from 1, and the check of all of them around a tick: an event
 * breakpoint of a given agent before it, every other one after it (the first that is hit pauses;
 * every column breakpoint still records the tick's values, so that the next tick is compared).
 * A breakpoint naming an agent keeps it watched. THREADING: the session thread only.
 */
final class Breakpoints {
    private final List<Breakpoint> list = new ArrayList<>();
    private final StateTreeRuntime runtime;
    private final CompiledStateTree tree;
    private final WatchedLines lines;
    private final DebugViews views;
    private int nextId = 1;

    Breakpoints(StateTreeRuntime runtime, WatchedLines lines, DebugViews views) {
        this.runtime = runtime;
        this.tree = runtime.tree();
        this.lines = lines;
        this.views = views;
    }

    List<Breakpoint> list() {
        return list;
    }

    /** Adds one, checked against the tree ({@link Breakpoint#of}); {@code tick} is the tick shown. */
    void add(Breakpoint.Spec spec, long tick) {
        Breakpoint b = Breakpoint.of(nextId, spec, tree, runtime.agentCount(), views);
        nextId++;
        list.add(b);
        if (b.agent() >= 0) {
            lines.watch(b.agent(), tick);
        }
    }

    void remove(int id) {
        for (Iterator<Breakpoint> it = list.iterator(); it.hasNext(); ) {
            Breakpoint b = it.next();
            if (b.id() == id) {
                it.remove();
                if (b.agent() >= 0) {
                    lines.unwatch(b.agent());
                }
                return;
            }
        }
        throw new IllegalArgumentException("no breakpoint " + id);
    }

    /** After tick {@code k}: why the first breakpoint hit calls for a pause, or null. */
    String hitAfter(long k) {
        String first = null;
        for (Breakpoint b : list) {
            if (b.crossing() != null) {
                String hit = b.crossing().check(views, runtime.agentCount(), k); // records the values, hit or not
                if (first == null && hit != null) {
                    first = "breakpoint " + b.id() + ": " + hit;
                }
            } else if (first == null) {
                String hit = b.hit(tree, runtime.recorder(), k, b.agent() >= 0 ? lines.ofTick(b.agent(), k) : List.of());
                if (hit != null) {
                    first = "breakpoint " + b.id() + " at tick " + k + ": " + hit;
                }
            }
        }
        return first;
    }

    /**
     * After time travel to tick {@code k}: column breakpoints record the values of tick {@code k},
     * so that the next tick is compared with them (the ticks re-simulated were not checked).
     */
    void recordAt(long k) {
        for (Breakpoint b : list) {
            if (b.crossing() != null) {
                b.crossing().record(views, runtime.agentCount(), k);
            }
        }
    }

    /** Before tick {@code next}: an event breakpoint of a given agent whose event arrives in it, or null. */
    String eventBefore(long next, List<DebugTarget.HostEvent> hostEvents, DebugViews views) {
        for (Breakpoint b : list) {
            if (b.kind() == Breakpoint.Kind.EVENT && b.agent() >= 0 && !views.despawned(b.agent())) {
                String hit = b.eventQueued(runtime.queuedEvents(b.agent()), hostEvents);
                if (hit != null) {
                    return "breakpoint " + b.id() + " at tick " + next + ": " + hit;
                }
            }
        }
        return null;
    }
}
