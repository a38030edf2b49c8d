package dev.crowdtree.core.schedule;

/**
 * Work over one chunk of rows. A kernel must write only the rows of its chunk (plus per-chunk
 * buffers), and read other rows only where they are not written in the same phase; then its result
 * is the same whichever worker runs it and in whatever order chunks run.
 */
@FunctionalInterface
public interface ChunkKernel {
    /** Processes rows {@code chunk.begin() .. chunk.end()-1}. */
    void execute(Chunk chunk);

    /** Name used in error messages; defaults to the class's simple name. */
    default String kernelName() {
        String n = getClass().getSimpleName();
        return n.isEmpty() ? getClass().getName() : n;
    }
}
