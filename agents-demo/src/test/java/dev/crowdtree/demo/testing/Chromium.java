package dev.crowdtree.demo.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The Chromium the browser tests drive, and the clean-up of its profile directories. */
public final class Chromium {
    private Chromium() {
    }

    /**
     * The Chromium to test with; when there is none, fails the test under {@code CI=true} (CI
     * installs it, see .ci/run) and skips it otherwise.
     */
    public static Path orSkip() {
        Path chromium = find();
        if (chromium == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("chromium is not installed; .ci/run must install it (apt-get install -y chromium) so that the "
                        + "browser tests run");
            }
            assumeTrue(false, "chromium is not installed (apt-get install -y chromium); skipping the browser test");
        }
        return chromium;
    }

    /** /usr/bin/chromium, else a {@code chromium} on the PATH, else null. */
    public static Path find() {
        Path usr = Path.of("/usr/bin/chromium");
        if (Files.isExecutable(usr)) {
            return usr;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "chromium"))) {
                    return Path.of(dir, "chromium");
                }
            }
        }
        return null;
    }

    /** Deletes {@code dir} and what is in it; a file Chromium still holds is left to the OS. */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path x : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(x);
            }
        } catch (IOException e) {
            // chromium may still be writing into its profile
        }
    }
}
