package dev.crowdtree.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

/**
 * {@code java -jar bench/target/benchmarks.jar compare [options]}: runs the same decision logic on
 * every implementation ({@link Impl}) for every {@link Variant} and agent count, each run in a fresh
 * JVM ({@link CompareRun}, heap sized for the count), and writes {@code compare.md},
 * {@code compare.json} and {@code compare.svg} into the output directory. With {@code --model PATH}
 * or {@code --tree FILE} ({@code --nodes PATH}), a user's tree ({@link UserTree}) takes the variants'
 * place, on our runtimes only. See {@link #usage()}.
 */
public final class CompareHarness {
    /** Default agent counts. */
    static final List<Integer> DEFAULT_AGENTS = List.of(10_000, 100_000, 1_000_000);

    /** Parsed command-line options. */
    static final class Options {
        List<Impl> impls = new ArrayList<>();
        List<Integer> agents = new ArrayList<>(DEFAULT_AGENTS);
        List<Variant> variants = new ArrayList<>(List.of(Variant.values()));
        int ticks = 300;
        /**
         * 600 ticks = 20 s of simulated time, one period of the crowd tree's wave evaluator: every path
         * the logic takes (the first flee at the wave's crest included) has run before measuring. After
         * 300, one tick in the measured ones (the same tick number on 1 and 2 workers, so a path of the
         * logic taken first then) allocated a String and its bytes, 104 B once in a run, most likely a
         * constant resolved on first use; the allocation column showed it as 0.2-0.35 B per tick.
         */
        int warmup = 600;
        double budget = 15;
        double warmupBudget = 100;
        long seed = 1;
        Path out = Path.of("bench", "results");
        boolean fork = true;
        /** {@code --jvm-opt}: options every child JVM gets after the harness's own (heap, G1). */
        List<String> jvmOpts = new ArrayList<>();
        /** {@code --model}: a model jar whose tree is compared instead of the built-in variants, or null. */
        Path model;
        /** {@code --nodes}: node-provider jars for a user's tree. */
        List<Path> nodes = new ArrayList<>();
        /** {@code --tree}: a user's tree file, or null. */
        Path tree;
        /** The user's tree that {@link #source()} names, loaded by {@link #main} (or a test), or null. */
        UserTree user;
        private boolean variantsGiven;
        private boolean implsGiven;

        Options() {
            for (Impl i : Impl.values()) {
                if (i.availableHere()) {
                    impls.add(i);
                }
            }
        }

        /** The user's tree the options name, or null for the built-in variants. */
        UserTree.Source source() {
            return model == null && tree == null && nodes.isEmpty() ? null : new UserTree.Source(model, nodes, tree);
        }
    }

    /** The implementations a user's tree runs on by default. */
    static final List<Impl> USER_TREE_IMPLS = List.of(Impl.OURS_1W, Impl.OURS_2W, Impl.REFERENCE);

    private CompareHarness() {
    }

    static String usage() {
        return String.join("\n",
                "usage: java -jar bench/target/benchmarks.jar compare [options]",
                "       java -jar bench/target/benchmarks.jar compare --model PATH [--tree FILE] [options]",
                "       java -jar bench/target/benchmarks.jar compare --nodes PATH [--nodes PATH...] --tree FILE [options]",
                "Runs the same decision logic on every implementation side by side, one fresh JVM per run, and writes",
                "compare.md, compare.json and compare.svg.",
                "  --impls LIST        subset of " + Impl.ids(List.of(Impl.values())),
                "                      (default: all; ours-allw only when the machine has more than 2 cores)",
                "  --agents LIST       agent counts, e.g. 10000,100000,1000000 or 10k,100k,1M (default 10k,100k,1M)",
                "  --variants LIST     subset of " + Variant.ids() + " (default: all)",
                "  --ticks N           measured ticks per run (default 300); a fast run measures more, until 2 s have",
                "                      passed (at most 20 x N)",
                "  --budget S          seconds of measuring per run; a slow run stops earlier, after at least "
                        + CompareRun.MIN_TICKS + " ticks (default 15)",
                "  --warmup N          warm-up ticks before measuring (default 600 = 20 s of simulated time, one period of the wave)",
                "  --warmup-budget S   seconds of warm-up per run at most; a slow run warms up fewer ticks (default 100)",
                "  --seed N            simulation seed (default 1)",
                "  --out DIR           output directory (default bench/results)",
                "  --no-fork           run in this JVM (for tests; heap figures are then less meaningful)",
                "  --jvm-opt OPT       an option for every child JVM, after the heap and G1 options (repeat for more), e.g.",
                "                      --jvm-opt=-XX:+UseTransparentHugePages; the report lists them",
                "  --help",
                "Your tree instead of the built-in variants, on our batched runtime (1 and 2 workers) and the reference",
                "interpreter (gdx-ai, Dominion and the floor implement only the built-in variants):",
                "  --model PATH        a model jar (or class directory) listing one SimulationModel: its node types, its own",
                "                      tree unless --tree names another, each agent's host columns that the model declares",
                "                      at the model's initial values, its externals; the tree's other host columns and",
                "                      externals at the node providers' standalone values; dt is the model's. The model's",
                "                      host systems are NOT run: the reference interpreter has no place for them, so this",
                "                      compares the tree alone",
                "  --nodes PATH        a node-provider jar (or class directory); repeat for more; with --tree, every host",
                "                      column and external takes the providers' standalone value",
                "  --tree FILE         the tree to compare (a StateTree JSON asset)",
                "  With these, --impls takes a subset of " + Impl.ids(Impl.anyTree()),
                "  (default " + Impl.ids(USER_TREE_IMPLS) + "), --variants is not given, and the host sends no events;",
                "  like for like is checked as for the built-in variants.");
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (a.equals("--no-fork")) {
                o.fork = false;
                continue;
            }
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            } else {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                value = args[++i];
            }
            switch (a) {
                case "--impls":
                    o.implsGiven = true;
                    o.impls = new ArrayList<>();
                    for (String s : value.split(",")) {
                        o.impls.add(Impl.parse(s));
                    }
                    break;
                case "--agents":
                    o.agents = new ArrayList<>();
                    for (String s : value.split(",")) {
                        o.agents.add(parseCount(s));
                    }
                    break;
                case "--variants":
                    o.variantsGiven = true;
                    o.variants = new ArrayList<>();
                    for (String s : value.split(",")) {
                        o.variants.add(Variant.parse(s));
                    }
                    break;
                case "--ticks":
                    o.ticks = positive(a, Integer.parseInt(value));
                    break;
                case "--warmup":
                    o.warmup = Integer.parseInt(value);
                    break;
                case "--budget":
                    o.budget = Double.parseDouble(value);
                    break;
                case "--warmup-budget":
                    o.warmupBudget = Double.parseDouble(value);
                    break;
                case "--seed":
                    o.seed = Long.parseLong(value);
                    break;
                case "--out":
                    o.out = Path.of(value);
                    break;
                case "--model":
                    if (o.model != null) {
                        throw new IllegalArgumentException("--model is given twice; the harness compares one model's tree");
                    }
                    o.model = Path.of(value);
                    break;
                case "--nodes":
                    o.nodes.add(Path.of(value));
                    break;
                case "--jvm-opt":
                    if (!value.startsWith("-")) {
                        throw new IllegalArgumentException("--jvm-opt takes a JVM option that starts with '-', got '" + value
                                + "' (write --jvm-opt=-XX:+UseTransparentHugePages)");
                    }
                    o.jvmOpts.add(value);
                    break;
                case "--tree":
                    if (o.tree != null) {
                        throw new IllegalArgumentException("--tree is given twice; the harness compares one tree");
                    }
                    o.tree = Path.of(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a + "; compare --help lists the options");
            }
        }
        if (o.source() != null) {
            userTreeOptions(o);
        }
        if (o.impls.isEmpty() || o.agents.isEmpty() || (o.source() == null && o.variants.isEmpty())) {
            throw new IllegalArgumentException("--impls, --agents and --variants must not be empty");
        }
        return o;
    }

    /** Checks the options that go with a user's tree and chooses its implementations. */
    private static void userTreeOptions(Options o) {
        String form = o.model != null ? "--model" : "--tree";
        if (o.variantsGiven) {
            throw new IllegalArgumentException("--variants chooses among the built-in trees (" + Variant.ids() + "); with "
                    + form + " your tree is the one compared: leave --variants out, or leave out --model, --nodes and --tree");
        }
        if (o.model == null && o.tree == null) {
            throw new IllegalArgumentException("--nodes needs --tree FILE, the tree that uses their node types "
                    + "(or --model PATH, a model jar with a tree of its own)");
        }
        if (o.implsGiven) {
            List<Impl> peers = new ArrayList<>();
            for (Impl i : o.impls) {
                if (!i.runsAnyTree()) {
                    peers.add(i);
                }
            }
            if (!peers.isEmpty()) {
                throw new IllegalArgumentException("--impls " + Impl.ids(peers) + ": " + (peers.size() == 1 ? "implements" : "implement")
                        + " only the built-in variants (" + Variant.ids() + "), not your tree; with " + form
                        + " give a subset of " + Impl.ids(Impl.anyTree()) + " (default " + Impl.ids(USER_TREE_IMPLS) + ")");
            }
        } else {
            o.impls = new ArrayList<>(USER_TREE_IMPLS);
        }
        o.variants = new ArrayList<>();
    }

    private static int positive(String option, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(option + " must be > 0");
        }
        return v;
    }

    static int parseCount(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        int mul = 1;
        if (t.endsWith("k")) {
            mul = 1000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            mul = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        int n = Integer.parseInt(t) * mul;
        if (n <= 0) {
            throw new IllegalArgumentException("agent count must be > 0: " + s);
        }
        return n;
    }

    /** Entry point of {@code compare}; returns the process exit status. */
    public static int main(String[] args, PrintStream out) throws IOException, InterruptedException {
        return main(args, out, System.err);
    }

    /**
     * Entry point of {@code compare} with its error stream: a bad option or combination of options,
     * or a user's tree that cannot be loaded (a jar that is not a model, a tree that does not compile,
     * a host column nothing gives a value), is one line {@code error: ...} on {@code err} and status 2.
     */
    public static int main(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        if (o == null) {
            out.println(usage());
            return 0;
        }
        if (o.source() == null) {
            return run(o, args, out);
        }
        try {
            o.user = UserTree.load(o.source());
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        try {
            return run(o, args, out);
        } finally {
            o.user.close();
        }
    }

    static int run(Options o, String[] args, PrintStream out) throws IOException, InterruptedException {
        String loadBefore = loadAverage();
        long start = System.nanoTime();
        List<Impl> skipped = new ArrayList<>();
        for (Impl i : Impl.values()) {
            if (!i.availableHere() && !o.impls.contains(i)) {
                skipped.add(i);
            }
        }
        Path classpath = o.fork ? privateClasspath() : null;
        List<Variant> subjects = new ArrayList<>(o.variants);
        if (o.user != null) {
            subjects = new ArrayList<>();
            subjects.add(null); // the user's tree
        }
        int total = subjects.size() * o.agents.size() * o.impls.size();
        out.printf(Locale.ROOT, "compare: %d runs (%s x %s x %s), warm-up %d ticks (<= %.0f s), measure <= %d ticks (<= %.0f s), seed %d, %s; load average %s%n",
                total, o.user != null ? o.user.id() : ids(o.variants), o.agents, Impl.ids(o.impls), o.warmup, o.warmupBudget,
                o.ticks, o.budget, o.seed, o.fork ? "one JVM per run" : "in-process", loadBefore);
        if (o.user != null) {
            out.println("  " + o.user.title());
            out.println("  " + o.user.hostText());
        }
        if (skipped.contains(Impl.OURS_ALL)) {
            out.printf("  (%s skipped: this machine has %d cores, so all cores is one of the runs above)%n",
                    Impl.OURS_ALL.id(), Runtime.getRuntime().availableProcessors());
        }
        List<RunResult> results = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int n = 0;
        for (Variant v : subjects) {
            String id = v == null ? o.user.id() : v.id();
            for (int agents : o.agents) {
                for (Impl impl : o.impls) {
                    n++;
                    out.printf(Locale.ROOT, "[%2d/%d] %-12s %-19s %,10d agents ...%n", n, total, id, impl.id(), agents);
                    out.flush();
                    long t0 = System.nanoTime();
                    try {
                        RunResult r = o.fork ? fork(classpath, v, impl, agents, o)
                                : v == null ? CompareRun.run(o.user, impl, agents, o.warmup, o.warmupBudget, o.ticks, o.budget, o.seed)
                                : CompareRun.run(v, impl, agents, o.warmup, o.warmupBudget, o.ticks, o.budget, o.seed);
                        results.add(r);
                        out.printf(Locale.ROOT, "        %8.1f ns/agent-tick, %8.1f ticks/s, p50 %.2f / p99 %.2f / max %.2f ms, "
                                        + "%.0f B/agent heap, %.0f B/tick allocated; %d%s warm-up + %d%s measured ticks [%.1f s]%n",
                                r.nsPerAgentTick(), r.ticksPerSecond(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.heapBytesPerAgent(),
                                r.allocatedBytesPerTick(), r.warmupTicks(), r.warmupLimited() ? " (time budget)" : "",
                                r.measuredTicks(), r.budgetLimited() ? " (time budget)" : "", (System.nanoTime() - t0) / 1e9);
                    } catch (IOException | RuntimeException e) {
                        String msg = id + " " + impl.id() + " " + agents + ": " + e.getMessage();
                        failures.add(msg);
                        out.println("        FAILED: " + e.getMessage());
                    }
                    out.flush();
                }
            }
        }
        String loadAfter = loadAverage();
        double seconds = (System.nanoTime() - start) / 1e9;
        Report report = new Report(results, failures, o, args, loadBefore, loadAfter, seconds, skipped);
        Files.createDirectories(o.out);
        Files.writeString(o.out.resolve("compare.md"), report.markdown(), StandardCharsets.UTF_8);
        Files.writeString(o.out.resolve("compare.json"), report.json(), StandardCharsets.UTF_8);
        Files.writeString(o.out.resolve("compare.svg"), o.user != null
                ? SvgChart.renderPanels(results, List.of(new SvgChart.Panel(o.user.id(), "Your " + o.user.shortTitle())))
                : SvgChart.render(results, o.variants), StandardCharsets.UTF_8);
        out.println();
        out.print(report.summary());
        out.printf(Locale.ROOT, "wrote %s, %s, %s in %.0f s; load average before %s, after %s%n",
                o.out.resolve("compare.md"), o.out.resolve("compare.json"), o.out.resolve("compare.svg"), seconds,
                loadBefore, loadAfter);
        if (classpath != null && !classpath.toString().equals(System.getProperty("java.class.path"))) {
            Files.deleteIfExists(classpath);
        }
        return failures.isEmpty() ? 0 : 1;
    }

    private static String ids(List<Variant> vs) {
        List<String> s = new ArrayList<>();
        for (Variant v : vs) {
            s.add(v.id());
        }
        return String.join(",", s);
    }

    /**
     * The class path for the child JVMs. When it is the benchmarks jar, a private copy: other builds
     * on the machine may replace the jar in the middle of a long run.
     */
    static Path privateClasspath() throws IOException {
        String cp = System.getProperty("java.class.path");
        if (!cp.contains(java.io.File.pathSeparator) && cp.endsWith(".jar")) {
            Path jar = Path.of(cp);
            boolean shaded;
            try (ZipFile z = new ZipFile(jar.toFile())) {
                shaded = z.getEntry("dev/crowdtree/bench/compare/CompareRun.class") != null
                        && z.getEntry("org/HdrHistogram/Histogram.class") != null;
            }
            if (shaded) {
                Path copy = Files.createTempFile("crowdtree-compare-", ".jar");
                copy.toFile().deleteOnExit();
                Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
                return copy;
            }
        }
        return Path.of(cp);
    }

    /** Heap for a child JVM: 1 GiB plus about 5 KB per agent (6 GiB at 1M; gdx-ai's trees take 1.4 KB per agent). */
    static long heapMb(int agents) {
        return Math.max(1024, 1024 + agents / 200L);
    }

    /** One run in a child JVM: of variant {@code v}, or of the user's tree when {@code v} is null (the child loads it from its paths). */
    private static RunResult fork(Path classpath, Variant v, Impl impl, int agents, Options o) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long heap = heapMb(agents);
        List<String> cmd = new ArrayList<>(List.of(java, "-Xms" + heap + "m", "-Xmx" + heap + "m", "-XX:+UseG1GC"));
        cmd.addAll(o.jvmOpts);
        cmd.addAll(List.of("-cp", classpath.toString(), CompareRun.class.getName(),
                v == null ? UserTree.RUN_ARG : v.id(), impl.id(), Integer.toString(agents), Integer.toString(o.warmup),
                Double.toString(o.warmupBudget), Integer.toString(o.ticks), Double.toString(o.budget), Long.toString(o.seed)));
        if (v == null) {
            cmd.addAll(o.user.source().args());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        String result = null;
        List<String> other = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(CompareRun.RESULT_PREFIX)) {
                    result = line.substring(CompareRun.RESULT_PREFIX.length());
                } else {
                    other.add(line);
                }
            }
        }
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("child JVM did not finish in 15 minutes");
        }
        if (p.exitValue() != 0 || result == null) {
            throw new IOException("child JVM exited with " + p.exitValue() + (other.isEmpty() ? "" : ": " + other));
        }
        return new ObjectMapper().readValue(result, RunResult.class);
    }

    /** The 1, 5 and 15 minute load averages, or "?" where /proc/loadavg does not exist (soak's too). */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static String now() {
        return ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** The occupancy snapshot tick that every run of (variant, agents) reached, or null. */
    static String commonSnapshotTick(List<RunResult> runs) {
        String best = null;
        int bestTick = -1;
        for (String t : runs.get(0).occupancyAtTick().keySet()) {
            boolean all = true;
            for (RunResult r : runs) {
                all &= r.occupancyAtTick().containsKey(t);
            }
            if (all && Integer.parseInt(t) > bestTick) {
                bestTick = Integer.parseInt(t);
                best = t;
            }
        }
        return best;
    }

    /** Whether every run of the group has the same occupancy, and every agent the same state, at {@code tick}. */
    static boolean sameOccupancy(List<RunResult> runs, String tick) {
        int[] first = runs.get(0).occupancyAtTick().get(tick);
        String hash = runs.get(0).stateHashAtTick().get(tick);
        for (RunResult r : runs) {
            if (!Arrays.equals(first, r.occupancyAtTick().get(tick)) || !hash.equals(r.stateHashAtTick().get(tick))) {
                return false;
            }
        }
        return true;
    }

    /** Runs grouped by variant then agent count, in run order. */
    static Map<String, List<RunResult>> groups(List<RunResult> results) {
        Map<String, List<RunResult>> g = new LinkedHashMap<>();
        for (RunResult r : results) {
            g.computeIfAbsent(r.variant() + " " + r.agents(), k -> new ArrayList<>()).add(r);
        }
        return g;
    }
}
