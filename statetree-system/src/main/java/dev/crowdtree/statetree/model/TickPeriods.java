package dev.crowdtree.statetree.model;

/**
 * Where level of detail hands its tick periods: the StateTree runtime's
 * {@code StateTreeSystem.setTickPeriodOfRow} by default; tests plug in a recorder.
 *
 * <p>THREADING: called from the kernels of a parallel phase, for rows of the calling chunk only.
 */
@FunctionalInterface
public interface TickPeriods {
    /** Row {@code row} should tick every {@code period} steps from its next step on. */
    void setTickPeriodOfRow(int row, int period);
}
