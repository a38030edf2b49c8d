package dev.crowdtree.demo.debug;

import dev.crowdtree.statetree.exec.Recorder;

import java.io.IOException;

/** Where a live session records its run (a recording file). */
interface RecordingOut extends AutoCloseable {
    /** Tick {@code tick} ran with {@code inputs}; {@code snapshot} (or null) is the world after it, with its hash. */
    void tick(long tick, String inputs, Recorder counters, byte[] snapshot, long worldHash) throws IOException;

    /** The run ended after {@code lastTick} with {@code worldHash}. */
    void finish(long lastTick, long worldHash) throws IOException;

    @Override
    void close() throws IOException;
}
