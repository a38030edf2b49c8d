package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static dev.crowdtree.statetree.definition.StateTreeBuilder.node;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.on;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.state;
import static dev.crowdtree.statetree.definition.StateTreeBuilder.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DotWriterTest {
    private static final StateTreeCompiler COMPILER = StateTreeCompiler.withBuiltins();

    private static TreeDef guard() {
        return tree("Guard").source("guard")
                .param("threat", "float", 0.0)
                .root(state("Root")
                        .transition(on("onEvent").event("die").to("@failed"))
                        .child(state("Idle").task(node("delay").with("duration", 2.0))
                                .transition(on("onStateCompleted").to("Patrol")))
                        .child(state("Patrol").tryEnter().task(node("run").named("walk"))
                                .enterCondition(node("compare").with("param", "threat").with("op", "<").with("value", 0.5))
                                .transition(on("onTick").to("@next").delay(1.5, 0.5)
                                        .when(node("randomChance").with("probability", 0.1)))
                                .transition(on("onTick").to("@none")))
                        .child(state("Done").group()
                                .transition(on("onStateSucceeded").to("@succeeded"))))
                .build();
    }

    @Test
    void smallTreeRendersExactly() throws Exception {
        String expected = String.join("\n",
                "digraph \"Guard\" {",
                "  graph [label=\"Guard (guard)\", labelloc=t, fontname=\"Helvetica\"];",
                "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
                "  edge [fontname=\"Helvetica\", fontsize=10];",
                "  s0 [label=\"Root\"];",
                "  s1 [label=\"Idle\\ntasks: delay\"];",
                "  s2 [label=\"Patrol\\n(tryEnterState)\\ntasks: walk\\n1 enter condition\"];",
                "  s3 [label=\"Done\\n(group)\"];",
                "  s0 -> s1;",
                "  s0 -> s2;",
                "  s0 -> s3;",
                "  s0 -> failed [style=dashed, label=\"#0 onEvent die\", constraint=false];",
                "  s1 -> s2 [style=dashed, label=\"#0 onStateCompleted\", constraint=false];",
                "  s2 -> s3 [style=dashed, label=\"#0 onTick\\nif 1 condition\\ndelay 1.5s \u00b10.5s\", constraint=false];",
                "  s2 -> s2 [style=dotted, label=\"#1 onTick\\n@none (masks ancestors)\", constraint=false];",
                "  s3 -> succeeded [style=dashed, label=\"#0 onStateSucceeded\", constraint=false];",
                "  succeeded [shape=doublecircle, style=solid, fontsize=10, label=\"@succeeded\"];",
                "  failed [shape=doublecircle, style=solid, fontsize=10, label=\"@failed\"];",
                "}",
                "");
        assertEquals(expected, DotWriter.toDot(COMPILER.compile(guard())));
    }

    @Test
    void outputIsDeterministic() throws Exception {
        CompiledStateTree a = COMPILER.compile(guard());
        CompiledStateTree b = COMPILER.compile(guard());
        assertEquals(DotWriter.toDot(a), DotWriter.toDot(a));
        assertEquals(DotWriter.toDot(a), DotWriter.toDot(b));
    }

    @Test
    void linkedSubtreesAreShownAsTheirInlinedCopies() throws Exception {
        TreeDef def = tree("Linked")
                .root(state("Root")
                        .child(state("A").linked("Sub"))
                        .child(state("B").linked("Sub")))
                .subtree(state("Sub").child(state("Leaf").task(node("run"))))
                .build();
        CompiledStateTree t = COMPILER.compile(def);
        String dot = DotWriter.toDot(t);
        assertEquals(t.stateCount, (int) dot.lines().filter(l -> l.matches("  s\\d+ \\[label=.*")).count(), dot);
        long parentEdges = dot.lines().filter(l -> l.matches("  s\\d+ -> s\\d+;")).count();
        assertEquals(t.stateCount - 1, (int) parentEdges, dot);
        assertTrue(dot.contains("s1 [label=\"A\\n(linked)\"];"), dot);
        assertTrue(dot.contains("s2 [label=\"Sub\\n(subtree)\"];"), dot);
        assertTrue(dot.contains("s1 -> s2;"), dot);
        assertTrue(dot.contains("s4 -> s5;"), dot);
        assertFalse(dot.contains("succeeded"), "no terminal nodes when no transition uses them");
        assertWellFormed(dot);
    }

    @Test
    void globalTasksAreANoteAboveTheRoot() throws Exception {
        TreeDef def = tree("Limited")
                .globalTask(node("delay").named("limit").with("duration", 5.0))
                .globalTask(node("run"))
                .root(state("Root").task(node("run").named("root")))
                .build();
        String dot = DotWriter.toDot(COMPILER.compile(def));
        assertTrue(dot.contains("  global [shape=note, label=\"@global\\ntasks: limit, run\"];\n  global -> s0 [style=dotted];\n"),
                dot);
        assertTrue(dot.contains("  s0 [label=\"Root\\ntasks: root\"];"), dot);
        assertFalse(DotWriter.toDot(COMPILER.compile(guard())).contains("global"));
    }

    @Test
    void quotesBackslashesAndSpacesInNamesAreEscaped() throws Exception {
        TreeDef def = tree("My \"tree\" \\ v2")
                .root(state("Root")
                        .child(state("Say \"hi\"").task(node("run").named("walk \"fast\"")))
                        .child(state("back\\slash").task(node("run"))
                                .transition(on("onEvent").event("a\"b\\c").to("Say \"hi\""))))
                .build();
        String dot = DotWriter.toDot(COMPILER.compile(def));
        assertTrue(dot.startsWith("digraph \"My \\\"tree\\\" \\\\ v2\" {\n"), dot);
        assertTrue(dot.contains("[label=\"Say \\\"hi\\\"\\ntasks: walk \\\"fast\\\"\"]"), dot);
        assertTrue(dot.contains("[label=\"back\\\\slash\\ntasks: run\"]"), dot);
        assertTrue(dot.contains("label=\"#0 onEvent a\\\"b\\\\c\""), dot);
        assertWellFormed(dot);
    }

    @Test
    void quoteEscapesControlCharacters() {
        assertEquals("\"a\\nb c\\\\\\\"\"", DotWriter.quote("a\nb\tc\\\""));
        assertEquals("\"end\\\\\"", DotWriter.quote("end\\"));
    }

    /** Every quoted string is closed on its line and braces balance outside strings. */
    private static void assertWellFormed(String dot) {
        int depth = 0;
        for (String line : dot.split("\n")) {
            boolean inString = false;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{') {
                    depth++;
                } else if (c == '}') {
                    depth--;
                }
            }
            assertFalse(inString, "unterminated string in: " + line);
        }
        assertEquals(0, depth, dot);
        assertTrue(Arrays.stream(dot.split("\n")).skip(1).limit(dot.split("\n").length - 2)
                .allMatch(l -> l.startsWith("  ") && l.endsWith(";")), dot);
    }

    @Test
    void compositesAndARootFirstScanAreShown() throws Exception {
        CompiledStateTree composites = COMPILER.compile(tree("Bt")
                .root(state("Root").selector()
                        .child(state("Seq").sequence()
                                .child(state("A").task(node("run")))
                                .child(state("B").task(node("run"))))
                        .child(state("C").task(node("run"))))
                .build());
        String dot = DotWriter.toDot(composites);
        assertTrue(dot.contains("s0 [label=\"Root\\n(selector)\"];"), dot);
        assertTrue(dot.contains("s1 [label=\"Seq\\n(sequence)\"];"), dot);
        assertTrue(dot.contains("graph [label=\"Bt (<builder>)\", "), dot);
        CompiledStateTree rootFirst = COMPILER.compile(tree("Hsm").rootFirst()
                .root(state("Root").transition(on("onTick").to("@none")).child(state("A").task(node("run"))))
                .build());
        String hsm = DotWriter.toDot(rootFirst);
        assertTrue(hsm.contains("graph [label=\"Hsm (<builder>)\\ntransitionScan: rootFirst\", "), hsm);
        assertTrue(hsm.contains("@none (masks descendants)"), hsm); // the scan reaches them after it
    }

    @Test
    void unrealRulesAreShownUnderTheTreesName() throws Exception {
        TreeDef def = tree("U").rules("unreal-5.8")
                .root(state("Root").child(state("L").linked("Sub")).child(state("B").task(node("run"))))
                .subtree(state("Sub").child(state("Leaf").task(node("succeed").with("afterTicks", 1))
                        .transition(on("onStateSucceeded").to("@succeeded"))))
                .build();
        String dot = DotWriter.toDot(COMPILER.compile(def));
        assertTrue(dot.contains("  graph [label=\"U (<builder>)\\nrules: unreal-5.8\", labelloc=t"), dot);
        assertWellFormed(dot);
        // with a leaf-first scan said out loud: only the rules are shown (the scan is the default)
        TreeDef both = tree("U").transitionScan("leafFirst").rules("unreal-5.8").root(state("Root").task(node("run"))).build();
        assertTrue(DotWriter.toDot(COMPILER.compile(both)).contains("label=\"U (<builder>)\\nrules: unreal-5.8\""));
        // the seeds' rules, said or not, are not shown
        for (String rules : new String[] {null, "seed"}) {
            String seed = DotWriter.toDot(COMPILER.compile(tree("S").rules(rules).root(state("Root").task(node("run"))).build()));
            assertTrue(seed.contains("  graph [label=\"S (<builder>)\", labelloc=t"), seed);
            assertFalse(seed.contains("rules"), seed);
        }
    }

    @Test
    void historyStatesAreShownAsUmlDrawsThem() throws Exception {
        CompiledStateTree hsm = COMPILER.compile(tree("Hsm")
                .root(state("Root").deepHistory()
                        .child(state("Clean").sequence().shallowHistory()
                                .child(state("A").task(node("run")))
                                .child(state("B").task(node("run"))))
                        .child(state("C").task(node("run"))))
                .build());
        String dot = DotWriter.toDot(hsm);
        assertTrue(dot.contains("s0 [label=\"Root\\n(H*)\"];"), dot);
        assertTrue(dot.contains("s1 [label=\"Clean\\n(sequence, H)\"];"), dot);
    }
}
