package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.sim.CrowdSim;
import dev.crowdtree.demo.sim.CrowdSnapshot;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The crowd (or a tree alone) of {@code run} and {@code serve}, as the debugger runs it: no external
 * inputs, one {@link Simulation#tick()} per step. Only the crowd ({@link CrowdSim}) can be
 * snapshotted ({@link CrowdSnapshot}), so only the crowd travels in time and is recorded. The host
 * columns shown are the interface's default, the tree's ({@link DebugTarget#columnNames()}); the
 * simulation model's own per-agent columns would be added by overriding {@code columnNames()} and
 * {@code columnValue(agent, column)} here.
 */
final class SimTarget implements DebugTarget {
    private final Simulation sim;

    SimTarget(Simulation sim) {
        this.sim = sim;
    }

    Simulation sim() {
        return sim;
    }

    @Override
    public StateTreeRuntime runtime() {
        return sim.system();
    }

    @Override
    public long tick() {
        return sim.tickNumber();
    }

    @Override
    public long lastTick() {
        return Long.MAX_VALUE;
    }

    @Override
    public String step() {
        sim.tick();
        return "[]";
    }

    @Override
    public List<HostEvent> nextEvents() {
        return List.of();
    }

    @Override
    public boolean canSnapshot() {
        return sim instanceof CrowdSim;
    }

    @Override
    public byte[] snapshot() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        CrowdSnapshot.save(crowd(), out);
        return out.toByteArray();
    }

    @Override
    public void restore(byte[] snapshot, long tick) throws IOException {
        CrowdSnapshot.restore(crowd(), snapshot);
        if (sim.tickNumber() != tick) {
            throw new IOException("the snapshot is of tick " + sim.tickNumber() + ", not " + tick);
        }
    }

    private CrowdSim crowd() {
        if (!(sim instanceof CrowdSim)) {
            throw new IllegalStateException("a tree that runs alone cannot be snapshotted; only the crowd can");
        }
        return (CrowdSim) sim;
    }

    @Override
    public long worldHash() {
        return sim.worldHash();
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "%s: %,d agents, %d workers, seed %d, tree %s",
                sim.isCrowd() ? "crowd" : "tree alone", sim.config().agents(), sim.config().workers(),
                sim.config().seed(), sim.tree().name);
    }

    @Override
    public void close() {
        sim.close();
    }
}
