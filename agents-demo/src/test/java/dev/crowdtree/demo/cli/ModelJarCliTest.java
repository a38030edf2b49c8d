package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import dev.crowdtree.demo.testing.NodeJars;
import dev.crowdtree.statetree.model.ModelJars;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code --model PATH} refused in one line naming the path (and the class), exit 2: a directory
 * holding no model (refused before its files are read for the fingerprint), a model whose {@code define()}
 * throws or overflows its stack (issue 34: a raw stack trace, exit 1).
 */
class ModelJarCliTest extends CliTestBase {
    private static final String MODEL_HEAD = "package acme;\n"
            + "public final class %s implements dev.crowdtree.statetree.model.SimulationModel {\n"
            + "  static int down(int n) { return down(n + 1) + 1; }\n"
            + "  public dev.crowdtree.statetree.model.ModelDefinition define() { %s }\n}\n";

    private Path model(String name, String body) throws Exception {
        Path classes = NodeJars.classes(dir.resolve(name), Map.of("acme." + name, String.format(MODEL_HEAD, name, body)));
        Path services = classes.resolve(ModelJars.SERVICES_FILE);
        Files.createDirectories(services.getParent());
        Files.writeString(services, "acme." + name + "\n");
        return classes;
    }

    @Test
    void aDirectoryWithoutAModelIsNamed() throws Exception {
        Path junk = Files.createDirectories(dir.resolve("junk"));
        Files.writeString(junk.resolve("notes.txt"), "hello");
        assertEquals(2, Main.execute("run", "--model", junk.toString(), "--ticks", "1"));
        assertEquals("error: --model " + junk + ": no model in it; a jar or directory lists its model's class name in "
                + ModelJars.SERVICES_FILE + " (a class implementing dev.crowdtree.statetree.model.SimulationModel)\n", err());
    }

    @Test
    void aModelWhoseDefinitionThrowsOrOverflowsItsStackIsOneLine() throws Exception {
        Path throwing = model("Throwing", "throw new IllegalStateException(\"no map\");");
        assertEquals(2, Main.execute("run", "--model", throwing.toString(), "--ticks", "1"));
        assertEquals("error: --model " + throwing + ": model acme.Throwing failed: IllegalStateException: no map\n", err());

        Path deep = model("Deep", "down(0); return null;");
        err.reset();
        assertEquals(2, Main.execute("run", "--model", deep.toString(), "--ticks", "1"));
        assertEquals("error: --model " + deep + ": model acme.Deep failed: java.lang.StackOverflowError\n", err());
    }
}
