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
 * The layering of statetree-system, read from the import lines of its main sources: the runtime side
 * (node contracts, built-in node kernels, the compiled tree, the batched runtime) imports nothing
 * from the authoring side (definitions, JSON, the compiler) nor from the reference interpreter and
 * scenarios on top of both; and no two packages import each other, directly or through others.
 */
class PackageDependencyTest {
    private static final String BASE = "dev.crowdtree.statetree";
    private static final Set<String> RUNTIME = Set.of("node", "nodes", "compiled", "exec");
    private static final Set<String> ABOVE_RUNTIME = Set.of("definition", "json", "compiler", "reference", "fixtures");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?" + Pattern.quote(BASE) + "\\.([a-z]+)\\.", Pattern.MULTILINE);

    @Test
    void theRuntimeSideImportsNothingFromAboveIt() throws IOException {
        Map<String, Map<String, Set<String>>> byFile = importsByPackage();
        assertTrue(byFile.keySet().containsAll(RUNTIME), "runtime packages found: " + byFile.keySet());
        List<String> wrong = new ArrayList<>();
        for (String p : RUNTIME) {
            byFile.get(p).forEach((file, deps) -> {
                for (String d : deps) {
                    if (ABOVE_RUNTIME.contains(d)) {
                        wrong.add(p + "/" + file + " imports " + BASE + "." + d);
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
    void theCycleCheckFindsACycle() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("exec", Set.of("compiled", "trace"));
        g.put("compiled", Set.of());
        g.put("trace", Set.of("exec"));
        List<String> c = cycle(g);
        assertFalse(c.isEmpty());
        assertEquals(List.of("exec", "trace", "exec"), c);
    }

    /** Package -> file -> packages of this module it imports (itself excluded). */
    private static Map<String, Map<String, Set<String>>> importsByPackage() throws IOException {
        Path root = moduleDir().resolve("src/main/java/" + BASE.replace('.', '/'));
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : (Iterable<Path>) dirs.filter(Files::isDirectory).sorted()::iterator) {
                String p = dir.getFileName().toString();
                Map<String, Set<String>> files = new TreeMap<>();
                try (Stream<Path> srcs = Files.list(dir)) {
                    for (Path f : (Iterable<Path>) srcs.filter(x -> x.toString().endsWith(".java")).sorted()::iterator) {
                        Set<String> deps = new TreeSet<>();
                        Matcher m = IMPORT.matcher(Files.readString(f));
                        while (m.find()) {
                            if (!m.group(1).equals(p)) {
                                deps.add(m.group(1));
                            }
                        }
                        files.put(f.getFileName().toString(), deps);
                    }
                }
                out.put(p, files);
            }
        }
        return out;
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
