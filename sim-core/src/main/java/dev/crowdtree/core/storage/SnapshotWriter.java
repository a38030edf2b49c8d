package dev.crowdtree.core.storage;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes the crowdtree snapshot container (docs/SNAPSHOT.md): a header (magic, format version,
 * body length), a body (the snapshot's kind and its named sections) and a CRC32C of header and
 * body. Sections are filled in memory through {@link #section}; {@link #writeTo} writes the whole
 * file at once. Read it back with {@link SnapshotReader}.
 *
 * <p>Layout, all numbers big-endian:
 * <pre>
 *   magic    8 bytes  "CTSNAP\r\n"
 *   version  int32    {@value #VERSION}
 *   length   int64    bytes of the body
 *   body     kind (UTF), section count (int32), per section: name (UTF), length (int32), bytes
 *   crc      int32    CRC32C of every byte before it
 * </pre>
 */
public final class SnapshotWriter {
    /** The format version this build writes and reads. */
    public static final int VERSION = 1;
    static final byte[] MAGIC = "CTSNAP\r\n".getBytes(StandardCharsets.US_ASCII);

    private final String kind;
    private final List<String> names = new ArrayList<>();
    private final List<BlockOutput> bodies = new ArrayList<>();

    /** A snapshot of the given kind (for example {@code statetree.batched}), checked on reading. */
    public SnapshotWriter(String kind) {
        this.kind = kind;
    }

    /** Starts section {@code name} (unique in the snapshot) and returns the stream to fill it with. */
    public DataOutputStream section(String name) {
        return section(name, 256);
    }

    /**
     * {@link #section(String)} for a section expected to take about {@code expectedBytes} (its first
     * block is that size; a section grows by blocks, never by copying what it holds).
     */
    public DataOutputStream section(String name, int expectedBytes) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("section '" + name + "' is already in this snapshot");
        }
        BlockOutput b = new BlockOutput(expectedBytes);
        names.add(name);
        bodies.add(b);
        return new DataOutputStream(b);
    }

    /**
     * Writes the complete snapshot to {@code out} (not closed); returns the bytes written. The
     * sections are written as they are, not copied into a body first, with the checksum computed
     * on the way (a region's checkpoint at 1M agents is about 100 MB).
     */
    public long writeTo(OutputStream out) throws IOException {
        byte[] kindBytes = utf(kind);
        byte[][] prefixes = new byte[names.size()][];
        long length = kindBytes.length + 4L;
        for (int i = 0; i < names.size(); i++) {
            byte[] name = utf(names.get(i));
            prefixes[i] = java.util.Arrays.copyOf(name, name.length + 4);
            long body = bodies.get(i).size();
            if (body > Integer.MAX_VALUE) {
                throw new IllegalStateException("section '" + names.get(i) + "' holds " + body + " bytes; at most "
                        + Integer.MAX_VALUE + " fit a section");
            }
            java.nio.ByteBuffer.wrap(prefixes[i]).putInt(name.length, (int) body);
            length += prefixes[i].length + body;
        }
        ByteArrayOutputStream head = new ByteArrayOutputStream(20);
        DataOutputStream h = new DataOutputStream(head);
        h.write(MAGIC);
        h.writeInt(VERSION);
        h.writeLong(length);
        h.write(kindBytes);
        h.writeInt(names.size());
        h.flush();
        CRC32C crc = new CRC32C();
        OutputStream o = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                crc.update(b);
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                crc.update(b, off, len);
                out.write(b, off, len);
            }
        };
        head.writeTo(o);
        for (int i = 0; i < names.size(); i++) {
            o.write(prefixes[i]);
            bodies.get(i).writeTo(o);
        }
        DataOutputStream tail = new DataOutputStream(out);
        tail.writeInt((int) crc.getValue());
        tail.flush();
        return HEAD_BYTES + length + 4;
    }

    /** The complete snapshot as bytes, in an array of its exact size (no copy of a growing buffer). */
    public byte[] toByteArray() {
        long size = HEAD_BYTES + 4;
        size += utf(kind).length + 4L;
        for (int i = 0; i < names.size(); i++) {
            size += utf(names.get(i)).length + 4L + bodies.get(i).size();
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a snapshot of " + size + " bytes does not fit one array");
        }
        ExactOut exact = new ExactOut((int) size);
        try {
            writeTo(exact);
        } catch (IOException e) {
            throw new IllegalStateException(e); // writing to memory does not fail
        }
        return exact.bytes;
    }

    /** Bytes of the header before the body: magic, version, length. */
    private static final int HEAD_BYTES = 8 + 4 + 8;

    /** {@code s} in modified UTF-8 with its 2-byte length, as {@link DataOutputStream#writeUTF} writes it. */
    private static byte[] utf(String s) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(2 + s.length());
        try {
            new DataOutputStream(b).writeUTF(s);
        } catch (IOException e) {
            throw new IllegalArgumentException("name too long for a snapshot: " + s.length() + " characters", e);
        }
        return b.toByteArray();
    }

    /** An output stream into an array of a known size. */
    private static final class ExactOut extends OutputStream {
        final byte[] bytes;
        int at;

        ExactOut(int size) {
            bytes = new byte[size];
        }

        @Override
        public void write(int b) {
            bytes[at++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, bytes, at, len);
            at += len;
        }
    }
}
