package dev.crowdtree.core.storage;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Reads a snapshot written by {@link SnapshotWriter}: the whole stream is read into memory and its
 * magic, format version, length and checksum are verified before any section is handed out, so a
 * caller that parses every section before applying any can refuse a bad snapshot having changed
 * nothing. Errors are {@link SnapshotException}s with one-line messages.
 */
public final class SnapshotReader {
    private final String kind;
    private final Map<String, byte[]> sections = new LinkedHashMap<>();
    private final long size;

    private SnapshotReader(String kind, long size) {
        this.kind = kind;
        this.size = size;
    }

    /**
     * Reads and verifies a whole snapshot from {@code in} (read to its end, not closed).
     *
     * @throws SnapshotException when it is not a snapshot, has another format version, or its
     *                           length or checksum do not match (corrupted or truncated)
     */
    public static SnapshotReader read(InputStream in) throws IOException {
        return parse(in.readAllBytes());
    }

    /** As {@link #read}, from bytes in memory. */
    public static SnapshotReader parse(byte[] all) throws SnapshotException {
        byte[] magic = SnapshotWriter.MAGIC;
        if (all.length < magic.length || !Arrays.equals(all, 0, magic.length, magic, 0, magic.length)) {
            throw new SnapshotException("not a crowdtree snapshot");
        }
        ByteBuffer b = ByteBuffer.wrap(all);
        int head = magic.length + 4 + 8;
        if (all.length < magic.length + 4) {
            throw corrupted();
        }
        int version = b.getInt(magic.length);
        if (version != SnapshotWriter.VERSION) {
            throw new SnapshotException("snapshot format version " + version + ", this build reads "
                    + SnapshotWriter.VERSION);
        }
        if (all.length < head + 4) {
            throw corrupted();
        }
        long length = b.getLong(magic.length + 4);
        if (length < 0 || length != all.length - head - 4L) {
            throw corrupted();
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 4);
        if ((int) crc.getValue() != b.getInt(all.length - 4)) {
            throw corrupted();
        }
        try {
            DataInputStream d = new DataInputStream(new ByteArrayInputStream(all, head, (int) length));
            SnapshotReader r = new SnapshotReader(d.readUTF(), all.length);
            int n = d.readInt();
            for (int i = 0; i < n; i++) {
                String name = d.readUTF();
                int len = d.readInt();
                if (len < 0 || len > d.available()) {
                    throw corrupted();
                }
                r.sections.put(name, d.readNBytes(len));
            }
            return r;
        } catch (IOException e) {
            throw corrupted();
        }
    }

    private static SnapshotException corrupted() {
        return new SnapshotException("checksum mismatch: the file is corrupted or truncated");
    }

    /** The snapshot's kind, as given to {@link SnapshotWriter#SnapshotWriter}. */
    public String kind() {
        return kind;
    }

    /** Size of the whole snapshot in bytes. */
    public long size() {
        return size;
    }

    /**
     * Requires the snapshot to be of kind {@code expected}.
     *
     * @throws SnapshotException naming both kinds
     */
    public void requireKind(String expected) throws SnapshotException {
        if (!kind.equals(expected)) {
            throw new SnapshotException("a snapshot of a " + kind + ", not of a " + expected);
        }
    }

    /** The bytes of section {@code name}. */
    public byte[] bytes(String name) throws SnapshotException {
        byte[] s = sections.get(name);
        if (s == null) {
            throw new SnapshotException("the snapshot (" + kind + ") has no section '" + name + "'");
        }
        return s;
    }

    /**
     * Section {@code name} as a stream.
     *
     * @throws SnapshotException when the snapshot has no such section
     */
    public DataInputStream section(String name) throws SnapshotException {
        return new DataInputStream(new ByteArrayInputStream(bytes(name)));
    }
}
