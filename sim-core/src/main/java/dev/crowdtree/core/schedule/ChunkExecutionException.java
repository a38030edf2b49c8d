package dev.crowdtree.core.schedule;

/**
 * A kernel threw inside a chunk. Carries the kernel name, the chunk index and its row range; the
 * original throwable is the cause. When several chunks fail in one phase, the lowest chunk index is
 * reported and the others are attached as suppressed exceptions, so the report does not depend on
 * the number of workers.
 */
public final class ChunkExecutionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String kernelName;
    private final int chunkIndex;
    private final int rowBegin;
    private final int rowEnd;

    ChunkExecutionException(String kernelName, int chunkIndex, int rowBegin, int rowEnd, int rows,
                            Throwable cause) {
        super("kernel '" + kernelName + "' failed in chunk " + chunkIndex + " (rows " + rowBegin + ".."
                + (rowEnd - 1) + " of " + rows + "): " + cause, cause);
        this.kernelName = kernelName;
        this.chunkIndex = chunkIndex;
        this.rowBegin = rowBegin;
        this.rowEnd = rowEnd;
    }

    public String kernelName() {
        return kernelName;
    }

    public int chunkIndex() {
        return chunkIndex;
    }

    /** First row of the failed chunk (inclusive). */
    public int rowBegin() {
        return rowBegin;
    }

    /** Row after the last row of the failed chunk (exclusive). */
    public int rowEnd() {
        return rowEnd;
    }
}
