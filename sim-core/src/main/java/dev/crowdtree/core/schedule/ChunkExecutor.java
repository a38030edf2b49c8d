package dev.crowdtree.core.schedule;

import dev.crowdtree.core.util.Checks;

import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link ChunkKernel} over every chunk of a row range on N long-lived workers, and returns
 * when all chunks are done (a barrier). One call to {@link #run} is one phase; consecutive calls are
 * separated by that barrier.
 *
 * <p>Algorithm: the calling thread is worker 0 and {@code workers - 1} daemon threads are the rest.
 * A phase is published by writing the job fields and then a volatile {@code epoch}; idle workers
 * spin on the epoch for a short time ({@code spinNanos}) before parking, which on small machines is
 * what makes per-tick hand-off cheap (an executor service per tick gave no speedup). Chunks are
 * claimed dynamically from a ticket that combines the epoch and the next chunk index, so a worker
 * that wakes late can never claim a chunk of a later phase with the job fields of an earlier one.
 * Chunk boundaries depend only on {@code rows} and {@code chunkSize}, so results do not depend on
 * which worker runs which chunk.
 *
 * <p>Failures: a throwable from a kernel is caught per chunk; the other chunks still run, and after
 * the barrier the lowest failed chunk is rethrown on the calling thread as a
 * {@link ChunkExecutionException}. The executor stays usable.
 *
 * <p>Allocation: none per phase once the chunk views for the largest chunk count exist.
 * THREADING: {@link #run} and {@link #close} must be called from one thread at a time (the
 * simulation thread); kernels must not call {@link #run}.
 */
public final class ChunkExecutor implements AutoCloseable {
    /** Default time an idle worker spins before parking. */
    public static final long DEFAULT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private final int workers;
    private final long spinNanos;
    private final Worker[] threads;

    // THREADING: job fields are written by the calling thread before the volatile write of `ticket`
    // and `epoch`; workers use them only after a successful claim on `ticket` (which reads that
    // volatile write), so they always see the fields of the phase they claimed from. A finished
    // phase's ticket is set to a sentinel before the fields are rewritten (see runParallel).
    private ChunkKernel kernel;
    private int rows;
    private int chunkSize;
    private int chunkCount;
    private Chunk[] chunks = new Chunk[0];

    private final AtomicLong ticket = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private volatile long epoch;
    private volatile Thread waiter;
    private volatile boolean closed;
    private Thread runner;

    // THREADING: appended under `this` lock by whichever worker fails; read by the calling thread
    // after the barrier (the `done` counter orders the writes before the read).
    private int failureCount;
    private int[] failedChunks = new int[0];
    private Throwable[] failures = new Throwable[0];

    /** An executor with {@code workers} workers (the caller plus {@code workers - 1} threads). */
    public ChunkExecutor(int workers) {
        this(workers, DEFAULT_SPIN_NANOS);
    }

    /**
     * @param workers   1..256; 1 runs every chunk on the calling thread
     * @param spinNanos how long an idle worker spins before parking, 0..10 ms
     */
    public ChunkExecutor(int workers, long spinNanos) {
        this.workers = Checks.inRange("workers", workers, 1, 256);
        if (spinNanos < 0 || spinNanos > TimeUnit.MILLISECONDS.toNanos(10)) {
            throw new IllegalArgumentException("spinNanos = " + spinNanos
                    + " is out of range; valid range is 0.." + TimeUnit.MILLISECONDS.toNanos(10));
        }
        this.spinNanos = spinNanos;
        this.threads = new Worker[workers - 1];
        int pool = POOL_IDS.incrementAndGet();
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Worker(i + 1);
            threads[i].setName("crowdtree-worker-" + pool + "-" + (i + 1));
            threads[i].setDaemon(true);
            threads[i].start();
        }
    }

    /** Number of workers, including the calling thread. */
    public int workers() {
        return workers;
    }

    /** Thread ids of the background workers (not including the calling thread). */
    public long[] workerThreadIds() {
        long[] ids = new long[threads.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = threads[i].getId();
        }
        return ids;
    }

    /** Number of chunks {@link #run} uses for {@code rows} rows. */
    public static int chunkCount(int rows, int chunkSize) {
        return (int) ((rows + (long) chunkSize - 1) / chunkSize);
    }

    /**
     * Runs {@code k} over rows {@code 0 .. rows-1} in chunks of {@code chunkSize} rows and waits
     * for all of them.
     *
     * @throws ChunkExecutionException when a kernel threw; names the lowest failed chunk
     * @throws IllegalArgumentException for a negative row count or a bad chunk size
     * @throws IllegalStateException when closed or when called from inside a kernel
     */
    public void run(ChunkKernel k, int rows, int chunkSize) {
        if (closed) {
            throw new IllegalStateException("ChunkExecutor is closed");
        }
        if (runner != null) {
            throw new IllegalStateException("ChunkExecutor.run called from inside a kernel ("
                    + kernel.kernelName() + "); phases cannot nest");
        }
        Checks.inRange("rows", rows, 0, Integer.MAX_VALUE);
        Checks.powerOfTwo("chunkSize", chunkSize, 1, 1 << 24);
        int count = chunkCount(rows, chunkSize);
        if (count == 0) {
            return;
        }
        ensureChunks(count);
        this.kernel = k;
        this.rows = rows;
        this.chunkSize = chunkSize;
        this.chunkCount = count;
        this.runner = Thread.currentThread();
        try {
            if (workers == 1 || count == 1) {
                for (int c = 0; c < count; c++) {
                    runChunk(c, 0);
                }
            } else {
                runParallel(count);
            }
        } finally {
            this.runner = null;
            this.kernel = null;
        }
        if (failureCount > 0) {
            throw takeFailure(k.kernelName());
        }
    }

    private void runParallel(int count) {
        done.set(0);
        long e = epoch + 1;
        ticket.set(e << 32);
        epoch = e;
        for (Worker w : threads) {
            if (w.sleeping) {
                LockSupport.unpark(w);
            }
        }
        work(e, 0);
        awaitDone(count);
        // Close the phase before the next one rewrites the job fields: a worker that read an old
        // ticket value can then no longer win its compare-and-set with a mismatched chunk count.
        ticket.set((e << 32) | Integer.MAX_VALUE);
    }

    private void awaitDone(int count) {
        if (done.get() == count) {
            return;
        }
        long deadline = System.nanoTime() + spinNanos;
        int spins = 0;
        while (done.get() != count) {
            if ((++spins & 63) == 0 && System.nanoTime() > deadline) {
                waiter = Thread.currentThread();
                while (done.get() != count) {
                    LockSupport.park(this);
                }
                waiter = null;
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** Claims and runs chunks of phase {@code e} until none are left. */
    private void work(long e, int worker) {
        final int count = chunkCount;
        while (true) {
            long t = ticket.get();
            if ((t >>> 32) != e) {
                return;
            }
            int c = (int) t;
            if (c >= count) {
                return;
            }
            if (!ticket.compareAndSet(t, t + 1)) {
                continue;
            }
            runChunk(c, worker);
            if (done.incrementAndGet() == count) {
                Thread w = waiter;
                if (w != null) {
                    LockSupport.unpark(w);
                }
            }
        }
    }

    private void runChunk(int c, int worker) {
        Chunk chunk = chunks[c];
        chunk.begin = c * chunkSize;
        chunk.end = (int) Math.min((long) rows, (long) (c + 1) * chunkSize);
        chunk.worker = worker;
        try {
            kernel.execute(chunk);
        } catch (Throwable t) {
            recordFailure(c, t);
        }
    }

    private synchronized void recordFailure(int c, Throwable t) {
        if (failureCount == failures.length) {
            int n = Math.max(4, failureCount * 2);
            failures = Arrays.copyOf(failures, n);
            failedChunks = Arrays.copyOf(failedChunks, n);
        }
        failures[failureCount] = t;
        failedChunks[failureCount++] = c;
    }

    /** The lowest failed chunk becomes the cause, the others are suppressed in chunk order. */
    private synchronized ChunkExecutionException takeFailure(String kernelName) {
        Integer[] order = new Integer[failureCount];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> failedChunks[i]));
        int first = order[0];
        Throwable cause = failures[first];
        for (int i = 1; i < order.length; i++) {
            cause.addSuppressed(failures[order[i]]);
        }
        Chunk chunk = chunks[failedChunks[first]];
        ChunkExecutionException ex = new ChunkExecutionException(
                kernelName, failedChunks[first], chunk.begin, chunk.end, rows, cause);
        Arrays.fill(failures, null);
        failureCount = 0;
        return ex;
    }

    private void ensureChunks(int count) {
        if (chunks.length < count) {
            Chunk[] next = new Chunk[Math.max(count, chunks.length * 2)];
            System.arraycopy(chunks, 0, next, 0, chunks.length);
            for (int i = chunks.length; i < next.length; i++) {
                next[i] = new Chunk(i);
            }
            chunks = next;
        }
    }

    /** Stops the worker threads. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        epoch = epoch + 1;
        for (Worker w : threads) {
            LockSupport.unpark(w);
        }
        for (Worker w : threads) {
            try {
                w.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private final class Worker extends Thread {
        private final int index;
        // THREADING: written by this worker, read by the caller to decide whether to unpark it.
        volatile boolean sleeping;

        Worker(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            long seen = 0;
            while (true) {
                long e = awaitEpoch(seen);
                if (closed) {
                    return;
                }
                seen = e;
                work(e, index);
            }
        }

        private long awaitEpoch(long seen) {
            long deadline = System.nanoTime() + spinNanos;
            int spins = 0;
            long e;
            while ((e = epoch) == seen) {
                if ((++spins & 63) == 0 && System.nanoTime() > deadline) {
                    sleeping = true;
                    while ((e = epoch) == seen) {
                        LockSupport.park(ChunkExecutor.this);
                    }
                    sleeping = false;
                    return e;
                }
                Thread.onSpinWait();
            }
            return e;
        }
    }
}
