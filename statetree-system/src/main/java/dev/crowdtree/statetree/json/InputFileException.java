package dev.crowdtree.statetree.json;

import dev.crowdtree.core.util.Printable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An input file (an asset, a linked asset, a scenario) that is not read: it does not exist, is not
 * a regular file, is over the size limit, cannot be opened or is not UTF-8. The message is one line,
 * {@code <file>: <problem>}, with control characters escaped; it never quotes the file's content.
 */
public final class InputFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String problem;

    /**
     * @param file    the file as given
     * @param problem what is wrong with it, without the file name
     */
    public InputFileException(Path file, String problem) {
        super(Printable.escape(file + ": " + problem));
        this.file = file;
        this.problem = problem;
    }

    /** The file as given. */
    public Path file() {
        return file;
    }

    /** What is wrong, without the file name ({@code cannot read the file: it is a directory}). */
    public String problem() {
        return problem;
    }
}
