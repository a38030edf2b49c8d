package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A session's breakpoints, numbered from 1, and the check of all of them around a tick: an event
 * breakpoint of a given agent before it, every other one after it (the first that is hit pauses).
 * A breakpoint naming an agent keeps it watched. THREADING: the session thread only.
 */
final class Breakpoints {
    private final List<Breakpoint> list = new ArrayList<>();
    private final StateTreeRuntime runtime;
    private final CompiledStateTree tree;
    private final WatchedLines lines;
    private int nextId = 1;

    Breakpoints(StateTreeRuntime runtime, WatchedLines lines) {
        this.runtime = runtime;
        this.tree = runtime.tree();
        this.lines = lines;
    }

    List<Breakpoint> list() {
        return list;
    }

    /** Adds one, checked against the tree ({@link Breakpoint#of}); {@code tick} is the tick shown. */
    void add(String kind, String state, Integer transition, String tag, int agent, long tick) {
        Breakpoint b = Breakpoint.of(nextId, kind, state, transition, tag, agent, tree, runtime.agentCount());
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
        for (Breakpoint b : list) {
            String hit = b.hit(tree, runtime.recorder(), k, b.agent() >= 0 ? lines.ofTick(b.agent(), k) : List.of());
            if (hit != null) {
                return "breakpoint " + b.id() + " at tick " + k + ": " + hit;
            }
        }
        return null;
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
