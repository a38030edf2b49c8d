package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's quick start prints a real run of the default command
 * ({@code java -jar agents-demo/target/agents-demo.jar}: the crowd, 100,000 agents, 600 ticks): its
 * first line, its state occupancy and its world hash are what that command gives today, so the
 * sample cannot drift from the code (issue 37: the hash printed there had gone stale).
 */
class ReadmeQuickStartTest extends CliTestBase {
    @Test
    void theQuickStartsSampleOutputIsWhatTheDefaultRunPrints() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Quick start");
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        Matcher sample = Pattern.compile("```\n(crowdtree run: .*?)```", Pattern.DOTALL).matcher(section);
        assertTrue(sample.find(), "the quick start shows a run's output");
        String shown = sample.group(1);
        assertEquals(0, Main.execute(), err());
        String printed = out();
        for (String stable : new String[] {"crowdtree run: ", "world hash: ", "  Root/", "smart-object slots in use",
                "node failures", "payload mismatches"}) {
            for (String line : shown.split("\n")) {
                if (line.startsWith(stable)) {
                    assertTrue(printed.contains(line + "\n"), "the README shows '" + line + "', the run printed:\n" + printed);
                }
            }
        }
        Matcher hash = Pattern.compile("world hash: ([0-9a-f]{16})").matcher(shown);
        assertTrue(hash.find(), shown);
    }
}
