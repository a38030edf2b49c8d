package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.TableSnapshot;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A snapshot container's bytes (docs/SNAPSHOT.md: magic(8) version(4) length(8) body checksum(4);
 * body = kind, count, sections) for tests that change them the way a crafted file would: a section's
 * place, and the checksums recomputed after a change. THREADING: static helpers.
 */
public final class SnapshotBytes {
    private SnapshotBytes() {
    }

    /** Start and length of section {@code name} of the container at {@code [start, start + len)} of {@code b}. */
    public static int[] section(byte[] b, int start, int len, String name) throws IOException {
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(b, start + 20, len - 24));
        d.readUTF();
        int n = d.readInt();
        for (int i = 0; i < n; i++) {
            String s = d.readUTF();
            int l = d.readInt();
            int at = start + len - 4 - d.available();
            if (s.equals(name)) {
                return new int[] {at, l};
            }
            d.skipNBytes(l);
        }
        throw new AssertionError("no section " + name);
    }

    /** Recomputes the checksum of the container at {@code [start, start + len)}. */
    public static void reseal(byte[] b, int start, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, start, len - 4);
        ByteBuffer.wrap(b).putInt(start + len - 4, (int) crc.getValue());
    }

    /** Reseals the inner (system) container and then the outer one. */
    public static void resealAll(byte[] b) throws IOException {
        int[] sys = section(b, 0, b.length, "system");
        reseal(b, sys[0], sys[1]);
        reseal(b, 0, b.length);
    }

    /** The offset of the rows field (int32) of the world table in the system section of {@code b}. */
    public static int rowsAt(byte[] b) throws IOException {
        int[] world = world(b);
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(b, world[0], world[1]));
        d.readLong();
        d.readInt();
        d.skipNBytes(4L * d.readInt());
        d.skipNBytes(4L * d.readInt());
        d.readLong();
        d.readUTF();
        return world[0] + world[1] - d.available();
    }

    /** Where column {@code column}'s data starts in the world table of the system section of {@code b}. */
    public static int column(byte[] b, String column) throws IOException {
        int[] world = world(b);
        int at = rowsAt(b);
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(b, at, world[0] + world[1] - at));
        int rows = d.readInt();
        int columns = d.readInt();
        for (int i = 0; i < columns; i++) {
            String name = d.readUTF();
            String type = d.readUTF();
            int width = Math.max(0, TableSnapshot.width(type));
            if (name.equals(column)) {
                return world[0] + world[1] - d.available();
            }
            d.skipNBytes((long) rows * width);
        }
        throw new AssertionError("no column " + column);
    }

    private static int[] world(byte[] b) throws IOException {
        int[] sys = section(b, 0, b.length, "system");
        return section(b, sys[0], sys[1], "world");
    }

    /** Start and length of the nested system snapshot's runtime section: steps run (int32), the timers' dt (float), ... */
    public static int[] runtime(byte[] b) throws IOException {
        int[] sys = section(b, 0, b.length, "system");
        return section(b, sys[0], sys[1], "runtime");
    }
}
