package dev.crowdtree.statetree.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a file-length cap was meant to protect: code that can be read a piece at a time. No method
 * or constructor of any module's main sources is longer than {@value #MAX_METHOD_LINES} lines (from
 * its signature's opening brace to its closing one; lambdas and anonymous classes inside count
 * towards it): a longer one is split into steps with names. Files are split by meaning, not by
 * size; to see where the size is, the test writes a per-package report (files, lines, the largest
 * file and the longest method) to {@code target/source-size.md} and prints it.
 */
class SourceSizeTest {
    static final int MAX_METHOD_LINES = 120;
    private static final List<String> MODULES = List.of("sim-core", "statetree-system", "agents-demo", "bench");

    @Test
    void noMethodIsLongerThanTheLimit() throws IOException {
        Path repo = repo();
        List<String> tooLong = new ArrayList<>();
        Map<String, Package> packages = new TreeMap<>();
        int files = 0;
        for (String module : MODULES) {
            Path main = repo.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(main), "sources of " + module + " at " + main);
            try (Stream<Path> walk = Files.walk(main)) {
                for (Path f : (Iterable<Path>) walk.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    files++;
                    String text = Files.readString(f);
                    String name = f.getFileName().toString();
                    Package p = packages.computeIfAbsent(module + " " + main.relativize(f.getParent()).toString()
                            .replace('/', '.').replace('\\', '.'), k -> new Package());
                    p.add(name, (int) text.lines().count());
                    for (JavaMethods.Method m : JavaMethods.of(text)) {
                        p.method(name, m);
                        if (m.lines() > MAX_METHOD_LINES) {
                            tooLong.add(repo.relativize(f) + ":" + m.line() + " " + m.name() + " (" + m.lines() + " lines)");
                        }
                    }
                }
            }
        }
        assertTrue(files > 100, "found only " + files + " source files");
        String report = report(packages);
        Path out = repo.resolve("statetree-system/target/source-size.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
        assertEquals(List.of(), tooLong, "split these methods into named steps (at most " + MAX_METHOD_LINES + " lines each)");
    }

    /** The method finder finds what it should: nested classes, lambdas, strings and comments with braces. */
    @Test
    void theMethodFinderCountsBodiesAndSkipsStringsAndComments() {
        String src = String.join("\n",
                "package p;",
                "/** a { brace in a comment */",
                "class A {",
                "    int x = 1; // }",
                "    A(int y) {",
                "        x = y;",
                "    }",
                "    @Override",
                "    public String toString() {",
                "        String s = \"}{\";",
                "        char c = '{';",
                "        Runnable r = () -> {",
                "            System.out.println(s + c);",
                "        };",
                "        return s;",
                "    }",
                "    static final class B implements Runnable {",
                "        public void run() throws IllegalStateException { }",
                "    }",
                "    enum E { ONE, TWO; int k() { return 1; } }",
                "}");
        List<String> found = new ArrayList<>();
        for (JavaMethods.Method m : JavaMethods.of(src)) {
            found.add(m.name() + ":" + m.line() + ":" + m.lines());
        }
        assertEquals(List.of("A:5:3", "toString:9:8", "run:18:1", "k:20:1"), found);
    }

    private static Path repo() {
        String basedir = System.getProperty("basedir");
        return (basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath()).resolve("..").normalize();
    }

    private static String report(Map<String, Package> packages) {
        StringBuilder b = new StringBuilder("# Source size by package (main sources)\n\n"
                + "| module package | files | lines | largest file | longest method |\n|---|---:|---:|---|---|\n");
        int files = 0;
        int lines = 0;
        for (Map.Entry<String, Package> e : packages.entrySet()) {
            Package p = e.getValue();
            files += p.files;
            lines += p.lines;
            b.append("| ").append(e.getKey()).append(" | ").append(p.files).append(" | ").append(p.lines).append(" | ")
                    .append(p.largest).append(" (").append(p.largestLines).append(") | ")
                    .append(p.longest).append(" (").append(p.longestLines).append(") |\n");
        }
        return b.append("| all | ").append(files).append(" | ").append(lines).append(" | | |\n").toString();
    }

    /** One package's totals for the report. */
    private static final class Package {
        int files;
        int lines;
        String largest = "-";
        int largestLines;
        String longest = "-";
        int longestLines;

        void add(String file, int n) {
            files++;
            lines += n;
            if (n > largestLines) {
                largest = file;
                largestLines = n;
            }
        }

        void method(String file, JavaMethods.Method m) {
            if (m.lines() > longestLines) {
                longest = file.replace(".java", "") + "." + m.name();
                longestLines = m.lines();
            }
        }
    }
}
