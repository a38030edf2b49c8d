package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The crowd's node kernels, each in a tiny world with a purpose-built tree. */
class DemoNodesTest {
    @TempDir
    Path dir;

    private CrowdSim sim(String treeJson, int agents, int predators, int objects, int slots) throws Exception {
        Path tree = dir.resolve("tree.json");
        Files.writeString(tree, treeJson);
        CrowdConfig c = new CrowdConfig(agents, 5, 1, 1f / 30f, 200f, predators, 0, objects, slots, 4f);
        return new CrowdSim(CrowdSetup.of(c).tree(tree));
    }

    private static String path(CrowdSim sim, int agent) {
        return sim.system().activePath(agent);
    }

    private static void place(CrowdSim sim, int agent, float x, float y) {
        int row = sim.world().agent(agent).row();
        sim.data().x.set(row, x);
        sim.data().y.set(row, y);
    }

    @Test
    void claimSlotGrantsOneAgentAndSendsTheOtherDownTheFailurePathThenReleases() throws Exception {
        String tree = "{\"name\":\"Claim\",\"root\":{\"name\":\"Root\",\"children\":["
                + "{\"name\":\"Use\",\"tasks\":[{\"type\":\"claimSlot\",\"name\":\"claim\",\"searchRadius\":1000}],"
                + " \"transitions\":[{\"trigger\":\"onStateFailed\",\"to\":\"Root/Refused\"}],"
                + " \"children\":["
                + "  {\"name\":\"Wait\",\"tasks\":[{\"type\":\"waitUntil\",\"condition\":{\"type\":\"bool\",\"input\":{\"task\":\"claim.granted\"}}}],"
                + "   \"transitions\":[{\"trigger\":\"onStateSucceeded\",\"to\":\"@next\"}]},"
                + "  {\"name\":\"Sit\",\"tasks\":[{\"type\":\"succeed\",\"afterTicks\":5}],"
                + "   \"transitions\":[{\"trigger\":\"onStateSucceeded\",\"to\":\"Root/Done\"}]}]},"
                + "{\"name\":\"Refused\",\"tasks\":[{\"type\":\"run\"}]},"
                + "{\"name\":\"Done\",\"tasks\":[{\"type\":\"run\"}]}]}}";
        try (CrowdSim sim = sim(tree, 2, 0, 1, 1)) {
            // Both agents entered Use at start and asked for the only slot; the sync point granted agent 0.
            assertEquals(1, sim.data().objects.used[0]);
            sim.tick();
            assertEquals("Root/Use/Sit", path(sim, 0));
            assertEquals("Root/Refused", path(sim, 1), "the rejected claim fails the task: failure path");
            for (int i = 0; i < 5; i++) {
                sim.tick();
            }
            assertEquals("Root/Done", path(sim, 0));
            assertEquals(0, sim.data().objects.used[0], "leaving Use gives the slot back");
        }
    }

    @Test
    void despawningAnAgentThatHoldsASlotGivesTheSlotBack() throws Exception {
        String tree = "{\"name\":\"Claim\",\"root\":{\"name\":\"Root\",\"children\":["
                + "{\"name\":\"Use\",\"tasks\":[{\"type\":\"claimSlot\",\"name\":\"claim\",\"searchRadius\":1000}],"
                + " \"transitions\":[{\"trigger\":\"onStateFailed\",\"to\":\"Root/Refused\"}]},"
                + "{\"name\":\"Refused\",\"tasks\":[{\"type\":\"run\"}]}]}}";
        try (CrowdSim sim = sim(tree, 2, 0, 1, 1)) {
            sim.tick();
            assertEquals(1, sim.data().objects.used[0], "agent 0 holds the only slot");
            sim.world().commands().despawn(0);
            sim.world().sync(); // the runtime stops agent 0's tree: claimSlot's ExitState releases the slot
            sim.tick(); // the release is resolved at the next sync point
            assertEquals(0, sim.data().objects.used[0], "the despawned agent's slot is free again");
        }
    }

    @Test
    void claimSlotFailsAtOnceWhenNoObjectIsInRange() throws Exception {
        String tree = "{\"name\":\"Claim\",\"root\":{\"name\":\"Root\",\"children\":["
                + "{\"name\":\"Use\",\"tasks\":[{\"type\":\"claimSlot\",\"searchRadius\":1}],"
                + " \"transitions\":[{\"trigger\":\"onStateFailed\",\"to\":\"Root/Refused\"}]},"
                + "{\"name\":\"Refused\",\"tasks\":[{\"type\":\"run\"}]}]}}";
        try (CrowdSim sim = sim(tree, 3, 0, 0, 1)) {
            sim.tick();
            for (int a = 0; a < 3; a++) {
                assertEquals("Root/Refused", path(sim, a));
            }
        }
    }

    @Test
    void perceptionSendsHitWhenAPredatorTouchesAndMeasuresDistance() throws Exception {
        String tree = "{\"name\":\"Hit\",\"evaluators\":[{\"type\":\"perception\",\"name\":\"p\",\"hitTag\":\"Hit\"}],"
                + "\"root\":{\"name\":\"Root\",\"transitions\":[{\"trigger\":\"onEvent\",\"event\":\"Hit\",\"to\":\"Root/Hurt\"}],"
                + "\"children\":[{\"name\":\"Calm\",\"tasks\":[{\"type\":\"run\"}]},{\"name\":\"Hurt\",\"tasks\":[{\"type\":\"run\"}]}]}}";
        try (CrowdSim sim = sim(tree, 2, 1, 0, 1)) {
            Threats th = sim.data().threats;
            place(sim, 0, 100, 100);
            place(sim, 1, 10, 10);
            th.place(0, 100.5f, 100f);
            sim.tick();
            assertEquals("Root/Hurt", path(sim, 0));
            assertEquals("Root/Calm", path(sim, 1));
            CompiledStateTree t = sim.tree();
            int slot = -1;
            for (int i = 0; i < t.floatSlots; i++) {
                if (t.floatSlotNames(i).equals("eval.p.threatDistance")) {
                    slot = i;
                }
            }
            assertTrue(slot >= 0);
            float[] dist = ((dev.crowdtree.core.storage.FloatColumn) sim.data().table
                    .column("st.Hit." + t.floatSlotNames(slot) + "#" + slot)).data();
            int row1 = sim.world().agent(1).row();
            // agent 1 is ~127 m from the predator (radius 8): distance to its edge
            assertEquals(Math.hypot(100.5 - 10, 100 - 10) - 8, dist[row1], 1.0);
        }
    }

    @Test
    void shoutCrossesAgentsThroughTheChunkBuffersAndArrivesNextTick() throws Exception {
        String tree = "{\"name\":\"Shout\",\"root\":{\"name\":\"Root\",\"children\":["
                + "{\"name\":\"Calm\",\"tasks\":[{\"type\":\"run\"}],\"transitions\":["
                + "  {\"trigger\":\"onEvent\",\"event\":\"Go\",\"to\":\"Root/Leader\"},"
                + "  {\"trigger\":\"onEvent\",\"event\":\"Alarm\",\"to\":\"Root/Alarmed\"}]},"
                + "{\"name\":\"Leader\",\"tasks\":[{\"type\":\"shout\",\"tag\":\"Alarm\",\"maxTargets\":8},{\"type\":\"run\"}]},"
                + "{\"name\":\"Alarmed\",\"tasks\":[{\"type\":\"run\"}]}]}}";
        try (CrowdSim sim = sim(tree, 4, 0, 0, 1)) {
            for (int a = 0; a < 3; a++) {
                place(sim, a, 50.5f + a * 0.1f, 50.5f);
            }
            place(sim, 3, 150, 150);
            sim.system().sendEvent(0, "Go", 0f, false);
            sim.tick(); // agent 0 leads and shouts to its cell mates
            assertEquals("Root/Leader", path(sim, 0));
            assertEquals("Root/Calm", path(sim, 1), "events to other agents arrive at the next tick");
            sim.tick();
            assertEquals("Root/Alarmed", path(sim, 1));
            assertEquals("Root/Alarmed", path(sim, 2));
            assertEquals("Root/Calm", path(sim, 3), "not in the shouter's cell");
        }
    }

    @Test
    void fleeRunsAwayFromTheThreatAndWanderReachesItsTargets() throws Exception {
        String tree = "{\"name\":\"Move\","
                + "\"evaluators\":[{\"type\":\"perception\",\"name\":\"p\",\"hitTag\":\"Hit\"}],"
                + "\"root\":{\"name\":\"Root\",\"children\":["
                + "{\"name\":\"Wander\",\"tasks\":[{\"type\":\"wander\",\"radius\":10,\"speed\":2}],"
                + " \"transitions\":[{\"trigger\":\"onEvent\",\"event\":\"Run\",\"to\":\"Root/Flee\"},"
                + "  {\"trigger\":\"onStateSucceeded\",\"to\":\"Root\"}]},"
                + "{\"name\":\"Flee\","
                + " \"tasks\":[{\"type\":\"flee\",\"speed\":4,\"awayX\":{\"eval\":\"p.awayX\"},\"awayY\":{\"eval\":\"p.awayY\"}}]}]}}";
        try (CrowdSim sim = sim(tree, 2, 1, 0, 1)) {
            place(sim, 0, 100, 100);
            Threats th = sim.data().threats;
            th.place(0, 95f, 100f);
            sim.system().sendEvent(0, "Run", 0f, false);
            sim.tick();
            assertEquals("Root/Flee", path(sim, 0));
            assertEquals("Root/Wander", path(sim, 1));
            int changes = sim.system().stateChangeCount(1);
            int row0 = sim.world().agent(0).row();
            for (int i = 0; i < 240; i++) {
                // keep the predator 5 m behind, in -x
                th.place(0, Math.max(0f, sim.data().x.get(row0) - 5f), sim.data().y.get(row0));
                sim.tick();
            }
            assertTrue(sim.data().x.get(row0) > 110f, "fled in +x, away from the threat: x = " + sim.data().x.get(row0));
            assertTrue(sim.system().stateChangeCount(1) > changes, "wander reached a target and restarted");
        }
    }
}
