import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The documentation's commands, run (issue 37: docs that cannot drift). In README.md, the guides
 * (docs/guides/*.md) and the references (docs/*.md), a fenced block whose lines start with {@code $ } shows commands and, after each,
 * what it prints. Each such command is run from a scratch directory that sees the repository's
 * {@code agents-demo}, {@code bench}, {@code examples} and {@code docs} (so the files a command writes
 * land there, and the next command of the same document finds them), with bash, and must exit as the
 * block says (0, unless the block is preceded by {@code <!-- exits: N M ... -->}, the codes of its
 * commands in order); every stable line it is
 * shown to print must come out, in the order shown ({@code ...} stands for lines left out). Stable:
 * not a timing, a rate, a size or a progress bar; world hashes, traces, state counts and messages
 * are. A block preceded by {@code <!-- not run: why -->} is not run, and the reason is listed; so
 * is a command that pipes into Graphviz's {@code dot} where it is not installed. A block of commands
 * shown without the prompt (a build command, a list of invocations) must say above it where it runs
 * ({@code <!-- run: .ci/run runs it -->}) or why it is not run; it is listed with that.
 *
 * <p>Run from the repository's root after the build (and after examples/embedding is built, whose
 * jar some commands load): {@code java .ci/DocCommands.java}. Exit 1 when a command fails. With
 * {@code --update} it regenerates the sample outputs: a shown stable line that is not printed any
 * more, where the command prints a line of the same shape (the same words around other numbers or
 * hashes: a new world hash, other state counts), is rewritten in the document, and the run goes on;
 * a line that changed in its words still fails, for a person to rewrite.
 */
public final class DocCommands {
    private static final Pattern UNSTABLE = Pattern.compile(
            "\\d(\\.\\d+)?\\s*(s|ms|min|ns|MB|KB|GB|MiB|B/agent|B/tick)\\b|ticks/s|agent-ticks|load average|\\[[#.]+\\]"
                    + "|https?://|\\d{4}-\\d\\d-\\d\\d|took|elapsed|listening on|pid \\d|crowdtree-local-[0-9a-f]+|\\d B\\b|\\d bytes\\b"
                    + "|\\d+\\.\\d+\\.\\d+\\.\\d+:\\d+" // a member's address
                    + "|^\\s+[a-z][\\w .-]*?(\\s+[\\d.,]+%?){3,}\\s*$"); // a row of a table of times
    private static final long TIMEOUT_S = 300;
    /** A line of a block that is a command a reader would type (without a prompt). */
    private static final Pattern COMMAND = Pattern.compile("^(java |mvn |cd |bash |curl |\\$JAVA|JAVA25=|/usr/bin/time )");
    private static final boolean GRAPHVIZ = Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
            .anyMatch(d -> Files.isExecutable(Path.of(d, "dot")));

    public static void main(String[] args) throws Exception {
        Path repo = Path.of("").toAbsolutePath();
        List<Path> docs = new ArrayList<>();
        docs.add(repo.resolve("README.md"));
        for (String dir : List.of("docs/guides", "docs")) { // the guides, then the references
            try (Stream<Path> s = Files.list(repo.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
            }
        }
        boolean update = List.of(args).contains("--update");
        int updated = 0;
        int run = 0;
        int failed = 0;
        List<String> notRun = new ArrayList<>();
        for (Path doc : docs) {
            Path scratch = Files.createTempDirectory("doc-commands-");
            for (String d : List.of("agents-demo", "bench", "examples", "docs")) {
                Files.createSymbolicLink(scratch.resolve(d), repo.resolve(d));
            }
            List<String> lines = new ArrayList<>(Files.readAllLines(doc, StandardCharsets.UTF_8));
            int changedLines = 0;
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).startsWith("```")) {
                    continue;
                }
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).startsWith("```")) {
                    end++;
                }
                List<String> block = lines.subList(i + 1, Math.min(end, lines.size()));
                String marker = marker(lines, i);
                int fenceLine = i + 1;
                i = end;
                String where = repo.relativize(doc) + ":" + fenceLine;
                String why = reason(marker, "not run:");
                if (block.isEmpty() || !block.get(0).startsWith("$ ")) {
                    // commands shown without a prompt: run elsewhere or not at all, and the block says which
                    if (block.stream().anyMatch(l -> COMMAND.matcher(l).find())) {
                        String elsewhere = reason(marker, "run:");
                        if ((why == null || why.isEmpty()) && (elsewhere == null || elsewhere.isEmpty())) {
                            System.out.println("FAIL " + where + ": commands without '$ ' need <!-- run: where --> or"
                                    + " <!-- not run: why --> above their block");
                            failed++;
                        } else {
                            notRun.add(where + ": " + marker);
                        }
                    }
                    continue;
                }
                if (why != null) {
                    if (why.isEmpty()) {
                        System.out.println("FAIL " + where + ": a 'not run' marker needs a reason");
                        failed++;
                    }
                    notRun.add(where + ": not run: " + why);
                    continue;
                }
                String codes = reason(marker, "exits:");
                String[] exits = codes != null ? codes.split("\\s+") : new String[0];
                int index = 0;
                for (int c = 0; c < block.size(); ) {
                    String command = block.get(c).substring(2);
                    int next = c + 1;
                    while (next < block.size() && !block.get(next).startsWith("$ ")) {
                        next++;
                    }
                    List<String> shown = block.subList(c + 1, next); // a view: --update writes through it
                    c = next;
                    int exit = index < exits.length ? Integer.parseInt(exits[index]) : 0;
                    index++;
                    if (command.contains("| dot -T") && !GRAPHVIZ) {
                        notRun.add(where + ": not run: " + command + ": needs Graphviz's dot, not installed here");
                        continue;
                    }
                    run++;
                    long t0 = System.nanoTime();
                    List<String> regenerated = new ArrayList<>(shown);
                    String problem = check(scratch, command, regenerated, exit, update);
                    String took = String.format(java.util.Locale.ROOT, " (%.1f s)", (System.nanoTime() - t0) / 1e9);
                    for (int k = 0; k < shown.size(); k++) {
                        if (!shown.get(k).equals(regenerated.get(k))) {
                            System.out.println("upd  " + where + ": " + shown.get(k) + "\n  -> " + regenerated.get(k));
                            shown.set(k, regenerated.get(k));
                            changedLines++;
                        }
                    }
                    if (problem == null) {
                        System.out.println("ok   " + where + ": " + command + took);
                    } else {
                        System.out.println("FAIL " + where + ": " + command + took + "\n     " + problem.replace("\n", "\n     "));
                        failed++;
                    }
                }
            }
            if (changedLines > 0) {
                Files.write(doc, lines, StandardCharsets.UTF_8);
                updated += changedLines;
            }
            try (Stream<Path> files = Files.walk(scratch)) { // the links, not what they point to
                for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.delete(f);
                }
            }
        }
        System.out.println("doc commands: " + run + " run, " + failed + " failed, " + notRun.size()
                + " blocks run elsewhere or not run" + (update ? ", " + updated + " shown lines regenerated" : "") + ":");
        for (String n : notRun) {
            System.out.println("  " + n);
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** What follows {@code kind} ("run:", "not run:", "exits:") in {@code marker}, trimmed; null for another marker. */
    private static String reason(String marker, String kind) {
        return marker != null && marker.startsWith(kind) ? marker.substring(kind.length()).trim() : null;
    }

    /** The {@code <!-- ... -->} comment on one of the two lines above line {@code fence}, or null. */
    private static String marker(List<String> lines, int fence) {
        for (int j = fence - 1; j >= Math.max(0, fence - 2); j--) {
            String l = lines.get(j).trim();
            if (l.startsWith("<!--") && l.endsWith("-->")) {
                return l.substring(4, l.length() - 3).trim();
            }
        }
        return null;
    }

    /**
     * Runs {@code command} in {@code dir}; null when it exits with {@code exit} and prints {@code shown}'s
     * stable lines in order. With {@code update}, a stable line that is not printed but has a printed
     * counterpart of the same {@link #shape} (the same words around other numbers or hashes) is replaced
     * in {@code shown} by it, and counts as printed.
     */
    private static String check(Path dir, String command, List<String> shown, int exit, boolean update)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("doc-command-", ".out");
        Process p = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "did not finish in " + TIMEOUT_S + " s";
        }
        List<String> printed = Files.readAllLines(log, StandardCharsets.UTF_8);
        Files.delete(log);
        if (p.exitValue() != exit) {
            return "exit " + p.exitValue() + ", the document says " + exit + "; it printed:\n" + tail(printed);
        }
        int at = 0;
        for (int i = 0; i < shown.size(); i++) {
            String line = shown.get(i);
            if (line.equals("...") || line.isBlank() || UNSTABLE.matcher(line).find()) {
                continue;
            }
            int found = find(printed, at, line, false);
            if (found < 0 && update) {
                found = find(printed, at, line, true);
                if (found >= 0) {
                    shown.set(i, printed.get(found));
                }
            }
            if (found < 0) {
                return "does not print (in this order): " + line + "\nit printed:\n" + tail(printed);
            }
            at = found + 1;
        }
        return null;
    }

    /** The first line of {@code printed} from {@code at} equal to {@code line} (or of its {@link #shape}); -1 if none. */
    private static int find(List<String> printed, int at, String line, boolean byShape) {
        String want = byShape ? shape(line) : line;
        for (int k = at; k < printed.size(); k++) {
            if (want.equals(byShape ? shape(printed.get(k)) : printed.get(k))) {
                return k;
            }
        }
        return -1;
    }

    /** A line with its hexadecimal hashes and its numbers masked: what --update may change in a shown line. */
    private static String shape(String line) {
        return line.replaceAll("\\b[0-9a-f]{8,}\\b", "#").replaceAll("\\d[\\d,.]*", "0");
    }

    private static String tail(List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    }
}
