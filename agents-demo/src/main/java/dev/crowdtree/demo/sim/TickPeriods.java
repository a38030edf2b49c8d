package dev.crowdtree.demo.sim;

/**
 * Where the crowd's LOD hands its tick periods: by default the StateTree runtime's
 * {@code StateTreeSystem.setTickPeriodOfRow}; tests plug in a recorder.
 *
 * <p>THREADING: called from the kernels of the grid phase, for rows of the calling chunk only.
 */
@FunctionalInterface
public interface TickPeriods {
    /** Row {@code row} should tick every {@code period} steps from its next step on. */
    void setTickPeriodOfRow(int row, int period);
}
