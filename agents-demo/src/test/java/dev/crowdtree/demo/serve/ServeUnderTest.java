package dev.crowdtree.demo.serve;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

/** The real {@code serve} command on a thread of its own, for the end-to-end tests: started, asked, stopped. */
final class ServeUnderTest {
    private static final Pattern SERVING = Pattern.compile("serving (?:the crowd|model [^ ]+) on (http://127\\.0\\.0\\.1:(\\d+)/) \\(Ctrl\\+C to stop\\)");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final int[] exit = {-1};
    private final Thread thread;
    /** The page's address, e.g. {@code http://127.0.0.1:41234/}. */
    final String base;

    private ServeUnderTest(String... args) throws InterruptedException {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        thread = new Thread(() -> {
            int code = new CommandLine(new ServeCommand(o, e)).execute(args);
            synchronized (exit) {
                exit[0] = code;
            }
        }, "serve-under-test");
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String url = null;
        while (url == null) {
            Matcher m = SERVING.matcher(out());
            if (m.find()) {
                url = m.group(1);
            } else if (!thread.isAlive() || System.nanoTime() > deadline) {
                fail("serve did not start; stdout:\n" + out() + "\nstderr:\n" + err());
            } else {
                Thread.sleep(50);
            }
        }
        base = url;
    }

    /** Starts {@code serve} with {@code args} and waits until it serves. */
    static ServeUnderTest start(String... args) throws InterruptedException {
        return new ServeUnderTest(args);
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Interrupts it as Ctrl+C would and checks that it stopped with exit code 0. */
    void stop() throws InterruptedException {
        thread.interrupt();
        thread.join(15_000);
        assertFalse(thread.isAlive(), "serve did not stop when interrupted");
        synchronized (exit) {
            assertEquals(0, exit[0], "exit code; stderr:\n" + err());
        }
    }
}
