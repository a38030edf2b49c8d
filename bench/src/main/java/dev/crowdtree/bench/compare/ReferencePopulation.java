package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;

import java.util.HashMap;
import java.util.Map;

/**
 * Our per-agent reference interpreter, in either tick mode ({@link ReferenceInterpreter.TickMode}):
 * the compiled tree itself, one execution state per agent.
 */
final class ReferencePopulation implements Population {
    private final ReferenceInterpreter ri;
    private final Map<String, Integer> stateIds = new HashMap<>();

    ReferencePopulation(ReferenceInterpreter ri) {
        this.ri = ri;
        for (int s = 0; s < ri.tree().stateCount; s++) {
            stateIds.put(ri.tree().statePath(s), s);
        }
    }

    @Override
    public void start() {
        ri.startAll(0);
    }

    @Override
    public void tick(long tick, float dt) {
        ri.tickAll(tick, dt);
    }

    @Override
    public void sendEvent(int agent) {
        ri.sendEvent(agent, Logic.S_EVENT, 0f, false);
    }

    @Override
    public int awakeLastTick() {
        return ri.awakeLastTick();
    }

    @Override
    public void states(int[] out) {
        for (int a = 0, n = ri.agentCount(); a < n; a++) {
            out[a] = ri.treeStatus(a) == RunStatus.RUNNING ? stateIds.get(ri.activePath(a)) : -1;
        }
    }

    @Override
    public void close() {
        ri.close();
    }
}
