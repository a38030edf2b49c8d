package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.node.RunStatus;

/**
 * Our batched runtime: the compiled tree itself, no hand-written logic. Host events go through
 * {@link StateTreeSystem#sendEvent(int, int, float, boolean)} on the calling (simulation) thread
 * before the tick, their tag resolved once, as a host that sends many events would.
 */
final class OursPopulation implements Population {
    private final StateTreeSystem sys;
    /** The sleepy variant's event tag (-1 in the trees that do not know it: such events are dropped). */
    private final int eventTag;

    OursPopulation(StateTreeSystem sys) {
        this.sys = sys;
        this.eventTag = sys.tree().eventTagId(Logic.S_EVENT);
    }

    @Override
    public void start() {
        sys.startAll(0);
    }

    @Override
    public void tick(long tick, float dt) {
        sys.tickAll(tick, dt);
    }

    @Override
    public void sendEvent(int agent) {
        sys.sendEvent(agent, eventTag, 0f, false);
    }

    @Override
    public int awakeLastTick() {
        return sys.awakeLastTick();
    }

    @Override
    public void states(int[] out) {
        for (int a = 0, n = sys.agentCount(); a < n; a++) {
            out[a] = sys.treeStatus(a) == RunStatus.RUNNING ? sys.activeState(a) : -1;
        }
    }

    @Override
    public int instanceBytesPerAgent() {
        return sys.bytesPerAgent();
    }

    @Override
    public void close() {
        sys.close();
    }
}
