package dev.crowdtree.statetree.json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The one door through which asset, linked-asset and scenario files are read.
 *
 * <p>Only regular files are read (a directory, a device such as {@code /dev/zero}, a FIFO or a
 * socket is refused before it is opened), and at most {@code maxBytes} of them:
 * {@link #DEFAULT_MAX_BYTES} (16 MB) unless the caller passes another limit (the {@code maxBytes}
 * argument of {@link StateTreeJson#compile(Path, dev.crowdtree.statetree.compiler.StateTreeCompiler, long)},
 * {@link StateTreeJson#read(Path, long)} and {@code Scenario.load(Path, long)}; the command line's
 * {@code --max-input-mb}). The size is checked before reading and the bytes read are counted too,
 * since a file can grow while it is read. The text must be UTF-8.
 *
 * <p>Every refusal is an {@link InputFileException} with a one-line problem that names no Java
 * class and quotes nothing of the file's content. THREADING: stateless.
 */
public final class InputFiles {
    /** The default limit on the size of one input file (and of an asset with its linked assets): 16 MB. */
    public static final long DEFAULT_MAX_BYTES = 16L << 20;
    /** The largest limit: what fits in one Java array (2 GB less a few bytes). */
    public static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    private static final String RAISE = "raise the limit with --max-input-mb (command line) or the maxBytes "
            + "argument (API)";

    private InputFiles() {
    }

    /**
     * The file's text (UTF-8), if it is a regular file of at most {@code maxBytes} bytes.
     *
     * @param maxBytes the limit, 1..{@link #MAX_ARRAY}
     * @throws InputFileException saying why the file is not read
     * @throws IllegalArgumentException if {@code file} is null or {@code maxBytes} out of range
     */
    public static String read(Path file, long maxBytes) throws InputFileException {
        return read(file, maxBytes, 0).text();
    }

    /**
     * Checks, without opening it, that {@code file} is a readable regular file of at most
     * {@code maxBytes} bytes: what a command line does before it starts to work on a file, so that a
     * wrong file is a usage error and not a problem of the file's content.
     *
     * @throws InputFileException saying why the file would not be read
     */
    public static void check(Path file, long maxBytes) throws InputFileException {
        size(file, maxBytes, 0);
    }

    /** Text and its size in bytes. */
    record Text(String text, long bytes) {
    }

    /**
     * {@link #read(Path, long)} of a file linked from others whose {@code used} bytes were read
     * before it: the limit holds for all of them together.
     */
    static Text read(Path file, long maxBytes, long used) throws InputFileException {
        size(file, maxBytes, used);
        long limit = maxBytes - used;
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            // One byte more than allowed proves that the file grew past the limit since its size was taken.
            bytes = in.readNBytes((int) Math.min(limit + 1, MAX_ARRAY));
        } catch (IOException | RuntimeException e) {
            throw new InputFileException(file, "cannot read the file: " + why(e));
        }
        if (bytes.length > limit) {
            throw new InputFileException(file, tooBig(String.format(Locale.ROOT, "more than %,d", limit), maxBytes, used));
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return new Text(text, bytes.length);
        } catch (CharacterCodingException e) {
            throw new InputFileException(file, "cannot read the file: it is not valid UTF-8 text");
        }
    }

    /**
     * Whether {@code target} lies inside directory {@code dir} once symbolic links are resolved in
     * both (a link inside {@code dir} to a file outside it is outside). A target that does not exist
     * is judged by its normalized text: reading it will say that it is missing.
     */
    public static boolean inside(Path dir, Path target) {
        Path d = dir.toAbsolutePath().normalize();
        Path t = target.toAbsolutePath().normalize();
        if (!t.startsWith(d)) {
            return false;
        }
        try {
            return !Files.exists(t) || t.toRealPath().startsWith(d.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false; // cannot be resolved: not shown to be inside
        }
    }

    /** The file's size, after checking that it is a readable regular file within the limit. */
    private static long size(Path file, long maxBytes, long used) throws InputFileException {
        if (file == null) {
            throw new IllegalArgumentException("no file given");
        }
        if (maxBytes < 1 || maxBytes > MAX_ARRAY) {
            throw new IllegalArgumentException("maxBytes = " + maxBytes + " is out of range; valid range is 1.."
                    + MAX_ARRAY);
        }
        long size;
        try {
            if (Files.isDirectory(file)) {
                throw new InputFileException(file, "cannot read the file: it is a directory");
            }
            if (!Files.exists(file)) {
                throw new InputFileException(file, "cannot read the file: it does not exist");
            }
            if (!Files.isRegularFile(file)) {
                throw new InputFileException(file, "cannot read the file: it is not a regular file (a device, "
                        + "a pipe or a socket)");
            }
            if (!Files.isReadable(file)) {
                throw new InputFileException(file, "cannot read the file: permission denied");
            }
            size = Files.size(file);
        } catch (IOException | RuntimeException e) {
            if (e instanceof InputFileException) {
                throw (InputFileException) e;
            }
            throw new InputFileException(file, "cannot read the file: " + why(e));
        }
        if (size > maxBytes - used) {
            throw new InputFileException(file, tooBig(String.format(Locale.ROOT, "%,d", size), maxBytes, used));
        }
        return size;
    }

    private static String tooBig(String size, long maxBytes, long used) {
        if (used > 0) {
            return String.format(Locale.ROOT, "the asset and the assets it links are more than the limit of %s "
                    + "together (%,d bytes read before this file of %s bytes); %s", limit(maxBytes), used, size, RAISE);
        }
        return "the file is " + size + " bytes, over the limit of " + limit(maxBytes) + " for input files; " + RAISE;
    }

    /** {@code 16 MB (16,777,216 bytes)}, or {@code 1,000 bytes}. */
    public static String limit(long maxBytes) {
        if (maxBytes >= 1L << 20 && maxBytes % (1L << 20) == 0) {
            return String.format(Locale.ROOT, "%d MB (%,d bytes)", maxBytes >> 20, maxBytes);
        }
        return String.format(Locale.ROOT, "%,d bytes", maxBytes);
    }

    /** Why an I/O operation failed, in words: no exception class names. */
    static String why(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "it does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        // A file system exception's message repeats the path, which the caller names anyway.
        String m = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
        return m == null || m.isBlank() ? "an input/output error" : m.strip();
    }
}
