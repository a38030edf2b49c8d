package dev.crowdtree.demo.debug;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A recording's bytes (docs/RECORDING.md) taken apart and put back for tests that damage them the way
 * a crafted file would: every block's checksum recomputed, so that only the checks for meaning stand
 * between the bytes and a replay. THREADING: static helpers.
 */
public final class RecordingBytes {
    /** Magic and version. */
    public static final int PREAMBLE = 12;

    private RecordingBytes() {
    }

    /**
     * One block: its type, where its frame starts, where its body starts and how long it is; for a block
     * with a snapshot (the start, or a tick with flag 2), where the declared size and the compressed
     * snapshot start ({@code sizeAt}, {@code snapshotAt}; -1 when none).
     */
    public record Block(int type, int at, int body, int length, int sizeAt, int snapshotAt, long tick, int countersAt) {
        /** The end of the body. */
        public int end() {
            return body + length;
        }
    }

    /** The blocks of {@code file}, in order. */
    public static List<Block> blocks(byte[] file) {
        List<Block> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file);
        int pos = PREAMBLE;
        while (pos + 5 <= file.length) {
            int type = file[pos] & 0xff;
            int len = b.getInt(pos + 1);
            int body = pos + 5;
            int sizeAt = -1;
            int snapAt = -1;
            long tick = Long.MIN_VALUE;
            int countersAt = -1;
            if (type == 2) {
                sizeAt = body;
                snapAt = body + 4;
            } else if (type == 3) {
                tick = b.getLong(body);
                int flags = file[body + 8] & 0xff;
                int[] p = {body + 9};
                long inputs = varint(file, p);
                p[0] += (int) inputs;
                if ((flags & 1) != 0) {
                    countersAt = p[0];
                    p[0] = countersEnd(file, countersAt);
                }
                if ((flags & 2) != 0) {
                    p[0] += 8;
                    sizeAt = p[0];
                    varint(file, p);
                    snapAt = p[0];
                }
            }
            out.add(new Block(type, pos, body, len, sizeAt, snapAt, tick, countersAt));
            pos = body + len + 4;
        }
        return out;
    }

    /**
     * Where a tick's counters that start at {@code countersAt} of {@code file} end: the count of
     * states and theirs, the count of transitions and theirs, then five scalars, all varints.
     */
    public static int countersEnd(byte[] file, int countersAt) {
        int[] p = {countersAt};
        long states = varint(file, p);
        for (long i = 0; i < states; i++) {
            varint(file, p);
        }
        long transitions = varint(file, p);
        for (long i = 0; i < transitions + 5; i++) {
            varint(file, p);
        }
        return p[0];
    }

    /** Recomputes the checksum of {@code block} of {@code file} (its frame and body as they are now). */
    public static void reseal(byte[] file, Block block) {
        CRC32C crc = new CRC32C();
        crc.update(file, block.at(), 5 + block.length());
        ByteBuffer.wrap(file).putInt(block.end(), (int) crc.getValue());
    }

    /** The decompressed snapshot of {@code block}. */
    public static byte[] snapshot(byte[] file, Block block) throws DataFormatException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(file, block.snapshotAt(), block.end() - block.snapshotAt());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataFormatException("truncated");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            inf.end();
        }
    }

    /**
     * {@code file} with the snapshot of {@code block} replaced by {@code change} of it: recompressed, its
     * declared size that of the new snapshot, the block's length and checksum recomputed.
     */
    public static byte[] replaceSnapshot(byte[] file, Block block, UnaryOperator<byte[]> change)
            throws DataFormatException {
        byte[] raw = change.apply(snapshot(file, block));
        return replaceSnapshot(file, block, raw, raw.length);
    }

    /** As {@link #replaceSnapshot(byte[], Block, UnaryOperator)}, declaring {@code declared} bytes for {@code raw}. */
    public static byte[] replaceSnapshot(byte[] file, Block block, byte[] raw, long declared) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(file, block.body(), block.sizeAt() - block.body());
        if (block.type() == 2) {
            body.writeBytes(ByteBuffer.allocate(4).putInt((int) declared).array());
        } else {
            writeVarint(body, declared);
        }
        Deflater d = new Deflater(Deflater.BEST_SPEED);
        d.setInput(raw);
        d.finish();
        byte[] buf = new byte[1 << 16];
        while (!d.finished()) {
            body.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return replaceBody(file, block, body.toByteArray());
    }

    /** {@code file} with {@code block}'s body replaced by {@code body}, its length and checksum recomputed. */
    public static byte[] replaceBody(byte[] file, Block block, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + body.length);
        out.write(file, 0, block.at());
        out.write(block.type());
        out.writeBytes(ByteBuffer.allocate(4).putInt(body.length).array());
        out.writeBytes(body);
        out.writeBytes(new byte[4]);
        out.write(file, block.end() + 4, file.length - block.end() - 4);
        byte[] result = out.toByteArray();
        reseal(result, new Block(block.type(), block.at(), block.at() + 5, body.length, -1, -1, block.tick(), -1));
        return result;
    }

    /** Writes {@code v} as an unsigned LEB128 varint. */
    public static void writeVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads a varint at {@code p[0]}, advancing it. */
    public static long varint(byte[] b, int[] p) {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int x = b[p[0]++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        return v;
    }

    /** A copy of {@code b}. */
    public static byte[] copy(byte[] b) {
        return Arrays.copyOf(b, b.length);
    }
}
