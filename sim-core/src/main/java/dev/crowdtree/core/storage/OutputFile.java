package dev.crowdtree.core.storage;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file written whole or not at all (a snapshot, a recording): the bytes go to a temporary file in
 * the target's directory ({@code .<name>.<random>.part}), which {@link #commit} moves into place
 * (atomically where the file system can: a rename), so a reader never sees half a file and a write
 * that fails or is abandoned ({@link #close} without {@link #commit}) leaves the old file as it was
 * and deletes the temporary one. The target must be a regular file or not exist ({@link #check}): a
 * directory, a FIFO (opening one for writing waits for a reader), a device or a socket is refused
 * before anything is written. A target that is a symbolic link is written where the link points, so
 * the link stays a link.
 *
 * <p>{@link #sameFile} compares two paths by what they are on disk (device and inode, after
 * resolving links), which is what "the same file" means when one is an output and the other an input.
 *
 * <p>THREADING: one writer.
 */
public final class OutputFile implements Closeable {
    private final Path target;
    private final Path temp;
    private final OutputStream out;
    private boolean committed;
    private boolean closed;

    private OutputFile(Path target, Path temp, OutputStream out) {
        this.target = target;
        this.temp = temp;
        this.out = out;
    }

    /**
     * Refuses {@code file} as an output unless it is a regular file or does not exist yet (symbolic
     * links followed): a directory, a FIFO, a device or a socket; and unless its directory exists and
     * takes a new file (tried: a temporary file is made there and deleted), so that a command checking
     * its outputs first refuses a missing or read-only directory before its run, not after.
     *
     * @throws FileSystemException naming the file, with the reason ({@link FileSystemException#getReason})
     *                             saying what it is and what an output must be
     */
    public static void check(Path file) throws IOException {
        BasicFileAttributes a = null;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            // a new file (or a link to nothing yet: the file is made where it points)
        }
        if (a != null && a.isDirectory()) {
            throw new FileSystemException(file.toString(), null, "it is a directory; an output is a regular file "
                    + "(replaced) or a new one");
        }
        if (a != null && !a.isRegularFile()) {
            throw new FileSystemException(file.toString(), null, "it is not a regular file (a pipe, a device or a "
                    + "socket), which is never written; an output is a regular file (replaced) or a new one");
        }
        temporary(file).close(); // its directory takes a new file: the one a write makes first
    }

    /** A new, empty temporary file next to where {@code file}'s bytes go, deleted when closed. */
    private static Temporary temporary(Path file) throws IOException {
        Path target = where(file);
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new FileSystemException(file.toString(), null, "its directory " + dir + " does not exist; make it "
                    + "first or write elsewhere");
        }
        String name = target.getFileName().toString();
        for (int attempt = 0; ; attempt++) {
            Path temp = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16)
                    + ".part");
            try {
                return new Temporary(target, temp, Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE));
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 16) {
                    throw e;
                }
            } catch (IOException e) {
                throw new FileSystemException(file.toString(), null, "no file can be made in its directory " + dir
                        + " (" + (e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                        : e.getClass().getSimpleName()) + "); write elsewhere");
            }
        }
    }

    /** A temporary file being written, deleted when closed. */
    private record Temporary(Path target, Path temp, OutputStream raw) implements Closeable {
        @Override
        public void close() throws IOException {
            try {
                raw.close();
            } finally {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Starts writing {@code file}: checks it ({@link #check}) and creates the temporary file next to
     * where it goes.
     *
     * @throws IOException when {@code file} is refused or the temporary file cannot be made (its
     *                     directory missing or not writable)
     */
    public static OutputFile create(Path file) throws IOException {
        check(file);
        Temporary t = temporary(file);
        return new OutputFile(t.target(), t.temp(), new BufferedOutputStream(t.raw(), 1 << 16));
    }

    /** Where {@code file}'s bytes go: the file a symbolic link points to (made absolute), else the path itself. */
    private static Path where(Path file) throws IOException {
        Path p = file;
        for (int hops = 0; hops < 40 && Files.isSymbolicLink(p); hops++) {
            Path link = Files.readSymbolicLink(p);
            Path parent = p.toAbsolutePath().getParent();
            p = parent == null ? link : parent.resolve(link);
        }
        return p;
    }

    /** The stream to write to (buffered); closed by {@link #commit} or {@link #close}. */
    public OutputStream stream() {
        return out;
    }

    /** The file the bytes go to once committed (a link's target). */
    public Path target() {
        return target;
    }

    /**
     * Flushes and closes the temporary file and moves it into place, replacing the file there.
     *
     * @throws IOException when writing or moving fails; the temporary file is deleted and the target
     *                     left as it was
     */
    public void commit() throws IOException {
        if (closed) {
            throw new IllegalStateException("the output " + target + " is " + (committed ? "committed" : "closed"));
        }
        boolean ok = false;
        try {
            out.close();
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            ok = true;
            committed = true;
        } finally {
            closed = true;
            if (!ok) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /** Without {@link #commit}: abandons the write, deleting the temporary file (the target is untouched). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Whether {@code a} and {@code b} are the same file: both exist and have the same identity (device
     * and inode, {@link Files#isSameFile}, after following links), or neither exists yet and they name
     * the same place (their directories resolved). For an output against an input, or two outputs.
     */
    public static boolean sameFile(Path a, Path b) {
        try {
            boolean ea = Files.exists(a);
            boolean eb = Files.exists(b);
            if (ea && eb) {
                return Files.isSameFile(a, b);
            }
            if (ea || eb) {
                return false;
            }
            return place(a).equals(place(b));
        } catch (IOException | RuntimeException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    /** A path that does not exist yet, with its existing directory resolved (links, {@code ..}). */
    private static Path place(Path p) throws IOException {
        Path w = where(p).toAbsolutePath().normalize();
        Path parent = w.getParent();
        return parent != null && Files.isDirectory(parent) ? parent.toRealPath().resolve(w.getFileName())
                : w;
    }
}
