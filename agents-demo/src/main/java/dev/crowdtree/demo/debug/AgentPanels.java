package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.http.BadRequest;

import java.io.IOException;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The agents' panels of a session ({@code /api/agent}, {@code /api/agent/open},
 * {@code /api/agent/close}): which agents are open (watched, {@link WatchedLines}) and the filling of
 * an opened agent's trace over the history ({@link Backfill}: a re-simulation on a copy of the
 * world, off the session thread).
 *
 * <p>An agent's panel is open or not: opening it again changes nothing, and one close closes it
 * (it stays watched while a breakpoint names it). Opening is refused, with nothing changed, when
 * {@value WatchedLines#MAX_WATCHED} other agents are watched (409) or {@value Backfill#MAX_WAITING}
 * agents wait for their trace (503).
 *
 * <p>THREADING: the session thread only (its {@link Backfill} hands its results back to it).
 */
final class AgentPanels implements AutoCloseable {
    /** The most agent-ticks re-simulated to fill a trace (the history's ticks times the agents). */
    static final long BACKFILL_AGENT_TICKS = 50_000_000L;

    /** What the panels see of the session's history (session thread). */
    interface History {
        /** Whether the history can be re-simulated at all (the world can be snapshotted). */
        boolean canReSimulate();

        /** The first tick that can be seen. */
        long from();

        /** The latest snapshot before tick {@code t} (or at it, when it is the first). */
        long snapshotTickBefore(long t);

        /** The snapshot after tick {@code s}; a recording's may be refused (damaged or crafted). */
        byte[] snapshotAt(long s) throws IOException;
    }

    private final DebugTarget target;
    private final DebugViews views;
    private final WatchedLines lines;
    private final History history;
    private final Backfill backfill;
    private final int agents;

    /**
     * @param post hands a task to the session thread (its command queue), for the re-simulation's
     *             result
     */
    AgentPanels(DebugTarget target, DebugViews views, WatchedLines lines, History history, Consumer<Runnable> post) {
        this.target = target;
        this.views = views;
        this.lines = lines;
        this.history = history;
        this.agents = target.runtime().agentCount();
        this.backfill = new Backfill(target.copier(), post, this::backfilled);
    }

    /** The agent's panel ({@code GET /api/agent}): changes nothing. */
    String agent(int agent) {
        checkAgent(agent);
        return views.agentJson(agent, target.tick(), lines.upTo(agent, target.tick()), lines.isWatched(agent),
                lines.isWatched(agent) ? backfill.state(agent) : null);
    }

    /**
     * Opens the agent's panel ({@code POST /api/agent/open}): watches it (nothing more when it is
     * open already) and, when it was not watched, asks for its trace over the history, filled by a
     * re-simulation off the session thread; the answer says how that goes ({@code "backfill"}).
     *
     * @throws BadRequest 409 when {@value WatchedLines#MAX_WATCHED} other agents are watched, 503
     *                    when {@value Backfill#MAX_WAITING} agents wait for their trace already
     */
    String open(int agent) {
        checkAgent(agent);
        if (!lines.isWatched(agent)) {
            lines.checkRoomFor(agent); // refusals before anything changes
            String none = whyNoBackfill();
            if (none == null) {
                backfill.checkRoom();
            }
            lines.openPanel(agent, target.tick());
            if (none == null) {
                backfill.request(new Backfill.Want(agent, lines.serialOf(agent), history.from(), target.tick()));
                startBackfill();
            } else {
                backfill.none(agent, none);
            }
        } else {
            lines.openPanel(agent, target.tick()); // watched already (open, or named by a breakpoint): its lines run on
        }
        return agent(agent);
    }

    /** Closes the agent's panel ({@code POST /api/agent/close}): it stays watched while a breakpoint names it. */
    String close(int agent) {
        checkAgent(agent);
        lines.closePanel(agent);
        if (!lines.isWatched(agent)) {
            backfill.forget(agent);
        }
        return "{\"id\":" + agent + ",\"watched\":" + lines.isWatched(agent) + "}";
    }

    /** Stops the re-simulation thread; from any thread. */
    @Override
    public void close() {
        backfill.close();
    }

    private void checkAgent(int agent) {
        if (agent < 0 || agent >= agents) {
            throw new IllegalArgumentException("agent " + agent + " is out of range: valid ids are 0.." + (agents - 1));
        }
    }

    /** Why the trace of an agent opened now is not filled from the history, or null when it is. */
    private String whyNoBackfill() {
        long now = target.tick();
        long from = history.from();
        if (!history.canReSimulate()) {
            return "this world cannot be snapshotted (a host's own loop runs it), so its history cannot be "
                    + "re-simulated; the trace starts where the agent was opened";
        }
        if (!backfill.possible()) {
            return "this world cannot be copied to re-simulate its history (opened without its model); the trace "
                    + "starts where the agent was opened";
        }
        if (now <= from) {
            return "the history holds no tick before tick " + now;
        }
        long cost = (now - from) * (long) agents;
        if (cost > BACKFILL_AGENT_TICKS) {
            return String.format(Locale.ROOT, "re-simulating the %,d ticks of the history for %,d agents (%,d "
                    + "agent-ticks) is more than the %,d allowed; the trace starts where the agent was opened",
                    now - from, agents, cost, BACKFILL_AGENT_TICKS);
        }
        return null;
    }

    /** Hands the waiting agents' re-simulation to the re-simulation thread, when none runs. */
    private void startBackfill() {
        if (!backfill.hasWaiting()) {
            return;
        }
        long s = history.snapshotTickBefore(history.from() + 1); // the oldest snapshot, at the start of the history
        long end = backfill.waitingEnd();
        long checkTick = end > s ? history.snapshotTickBefore(end + 1) : s; // the latest at or before the end
        try {
            byte[] check = checkTick > s ? history.snapshotAt(checkTick) : null;
            backfill.start(history.snapshotAt(s), s, check, checkTick);
        } catch (IOException e) {
            backfill.failWaiting(e.getMessage());
        }
    }

    /** A re-simulation finished: the lines it found go before those collected since (session thread). */
    private void backfilled(Backfill.Result r) {
        if (r.failure() == null) {
            for (Backfill.Want w : r.wants()) {
                lines.prepend(w.agent(), w.serial(), r.lines().get(w.agent()), r.ticks().get(w.agent()));
            }
        }
        startBackfill();
    }
}
