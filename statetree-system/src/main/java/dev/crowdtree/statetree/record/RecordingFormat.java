package dev.crowdtree.statetree.record;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The constants and encodings of the recording format (docs/RECORDING.md): magic, version, block
 * types, varints, compression. THREADING: stateless (a {@link Body} is one writer's).
 */
final class RecordingFormat {
    /** The first 8 bytes of every recording. */
    static final byte[] MAGIC = {'C', 'T', 'R', 'E', 'C', '\r', '\n', 0x1a};
    /** The format version this build writes and reads. */
    static final int VERSION = 1;
    /** Magic and version. */
    static final int PREAMBLE = MAGIC.length + 4;
    /** A block's frame: type (1 byte), body length (int32) before the body, CRC32C (int32) after it. */
    static final int FRAME_HEAD = 5;
    static final int FRAME_TAIL = 4;

    static final int HEADER = 1;
    static final int START = 2;
    static final int TICK = 3;
    static final int END = 4;

    /** Tick block flags. */
    static final int HAS_COUNTERS = 1;
    static final int HAS_SNAPSHOT = 2;

    /** The compression level of snapshots: fastest (a snapshot's columns compress well anyway). */
    static final int LEVEL = Deflater.BEST_SPEED;

    private RecordingFormat() {
    }

    static String typeName(int type) {
        switch (type) {
            case HEADER:
                return "header";
            case START:
                return "start-snapshot";
            case TICK:
                return "tick";
            case END:
                return "end";
            default:
                return "unknown (" + type + ")";
        }
    }

    /** A growable body buffer with the format's encodings; reused block after block. */
    static final class Body extends ByteArrayOutputStream {
        Body(int size) {
            super(size);
        }

        byte[] array() {
            return buf;
        }

        void writeLong(long v) {
            for (int s = 56; s >= 0; s -= 8) {
                write((int) (v >>> s));
            }
        }

        void writeInt(int v) {
            for (int s = 24; s >= 0; s -= 8) {
                write(v >>> s);
            }
        }

        /** An unsigned LEB128 varint (7 bits a byte, low first); negative values take 10 bytes. */
        void writeVarint(long v) {
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void writeText(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeVarint(b.length);
            write(b, 0, b.length);
        }

        /** Appends {@code raw} deflated with {@code deflater} (reset first). */
        void writeDeflated(Deflater deflater, byte[] raw) {
            deflater.reset();
            deflater.setInput(raw);
            deflater.finish();
            ensure(count + raw.length / 4 + 64);
            while (!deflater.finished()) {
                if (count == buf.length) {
                    ensure(count * 2);
                }
                count += deflater.deflate(buf, count, buf.length - count);
            }
        }

        private void ensure(int capacity) {
            if (capacity > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(capacity, buf.length * 2));
            }
        }
    }

    /** The most deflate expands its input: 1,032 to 1 (a run of one byte), and a few bytes of header. */
    static final int MAX_RATIO = 1032;

    /**
     * Whether {@code raw} bytes can come out of {@code compressed} bytes of deflate: at most
     * {@link #MAX_RATIO} times as many, and a few.
     */
    static boolean canInflateTo(long compressed, long raw) {
        return raw <= compressed * MAX_RATIO + 64;
    }

    /**
     * Inflates {@code length} bytes of {@code data} at {@code offset} into exactly {@code raw} bytes.
     * The output grows as it comes (from about 4 times the input), never past {@code raw} (and one byte
     * to find out that the stream goes on): a declared size bounds the work and the memory, it is not
     * allocated before there is data for it.
     */
    static byte[] inflate(byte[] data, int offset, int length, int raw) throws DataFormatException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(data, offset, length);
            byte[] out = new byte[(int) Math.min(raw, Math.max(1 << 16, 4L * length))];
            int n = 0;
            while (n < raw && !inf.finished()) {
                if (n == out.length) {
                    out = java.util.Arrays.copyOf(out, (int) Math.min(raw, 2L * out.length));
                }
                int got = inf.inflate(out, n, out.length - n);
                if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n == raw && !inf.finished()) {
                byte[] probe = new byte[1];
                n += inf.inflate(probe);
            }
            if (n != raw || !inf.finished()) {
                throw new DataFormatException(String.format(java.util.Locale.ROOT, "the compressed snapshot is %s than the "
                        + "%,d bytes its block declares", n < raw ? "shorter" : "longer", raw));
            }
            return out;
        } finally {
            inf.end();
        }
    }
}
