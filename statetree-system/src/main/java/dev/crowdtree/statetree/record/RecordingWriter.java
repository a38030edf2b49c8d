package dev.crowdtree.statetree.record;

import dev.crowdtree.statetree.exec.Recorder;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;

/**
 * Writes a recording (docs/RECORDING.md) as a run goes: {@link #create} with the header and the
 * start snapshot, {@link #tick} after every tick, {@link #finish} at the end. A recording without
 * its end block (the run stopped, the writer was closed without {@link #finish}) is refused by
 * {@link Recording#read} as incomplete.
 *
 * <p>Allocation: a tick without a snapshot reuses the writer's buffers; a snapshot is compressed
 * into a buffer that grows to the largest compressed snapshot. THREADING: one thread.
 */
public final class RecordingWriter implements Closeable {
    private final OutputStream out;
    private final Deflater deflater = new Deflater(RecordingFormat.LEVEL);
    private final RecordingFormat.Body body = new RecordingFormat.Body(1 << 10);
    private final CRC32C crc = new CRC32C();
    private final byte[] frame = new byte[RecordingFormat.FRAME_HEAD];
    private final byte[] tail = new byte[RecordingFormat.FRAME_TAIL];
    private final long firstTick;
    private long nextTick;
    private long blocks;
    private long bytes;
    private boolean finished;
    private boolean closed;

    private RecordingWriter(OutputStream out, long firstTick) {
        this.out = out;
        this.firstTick = firstTick;
        this.nextTick = firstTick;
    }

    /**
     * Starts a recording in {@code file} (created, or truncated): the header and the world before tick
     * {@code firstTick} (a snapshot's bytes, stored compressed).
     */
    public static RecordingWriter create(Path file, RecordingHeader header, long firstTick, byte[] startSnapshot)
            throws IOException {
        if (header == null || startSnapshot == null) {
            throw new IllegalArgumentException("a recording needs a header and a start snapshot");
        }
        if (firstTick == Long.MIN_VALUE) {
            throw new IllegalArgumentException("firstTick = " + firstTick + " is out of range");
        }
        RecordingWriter w = new RecordingWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), firstTick);
        boolean ok = false;
        try {
            w.out.write(RecordingFormat.MAGIC);
            w.out.write(new byte[] {0, 0, 0, RecordingFormat.VERSION});
            w.bytes = RecordingFormat.PREAMBLE;
            RecordingFormat.Body b = w.body;
            b.reset();
            b.writeText(header.kind());
            b.writeText(header.metadataJson());
            b.writeInt(header.snapshotEvery());
            b.writeLong(firstTick);
            w.block(RecordingFormat.HEADER);
            b.reset();
            b.writeInt(startSnapshot.length);
            b.writeDeflated(w.deflater, startSnapshot);
            w.block(RecordingFormat.START);
            ok = true;
            return w;
        } finally {
            if (!ok) {
                w.close();
            }
        }
    }

    /**
     * Tick {@code tick} ran: the inputs applied just before it (JSON array text in the scenario's input
     * format, {@code "[]"} or null for none), the recorder's counters of that tick (null: not
     * recorded), and when {@code snapshot != null} the world after the tick and its world hash (both
     * stored). Ticks must come in order {@code firstTick, firstTick+1, ...}.
     *
     * @throws IllegalArgumentException for a tick out of order
     * @throws IllegalStateException    after {@link #finish} or {@link #close}
     */
    public void tick(long tick, String inputsJson, Recorder counters, byte[] snapshot, long worldHash) throws IOException {
        open();
        if (tick != nextTick) {
            throw new IllegalArgumentException("tick " + tick + " recorded out of order: tick " + nextTick + " comes next");
        }
        RecordingFormat.Body b = body;
        b.reset();
        b.writeLong(tick);
        b.write((counters != null ? RecordingFormat.HAS_COUNTERS : 0) | (snapshot != null ? RecordingFormat.HAS_SNAPSHOT : 0));
        b.writeText(inputsJson == null || inputsJson.equals("[]") ? "" : inputsJson);
        if (counters != null) {
            int states = counters.tree().stateCount;
            int transitions = counters.tree().transitionCount;
            b.writeVarint(states);
            for (int s = 0; s < states; s++) {
                b.writeVarint(counters.occupancy(s));
            }
            b.writeVarint(transitions);
            for (int t = 0; t < transitions; t++) {
                b.writeVarint(counters.fired(t));
            }
            b.writeVarint(counters.failures());
            b.writeVarint(counters.droppedEvents());
            b.writeVarint(counters.rejectedEvents());
            b.writeVarint(counters.compositeRules());
            b.writeVarint(counters.restarts());
        }
        if (snapshot != null) {
            b.writeLong(worldHash);
            b.writeVarint(snapshot.length);
            b.writeDeflated(deflater, snapshot);
        }
        block(RecordingFormat.TICK);
        nextTick++;
    }

    /**
     * Ends the recording: the last tick ({@code firstTick - 1} when none ran) and the world hash after
     * it; flushes and closes the file.
     *
     * @throws IllegalArgumentException when {@code lastTick} is not the last tick recorded
     */
    public void finish(long lastTick, long worldHash) throws IOException {
        open();
        if (lastTick != nextTick - 1) {
            throw new IllegalArgumentException("finish at tick " + lastTick + ", but the last tick recorded is "
                    + (nextTick - 1) + (nextTick == firstTick ? " (none: the start)" : ""));
        }
        body.reset();
        body.writeLong(lastTick);
        body.writeLong(worldHash);
        body.writeLong(blocks);
        block(RecordingFormat.END);
        finished = true;
        close();
    }

    /** Bytes written so far (all of the file once finished). */
    public long bytesWritten() {
        return bytes;
    }

    /** Whether {@link #finish} ran. */
    public boolean isFinished() {
        return finished;
    }

    /** Closes the file; without {@link #finish} before, the recording is incomplete. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            deflater.end();
            out.close();
        }
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException(finished ? "the recording is finished" : "the recording is closed");
        }
    }

    /** Writes {@link #body} as a block of {@code type}: frame, body, CRC32C of frame and body. */
    private void block(int type) throws IOException {
        int len = body.size();
        frame[0] = (byte) type;
        frame[1] = (byte) (len >>> 24);
        frame[2] = (byte) (len >>> 16);
        frame[3] = (byte) (len >>> 8);
        frame[4] = (byte) len;
        crc.reset();
        crc.update(frame, 0, frame.length);
        crc.update(body.array(), 0, len);
        int c = (int) crc.getValue();
        tail[0] = (byte) (c >>> 24);
        tail[1] = (byte) (c >>> 16);
        tail[2] = (byte) (c >>> 8);
        tail[3] = (byte) c;
        out.write(frame);
        out.write(body.array(), 0, len);
        out.write(tail);
        blocks++;
        bytes += RecordingFormat.FRAME_HEAD + len + RecordingFormat.FRAME_TAIL;
    }
}
