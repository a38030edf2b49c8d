package dev.crowdtree.core.storage;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
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

    /** The largest snapshot file {@link #read(Path, long)} accepts: what fits in one Java array. */
    public static final long MAX_BYTES = Integer.MAX_VALUE - 16;
    /** Bytes before the body: the magic, the format version, the body's length. */
    private static final int HEAD = SnapshotWriter.MAGIC.length + 4 + 8;

    /**
     * Reads and verifies the snapshot file {@code file}, refusing before it reads the file whole
     * what cannot be one: a directory, a device, a pipe or a socket (only regular files are read,
     * symbolic links followed), a file over {@code maxBytes}, and a file whose first bytes are not a
     * snapshot header of this format version announcing the file's own length.
     *
     * @param maxBytes the largest file read, 1..{@link #MAX_BYTES}
     * @throws SnapshotException saying why the file is not read (one line, without the file's name)
     */
    public static SnapshotReader read(Path file, long maxBytes) throws IOException {
        if (maxBytes < 1 || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("maxBytes = " + maxBytes + " is out of range; valid range is 1.." + MAX_BYTES);
        }
        if (Files.isDirectory(file)) {
            throw new SnapshotException("it is a directory, not a snapshot file");
        }
        if (!Files.exists(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString());
        }
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException("it is not a regular file (a device, a pipe or a socket), so not a snapshot");
        }
        long size = Files.size(file);
        if (size > maxBytes) {
            throw new SnapshotException(String.format(Locale.ROOT, "the file is %,d bytes, over the limit of %,d bytes "
                    + "for a snapshot", size, maxBytes));
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(HEAD);
            checkHead(head, head.length, size);
            byte[] all = Arrays.copyOf(head, (int) size);
            int got = head.length + in.readNBytes(all, head.length, all.length - head.length);
            if (got != size || in.read() >= 0) {
                throw new SnapshotException("the file changed while it was read");
            }
            return parse(all);
        }
    }

    /**
     * Checks the first {@code n} bytes of a snapshot of {@code total} bytes: the magic, the format
     * version, and a body length that matches the total.
     */
    private static void checkHead(byte[] b, int n, long total) throws SnapshotException {
        byte[] magic = SnapshotWriter.MAGIC;
        if (n < magic.length || !Arrays.equals(b, 0, magic.length, magic, 0, magic.length)) {
            throw new SnapshotException("not a crowdtree snapshot");
        }
        if (n < magic.length + 4) {
            throw corrupted();
        }
        ByteBuffer buf = ByteBuffer.wrap(b, 0, n);
        int version = buf.getInt(magic.length);
        if (version != SnapshotWriter.VERSION) {
            throw new SnapshotException("snapshot format version " + version + ", this build reads "
                    + SnapshotWriter.VERSION);
        }
        if (n < HEAD || total < HEAD + 4L) {
            throw corrupted();
        }
        long length = buf.getLong(magic.length + 4);
        if (length < 0 || length != total - HEAD - 4L) {
            throw corrupted();
        }
    }

    /** As {@link #read}, from bytes in memory. */
    public static SnapshotReader parse(byte[] all) throws SnapshotException {
        checkHead(all, all.length, all.length);
        ByteBuffer b = ByteBuffer.wrap(all);
        int head = HEAD;
        long length = b.getLong(SnapshotWriter.MAGIC.length + 4);
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

    /**
     * Section {@code name} of the snapshot {@code all} (as {@link #parse} reads it), as a stream over
     * {@code all} itself: no copy, and no checksum verified (the caller parses the whole snapshot
     * later). For a look at a large snapshot's header before deciding to read it.
     *
     * @throws SnapshotException when it is not a snapshot of this version or has no such section
     */
    public static DataInputStream peekSection(byte[] all, String name) throws SnapshotException {
        checkHead(all, all.length, all.length);
        try {
            DataInputStream d = new DataInputStream(new ByteArrayInputStream(all, HEAD, all.length - HEAD - 4));
            d.readUTF(); // kind
            int n = d.readInt();
            for (int i = 0; i < n; i++) {
                String section = d.readUTF();
                int len = d.readInt();
                if (len < 0 || len > d.available()) {
                    throw corrupted();
                }
                if (section.equals(name)) {
                    int at = all.length - 4 - d.available();
                    return new DataInputStream(new ByteArrayInputStream(all, at, len));
                }
                d.skipNBytes(len);
            }
        } catch (IOException e) {
            throw corrupted();
        }
        throw new SnapshotException("the snapshot has no section '" + name + "'");
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
