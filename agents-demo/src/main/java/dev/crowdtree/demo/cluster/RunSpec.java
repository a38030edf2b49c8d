package dev.crowdtree.demo.cluster;

import dev.crowdtree.demo.sim.SimSettings;

import java.io.Serializable;

/**
 * What a member needs to build its regions of a run: the model (its name and fingerprint: the member
 * must have loaded the same bytes), the run's settings (one worker per region: a member steps its
 * regions in parallel instead), the tree asset's text, and the region count. Sent with every setup
 * task.
 */
public record RunSpec(String runId, String model, String fingerprint, int agents, long seed, float dt, String treeName,
                      String treeText, int regions) implements Serializable {

    /** A run of {@code model} (its fingerprint {@code fingerprint}) with {@code settings}. */
    public static RunSpec of(String runId, String model, String fingerprint, SimSettings settings, String treeName,
                             String treeText, int regions) {
        return new RunSpec(runId, model, fingerprint, settings.agents(), settings.seed(), settings.dt(), treeName,
                treeText, regions);
    }

    /**
     * Every field, for a task's proof ({@link Tasks.MemberTask#canonical}): strings with their
     * length first, {@code dt} by its bits.
     */
    void writeTo(java.io.DataOutputStream out) throws java.io.IOException {
        Tasks.string(out, runId);
        Tasks.string(out, model);
        Tasks.string(out, fingerprint);
        out.writeInt(agents);
        out.writeLong(seed);
        out.writeInt(Float.floatToIntBits(dt));
        Tasks.string(out, treeName);
        Tasks.string(out, treeText);
        out.writeInt(regions);
    }

    /** The run's settings, one worker. */
    public SimSettings settings() {
        return new SimSettings(agents, seed, 1, dt);
    }
}
