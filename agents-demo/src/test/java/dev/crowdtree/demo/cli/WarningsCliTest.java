package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.NodeJars;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Authoring warnings on the command line (docs/SEMANTICS.md, "Authoring warnings"): {@code validate}
 * prints them after the OK line and exits 0, or 1 with {@code --strict}; {@code dot}, {@code trace}
 * and {@code run} print them on stderr and go on; the crowd's tree has none; and "did you mean"
 * for an unknown target.
 */
class WarningsCliTest extends CliTestBase {
    /**
     * The cases: a completion transition on a state whose only task is run (W1), and the
     * tree's own sendEvent sending {@code volume: true} to a transition declaring volume as float
     * (W3).
     */
    private static final String WARNED = "{\"name\": \"Noisy\", \"root\": {\"name\": \"Root\","
            + " \"transitions\": [{\"trigger\": \"onEvent\", \"event\": \"Noise\", \"to\": \"Root/Listen\","
            + " \"payloadFields\": {\"volume\": \"float\"}}],"
            + " \"children\": ["
            + "{\"name\": \"Idle\", \"tasks\": [{\"type\": \"run\"}],"
            + " \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Root/Shout\"}, {\"trigger\": \"onTick\", \"to\": \"Root/Shout\"}]},"
            + "{\"name\": \"Shout\", \"tasks\": [{\"type\": \"sendEvent\", \"tag\": \"Noise\", \"payload\": {\"volume\": true}},"
            + " {\"type\": \"delay\", \"duration\": 0.2}], \"transitions\": [{\"trigger\": \"onStateCompleted\", \"to\": \"Root/Idle\"}]},"
            + "{\"name\": \"Listen\", \"tasks\": [{\"type\": \"run\"}]}]}}";
    private static final String W1 = "warning: %s: state 'Root/Idle': transitions[0].trigger: [W1] onStateCompleted can never "
            + "fire: no task of this state or of a state below it can complete it (their counted task types: run)";
    private static final String W3 = "warning: %s: state 'Root/Shout': tasks[0].payload.volume: [W3] payload field 'volume' "
            + "of event 'Noise' is sent as bool but transitions[0] of state 'Root' declares it float: that transition never "
            + "matches this event";

    @Test
    void validatePrintsTheWarningsAfterTheOkLineAndExitsZero() throws Exception {
        Path p = write("noisy.json", WARNED);
        assertEquals(0, Main.execute("validate", p.toString()));
        assertEquals(p + ": OK: tree 'Noisy', 4 states, 4 transitions, 4 tasks, 0 evaluators, 0 parameters\n"
                + String.format(W1, p) + "\n" + String.format(W3, p) + "\n2 warnings\n", out());
        assertEquals("", err());
    }

    @Test
    void strictMakesTheWarningsErrors() throws Exception {
        Path p = write("noisy.json", WARNED);
        assertEquals(1, Main.execute("validate", "--strict", p.toString()));
        assertEquals(String.format(W1, p) + "\n" + String.format(W3, p) + "\n2 warnings; --strict makes them errors\n", out());
        out.reset();
        // a tree without warnings passes
        Path fixed = write("fixed.json", WARNED.replace("{\"trigger\": \"onStateCompleted\", \"to\": \"Root/Shout\"}, ", "")
                .replace("{\"volume\": true}", "{\"volume\": 2}"));
        assertEquals(0, Main.execute("validate", "--strict", fixed.toString()));
        assertEquals(fixed + ": OK: tree 'Noisy', 4 states, 3 transitions, 4 tasks, 0 evaluators, 0 parameters\n", out());
    }

    @Test
    void anUnknownTargetSuggestsTheClosestState() throws Exception {
        Path p = write("chase.json", WARNED.replace("\"onTick\", \"to\": \"Root/Shout\"", "\"onTick\", \"to\": \"Shuot\""));
        assertEquals(1, Main.execute("validate", p.toString()));
        assertTrue(out().startsWith(p + ": state 'Root/Idle': transitions[1].to: unknown target state 'Shuot'; "
                + "did you mean [Root/Shout]?\n1 error\n"), out());
    }

    @Test
    void dotTraceAndRunPrintTheWarningsOnStderrAndGoOn() throws Exception {
        Path p = write("noisy.json", WARNED);
        String warnings = String.format(W1, p) + "\n" + String.format(W3, p) + "\n";
        assertEquals(0, Main.execute("dot", p.toString()));
        assertTrue(out().startsWith("digraph"), out());
        assertEquals(warnings, err());
        out.reset();
        err.reset();
        Path sc = write("scenario.json", "{\"tree\": \"noisy.json\", \"dt\": 0.1, \"ticks\": 3}");
        assertEquals(0, Main.execute("trace", sc.toString()));
        assertTrue(out().startsWith("0 start\n"), out());
        // the warnings first; W3's payload, rejected when sent, is then counted at the end (rule E5)
        assertTrue(err().startsWith(warnings + "payload mismatches: "), err());
        out.reset();
        err.reset();
        assertEquals(0, Main.execute("run", "--tree", p.toString(), "--agents", "100", "--ticks", "3", "--quiet"));
        assertTrue(out().contains("world hash: "), out());
        assertTrue(err().startsWith(warnings), err());
    }

    @Test
    void theCrowdTreeHasNoWarnings() {
        Path crowd = NodeJars.REPO.resolve("agents-demo/src/main/resources/trees/crowd.json");
        assertEquals(0, Main.execute("validate", "--strict", crowd.toString()));
        assertTrue(out().contains("OK: tree 'Crowd'"), out());
        assertFalse(out().contains("warning:"), out());
        out.reset();
        assertEquals(0, Main.execute("run", "--agents", "100", "--ticks", "1", "--quiet"));
        assertFalse(err().contains("warning:"), err());
    }
}
