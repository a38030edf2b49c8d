package dev.crowdtree.statetree.readme;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link of the documentation (README.md, docs/ with its guides, the examples' READMEs
 * and notes) reaches a file of the repository, and a link to a heading ({@code file.md#anchor}, or
 * {@code #anchor} in the same file) reaches a heading of that file, by GitHub's anchor rules: so
 * moving a section (as issue 37 moved the README's into docs/guides) cannot leave a dead link
 * behind. The README reaches every guide.
 */
class DocLinksTest {
    private static final Path REPO = ReadmeEmbeddingTest.REPO;
    /** A Markdown link or image: its target, without a title. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    @Test
    void everyRelativeLinkReachesAFileAndItsHeading() throws IOException {
        List<Path> docs = documents();
        assertTrue(docs.size() >= 20, "documents found: " + docs);
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> dead = new ArrayList<>();
        int links = 0;
        for (Path doc : docs) {
            for (String target : links(Files.readAllLines(doc))) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // https:, mailto: ...
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash >= 0 ? target.substring(0, hash) : target;
                String anchor = hash >= 0 ? target.substring(hash + 1) : null;
                Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                String where = REPO.relativize(doc) + ": (" + target + ")";
                if (!to.startsWith(REPO) || !Files.exists(to)) {
                    dead.add(where + ": no such file");
                    continue;
                }
                if (anchor != null && to.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(to, DocLinksTest::headingAnchors).contains(anchor)) {
                    dead.add(where + ": no heading with anchor #" + anchor + " in " + REPO.relativize(to));
                }
            }
        }
        assertTrue(links >= 100, "relative links checked: " + links);
        assertEquals(List.of(), dead, "dead links");
    }

    @Test
    void theReadmeReachesEveryGuide() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        List<String> missing = new ArrayList<>();
        try (Stream<Path> guides = Files.list(REPO.resolve("docs/guides"))) {
            for (Path g : (Iterable<Path>) guides.sorted()::iterator) {
                if (!readme.contains("(docs/guides/" + g.getFileName() + ")")) {
                    missing.add(g.getFileName().toString());
                }
            }
        }
        assertEquals(List.of(), missing, "guides the README does not link");
    }

    /** README.md, every .md file under docs/ and the examples' Markdown files. */
    private static List<Path> documents() throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(REPO.resolve("README.md"));
        for (String dir : List.of("docs", "examples")) {
            try (Stream<Path> s = Files.walk(REPO.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".md") && !p.toString().contains("/target/")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /** The link targets of a document's lines outside fenced code blocks. */
    private static List<String> links(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``")); // a link in inline code is not a link
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The anchors GitHub gives the headings of a Markdown file (outside code blocks). */
    private static Set<String> headingAnchors(Path md) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        try {
            for (String line : Files.readAllLines(md)) {
                if (line.startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                int level = ReadmeEmbeddingTest.headingLevel(line);
                if (fenced || level > 6) {
                    continue;
                }
                String slug = slug(line.substring(level + 1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(n == 0 ? slug : slug + "-" + n);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /** GitHub's rule: lower case, punctuation but '-' and '_' removed, each space a '-'. */
    static String slug(String heading) {
        String s = heading.trim().toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.append(c);
            } else if (c == ' ') {
                b.append('-');
            }
        }
        return b.toString();
    }
}
