package dev.crowdtree.statetree.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched runtime's facade and its engine (docs/ARCHITECTURE.md, "The engine behind the facade"):
 * {@code StateTreeSystem} is the public API over an {@code Engine}, and no part of the {@code exec}
 * package reaches into the facade for its internals. Two rules, read from the compiled class and the
 * main sources:
 * <ol>
 *   <li>The facade's only member that is neither public nor private is {@code engine()}: it has no
 *       package-private hooks (runner, schedules, current tick, ...) for the parts to call back.</li>
 *   <li>In code (comments and strings aside), only the facade itself and the public entry points
 *       that take a runtime as their argument ({@link #TAKE_THE_FACADE}) name {@code StateTreeSystem}
 *       or call {@code engine()}; every other class of the package gets the engine or its pieces.</li>
 * </ol>
 */
class EngineArchTest {
    private static final String EXEC = "dev.crowdtree.statetree.exec";
    private static final String FACADE = "StateTreeSystem";
    /** Package-private members the facade may have: the bridge for {@link #TAKE_THE_FACADE}. */
    private static final Set<String> BRIDGE = Set.of("engine()");
    /**
     * Classes of the package that may name the facade, and why: their public static methods take the
     * runtime the host holds (events moved between the runtimes of a world split into regions).
     */
    static final Set<String> TAKE_THE_FACADE = Set.of("EventTransfer.java");

    @Test
    void theFacadeHasNoPackagePrivateHooks() throws ClassNotFoundException {
        Class<?> facade = Class.forName(EXEC + "." + FACADE);
        List<String> hooks = new ArrayList<>();
        List<Member> members = new ArrayList<>();
        members.addAll(List.of(facade.getDeclaredMethods()));
        members.addAll(List.of(facade.getDeclaredFields()));
        members.addAll(List.of(facade.getDeclaredConstructors()));
        for (Member m : members) {
            int mod = m.getModifiers();
            if (m.isSynthetic() || Modifier.isPublic(mod) || Modifier.isPrivate(mod)) {
                continue;
            }
            String name = m instanceof Method ? m.getName() + "(" + ((Method) m).getParameterCount() + ")"
                    : m instanceof Field ? m.getName() : "<init>(" + ((Constructor<?>) m).getParameterCount() + ")";
            if (!BRIDGE.contains(name.replace("(0)", "()"))) {
                hooks.add(name);
            }
        }
        hooks.sort(null);
        assertEquals(List.of(), hooks, FACADE + " is the public API: give the parts the engine or its pieces, not hooks here");
    }

    @Test
    void onlyTheFacadeAndItsEntryPointsNameIt() throws IOException {
        Path dir = moduleDir().resolve("src/main/java/" + EXEC.replace('.', '/'));
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                sources.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        assertTrue(sources.size() > 30 && sources.containsKey(FACADE + ".java") && sources.containsKey("Engine.java"),
                "exec sources: " + sources.keySet());
        assertEquals(List.of(), violations(sources),
                "these parts reach into the facade; hand them the Engine or the pieces they need");
    }

    @Test
    void theRuleFindsAPartThatCallsBackIntoTheFacade() {
        Map<String, String> sources = new TreeMap<>();
        sources.put(FACADE + ".java", "final class StateTreeSystem { Engine engine() { return engine; } }");
        sources.put("EventTransfer.java", "class EventTransfer { static int w(StateTreeSystem sys) { return sys.engine().x; } }");
        sources.put("ChunkRunner.java", "/** Run for a {@link StateTreeSystem}. */ class ChunkRunner {\n"
                + "  // the StateTreeSystem's tick\n  String s = \"StateTreeSystem\";\n}");
        assertEquals(List.of(), violations(sources), "comments, strings and the allowed entry points do not count");
        sources.put("ChunkRunner.java", "class ChunkRunner { void tick(StateTreeSystem sys) { sys.currentTick(); } }");
        sources.put("Despawns.java", "class Despawns { void f(Object o) { var e = ((Holder) o).sys.engine(); } }");
        assertEquals(List.of("ChunkRunner.java names StateTreeSystem", "Despawns.java calls engine()"), violations(sources));
    }

    /** The files other than the facade and {@link #TAKE_THE_FACADE} that name it or call {@code engine()} in code. */
    static List<String> violations(Map<String, String> sources) {
        Pattern names = Pattern.compile("\\b" + FACADE + "\\b");
        Pattern bridge = Pattern.compile("\\.\\s*engine\\s*\\(\\s*\\)");
        List<String> out = new ArrayList<>();
        sources.forEach((file, src) -> {
            if (file.equals(FACADE + ".java") || TAKE_THE_FACADE.contains(file)) {
                return;
            }
            String code = code(src);
            if (names.matcher(code).find()) {
                out.add(file + " names " + FACADE);
            }
            if (bridge.matcher(code).find()) {
                out.add(file + " calls engine()");
            }
        });
        return out;
    }

    /** The source without comments and string literals. */
    private static String code(String src) {
        return src.replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("//[^\\n]*", " ")
                .replaceAll("\"(?:[^\"\\\\\\n]|\\\\.)*\"", "\"\"");
    }

    private static Path moduleDir() {
        String basedir = System.getProperty("basedir");
        return basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
    }
}
