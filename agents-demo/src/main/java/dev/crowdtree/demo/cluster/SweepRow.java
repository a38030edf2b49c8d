package dev.crowdtree.demo.cluster;

import java.io.Serializable;

/**
 * One row of a sweep's table: what one job's crowd run gave, or why it failed.
 *
 * @param job        the job's name: its seed, or its scenario file's name
 * @param agents     agents at the start
 * @param ticks      ticks run
 * @param tickNanos  the ticks' wall time on the member (building the world not included)
 * @param worldHash  {@code CrowdSim.worldHash()} after the last tick
 * @param alarms     the model's first counter (the crowd: fire alarms heard), -1 when it has none
 * @param running    agents whose trees were still running at the end
 * @param member     {@code host:port} of the member that ran it
 * @param error      why the job failed, or null when it did not
 */
public record SweepRow(String job, int agents, int ticks, long tickNanos, long worldHash, long alarms, int running,
                       String member, String error) implements Serializable {

    /** A job that threw on {@code member} with the message {@code error}. */
    public static SweepRow failed(Sweep.Job job, String member, String error) {
        return new SweepRow(job.name(), job.agents(), job.ticks(), 0, 0, 0, 0, member, error);
    }

    /** Whether the job failed (then only job, agents, ticks, member and error mean anything). */
    public boolean failedRun() {
        return error != null;
    }

    /** The ticks' wall time in milliseconds. */
    public double wallMillis() {
        return tickNanos / 1e6;
    }

    /** Wall nanoseconds per agent and tick (0 for a run of no tick). */
    public double nsPerAgentTick() {
        return ticks == 0 ? 0 : tickNanos / ((double) agents * ticks);
    }
}
