package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Asset files are read through one door: only regular files, at most {@link InputFiles#DEFAULT_MAX_BYTES}
 * unless the caller raises it, with one error naming the file, its size and the limit.
 */
class InputLimitsTest {
    @TempDir
    Path dir;

    private static final String SMALL = "{\"name\": \"T\", \"root\": {\"name\": \"R\"}}";

    private static CompileError onlyError(StateTreeCompileException e) {
        assertEquals(1, e.errors().size(), e.getMessage());
        return e.errors().get(0);
    }

    @Test
    void devZeroIsRefusedAtOnce() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero), "no /dev/zero here");
        StateTreeCompileException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read(zero)));
        CompileError err = onlyError(e);
        assertEquals("/dev/zero", err.source());
        assertTrue(err.message().contains("not a regular file"), err.toString());
    }

    @Test
    void aDirectoryIsRefused() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(dir, TestAssets.compiler()));
        assertEquals("cannot read the file: it is a directory", onlyError(e).message());
    }

    @Test
    void aFifoIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("pipe.json");
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo here");
            return;
        }
        assumeTrue(p.waitFor() == 0 && Files.exists(fifo), "mkfifo failed");
        // Opening a FIFO without a writer blocks forever: it must be refused before that.
        StateTreeCompileException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read(fifo)));
        assertTrue(onlyError(e).message().contains("not a regular file"), e.getMessage());
    }

    /** A valid asset padded with spaces to {@code bytes}. */
    private Path padded(String name, long bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, SMALL);
        byte[] spaces = new byte[1 << 20];
        Arrays.fill(spaces, (byte) ' ');
        long left = bytes - SMALL.length();
        while (left > 0) {
            int n = (int) Math.min(spaces.length, left);
            Files.write(f, Arrays.copyOf(spaces, n), StandardOpenOption.APPEND);
            left -= n;
        }
        assertEquals(bytes, Files.size(f));
        return f;
    }

    @Test
    void aFileOverTheLimitIsRefusedWithItsSizeAndTheLimit() throws Exception {
        Path big = padded("big.json", 17L << 20);
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(big, TestAssets.compiler()));
        CompileError err = onlyError(e);
        assertEquals(big.toString(), err.source());
        assertEquals("the file is 17,825,792 bytes, over the limit of 16 MB (16,777,216 bytes) for input files; "
                + "raise the limit with --max-input-mb (command line) or the maxBytes argument (API)", err.message());
        assertFalse(err.toString().contains("\n"));
    }

    @Test
    void theLimitCanBeRaisedOrLowered() throws Exception {
        Path big = padded("big.json", 17L << 20);
        assertEquals(1, StateTreeJson.compile(big, TestAssets.compiler(), 32L << 20).stateCount);
        Path small = padded("small.json", 2000);
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.read(small, 1000));
        assertTrue(onlyError(e).message().contains("over the limit of 1,000 bytes"), e.getMessage());
        assertEquals("R", StateTreeJson.read(small, 2000).root().name());
    }

    @Test
    void linkedAssetsCountAgainstTheSameLimit() throws Exception {
        Files.writeString(dir.resolve("part.json"), "{\"name\": \"Part\", \"root\": {\"name\": \"P\"}}"
                + " ".repeat(3000));
        Path main = dir.resolve("main.json");
        Files.writeString(main, "{\"name\": \"Main\", \"root\": {\"name\": \"R\", \"children\": ["
                + "{\"name\": \"L\", \"type\": \"linkedAsset\", \"asset\": \"part.json\"}]}}");
        assertEquals(3, StateTreeJson.compile(main, TestAssets.compiler(), 4000).stateCount);
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(main, TestAssets.compiler(), 3000));
        assertTrue(e.getMessage().contains("part.json: the asset and the assets it links are more than the limit"
                + " of 3,000 bytes"), e.getMessage());
        Files.createDirectory(dir.resolve("sub.json"));
        Files.writeString(main, "{\"name\": \"Main\", \"root\": {\"name\": \"R\", \"children\": ["
                + "{\"name\": \"L\", \"type\": \"linkedAsset\", \"asset\": \"sub.json\"}]}}");
        e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.compile(main, TestAssets.compiler()));
        assertTrue(e.getMessage().contains("sub.json: cannot read the file: it is a directory"), e.getMessage());
    }

    @Test
    void unreadableFilesSayWhyWithoutJavaNames() throws Exception {
        Path locked = dir.resolve("locked.json");
        Files.writeString(locked, SMALL, StandardCharsets.UTF_8);
        assumeTrue(locked.toFile().setReadable(false) && !Files.isReadable(locked), "running as a user who reads anything");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read(locked));
        assertEquals("cannot read the file: permission denied", onlyError(e).message());
    }

    @Test
    void parserMessagesQuoteNoWordOfTheTextAndNoJavaNames() {
        CompileError e = onlyError(assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.read("x.json", "root:x:0:0:secret")));
        assertTrue(e.message().startsWith("JSON syntax error at line 1, column "), e.toString());
        assertFalse(e.message().contains("root") || e.message().contains("secret"), e.toString());
        e = onlyError(assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read("x.json", "{\"a\": NaN}")));
        assertTrue(e.message().endsWith("Non-standard token 'NaN': JSON has no NaN or Infinity"), e.toString());
        e = onlyError(assertThrows(StateTreeCompileException.class, () -> StateTreeJson.read("x.json", "[".repeat(2000))));
        assertTrue(e.message().contains("nesting depth (1001) exceeds the maximum allowed (1000)"), e.toString());
        e = onlyError(assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.read("x.json", "[" + "0,".repeat(JsonLimits.MAX_TOKENS) + "0]")));
        assertTrue(e.message().startsWith("the JSON exceeds a parser limit at line 1, column "), e.toString());
        assertTrue(e.message().contains("Token count (" + (JsonLimits.MAX_TOKENS + 1) + ") exceeds the maximum allowed ("
                + JsonLimits.MAX_TOKENS + ")"), e.toString());
        for (String m : new String[] {e.message()}) {
            assertFalse(m.contains("`") || m.contains("StreamReadConstraints") || m.contains("Source:"), m);
        }
    }

    /** An asset with 5000 tasks of an unknown type: 5000 compiler errors. */
    private static String fiveThousandErrors() {
        StringBuilder sb = new StringBuilder("{\"name\": \"Many\", \"root\": {\"name\": \"R\", \"tasks\": [");
        for (int i = 0; i < 5000; i++) {
            sb.append(i == 0 ? "" : ", ").append("{\"type\": \"nope").append(i).append("\"}");
        }
        return sb.append("]}}").toString();
    }

    @Test
    void aHundredCompileErrorsAreListedThenACount() {
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("many.json", fiveThousandErrors(), TestAssets.compiler()));
        assertEquals(5000, e.errorCount());
        assertTrue(e.errors().size() <= 1000, "kept " + e.errors().size());
        String[] lines = e.getMessage().split("\n");
        assertEquals("5000 errors", lines[0]);
        assertEquals(1 + StateTreeCompileException.MAX_LISTED + 1, lines.length, e.getMessage());
        assertEquals("  many.json: state 'R': tasks[0].type: unknown task type \"nope0\"", lines[1].split(";")[0]);
        assertEquals("  ... and 4900 more errors", lines[lines.length - 1]);
        assertEquals(StateTreeCompileException.MAX_LISTED + 1, e.listing().size());
    }

    @Test
    void theReadersAndTheCompilersErrorsAreCountedTogether() {
        StringBuilder sb = new StringBuilder("{\"name\": \"Many\", \"root\": {\"name\": \"R\"");
        for (int i = 0; i < 3000; i++) {
            sb.append(", \"junk").append(i).append("\": ").append(i);
        }
        sb.append(", \"tasks\": [");
        for (int i = 0; i < 3000; i++) {
            sb.append(i == 0 ? "" : ", ").append("{\"type\": \"nope\"}");
        }
        sb.append("]}}");
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("many.json", sb.toString(), TestAssets.compiler()));
        assertEquals(6000, e.errorCount(), e.getMessage().substring(0, 200));
        assertTrue(e.getMessage().endsWith("  ... and 5900 more errors"), e.getMessage());
    }

    @Test
    void controlCharactersInCompileErrorsAreEscapedAndHugeFieldsShortened() {
        String text = "{\"name\": \"T\", \"root\": {\"name\": \"R\\u001b]0;pwned\\u0007\", \"tasks\": [{\"type\": "
                + "\"evil\\u001b[2J\\r\\n\"}], \"" + "k".repeat(3000) + "\": 1}}";
        StateTreeCompileException e = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("ctl\u0007.json", text, TestAssets.compiler()));
        assertFalse(e.getMessage().chars().anyMatch(c -> c < 0x20 && c != '\n'), e.getMessage());
        assertTrue(e.getMessage().contains("ctl\\u0007.json: state 'R\\u001B]0;pwned\\u0007': tasks[0].type: "
                + "unknown task type \"evil\\u001B[2J\\u000D\\u000A\""), e.getMessage());
        for (String line : e.getMessage().split("\n")) {
            assertTrue(line.length() < 3000, line.length() + " characters: " + line);
        }
        assertTrue(e.getMessage().contains("kkk...(") && e.getMessage().contains("characters)...kkk"), e.getMessage());
        // the parts stay as they were given
        assertEquals("R\u001b]0;pwned\u0007", e.errors().get(0).statePath());
    }

    /** {@code head}, then {@code item} and commas up to about {@code bytes}, then {@code tail}. */
    private static String filled(String head, String item, String tail, long bytes) {
        StringBuilder sb = new StringBuilder(head);
        for (int i = 0; sb.length() + item.length() + tail.length() + 1 < bytes; i++) {
            sb.append(i == 0 ? "" : ",").append(item);
        }
        return sb.append(tail).toString();
    }

    @Test
    void hostileAssetsUnderTheSizeLimitStayCheap() throws Exception {
        // 50 MB of {} objects took 3.8 GB; now the file is refused, and 16 MB of them stop at the token limit.
        Path fifty = dir.resolve("fifty.json");
        Files.writeString(fifty, filled("{\"name\": \"T\", \"root\": {\"name\": \"R\", \"children\": [", "{}", "]}}",
                50L << 20));
        assertTrue(onlyError(assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(fifty, TestAssets.compiler()))).message().contains("over the limit of 16 MB"));
        long start = System.nanoTime();
        Path sixteen = dir.resolve("sixteen.json");
        Files.writeString(sixteen, filled("{\"name\": \"T\", \"root\": {\"name\": \"R\", \"children\": [", "{}", "]}}",
                InputFiles.DEFAULT_MAX_BYTES - 100));
        CompileError e = onlyError(assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile(sixteen, TestAssets.compiler())));
        assertTrue(e.message().startsWith("the JSON exceeds a parser limit") && e.message().contains("Token count"), e.toString());
        // just under the token limit: half a million nameless states, each an error (1000 kept)
        String many = filled("{\"name\": \"T\", \"root\": {\"name\": \"R\", \"children\": [", "{}", "]}}",
                3L * (JsonLimits.MAX_TOKENS / 2 - 20));
        StateTreeCompileException all = assertThrows(StateTreeCompileException.class,
                () -> StateTreeJson.compile("many.json", many, TestAssets.compiler()));
        assertTrue(all.errorCount() > 400_000, all.errorCount() + " errors");
        // 150,000 subtrees that no state links: checked in one probe, not one each
        StringBuilder subtrees = new StringBuilder("{\"name\": \"T\", \"root\": {\"name\": \"R\"}, \"subtrees\": [");
        for (int i = 0; i < 150_000; i++) {
            subtrees.append(i == 0 ? "" : ",").append("{\"name\": \"S").append(i).append("\", \"type\": \"subtree\"}");
        }
        subtrees.append("]}");
        assertEquals(1, StateTreeJson.compile("subtrees.json", subtrees.toString(), TestAssets.compiler()).stateCount);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 60_000, "took " + millis + " ms"); // generous: about 5 s on a busy 2-core machine
    }
}
