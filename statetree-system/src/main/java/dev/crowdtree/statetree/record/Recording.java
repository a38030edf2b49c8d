package dev.crowdtree.statetree.record;

import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;

/**
 * A recording (docs/RECORDING.md) read and verified whole: every block's frame and checksum, the
 * ticks' order, the end block. The file's bytes stay in memory as they are (snapshots compressed)
 * and are decoded on demand: a tick's counters when asked for, a snapshot decompressed each time
 * {@link #snapshot} is called.
 *
 * <p>THREADING: immutable after {@link #read}; safe to share.
 */
public final class Recording {
    private final Path file;
    private final byte[] data;
    private RecordingHeader header;
    private long firstTick;
    private long lastTick;
    private long finalHash;
    private int startOffset;
    private int startLength;
    private int startRaw;
    /** Per tick (index tick - firstTick): the offset of its counters in {@link #data}, or -1. */
    private int[] counters = new int[16];
    private int ticks;
    private boolean anyCounters;
    private int states = -1;
    private int transitions = -1;
    private final Map<Long, String> inputs = new HashMap<>();
    private final List<Long> snapTicks = new ArrayList<>();
    private final List<int[]> snapRefs = new ArrayList<>(); // offset, length, raw length
    private final List<Long> snapHashes = new ArrayList<>();

    /**
     * A periodic snapshot may declare at most this many times the start snapshot's bytes, and
     * {@link #SLACK} more: the agents are those of the start, and what else a world holds (queued
     * events, a model's own state) may grow, but not without bound.
     */
    static final int GROWTH = 4;
    static final int SLACK = 16 << 20;

    /** The most bytes a snapshot may declare decompressed: the limit on input files. */
    private final long maxRaw;

    private Recording(Path file, byte[] data, long maxRaw) {
        this.file = file;
        this.data = data;
        this.maxRaw = maxRaw;
    }

    /**
     * Reads and verifies the recording in {@code file}, a regular file of at most {@code maxBytes}
     * bytes (its size is checked before it is read). Each snapshot in it may declare at most
     * {@code maxBytes} bytes decompressed, and no more than its compressed bytes can inflate to, so
     * that decompressing one later costs no more than that ({@link #snapshot}).
     *
     * @param maxBytes the limit, 1..{@link InputFiles#MAX_ARRAY}
     * @throws RecordingException when the file is not read (not a regular file, too big, unreadable)
     *                            or not a valid, complete recording of this format version
     */
    public static Recording read(Path file, long maxBytes) throws RecordingException, IOException {
        try {
            InputFiles.check(file, maxBytes);
        } catch (InputFileException e) {
            throw new RecordingException(file, e.problem());
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(maxBytes + 1, InputFiles.MAX_ARRAY));
        } catch (IOException | RuntimeException e) {
            throw new RecordingException(file, "cannot read the file: " + (e.getMessage() == null ? "an input/output error"
                    : e.getMessage()));
        }
        if (bytes.length > maxBytes) {
            throw new RecordingException(file, "the file grew past the limit of " + InputFiles.limit(maxBytes)
                    + " while it was read");
        }
        Recording r = new Recording(file, bytes, maxBytes);
        r.parse();
        return r;
    }

    // ---- parsing ---------------------------------------------------------------------------------

    private void parse() throws RecordingException {
        byte[] m = RecordingFormat.MAGIC;
        if (data.length < m.length || !Arrays.equals(data, 0, m.length, m, 0, m.length)) {
            throw fail("not a crowdtree recording: it does not begin with the recording magic (CTREC, docs/RECORDING.md)");
        }
        if (data.length < RecordingFormat.PREAMBLE) {
            throw fail("truncated at byte offset " + data.length + ", inside the format version; a recording has at least "
                    + "its preamble, header, start-snapshot and end blocks");
        }
        int version = readInt(m.length);
        if (version != RecordingFormat.VERSION) {
            throw fail("recording format version " + version + ", this build reads version " + RecordingFormat.VERSION);
        }
        int pos = RecordingFormat.PREAMBLE;
        long block = 0;
        long expected = 0;
        boolean ended = false;
        CRC32C crc = new CRC32C();
        while (pos < data.length) {
            if (ended) {
                throw fail(String.format(Locale.ROOT, "%,d bytes after the end block, from byte offset %d; a recording "
                        + "ends with its end block", data.length - pos, pos));
            }
            String where = "block " + block + " at byte offset " + pos;
            if (data.length - pos < RecordingFormat.FRAME_HEAD) {
                throw fail("truncated: the file ends inside the frame of " + where + "; a block has a 5-byte frame (type, "
                        + "length), its body and a 4-byte checksum, and the last one is the end block");
            }
            int type = data[pos] & 0xff;
            long len = readInt(pos + 1) & 0xffffffffL;
            long end = pos + RecordingFormat.FRAME_HEAD + len + RecordingFormat.FRAME_TAIL;
            if (end > data.length) {
                throw fail(String.format(Locale.ROOT, "%s declares a body of %,d bytes, beyond the end of the file "
                        + "(%,d bytes): the file is truncated or corrupted; a valid block ends within the file",
                        where, len, data.length));
            }
            crc.reset();
            crc.update(data, pos, (int) (RecordingFormat.FRAME_HEAD + len));
            int stored = readInt((int) (end - RecordingFormat.FRAME_TAIL));
            if ((int) crc.getValue() != stored) {
                throw fail(String.format(Locale.ROOT, "checksum mismatch in %s (a %s block, CRC32C %08x, stored %08x): "
                        + "the file is corrupted", where, RecordingFormat.typeName(type), (int) crc.getValue(), stored));
            }
            int body = pos + RecordingFormat.FRAME_HEAD;
            int bodyEnd = (int) (end - RecordingFormat.FRAME_TAIL);
            int want = block == 0 ? RecordingFormat.HEADER : block == 1 ? RecordingFormat.START : -1;
            if (want > 0 && type != want) {
                throw fail(where + " is a " + RecordingFormat.typeName(type) + " block; block " + block + " must be the "
                        + RecordingFormat.typeName(want) + " block");
            }
            Cursor c = new Cursor(body, bodyEnd, where);
            switch (type) {
                case RecordingFormat.HEADER:
                    if (block != 0) {
                        throw fail(where + " is a second header block; only block 0 is the header");
                    }
                    header(c);
                    expected = firstTick;
                    break;
                case RecordingFormat.START:
                    if (block != 1) {
                        throw fail(where + " is a second start-snapshot block; only block 1 is the start snapshot");
                    }
                    startRaw = c.int32();
                    if (startRaw < 0) {
                        throw fail(where + ", the start snapshot, gives the impossible size " + startRaw);
                    }
                    startOffset = c.pos;
                    startLength = bodyEnd - c.pos;
                    checkRaw(where + ", the start snapshot,", startRaw, startLength);
                    c.pos = bodyEnd;
                    break;
                case RecordingFormat.TICK:
                    tick(c, expected);
                    expected++;
                    break;
                case RecordingFormat.END:
                    lastTick = c.int64();
                    finalHash = c.int64();
                    long count = c.int64();
                    if (lastTick != expected - 1) {
                        throw fail(where + ", the end block, says the last tick is " + lastTick + ", but the last tick "
                                + "block is of tick " + (expected - 1) + "; they must agree");
                    }
                    if (count != block) {
                        throw fail(where + ", the end block, counts " + count + " blocks before it, but there are " + block
                                + "; they must agree");
                    }
                    int last = snapTicks.size() - 1;
                    if (last >= 0 && snapTicks.get(last) == lastTick && snapHashes.get(last) != finalHash) {
                        throw fail(String.format(Locale.ROOT, "%s, the end block, gives the final world hash %016x, but "
                                + "the snapshot of the last tick %d has hash %016x; they must agree", where, finalHash,
                                lastTick, snapHashes.get(last)));
                    }
                    ended = true;
                    break;
                default:
                    throw fail(where + " has the unknown block type " + type + "; valid types are 1 (header), 2 (start "
                            + "snapshot), 3 (tick), 4 (end)");
            }
            if (c.pos != bodyEnd) {
                throw fail(where + " (a " + RecordingFormat.typeName(type) + " block) has " + (bodyEnd - c.pos)
                        + " bytes of body left over; its fields must fill its body exactly");
            }
            pos = (int) end;
            block++;
        }
        if (!ended) {
            throw fail("no end block: the recording is incomplete (the file ends at byte offset " + data.length + " after "
                    + block + " blocks" + (block > 2 ? ", the last of tick " + (expected - 1) : "") + "; the run that "
                    + "wrote it did not finish); a complete recording ends with an end block");
        }
        counters = Arrays.copyOf(counters, ticks);
    }

    private void header(Cursor c) throws RecordingException {
        String kind = c.text();
        String meta = c.text();
        int every = c.int32();
        firstTick = c.int64();
        if (every < 1) {
            throw fail(c.where + ", the header, gives " + every + " ticks between snapshots; valid values are 1 or more");
        }
        if (firstTick == Long.MIN_VALUE) {
            throw fail(c.where + ", the header, gives an impossible first tick");
        }
        header = new RecordingHeader(kind, meta, every);
    }

    private void tick(Cursor c, long expected) throws RecordingException {
        long tick = c.int64();
        if (tick != expected) {
            throw fail(c.where + " is tick " + tick + ", out of order: tick " + expected + " comes next (ticks come in "
                    + "order from the first tick, " + firstTick + ")");
        }
        String where = c.where + " (tick " + tick + ")";
        c.where = where;
        int flags = c.int8();
        if ((flags & ~(RecordingFormat.HAS_COUNTERS | RecordingFormat.HAS_SNAPSHOT)) != 0) {
            throw fail(where + " has the unknown flags " + flags + "; valid flags are 1 (counters) and 2 (snapshot)");
        }
        int inputLength = c.length();
        if (inputLength > 0) {
            inputs.put(tick, new String(data, c.pos, inputLength, StandardCharsets.UTF_8));
        }
        c.pos += inputLength;
        if (ticks == counters.length) {
            counters = Arrays.copyOf(counters, ticks * 2);
        }
        counters[ticks] = -1;
        if ((flags & RecordingFormat.HAS_COUNTERS) != 0) {
            counters[ticks] = c.pos;
            anyCounters = true;
            int s = c.length();
            if (states >= 0 && s != states) {
                throw fail(where + " counts " + s + " states, earlier ticks " + states + "; every tick counts the same tree");
            }
            states = s;
            c.skipVarints(s);
            int t = c.length();
            if (transitions >= 0 && t != transitions) {
                throw fail(where + " counts " + t + " transitions, earlier ticks " + transitions
                        + "; every tick counts the same tree");
            }
            transitions = t;
            c.skipVarints(t + 5);
        }
        if ((flags & RecordingFormat.HAS_SNAPSHOT) != 0) {
            long hash = c.int64();
            int raw = c.length();
            checkRaw(where, raw, c.end - c.pos);
            if (raw > GROWTH * (long) startRaw + SLACK) {
                throw fail(String.format(Locale.ROOT, "%s declares a snapshot of %,d bytes decompressed, more than %d "
                        + "times the start snapshot's %,d bytes and %,d more; a run's snapshots hold the agents it "
                        + "started with", where, raw, GROWTH, startRaw, SLACK));
            }
            snapTicks.add(tick);
            snapHashes.add(hash);
            snapRefs.add(new int[] {c.pos, c.end - c.pos, raw});
            c.pos = c.end;
        }
        ticks++;
    }

    /** A snapshot of {@code raw} bytes decompressed, of {@code compressed} in the file: within the limits. */
    private void checkRaw(String where, int raw, int compressed) throws RecordingException {
        if (raw > maxRaw) {
            throw fail(String.format(Locale.ROOT, "%s declares a snapshot of %,d bytes decompressed, over the limit of %s "
                    + "for input files; raise the limit with --max-input-mb (command line) or the maxBytes argument (API)",
                    where, raw, InputFiles.limit(maxRaw)));
        }
        if (!RecordingFormat.canInflateTo(compressed, raw)) {
            throw fail(String.format(Locale.ROOT, "%s declares a snapshot of %,d bytes decompressed from %,d compressed "
                    + "bytes, more than deflate expands them (at most %,d times): the file is damaged or crafted, though "
                    + "its checksum matches", where, raw, compressed, RecordingFormat.MAX_RATIO));
        }
    }

    private RecordingException fail(String problem) {
        return new RecordingException(file, problem);
    }

    private int readInt(int at) {
        return (data[at] & 0xff) << 24 | (data[at + 1] & 0xff) << 16 | (data[at + 2] & 0xff) << 8 | (data[at + 3] & 0xff);
    }

    /** Reads a block's body, refusing to read past it. */
    private final class Cursor {
        int pos;
        final int end;
        String where;

        Cursor(int pos, int end, String where) {
            this.pos = pos;
            this.end = end;
            this.where = where;
        }

        private void need(int n) throws RecordingException {
            if (end - pos < n) {
                throw fail(where + " is too short for its fields (its body ends at byte offset " + end + "); the "
                        + "fields of each block type are listed in docs/RECORDING.md");
            }
        }

        int int8() throws RecordingException {
            need(1);
            return data[pos++] & 0xff;
        }

        int int32() throws RecordingException {
            need(4);
            int v = readInt(pos);
            pos += 4;
            return v;
        }

        long int64() throws RecordingException {
            need(8);
            long v = (long) readInt(pos) << 32 | (readInt(pos + 4) & 0xffffffffL);
            pos += 8;
            return v;
        }

        long varint() throws RecordingException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = int8();
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw fail(where + " has a varint longer than 10 bytes at byte offset " + pos);
        }

        /** A varint that counts bytes or items of this block: 0..the bytes left. */
        int length() throws RecordingException {
            long v = varint();
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw fail(where + " has the impossible length or count " + v + " before byte offset " + pos);
            }
            return (int) v;
        }

        void skipVarints(int n) throws RecordingException {
            for (int i = 0; i < n; i++) {
                varint();
            }
        }

        String text() throws RecordingException {
            int n = length();
            need(n);
            String s = new String(data, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }

    // ---- access ----------------------------------------------------------------------------------

    /** The file read. */
    public Path file() {
        return file;
    }

    /** The file's size in bytes. */
    public long bytes() {
        return data.length;
    }

    /** What the recording is of: its kind, the producer's metadata and the snapshot interval. */
    public RecordingHeader header() {
        return header;
    }

    /** The first tick recorded: the start snapshot is the world before it. */
    public long firstTick() {
        return firstTick;
    }

    /** The last tick recorded ({@code firstTick() - 1} when none was). */
    public long lastTick() {
        return lastTick;
    }

    /** The world hash after {@link #lastTick()}. */
    public long finalHash() {
        return finalHash;
    }

    /**
     * The start snapshot's bytes (decompressed): the world before {@link #firstTick()}.
     *
     * @throws RecordingException when they do not decompress to the size the block declares
     */
    public byte[] startSnapshot() throws RecordingException {
        return inflate(startOffset, startLength, startRaw, firstTick - 1);
    }

    /** The inputs applied just before {@code tick}, as JSON array text; {@code "[]"} when none. */
    public String inputs(long tick) {
        index(tick);
        return inputs.getOrDefault(tick, "[]");
    }

    /** Whether any tick has the recorder's counters. */
    public boolean hasCounters() {
        return anyCounters;
    }

    /** Running agents per state after {@code tick}, or null when its counters were not recorded. */
    public long[] occupancy(long tick) {
        return counterArray(tick, 0);
    }

    /** How often each transition fired in {@code tick}, or null when its counters were not recorded. */
    public long[] fired(long tick) {
        return counterArray(tick, 1);
    }

    /** Node failures in {@code tick} (0 when its counters were not recorded). */
    public long failures(long tick) {
        return scalar(tick, 0);
    }

    /** Events dropped in {@code tick} (0 when its counters were not recorded). */
    public long droppedEvents(long tick) {
        return scalar(tick, 1);
    }

    /** Events rejected in {@code tick} (0 when its counters were not recorded). */
    public long rejectedEvents(long tick) {
        return scalar(tick, 2);
    }

    /** Transitions a composite's rule fired in {@code tick} (0 when its counters were not recorded). */
    public long compositeRules(long tick) {
        return scalar(tick, 3);
    }

    /** Restarts from the root in {@code tick} (0 when its counters were not recorded). */
    public long restarts(long tick) {
        return scalar(tick, 4);
    }

    /** The latest periodic snapshot's tick at or before {@code tick}; the start ({@code firstTick() - 1}) when none. */
    public long snapshotTickAtOrBefore(long tick) {
        int i = Collections.binarySearch(snapTicks, tick);
        if (i >= 0) {
            return tick;
        }
        int before = -i - 2;
        return before < 0 ? firstTick - 1 : snapTicks.get(before);
    }

    /**
     * The snapshot after {@code snapshotTick} (decompressed): a periodic one, or the start snapshot for
     * {@code firstTick() - 1}.
     *
     * @throws IllegalArgumentException when there is no snapshot of that tick
     * @throws RecordingException       when it does not decompress to the size its block declares
     */
    public byte[] snapshot(long snapshotTick) throws RecordingException {
        if (snapshotTick == firstTick - 1) {
            return startSnapshot();
        }
        int[] ref = snapRefs.get(snapIndex(snapshotTick));
        return inflate(ref[0], ref[1], ref[2], snapshotTick);
    }

    /**
     * The recorded world hash after {@code snapshotTick}: of a periodic snapshot, or
     * {@link #finalHash()} for {@link #lastTick()}.
     *
     * @throws IllegalArgumentException for any other tick
     */
    public long worldHashAt(long snapshotTick) {
        if (snapshotTick == lastTick) {
            return finalHash;
        }
        return snapHashes.get(snapIndex(snapshotTick));
    }

    /** Whether a periodic snapshot was recorded after {@code tick} (the start snapshot is not one). */
    public boolean hasSnapshot(long tick) {
        return Collections.binarySearch(snapTicks, tick) >= 0;
    }

    /** The ticks of the periodic snapshots, ascending (the start snapshot not among them). */
    public List<Long> snapshotTicks() {
        return Collections.unmodifiableList(snapTicks);
    }

    private int snapIndex(long tick) {
        int i = Collections.binarySearch(snapTicks, tick);
        if (i < 0) {
            throw new IllegalArgumentException("the recording has no snapshot of tick " + tick + "; its snapshots are of "
                    + "the start (tick " + (firstTick - 1) + ") and of ticks " + snapTicks);
        }
        return i;
    }

    private int index(long tick) {
        if (tick < firstTick || tick > lastTick) {
            throw new IllegalArgumentException("tick " + tick + " is not recorded; valid range is " + firstTick + ".."
                    + lastTick);
        }
        return (int) (tick - firstTick);
    }

    /** part 0: occupancy, 1: fired. */
    private long[] counterArray(long tick, int part) {
        int at = counters[index(tick)];
        if (at < 0) {
            return null;
        }
        int[] pos = {at};
        long n = varint(pos);
        if (part == 1) {
            for (long i = 0; i < n; i++) {
                varint(pos);
            }
            n = varint(pos);
        }
        long[] v = new long[(int) n];
        for (int i = 0; i < v.length; i++) {
            v[i] = varint(pos);
        }
        return v;
    }

    private long scalar(long tick, int which) {
        int at = counters[index(tick)];
        if (at < 0) {
            return 0;
        }
        int[] pos = {at};
        for (int part = 0; part < 2; part++) {
            long n = varint(pos);
            for (long i = 0; i < n; i++) {
                varint(pos);
            }
        }
        for (int i = 0; i < which; i++) {
            varint(pos);
        }
        return varint(pos);
    }

    /** A varint verified by {@link #parse}. */
    private long varint(int[] pos) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            int b = data[pos[0]++] & 0xff;
            v |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    private byte[] inflate(int offset, int length, int raw, long tick) throws RecordingException {
        try {
            return RecordingFormat.inflate(data, offset, length, raw);
        } catch (DataFormatException e) {
            throw fail("the snapshot of tick " + tick + " at byte offset " + offset + " does not decompress ("
                    + e.getMessage() + "): the file is damaged or crafted, though its block's checksum matches; a "
                    + "recording's snapshots are deflate streams of the size their blocks declare");
        }
    }
}
