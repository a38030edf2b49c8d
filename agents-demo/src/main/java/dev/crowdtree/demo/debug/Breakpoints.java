package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.BadRequest;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A session's breakpoints, numbered from 1, and the check of all of them around a tick: an event
 * breakpoint of a given agent before it, every other one after it (the first that is hit pauses;
 * every column breakpoint still records the tick's values, so that the next tick is compared).
 * A breakpoint naming an agent keeps it watched ({@link WatchedLines}, whose cap applies).
 *
 * <p>CAPS: at most {@value #MAX_BREAKPOINTS} breakpoints, of which at most
 * {@value #MAX_SCANNING} column breakpoints of any agent (each reads the column of every agent
 * after every tick and keeps a value per agent); one more is refused with 409 naming the cap.
 *
 * <p>THREADING: the session thread only.
 */
final class Breakpoints {
    /** Breakpoints at most. */
    static final int MAX_BREAKPOINTS = 256;
    /** Column breakpoints of any agent at most. */
    static final int MAX_SCANNING = 8;

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

    /**
     * Adds one, checked against the tree ({@link Breakpoint#of}) and the caps; {@code tick} is the
     * tick shown.
     *
     * @throws IllegalArgumentException for a breakpoint that does not fit the tree (400)
     * @throws BadRequest               409 when a cap is reached
     */
    void add(Breakpoint.Spec spec, long tick) {
        Breakpoint b = Breakpoint.of(nextId, spec, tree, runtime.agentCount(), views);
        if (list.size() >= MAX_BREAKPOINTS) {
            throw new BadRequest(409, "there are " + MAX_BREAKPOINTS + " breakpoints, the most at once; remove one "
                    + "(DELETE /api/breakpoints?id=N) first");
        }
        if (b.crossing() != null && b.agent() < 0) {
            long scanning = list.stream().filter(x -> x.crossing() != null && x.agent() < 0).count();
            if (scanning >= MAX_SCANNING) {
                throw new BadRequest(409, "there are " + MAX_SCANNING + " column breakpoints of any agent, the most at "
                        + "once (each reads every agent after every tick); remove one, or give this one an agent");
            }
        }
        if (b.agent() >= 0) {
            lines.addBreakpoint(b.agent(), tick); // 409 when the watched agents are at their cap
        }
        nextId++;
        list.add(b);
    }

    void remove(int id) {
        for (Iterator<Breakpoint> it = list.iterator(); it.hasNext(); ) {
            Breakpoint b = it.next();
            if (b.id() == id) {
                it.remove();
                if (b.agent() >= 0) {
                    lines.removeBreakpoint(b.agent());
                }
                return;
            }
        }
        throw new IllegalArgumentException("no breakpoint " + id + (list.isEmpty() ? "; there are none"
                : "; the breakpoints are " + ids()));
    }

    /** The ids, as "1, 2, 5" (at most 20, then "..."). */
    private String ids() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < list.size() && i < 20; i++) {
            sb.append(i == 0 ? "" : ", ").append(list.get(i).id());
        }
        return sb.append(list.size() > 20 ? ", ..." : "").toString();
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
