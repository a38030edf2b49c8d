package dev.crowdtree.demo.cli;

import dev.crowdtree.core.storage.OutputFile;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files a command writes ({@code run --save}, {@code run --record}, {@code debug --record}),
 * checked before anything is built or written: each must be a regular file or a new one (a directory,
 * a FIFO, a device or a socket is refused, {@link OutputFile#check}), and none may be a file the
 * command reads or another of its outputs, by real identity (device and inode, after resolving
 * symbolic links, {@link OutputFile#sameFile}), so that a link or a hard link to the file being loaded
 * does not overwrite it. An output may replace an input only where that is allowed ({@link #mayReplace}:
 * {@code run --load w.snap --save w.snap} continues a world and saves it back, once it is loaded).
 */
public final class OutputFiles {
    private final Map<String, Path> inputs = new LinkedHashMap<>();
    private final Map<String, Path> outputs = new LinkedHashMap<>();
    private final Set<String> allowed = new HashSet<>();

    /** The files read, by option ({@code --load}, {@code --tree}); null paths are left out. */
    public OutputFiles input(String option, Path file) {
        if (file != null) {
            inputs.put(option, file);
        }
        return this;
    }

    /** The files written, by option ({@code --save}, {@code --record}); null paths are left out. */
    public OutputFiles output(String option, Path file) {
        if (file != null) {
            outputs.put(option, file);
        }
        return this;
    }

    /** Output {@code output} may be the file of input {@code input} (read whole before it is written). */
    public OutputFiles mayReplace(String output, String input) {
        allowed.add(output + " " + input);
        return this;
    }

    /**
     * Checks every output, in the order given.
     *
     * @throws IllegalArgumentException with one line naming the option, the file, what is wrong and what
     *                                  would do
     */
    public void check() {
        Map<String, Path> earlier = new LinkedHashMap<>();
        for (Map.Entry<String, Path> o : outputs.entrySet()) {
            String option = o.getKey();
            Path file = o.getValue();
            try {
                OutputFile.check(file);
            } catch (FileSystemException e) {
                throw new IllegalArgumentException(option + " " + file + ": " + e.getReason());
            } catch (IOException e) {
                throw new IllegalArgumentException(option + " " + file + ": cannot be written: " + e.getMessage());
            }
            for (Map<String, Path> others : List.of(inputs, earlier)) {
                for (Map.Entry<String, Path> other : others.entrySet()) {
                    if (!allowed.contains(option + " " + other.getKey()) && OutputFile.sameFile(file, other.getValue())) {
                        throw new IllegalArgumentException(option + " " + file + " names the file of " + other.getKey()
                                + (sameText(file, other.getValue()) ? "" : " (" + other.getValue() + ": the same file"
                                + " through a link)") + "; give " + what(option) + " a file of its own");
                    }
                }
            }
            earlier.put(option, file);
        }
    }

    private static boolean sameText(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    private static String what(String option) {
        return option.equals("--record") ? "the recording" : option.equals("--save") ? "the snapshot" : "it";
    }
}
