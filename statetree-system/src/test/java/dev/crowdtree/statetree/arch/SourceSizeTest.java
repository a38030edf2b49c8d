package dev.crowdtree.statetree.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No main source file of any module is longer than {@value #MAX_LINES} lines: a class that grows past
 * that is split by what it does (the compiler by pass, the runtimes by phase), so that each file can
 * be read on its own.
 */
class SourceSizeTest {
    static final int MAX_LINES = 600;

    @Test
    void noMainSourceFileIsLongerThanTheLimit() throws IOException {
        String basedir = System.getProperty("basedir");
        Path repo = (basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath()).resolve("..").normalize();
        List<String> tooLong = new ArrayList<>();
        int files = 0;
        for (String module : List.of("sim-core", "statetree-system", "agents-demo", "bench")) {
            Path main = repo.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(main), "sources of " + module + " at " + main);
            try (Stream<Path> walk = Files.walk(main)) {
                for (Path f : (Iterable<Path>) walk.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    files++;
                    long lines;
                    try (Stream<String> l = Files.lines(f)) {
                        lines = l.count();
                    }
                    if (lines > MAX_LINES) {
                        tooLong.add(repo.relativize(f) + " (" + lines + " lines)");
                    }
                }
            }
        }
        assertTrue(files > 100, "found only " + files + " source files");
        assertEquals(List.of(), tooLong, "split these files by what they do");
    }
}
