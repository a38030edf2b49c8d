package dev.crowdtree.statetree.readme;

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
 * The guides docs/guides/your-simulation.md ("Your own simulation", "Your node types in the command
 * line") and docs/guides/embedding.md (the example project, "Embedding walkthrough") quote the
 * embedding example (examples/embedding) verbatim: every Java block of those guides is a run of lines
 * of one of the example's sources (compared with their common indentation removed), so the guides
 * cannot drift from code that compiles and runs (the example's own tests run it, in CI, against the
 * installed artifacts). Also: the dependency snippets of README.md (its minimal pom) and of the
 * embedding guide are the ones the example's pom declares (statetree-system, and agents-demo for the
 * debugger).
 */
class ReadmeEmbeddingTest {
    /** The repository's root (the module's parent). */
    static final Path REPO = repo();
    private static final Path EXAMPLE = REPO.resolve("examples/embedding");

    private static Path repo() {
        String basedir = System.getProperty("basedir");
        return (basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath()).resolve("..").normalize();
    }

    @Test
    void everyJavaBlockOfTheWalkthroughIsQuotedFromTheExample() throws IOException {
        List<String> simulation = Files.readAllLines(REPO.resolve("docs/guides/your-simulation.md"));
        List<String> embedding = Files.readAllLines(REPO.resolve("docs/guides/embedding.md"));
        List<List<String>> blocks = new ArrayList<>();
        blocks.addAll(javaBlocks(section(simulation, "# Your own simulation")));
        blocks.addAll(javaBlocks(section(simulation, "## Your node types in the command line")));
        blocks.addAll(javaBlocks(section(embedding, "# Embedding in your own loop")));
        assertTrue(blocks.size() >= 8, "java blocks found: " + blocks.size());
        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(EXAMPLE.resolve("src"))) {
            for (Path p : (Iterable<Path>) walk.filter(f -> f.toString().endsWith(".java"))::iterator) {
                sources.add(Files.readAllLines(p));
            }
        }
        assertTrue(sources.size() >= 6, "example sources: " + sources.size());
        for (List<String> block : blocks) {
            assertTrue(quoted(dedent(block), sources), "not a verbatim run of lines of examples/embedding/src:\n"
                    + String.join("\n", block));
        }
    }

    @Test
    void theReadmesDependencyIsTheOneTheExampleDeclares() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        String docs = readme + Files.readString(REPO.resolve("docs/guides/embedding.md"));
        String pom = Files.readString(EXAMPLE.resolve("pom.xml"));
        String version = Files.readString(REPO.resolve("pom.xml")).replaceAll("(?s).*?<version>([^<]+)</version>.*", "$1");
        for (String artifact : List.of("statetree-system", "agents-demo")) {
            // as a snippet or inside the README's complete pom.xml, at any indentation
            assertTrue(java.util.regex.Pattern.compile("<dependency>\\s*<groupId>dev\\.crowdtree</groupId>\\s*<artifactId>"
                    + artifact + "</artifactId>\\s*<version>" + java.util.regex.Pattern.quote(version)
                    + "</version>\\s*</dependency>").matcher(artifact.equals("statetree-system") ? readme : docs).find(),
                    "dependency snippet of " + artifact + " with version " + version + " (README's pom, the embedding guide)");
            assertTrue(pom.contains("<artifactId>" + artifact + "</artifactId>\n      <version>${crowdtree.version}</version>"),
                    pom);
        }
        assertTrue(pom.contains("<crowdtree.version>" + version + "</crowdtree.version>"), "example pom's version");
        assertTrue(readme.contains("mvn -B install -DskipTests"), "the install command");
        assertEquals(2, pom.split("<groupId>dev.crowdtree</groupId>", -1).length - 1,
                "the example depends on statetree-system and, for the debugger, agents-demo");
    }

    /** The lines from {@code heading} to the next heading of the same level or above. */
    private static List<String> section(List<String> lines, String heading) {
        int from = lines.indexOf(heading);
        assertTrue(from >= 0, "no section " + heading);
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int to = from + 1;
        boolean fenced = false; // a "# comment" in a shell block is not a heading
        while (to < lines.size() && (fenced || headingLevel(lines.get(to)) > level.length() - 1)) {
            fenced ^= lines.get(to).startsWith("```");
            to++;
        }
        return lines.subList(from, to);
    }

    /** The level of a Markdown heading line ({@code ## X}: 2), or {@code Integer.MAX_VALUE} for another line. */
    static int headingLevel(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == '#') {
            n++;
        }
        return n < line.length() && line.charAt(n) == ' ' ? n : Integer.MAX_VALUE;
    }

    /**
     * Checks that every Java block of {@code docs} (paths from the repository's root) is quoted from
     * {@code testFile}, a source of this package: each run of lines between blank lines is a run of
     * lines of it (a block's parts, such as a class and the code that registers it, may sit apart
     * there), where a class nested there ({@code public static final class}) is a top-level one in the
     * documents. Returns how many runs were checked.
     */
    static int assertBlocksQuoted(List<String> docs, String testFile) throws IOException {
        List<String> source = new ArrayList<>();
        for (String l : Files.readAllLines(REPO.resolve("statetree-system/src/test/java/dev/crowdtree/statetree/readme")
                .resolve(testFile))) {
            source.add(l.replace("public static final class ", "public final class "));
        }
        int chunks = 0;
        for (String doc : docs) {
            for (List<String> block : javaBlocks(Files.readAllLines(REPO.resolve(doc)))) {
                for (int from = 0; from < block.size(); ) {
                    int to = from;
                    while (to < block.size() && !block.get(to).isBlank()) {
                        to++;
                    }
                    if (to > from) {
                        List<String> chunk = dedent(block.subList(from, to));
                        assertTrue(quoted(chunk, List.of(source)),
                                doc + ": not a run of lines of " + testFile + ":\n" + String.join("\n", chunk));
                        chunks++;
                    }
                    from = to + 1;
                }
            }
        }
        return chunks;
    }

    static List<List<String>> javaBlocks(List<String> lines) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals("```java")) {
                int end = i + 1;
                while (!lines.get(end).equals("```")) {
                    end++;
                }
                out.add(lines.subList(i + 1, end));
                i = end;
            }
        }
        return out;
    }

    static boolean quoted(List<String> block, List<List<String>> sources) {
        for (List<String> src : sources) {
            for (int start = 0; start + block.size() <= src.size(); start++) {
                if (dedent(src.subList(start, start + block.size())).equals(block)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The lines without their common leading spaces (blank lines ignored for the measure). */
    static List<String> dedent(List<String> lines) {
        int indent = Integer.MAX_VALUE;
        for (String l : lines) {
            if (!l.isBlank()) {
                indent = Math.min(indent, l.length() - l.stripLeading().length());
            }
        }
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(l.isBlank() ? "" : l.substring(indent));
        }
        return out;
    }
}
