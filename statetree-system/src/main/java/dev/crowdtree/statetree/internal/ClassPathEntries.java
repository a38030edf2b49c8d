package dev.crowdtree.statetree.internal;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * Jars and class directories named at run time ({@code --nodes PATH}, {@code --model PATH}): the
 * class path entry of one, after checking that it is one, and an exception in words for the
 * one-line messages of the loaders that read them.
 */
public final class ClassPathEntries {
    private ClassPathEntries() {
    }

    /**
     * The class path URL of the jar or directory {@code path}.
     *
     * @throws IllegalArgumentException {@code "<path>: <what is wrong>"}: it does not exist, is not a
     *                                  readable jar, not a jar or a directory
     */
    public static URL url(Path path) {
        if (!Files.exists(path)) {
            throw new IllegalArgumentException(path + ": no such file or directory");
        }
        if (Files.isRegularFile(path)) {
            try (JarFile jar = new JarFile(path.toFile())) {
                jar.size();
            } catch (IOException | SecurityException e) {
                throw new IllegalArgumentException(path + ": not a jar file (" + why(e) + ")", e);
            }
        } else if (!Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + ": not a jar file or a directory");
        }
        try {
            return path.toAbsolutePath().normalize().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(path + ": cannot be turned into a class path entry: " + why(e), e);
        }
    }

    /** An exception in words: its class and message, and its root cause's when there is one. */
    public static String why(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? describe(e) : describe(e) + " (caused by " + describe(root) + ")";
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getName() : t.getClass().getSimpleName() + ": " + m;
    }
}
