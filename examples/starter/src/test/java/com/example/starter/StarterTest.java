package com.example.starter;

import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.statetree.model.HostSystemSpec;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelJars;
import dev.crowdtree.statetree.model.ModelWorld;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviders;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The villagers behave as villagers.json, the eat task and the hungry condition say. */
class StarterTest {
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    private static float hungerOf(ModelWorld world, int id) {
        FloatColumn hunger = (FloatColumn) world.table().column(VillagerNodes.HUNGER);
        return hunger.get(world.world().rowOf(id));
    }

    private static void setHunger(ModelWorld world, int id, float value) {
        FloatColumn hunger = (FloatColumn) world.table().column(VillagerNodes.HUNGER);
        hunger.data()[world.world().rowOf(id)] = value;
    }

    @Test
    void theTreeCompilesWithoutWarningsAndEveryVillagerStartsWandering() throws Exception {
        try (ModelWorld world = Main.world(500, 1, 1)) {
            assertEquals(List.of(), world.tree().warnings);
            int[] n = Main.occupancy(world);
            assertEquals(500, n[world.tree().stateByPath("Root/Wander")]);
        }
    }

    @Test
    void aHungryVillagerEatsUntilFullThenSleepsThenWandersAgain() throws Exception {
        try (ModelWorld world = Main.world(100, 1, 1)) {
            setHunger(world, 0, 0.9f); // above the tree's 0.8: hungry
            setHunger(world, 1, 0.5f); // not hungry
            world.tick();
            assertEquals("Root/Eat", world.system().activePath(0), "hungry (0.9 > 0.8): eats");
            assertEquals("Root/Wander", world.system().activePath(1), "0.5 is not hungry");

            // Eating: each tick the task takes 0.5/s * 0.1 s = 0.05 and the metabolism adds back 0.004.
            int eating = 1;
            float before = hungerOf(world, 0);
            while (world.system().activePath(0).equals("Root/Eat") && eating < 100) {
                world.tick();
                eating++;
                float now = hungerOf(world, 0);
                assertTrue(now < before, "hunger goes down while eating: " + before + " -> " + now);
                before = now;
            }
            // 0.904 after the first tick, 19 ticks of -0.046 leave 0.03, and the 20th bite empties it.
            assertEquals(21, eating, "ticks from Wander to Sleep");
            assertEquals("Root/Sleep", world.system().activePath(0), "eat succeeded: sleep");
            assertEquals(VillagersModel.HUNGER_PER_SECOND * VillagersModel.DT, hungerOf(world, 0), 1e-6f,
                    "full (0), then one tick of metabolism");

            // Sleep is a delay of 3 +- 1 s: 20 to 40 ticks, then back to Wander.
            int sleeping = 0;
            while (world.system().activePath(0).equals("Root/Sleep") && sleeping < 100) {
                world.tick();
                sleeping++;
            }
            assertTrue(sleeping >= 20 && sleeping <= 41, "slept " + sleeping + " ticks");
            assertEquals("Root/Wander", world.system().activePath(0));
        }
    }

    @Test
    void afterThreeHundredTicksVillagersAreInEveryState() throws Exception {
        try (ModelWorld world = Main.world(2000, 2, 1)) {
            for (int t = 0; t < 300; t++) {
                world.tick();
            }
            int[] n = Main.occupancy(world);
            int wander = n[world.tree().stateByPath("Root/Wander")];
            int eat = n[world.tree().stateByPath("Root/Eat")];
            int sleep = n[world.tree().stateByPath("Root/Sleep")];
            assertTrue(wander > 0 && eat > 0 && sleep > 0, "Wander " + wander + ", Eat " + eat + ", Sleep " + sleep);
            assertEquals(2000, wander + eat + sleep);
            assertTrue(wander > eat && wander > sleep, "most of the time is spent wandering");
        }
    }

    @Test
    void theSameSeedGivesTheSameHashOnOneAndTwoWorkers() throws Exception {
        long one = Main.run(3000, 300, 1, 7, NOWHERE);
        long two = Main.run(3000, 300, 2, 7, NOWHERE);
        assertEquals(one, two, "1 and 2 workers");
        assertNotEquals(one, Main.run(3000, 300, 2, 8, NOWHERE), "another seed, another world");
    }

    @Test
    void theMainLoopPrintsTheStateCountsAndTheHash() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long hash = Main.run(1000, 200, 2, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("tick 100: Wander "), out);
        assertTrue(out.contains("tick 200: Wander "), out);
        assertTrue(out.contains(String.format("hash: %016x", hash)), out);
    }

    @Test
    void serviceLoaderFindsTheModelAndTheNodeProvider() throws Exception {
        ModelDefinition model = ModelJars.onClassPath(StarterTest.class.getClassLoader()).stream()
                .filter(m -> m.name().equals("villagers")).findFirst().orElseThrow();
        assertEquals(List.of("metabolism"), model.after().stream().map(HostSystemSpec::name).toList());
        NodeRegistry registry = NodeProviders.registry(StarterTest.class.getClassLoader());
        assertNotNull(registry.get("eat"));
        assertNotNull(registry.get("hungry"));
        assertEquals(1.0, registry.standaloneColumnValue(VillagerNodes.HUNGER));
    }
}
