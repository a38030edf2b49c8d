package dev.crowdtree.demo.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What members answer the driver's tasks with, as records with one versioned binary codec (in place
 * of positional {@code long[]}s whose meaning lived in the order both sides happened to use). Each
 * answer is {@code [kind byte][version int][fields]}; a reader refuses another kind, another version
 * or a length that does not fit, naming what it got, so a driver and a member of different builds
 * fail with a message instead of misreading each other. Big-endian, as {@link DataOutputStream}.
 *
 * <p>THREADING: records are immutable; the codec is stateless.
 */
final class Wire {
    /**
     * The version of every answer's layout and of the tasks' ({@link Tasks}: their fields and what
     * their proofs cover); a change of any record's or task's fields changes it. 3: task proofs cover
     * the task's contents, under a key of their own.
     */
    static final int VERSION = 3;
    private static final byte SETUP = 1;
    private static final byte STEP = 2;
    private static final byte RESULT = 3;

    private Wire() {
    }

    /** A member built or restored its regions: time taken, bytes of checkpoints written. */
    record SetupAnswer(long nanos, long checkpointBytes) {
        byte[] encode() {
            return write(SETUP, out -> {
                out.writeLong(nanos);
                out.writeLong(checkpointBytes);
            });
        }

        static SetupAnswer decode(byte[] b) {
            return read(b, SETUP, "setup answer", in -> new SetupAnswer(in.readLong(), in.readLong()));
        }
    }

    /**
     * A member stepped its regions (or one region stepped, with {@code nanos} 0): time taken, bytes
     * written to the exchange (halo, migrating agents, events), checkpoint bytes, and the sealed
     * bytes sent to other members.
     */
    record StepAnswer(long nanos, long haloBytes, long migrationBytes, long eventBytes, long checkpointBytes,
                      long sentBytes) {
        /** The sums of the byte counts of both, the time of this one. */
        StepAnswer plus(StepAnswer o) {
            return new StepAnswer(nanos, haloBytes + o.haloBytes, migrationBytes + o.migrationBytes,
                    eventBytes + o.eventBytes, checkpointBytes + o.checkpointBytes, sentBytes + o.sentBytes);
        }

        StepAnswer withNanos(long n) {
            return new StepAnswer(n, haloBytes, migrationBytes, eventBytes, checkpointBytes, sentBytes);
        }

        byte[] encode() {
            return write(STEP, out -> {
                out.writeLong(nanos);
                out.writeLong(haloBytes);
                out.writeLong(migrationBytes);
                out.writeLong(eventBytes);
                out.writeLong(checkpointBytes);
                out.writeLong(sentBytes);
            });
        }

        static StepAnswer decode(byte[] b) {
            return read(b, STEP, "step answer", in -> new StepAnswer(in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong(), in.readLong()));
        }
    }

    /**
     * A member's regions at the end of a run, summed over them: agents, the sum of their agents'
     * hashes, the threats' hash (the same in every region), the sum of the smart objects' hashes,
     * alarms, used slots, dropped events, node failures, running agents per state.
     */
    record MemberResult(long agents, long agentHash, long sharedHash, long ownedHash, long droppedEvents,
                        long nodeFailures, long[] occupancy, long[] counters) {
        /** A member without regions. */
        static final MemberResult NONE = new MemberResult(0, 0, 0, 0, 0, 0, new long[0], new long[0]);

        byte[] encode() {
            return write(RESULT, out -> {
                for (long v : new long[] {agents, agentHash, sharedHash, ownedHash, droppedEvents, nodeFailures}) {
                    out.writeLong(v);
                }
                writeLongs(out, occupancy);
                writeLongs(out, counters);
            });
        }

        /**
         * The results of several members (or regions) added up: counts and hashes summed (wrapping),
         * occupancy and counters state by state, the shared hash taken from any (every region has the
         * same); those without regions (no occupancy) left out.
         */
        static MemberResult sum(List<MemberResult> parts) {
            long[] v = new long[6];
            long[] occupancy = new long[0];
            long[] counters = new long[0];
            for (MemberResult p : parts) {
                if (p.occupancy.length == 0) {
                    continue; // a member without regions
                }
                v[0] += p.agents;
                v[1] += p.agentHash;
                v[2] = p.sharedHash;
                v[3] += p.ownedHash;
                v[4] += p.droppedEvents;
                v[5] += p.nodeFailures;
                occupancy = add(occupancy, p.occupancy);
                counters = add(counters, p.counters);
            }
            return new MemberResult(v[0], v[1], v[2], v[3], v[4], v[5], occupancy, counters);
        }

        /** {@code into} plus {@code more}, element by element, grown to the longer. */
        private static long[] add(long[] into, long[] more) {
            long[] out = java.util.Arrays.copyOf(into, Math.max(into.length, more.length));
            for (int i = 0; i < more.length; i++) {
                out[i] += more[i];
            }
            return out;
        }

        static MemberResult decode(byte[] b) {
            return read(b, RESULT, "member result", in -> {
                long[] v = new long[6];
                for (int i = 0; i < v.length; i++) {
                    v[i] = in.readLong();
                }
                long[] occ = readLongs(in, "an occupancy of %d states");
                long[] counters = readLongs(in, "%d counters");
                return new MemberResult(v[0], v[1], v[2], v[3], v[4], v[5], occ, counters);
            });
        }
    }

    private static void writeLongs(DataOutputStream out, long[] values) throws IOException {
        out.writeInt(values.length);
        for (long v : values) {
            out.writeLong(v);
        }
    }

    /** A count and as many longs; {@code what} names the count ("%d counters") when it does not fit. */
    private static long[] readLongs(DataInputStream in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available() / 8) {
            throw new IOException(String.format(java.util.Locale.ROOT, what, n) + " does not fit");
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = in.readLong();
        }
        return out;
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(byte kind, Writer w) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeByte(kind);
            out.writeInt(VERSION);
            w.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not throw
        }
        return b.toByteArray();
    }

    private static <T> T read(byte[] b, byte kind, String what, Reader<T> r) {
        if (b == null || b.length < 5) {
            throw new IllegalStateException("a " + what + " of " + (b == null ? "no" : b.length) + " bytes: too short");
        }
        if (b[0] != kind) {
            throw new IllegalStateException("expected a " + what + ", got an answer of kind " + b[0]);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b, 1, b.length - 1))) {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IllegalStateException("a " + what + " of wire version " + version + ", this build reads "
                        + VERSION + " (the driver and the members must run the same build)");
            }
            T t = r.read(in);
            if (in.available() != 0) {
                throw new IllegalStateException("a " + what + " with " + in.available() + " bytes too many");
            }
            return t;
        } catch (IOException e) {
            throw new IllegalStateException("a " + what + " cut short: " + e.getMessage());
        }
    }
}
