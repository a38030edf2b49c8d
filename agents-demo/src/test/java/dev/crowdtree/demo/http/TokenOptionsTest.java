package dev.crowdtree.demo.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, item 4: the token of {@code serve} and {@code debug} can be kept out of the process list,
 * in a file ({@code --token-file}) or the environment ({@code CROWDTREE_TOKEN}).
 */
class TokenOptionsTest {
    private static final String T = "0123456789abcdef-XYZ";

    @TempDir
    Path dir;

    @Command(name = "test")
    static final class Cmd {
        @Mixin
        TokenOptions tokens;
    }

    private static TokenOptions parse(String... args) {
        Cmd c = new Cmd();
        new CommandLine(c).parseArgs(args);
        return c.tokens;
    }

    @Test
    void theTokenComesFromTheOptionTheFileOrTheEnvironmentInThatOrder() throws Exception {
        Map<String, String> env = Map.of(TokenOptions.ENV, "from-the-environment-0123");
        assertEquals(T, parse("--token", T).resolve(env).value());
        Path f = Files.writeString(dir.resolve("token"), "  from-a-file-0123456789 \nsecond line ignored\n");
        assertEquals("from-a-file-0123456789", parse("--token-file", f.toString()).resolve(env).value());
        assertEquals("from-the-environment-0123", parse().resolve(env).value());
        assertNull(parse().resolve(Map.of()), "no token at all");
        assertNull(parse().resolve(Map.of(TokenOptions.ENV, "")), "an empty variable is no token");
    }

    @Test
    void badTokenSourcesAreRefusedWithOneLine() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("--token", T, "--token-file", "x").resolve(Map.of()));
        assertEquals("give --token or --token-file, not both", e.getMessage());
        Path missing = dir.resolve("missing");
        e = assertThrows(IllegalArgumentException.class, () -> parse("--token-file", missing.toString()).resolve(Map.of()));
        assertEquals("--token-file " + missing + ": no such file", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> parse("--token-file", dir.toString()).resolve(Map.of()));
        assertEquals("--token-file " + dir + ": not a regular file", e.getMessage());
        Path big = Files.writeString(dir.resolve("big"), "x".repeat(5000));
        e = assertThrows(IllegalArgumentException.class, () -> parse("--token-file", big.toString()).resolve(Map.of()));
        assertTrue(e.getMessage().startsWith("--token-file " + big + ": more than 4096 bytes"), e.getMessage());
        Path shortToken = Files.writeString(dir.resolve("short"), "short\n");
        e = assertThrows(IllegalArgumentException.class, () -> parse("--token-file", shortToken.toString()).resolve(Map.of()));
        assertTrue(e.getMessage().startsWith("--token-file " + shortToken + ": the token is not valid: it must be 16 to 256 characters"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> parse().resolve(Map.of(TokenOptions.ENV, "has space 0123456789")));
        assertTrue(e.getMessage().startsWith("$" + TokenOptions.ENV + " is not valid: it must be 16 to 256 characters"),
                e.getMessage());
    }
}
