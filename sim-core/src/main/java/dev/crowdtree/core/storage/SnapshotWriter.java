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
    private final List<ByteArrayOutputStream> bodies = new ArrayList<>();

    /** A snapshot of the given kind (for example {@code statetree.batched}), checked on reading. */
    public SnapshotWriter(String kind) {
        this.kind = kind;
    }

    /** Starts section {@code name} (unique in the snapshot) and returns the stream to fill it with. */
    public DataOutputStream section(String name) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("section '" + name + "' is already in this snapshot");
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        names.add(name);
        bodies.add(b);
        return new DataOutputStream(b);
    }

    /** Writes the complete snapshot to {@code out} (not closed); returns the bytes written. */
    public long writeTo(OutputStream out) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(body);
        d.writeUTF(kind);
        d.writeInt(names.size());
        for (int i = 0; i < names.size(); i++) {
            d.writeUTF(names.get(i));
            d.writeInt(bodies.get(i).size());
            bodies.get(i).writeTo(d);
        }
        d.flush();
        ByteArrayOutputStream head = new ByteArrayOutputStream(20);
        DataOutputStream h = new DataOutputStream(head);
        h.write(MAGIC);
        h.writeInt(VERSION);
        h.writeLong(body.size());
        h.flush();
        CRC32C crc = new CRC32C();
        byte[] hb = head.toByteArray();
        byte[] bb = body.toByteArray();
        crc.update(hb);
        crc.update(bb);
        DataOutputStream o = new DataOutputStream(out);
        o.write(hb);
        o.write(bb);
        o.writeInt((int) crc.getValue());
        o.flush();
        return hb.length + (long) bb.length + 4;
    }
}
