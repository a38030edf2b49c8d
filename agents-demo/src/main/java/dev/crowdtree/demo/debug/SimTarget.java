package dev.crowdtree.demo.debug;

import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.statetree.exec.StateTreeRuntime;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A simulation of any model as the debugger runs it ({@code serve --debug}, a recording of
 * {@code run --record}, {@code debug scenario.json --model PATH}): one {@link Simulation#tick()} per
 * step, snapshots and restores by the simulation's own ({@link Simulation#save}), so every model
 * travels in time. With a scenario, each tick's inputs are applied to the runtime just before the
 * tick (tick 0 is the model's start: its inputs are applied after it).
 */
final class SimTarget implements DebugTarget {
    /**
     * Opens a new simulation of the same model, settings and tree from a snapshot of this one (for
     * {@link #copier}). THREADING: called on the debugger's re-simulation thread.
     */
    @FunctionalInterface
    interface Copies {
        /** The simulation {@code snapshot} saved; the caller closes it. */
        Simulation open(byte[] snapshot) throws IOException;
    }

    private final Simulation sim;
    /** The scenario's inputs, or null: a run without inputs. */
    private final ScenarioInputs inputs;
    /** How to copy the simulation, or null: it cannot be copied. */
    private final Copies copies;

    SimTarget(Simulation sim) {
        this(sim, null, null);
    }

    /**
     * @param inputs a scenario's inputs, applied before each tick (tick 0's now), or null
     * @param copies how to copy the simulation from a snapshot, or null when it cannot be
     */
    SimTarget(Simulation sim, ScenarioInputs inputs, Copies copies) {
        this(sim, inputs, copies, true);
    }

    private SimTarget(Simulation sim, ScenarioInputs inputs, Copies copies, boolean start) {
        this.sim = sim;
        this.inputs = inputs;
        this.copies = copies;
        if (inputs != null && start) {
            inputs.apply(sim.system(), sim.tree(), 0);
        }
    }

    /** A copy from a snapshot, with the same inputs (immutable) and no copier of its own; null without {@code copies}. */
    @Override
    public Copier copier() {
        if (copies == null) {
            return null;
        }
        return (snapshot, tick) -> {
            Simulation copy = copies.open(snapshot);
            if (copy.tickNumber() != tick) {
                long at = copy.tickNumber();
                copy.close();
                throw new IOException("the snapshot is of tick " + at + ", not " + tick);
            }
            return new SimTarget(copy, inputs, null, false);
        };
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
        return inputs == null ? Long.MAX_VALUE : inputs.scenario().ticks();
    }

    @Override
    public String step() {
        int k = (int) (sim.tickNumber() + 1);
        if (inputs == null) {
            sim.tick();
            return "[]";
        }
        if (k > inputs.scenario().ticks()) {
            throw new IllegalStateException("the scenario ends at tick " + inputs.scenario().ticks());
        }
        inputs.apply(sim.system(), sim.tree(), k);
        sim.tick();
        return inputs.json(k);
    }

    @Override
    public List<HostEvent> nextEvents() {
        return inputs == null ? List.of() : inputs.events((int) (sim.tickNumber() + 1));
    }

    @Override
    public boolean canSnapshot() {
        return true;
    }

    @Override
    public byte[] snapshot() throws IOException {
        return sim.snapshot();
    }

    @Override
    public void restore(byte[] snapshot, long tick) throws IOException {
        sim.restore(snapshot);
        if (sim.tickNumber() != tick) {
            throw new IOException("the snapshot is of tick " + sim.tickNumber() + ", not " + tick);
        }
    }

    @Override
    public long worldHash() {
        return sim.worldHash();
    }

    /** The simulation's host columns: the model's and the tree's ({@link Simulation#columnNames()}). */
    @Override
    public List<String> columnNames() {
        return sim.columnNames();
    }

    @Override
    public double columnValue(int agent, String column) {
        return sim.columnValue(sim.world().rowOf(agent), column);
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "model %s: %,d agents, %d workers, seed %d, tree %s", sim.modelName(),
                sim.settings().agents(), sim.settings().workers(), sim.settings().seed(), sim.tree().name);
    }

    @Override
    public void close() {
        sim.close();
    }
}
