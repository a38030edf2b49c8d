package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.util.List;

/**
 * A runtime that a host's own program ticks ({@link Debugger#attach}): the debugger only watches,
 * between the host's ticks. It cannot snapshot the host's world, so it does not travel in time.
 */
final class AttachedTarget implements DebugTarget {
    private final StateTreeRuntime runtime;
    private long tick = -1;

    AttachedTarget(StateTreeRuntime runtime) {
        this.runtime = runtime;
    }

    void ticked(long tick) {
        this.tick = tick;
    }

    @Override
    public StateTreeRuntime runtime() {
        return runtime;
    }

    @Override
    public long tick() {
        return tick;
    }

    @Override
    public long lastTick() {
        return Long.MAX_VALUE;
    }

    @Override
    public String step() {
        throw new IllegalStateException("the host's program runs the ticks");
    }

    @Override
    public List<HostEvent> nextEvents() {
        return List.of();
    }

    @Override
    public boolean canSnapshot() {
        return false;
    }

    @Override
    public byte[] snapshot() {
        throw new IllegalStateException("an attached debugger cannot snapshot the host's world");
    }

    @Override
    public void restore(byte[] snapshot, long tick) {
        throw new IllegalStateException("an attached debugger cannot restore the host's world");
    }

    @Override
    public long worldHash() {
        return 0;
    }

    @Override
    public String describe() {
        return String.format(java.util.Locale.ROOT, "attached: %,d agents, tree %s", runtime.agentCount(),
                runtime.tree().name);
    }

    @Override
    public void close() {
        // the host owns the runtime
    }
}
