package dev.crowdtree.statetree.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering, read from the main sources: every reference to a package of the module in code (an
 * import or a fully qualified name; comments, where javadoc links live, do not count). In statetree-system the runtime side
 * (node contracts, built-in node kernels, the compiled tree, the batched runtime) imports nothing
 * from the authoring side (definitions, JSON, the compiler) nor from the reference interpreter and
 * scenarios on top of both. In every module (sim-core, statetree-system, agents-demo, bench) no two
 * packages import each other, directly or through others. agents-demo's node types bind to host
 * columns and an external, not to the simulation: its {@code nodes} package refers neither to
 * {@code sim} nor to a world, and the commands that only read a tree ({@code validate}, {@code dot})
 * build no world.
 */
class PackageDependencyTest {
    private static final String BASE = "dev.crowdtree.statetree";
    /** The name used for the classes directly in a module's base package. */
    private static final String ROOT = "(base)";
    private static final Set<String> RUNTIME = Set.of("node", "nodes", "compiled", "internal", "exec");
    private static final Set<String> ABOVE_RUNTIME = Set.of("definition", "json", "compiler", "reference", "fixtures", "model");

    @Test
    void theRuntimeSideImportsNothingFromAboveIt() throws IOException {
        Map<String, Map<String, Set<String>>> byFile = importsByPackage();
        assertTrue(byFile.keySet().containsAll(RUNTIME), "runtime packages found: " + byFile.keySet());
        List<String> wrong = new ArrayList<>();
        for (String p : RUNTIME) {
            byFile.get(p).forEach((file, deps) -> {
                for (String d : deps) {
                    if (ABOVE_RUNTIME.contains(d)) {
                        wrong.add(p + "/" + file + " refers to " + BASE + "." + d);
                    }
                }
            });
        }
        assertEquals(List.of(), wrong, "the runtime side must not depend on the authoring side or the reference");
    }

    @Test
    void noPackageCycles() throws IOException {
        Map<String, Set<String>> graph = graph(importsByPackage());
        assertEquals(List.of(), cycle(graph), "package cycle in " + graph);
    }

    @Test
    void noPackageCyclesInTheOtherModules() throws IOException {
        for (String[] module : new String[][] {
                {"sim-core", "dev.crowdtree.core"}, {"agents-demo", "dev.crowdtree.demo"}, {"bench", "dev.crowdtree.bench"}}) {
            Path root = moduleDir().resolve("../" + module[0] + "/src/main/java/" + module[1].replace('.', '/')).normalize();
            assertTrue(Files.isDirectory(root), "sources of " + module[0] + " at " + root);
            Map<String, Set<String>> graph = graph(importsByPackage(root, module[1]));
            assertEquals(List.of(), cycle(graph), module[0] + ": package cycle in " + graph);
        }
    }

    @Test
    void theDemoNodesAndTheReadOnlyCommandsNeedNoWorld() throws IOException {
        Path demo = moduleDir().resolve("../agents-demo/src/main/java/dev/crowdtree/demo").normalize();
        Map<String, Set<String>> graph = graph(importsByPackage(demo, "dev.crowdtree.demo"));
        assertTrue(graph.containsKey("nodes") && graph.containsKey("sim"), "demo packages: " + graph.keySet());
        assertFalse(graph.get("nodes").contains("sim"), "the crowd's node types refer to the simulation: " + graph);
        List<Path> worldFree = new ArrayList<>();
        try (var files = Files.list(demo.resolve("nodes"))) {
            files.forEach(worldFree::add);
        }
        for (String f : List.of("TreeFiles.java", "ValidateCommand.java", "DotCommand.java")) {
            worldFree.add(demo.resolve("cli").resolve(f));
        }
        for (Path f : worldFree) {
            String code = Files.readString(f);
            assertFalse(code.contains("dev.crowdtree.core.world") || code.contains("dev.crowdtree.demo.sim"),
                    f.getFileName() + " refers to a world or the simulation");
        }
    }

    @Test
    void theCycleCheckFindsACycle() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("exec", Set.of("compiled", "trace"));
        g.put("compiled", Set.of());
        g.put("trace", Set.of("exec"));
        List<String> c = cycle(g);
        assertFalse(c.isEmpty());
        assertEquals(List.of("exec", "trace", "exec"), c);
    }

    private static Map<String, Map<String, Set<String>>> importsByPackage() throws IOException {
        return importsByPackage(moduleDir().resolve("src/main/java/" + BASE.replace('.', '/')), BASE);
    }

    /** Package -> file -> packages under {@code base} it imports (itself excluded), for the packages below {@code root}. */
    private static Map<String, Map<String, Set<String>>> importsByPackage(Path root, String base) throws IOException {
        Pattern imports = Pattern.compile("(?<![\\w.])" + Pattern.quote(base) + "\\.(\\w+)");
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        List<Path> dirs = new ArrayList<>();
        dirs.add(root); // classes directly in the base package count as the package ROOT
        try (Stream<Path> sub = Files.list(root)) {
            sub.filter(Files::isDirectory).sorted().forEach(dirs::add);
        }
        for (Path dir : dirs) {
            String p = dir.equals(root) ? ROOT : dir.getFileName().toString();
            Map<String, Set<String>> files = new TreeMap<>();
            try (Stream<Path> srcs = Files.list(dir)) {
                for (Path f : (Iterable<Path>) srcs.filter(x -> x.toString().endsWith(".java")).sorted()::iterator) {
                    Set<String> deps = new TreeSet<>();
                    Matcher m = imports.matcher(code(Files.readString(f)));
                    while (m.find()) {
                        String token = m.group(1);
                        String d = Character.isUpperCase(token.charAt(0)) ? ROOT : token;
                        if (!d.equals(p)) {
                            deps.add(d);
                        }
                    }
                    files.put(f.getFileName().toString(), deps);
                }
            }
            if (!files.isEmpty()) {
                out.put(p, files);
            }
        }
        return out;
    }

    /** The source without comments, string literals and the package line. */
    private static String code(String src) {
        return src.replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("//[^\\n]*", " ")
                .replaceAll("\"(?:[^\"\\\\\\n]|\\\\.)*\"", "\"\"")
                .replaceAll("(?m)^package [^;]*;", " ");
    }

    private static Map<String, Set<String>> graph(Map<String, Map<String, Set<String>>> byFile) {
        Map<String, Set<String>> g = new TreeMap<>();
        byFile.forEach((p, files) -> {
            Set<String> deps = new TreeSet<>();
            files.values().forEach(deps::addAll);
            g.put(p, deps);
        });
        return g;
    }

    /** A cycle as a path that ends where it starts, or an empty list. Depth-first, in name order. */
    static List<String> cycle(Map<String, Set<String>> g) {
        Map<String, Integer> state = new TreeMap<>(); // 1: on the current path, 2: done
        for (String start : g.keySet()) {
            List<String> path = new ArrayList<>();
            List<String> found = visit(g, start, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> visit(Map<String, Set<String>> g, String p, Map<String, Integer> state, List<String> path) {
        Integer s = state.get(p);
        if (s != null && s == 2) {
            return List.of();
        }
        if (s != null && s == 1) {
            List<String> c = new ArrayList<>(path.subList(path.indexOf(p), path.size()));
            c.add(p);
            return c;
        }
        state.put(p, 1);
        path.add(p);
        for (String d : new TreeSet<>(g.getOrDefault(p, Set.of()))) {
            List<String> c = visit(g, d, state, path);
            if (!c.isEmpty()) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        state.put(p, 2);
        return List.of();
    }

    private static Path moduleDir() {
        String basedir = System.getProperty("basedir");
        return basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
    }
}
