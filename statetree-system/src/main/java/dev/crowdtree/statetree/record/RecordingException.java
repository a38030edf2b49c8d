package dev.crowdtree.statetree.record;

import dev.crowdtree.core.util.Printable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A recording that is refused: not a recording, another format version, damaged (a checksum that
 * does not match, a block whose length runs past the end of the file, ticks out of order), incomplete
 * (no end block), over the size limit or not a regular file. The message is one line,
 * {@code <file>: <what is wrong> (where: byte offset, block, tick); <what would be valid>}, with
 * control characters escaped; it never quotes the file's content.
 */
public final class RecordingException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String problem;

    /**
     * @param file    the file as given
     * @param problem what is wrong and where, without the file name
     */
    public RecordingException(Path file, String problem) {
        super(Printable.escape(file + ": " + problem));
        this.problem = problem;
    }

    /** What is wrong and where, without the file name. */
    public String problem() {
        return problem;
    }
}
