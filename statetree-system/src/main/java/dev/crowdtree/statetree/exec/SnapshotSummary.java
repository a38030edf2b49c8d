package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.world.WorldSnapshot;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * What a batched runtime's snapshot (kind {@code statetree.batched}, docs/SNAPSHOT.md) says about its
 * size and its clock, read without restoring it (and without verifying its checksum, which the
 * restore does): the agents its table holds ({@link WorldSnapshot#peekRows}: their values must be in
 * the file), the world clock's tick, the runtime's steps run, the dt its timers' due steps were derived
 * with, and the last tick number it ran. A host checks them against its own settings before it builds
 * a world for the snapshot: a simulation that ticks its runtime once per clock tick with a fixed dt
 * has one tick number and one dt.
 *
 * @param rows      agents in the table
 * @param clockTick the world clock's tick
 * @param steps     the runtime's steps run
 * @param timerDt   the dt the running timers' due steps were derived with
 * @param lastTick  the tick number of the runtime's last tick
 */
public record SnapshotSummary(int rows, long clockTick, int steps, float timerDt, long lastTick) {
    /**
     * Reads the summary of the runtime's snapshot {@code snapshot}.
     *
     * @throws SnapshotException when it is not a snapshot of this format version, lacks a section or
     *                           ends early
     */
    public static SnapshotSummary peek(byte[] snapshot) throws SnapshotException {
        try {
            long clock = SnapshotReader.peekSection(snapshot, "world").readLong();
            int rows = WorldSnapshot.peekRows(SnapshotReader.peekSection(snapshot, "world"));
            DataInputStream rt = SnapshotReader.peekSection(snapshot, "runtime");
            return new SnapshotSummary(rows, clock, rt.readInt(), rt.readFloat(), rt.readLong());
        } catch (EOFException e) {
            throw new SnapshotException("the snapshot's system section is malformed: it ends early");
        } catch (SnapshotException e) {
            throw e;
        } catch (IOException e) {
            throw new SnapshotException("the snapshot's system section is malformed: " + e.getMessage());
        }
    }

    /**
     * Checks that the snapshot is of a simulation at tick {@code tick} ticked with {@code dt}: the clock,
     * the runtime's last tick and its steps run are that tick, and its timers were derived with that
     * dt (so the first tick rebases nothing). {@code what} names the section that gives the tick and
     * the dt, for the message.
     *
     * @throws SnapshotException saying which numbers disagree
     */
    public void checkTicked(long tick, float dt, String what) throws SnapshotException {
        if (clockTick != tick || lastTick != tick || steps != tick) {
            throw new SnapshotException("the snapshot's ticks disagree: its " + what + " says tick " + tick
                    + ", its system section's clock " + clockTick + ", the runtime's last tick " + lastTick
                    + " and steps run " + steps + "; a saved simulation's are one number");
        }
        if (Float.floatToIntBits(timerDt) != Float.floatToIntBits(dt)) {
            throw new SnapshotException("the snapshot's runtime derived its timers with dt " + timerDt + " s, its "
                    + what + " gives dt " + dt + " s; a simulation ticks with one dt, so they are the same number");
        }
    }
}
