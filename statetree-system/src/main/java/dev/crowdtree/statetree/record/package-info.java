/**
 * Recordings (docs/RECORDING.md): a run's start snapshot, the external inputs and the
 * {@link dev.crowdtree.statetree.exec.Recorder}'s counters of every tick, periodic snapshots with
 * their world hashes and the final world hash, framed in checksummed blocks.
 * {@link dev.crowdtree.statetree.record.RecordingWriter} writes one as the run goes;
 * {@link dev.crowdtree.statetree.record.Recording} reads and verifies one whole.
 */
package dev.crowdtree.statetree.record;
