package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 37: {@code trace} did not report payload mismatches (rule E5). It now ends with run's summary
 * lines for them on stderr, when there were any; the trace on stdout stays the canonical one.
 */
class TraceMismatchCliTest extends CliTestBase {
    private static final Path GOLDEN = Path.of("..", "statetree-system", "src", "test", "resources", "golden");

    @Test
    void traceSaysWhichPayloadsTheTransitionsRejected() throws Exception {
        Path c = GOLDEN.resolve("event_payload");
        for (String runtime : new String[] {"batched", "reference"}) {
            out.reset();
            err.reset();
            assertEquals(0, Main.execute("trace", "--runtime", runtime, c.resolve("scenario.json").toString()), err());
            assertEquals(Files.readString(c.resolve("expected.trace")), out(), "the trace itself is unchanged");
            assertTrue(err().endsWith("payload mismatches: 2\n  Noise value: missing  1\n"
                    + "  Noise volume: wrong type (sent bool, declared float)  1\n"), runtime + ": " + err());
        }
    }

    @Test
    void noMismatchNoLine() throws Exception {
        assertEquals(0, Main.execute("trace", GOLDEN.resolve("d11g_events").resolve("scenario.json").toString()), err());
        assertFalse(err().contains("payload mismatches"), err());
    }
}
