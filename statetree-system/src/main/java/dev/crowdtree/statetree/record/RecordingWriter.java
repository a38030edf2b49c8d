package dev.crowdtree.statetree.record;

import dev.crowdtree.core.storage.OutputFile;
import dev.crowdtree.statetree.exec.Recorder;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;

/**
 * Writes a recording (docs/RECORDING.md) as a run goes: {@link #create} with the header and the
 * start snapshot, {@link #tick} after every tick, {@link #finish} at the end. A recording without
 * its end block (the run stopped, the writer was closed without {@link #finish}) is refused by
 * {@link Recording#read} as incomplete.
 *
 * <p>A periodic snapshot is compressed and written by a background thread of the writer's (one, a
 * daemon, started at the first periodic snapshot), so the tick that passes it returns at once; the
 * blocks still reach the file in order (ticks that come while it works are queued behind it), at
 * most one snapshot is in the works (the next waits for it), and a write that failed there is
 * thrown by the next call. The caller must not change a snapshot's array after passing it.
 *
 * <p>Allocation: a tick without a snapshot reuses the writer's buffers (unless a snapshot is being
 * written: then its body is copied into the queue); a snapshot is compressed into a buffer that
 * grows to the largest compressed snapshot. THREADING: called from one thread.
 */
public final class RecordingWriter implements Closeable {
    private final OutputFile file;
    private final OutputStream out;
    /** The caller's block buffers, and the background thread's. */
    private final Framer caller = new Framer();
    private Framer background;
    private final long firstTick;
    private long nextTick;
    private long blocks;
    private final AtomicLong bytes = new AtomicLong();
    private boolean finished;
    private boolean closed;
    private ExecutorService worker;
    /** The last job given to {@link #worker} (null: none yet). */
    private Future<?> pending;
    /** The last snapshot job given to {@link #worker}. */
    private Future<?> pendingSnapshot;
    /** A write that failed in the background, thrown by the next call. */
    private volatile IOException failure;

    private RecordingWriter(OutputFile file, long firstTick) {
        this.file = file;
        this.out = file.stream();
        this.firstTick = firstTick;
        this.nextTick = firstTick;
    }

    /**
     * Starts a recording that {@link #finish} puts in {@code file} (created, or replaced; a directory, a
     * FIFO, a device or a socket is refused, {@link OutputFile#check}): the header and the world before
     * tick {@code firstTick} (a snapshot's bytes, stored compressed).
     */
    public static RecordingWriter create(Path file, RecordingHeader header, long firstTick, byte[] startSnapshot)
            throws IOException {
        if (header == null || startSnapshot == null) {
            throw new IllegalArgumentException("a recording needs a header and a start snapshot");
        }
        if (firstTick == Long.MIN_VALUE) {
            throw new IllegalArgumentException("firstTick = " + firstTick + " is out of range");
        }
        RecordingWriter w = new RecordingWriter(OutputFile.create(file), firstTick);
        boolean ok = false;
        try {
            w.out.write(RecordingFormat.MAGIC);
            w.out.write(new byte[] {0, 0, 0, RecordingFormat.VERSION});
            w.bytes.set(RecordingFormat.PREAMBLE);
            RecordingFormat.Body b = w.caller.body;
            b.reset();
            b.writeText(header.kind());
            b.writeText(header.metadataJson());
            b.writeInt(header.snapshotEvery());
            b.writeLong(firstTick);
            w.caller.write(w, RecordingFormat.HEADER);
            b.reset();
            b.writeInt(startSnapshot.length);
            b.writeDeflated(w.caller.deflater, startSnapshot);
            w.caller.write(w, RecordingFormat.START);
            w.blocks = 2;
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
        RecordingFormat.Body b = caller.body;
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
            snapshotBlock(b.toByteArray(), snapshot);
        } else if (pending != null && !pending.isDone()) {
            byte[] copy = b.toByteArray();
            pending = worker.submit(() -> background(copy, null));
        } else {
            rethrow();
            caller.write(this, RecordingFormat.TICK);
        }
        blocks++;
        nextTick++;
    }

    /** Hands a snapshot's tick block (its fields before the compressed bytes) to the background thread. */
    private void snapshotBlock(byte[] head, byte[] snapshot) throws IOException {
        if (worker == null) {
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "recording-writer");
                t.setDaemon(true);
                return t;
            });
            background = new Framer();
        }
        if (pendingSnapshot != null) {
            await(pendingSnapshot); // at most one snapshot in the works
        }
        rethrow();
        pending = worker.submit(() -> background(head, snapshot));
        pendingSnapshot = pending;
    }

    /** On the background thread: a tick block of {@code head} and, if not null, {@code snapshot} compressed. */
    private void background(byte[] head, byte[] snapshot) {
        if (failure != null) {
            return;
        }
        try {
            background.body.reset();
            background.body.write(head, 0, head.length);
            if (snapshot != null) {
                background.body.writeDeflated(background.deflater, snapshot);
            }
            background.write(this, RecordingFormat.TICK);
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
        }
    }

    /** Waits for the background thread's jobs, and throws what failed there. */
    private void drain() throws IOException {
        if (pending != null) {
            await(pending);
        }
        rethrow();
    }

    private static void await(Future<?> job) throws IOException {
        boolean interrupted = false;
        while (true) {
            try {
                job.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                throw new IOException(e.getCause().getMessage(), e.getCause());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void rethrow() throws IOException {
        IOException e = failure;
        if (e != null) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Ends the recording: the last tick ({@code firstTick - 1} when none ran) and the world hash after
     * it; writes the file whole and moves it into place.
     *
     * @throws IllegalArgumentException when {@code lastTick} is not the last tick recorded
     */
    public void finish(long lastTick, long worldHash) throws IOException {
        open();
        drain();
        if (lastTick != nextTick - 1) {
            throw new IllegalArgumentException("finish at tick " + lastTick + ", but the last tick recorded is "
                    + (nextTick - 1) + (nextTick == firstTick ? " (none: the start)" : ""));
        }
        RecordingFormat.Body b = caller.body;
        b.reset();
        b.writeLong(lastTick);
        b.writeLong(worldHash);
        b.writeLong(blocks);
        caller.write(this, RecordingFormat.END);
        out.flush();
        finished = true;
        close();
    }

    /** Bytes written so far (all of the file once finished). */
    public long bytesWritten() {
        return bytes.get();
    }

    /** Whether {@link #finish} ran. */
    public boolean isFinished() {
        return finished;
    }

    /**
     * Closes the file; without {@link #finish} before, the recording is abandoned: its temporary file
     * deleted, the file it was to replace left as it was.
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            try {
                if (pending != null) {
                    await(pending);
                }
            } finally {
                if (worker != null) {
                    worker.shutdown();
                }
                caller.deflater.end();
                if (background != null) {
                    background.deflater.end();
                }
                if (finished) {
                    file.commit();
                } else {
                    file.close();
                }
            }
        }
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException(finished ? "the recording is finished" : "the recording is closed");
        }
    }

    /** One thread's block buffers: the body, its compressor, the frame, the checksum. */
    private static final class Framer {
        final RecordingFormat.Body body = new RecordingFormat.Body(1 << 10);
        final Deflater deflater = new Deflater(RecordingFormat.LEVEL);
        private final CRC32C crc = new CRC32C();
        private final byte[] frame = new byte[RecordingFormat.FRAME_HEAD];
        private final byte[] tail = new byte[RecordingFormat.FRAME_TAIL];

        /** Writes {@link #body} to {@code w}'s file as a block of {@code type}: frame, body, CRC32C of both. */
        void write(RecordingWriter w, int type) throws IOException {
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
            w.out.write(frame);
            w.out.write(body.array(), 0, len);
            w.out.write(tail);
            w.bytes.addAndGet(RecordingFormat.FRAME_HEAD + len + RecordingFormat.FRAME_TAIL);
        }
    }
}
