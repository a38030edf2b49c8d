package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.exec.PayloadMismatch;
import dev.crowdtree.statetree.model.HostSystemSpec;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelJars;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.NodeProviders;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guards behave as guards.json says, driven by the host as GuardPost does it: the host's
 * distance column, the tasks' positions, the host's alarm event and its int payload.
 */
class GuardPostTest {
    /** 400 guards on a 20 x 20 grid of posts 20 m apart: guard i's post is (i % 20, i / 20) * 20 m. */
    private static GuardPost post(int workers) throws Exception {
        return new GuardPost(400, workers, 1);
    }

    @Test
    void everyGuardStartsOnPatrolAtItsPost() throws Exception {
        try (GuardPost post = post(1)) {
            assertEquals(400, post.count("Patrol"));
            assertArrayEquals(new float[] {100, 40}, post.positionOf(45));
            assertArrayEquals(post.homeOf(45), post.positionOf(45));
        }
    }

    @Test
    void patrolWalksSixMetresEastOfWhereItStartedAndBack() throws Exception {
        try (GuardPost post = post(1)) {
            for (int t = 0; t < 10; t++) {
                post.tick();
            }
            assertEquals(100 + 1.2f, post.positionOf(5)[0], 1e-3, "1.2 m/s for 1 s");
            assertEquals(0, post.positionOf(5)[1]);
            float far = 0;
            for (int t = 10; t < 60; t++) {
                post.tick();
                far = Math.max(far, post.positionOf(5)[0]);
            }
            assertEquals(106f, far, 1e-3, "the far end of the leg, 6 m east of the post");
            float x = post.positionOf(5)[0];
            assertTrue(x > 104.5f && x < 105f, "after 5 s out, about 1 s back: " + x);
            post.tick();
            assertTrue(post.positionOf(5)[0] < x, "walking back west");
        }
    }

    @Test
    void aGuardThatSeesTheIntruderChasesItAndGoesHomeOnceItIsGone() throws Exception {
        try (GuardPost post = post(1)) {
            post.intruder().moveTo(3, 0); // 3 m from guard 0's post, more than 15 m from everyone else's
            post.tick();
            assertEquals("Root/Chase", post.stateOf(0));
            assertEquals(399, post.count("Patrol"));
            float before = post.positionOf(0)[0];
            post.tick();
            assertTrue(post.positionOf(0)[0] > before, "a chaser walks toward the intruder");

            post.intruder().moveTo(500, 500);
            post.tick();
            assertEquals("Root/Return", post.stateOf(0), "out of sight (beyond 25 m): back home");
            int ticks = 0;
            while (post.stateOf(0).equals("Root/Return") && ticks++ < 100) {
                post.tick();
            }
            assertEquals("Root/Patrol", post.stateOf(0));
            assertArrayEquals(post.homeOf(0), post.positionOf(0), 1e-3f, "home reached, patrol starts from the post");
        }
    }

    @Test
    void anAlarmOfLevelTwoSendsTheGuardsAroundToRespondForEightSeconds() throws Exception {
        try (GuardPost post = post(1)) {
            assertEquals(4, post.alarm(0, 0, 30, 2), "the posts (0,0), (20,0), (0,20), (20,20)");
            post.tick();
            assertEquals(4, post.count("Respond"));
            assertEquals("Root/Respond", post.stateOf(21));
            assertEquals("Root/Patrol", post.stateOf(2));

            post.alarm(0, 0, 100, 1); // level 1: below the tree's threshold of 2
            post.tick();
            assertEquals(4, post.count("Respond"));

            for (int t = 0; t < 70; t++) {
                post.tick();
            }
            assertEquals(4, post.count("Respond"), "the delay of 8 s is not over");
            for (int t = 0; t < 15; t++) {
                post.tick();
            }
            assertEquals(4, post.count("Return"), "the delay is over: back home");
        }
    }

    @Test
    void anAlarmWhoseLevelIsAFloatMatchesNothingAndIsCounted() throws Exception {
        try (GuardPost post = post(1)) {
            assertEquals(4, post.alarm(0, 0, 30, 3.0));
            post.tick();
            assertEquals(400, post.count("Patrol"), "the transition declares level as an int");
            List<PayloadMismatch> m = post.brains().unmatchedPayloads();
            assertEquals(1, m.size(), m.toString());
            assertEquals("Alarm", m.get(0).tag());
            assertEquals("level", m.get(0).field());
            assertTrue(m.get(0).reason().contains("float") && m.get(0).reason().contains("int"), m.get(0).reason());
            assertEquals(4, m.get(0).count());
        }
    }

    @Test
    void theIntrudersWalkLeavesChasersAndReturnersBehindItTheSameOnAnyNumberOfWorkers() throws Exception {
        long[] hashes = new long[2];
        for (int workers = 1; workers <= 2; workers++) {
            try (GuardPost post = new GuardPost(3000, workers, 1)) {
                int maxChase = 0;
                int maxReturn = 0;
                for (int t = 1; t <= 300; t++) {
                    float along = -20 + t * GuardsDemo.INTRUDER_STEP;
                    post.intruder().moveTo(along, along);
                    post.tick();
                    maxChase = Math.max(maxChase, post.count("Chase"));
                    maxReturn = Math.max(maxReturn, post.count("Return"));
                }
                assertTrue(maxChase > 0 && maxReturn > 0, "chase " + maxChase + ", return " + maxReturn);
                hashes[workers - 1] = post.hash();
            }
        }
        assertEquals(hashes[0], hashes[1], "1 and 2 workers");
    }

    @Test
    void chasersClosingInOnTheIntruderKeepTheirPersonalSpace() throws Exception {
        try (GuardPost post = post(1)) {
            post.intruder().moveTo(10, 10); // between the posts of guards 0, 1, 20 and 21: all four see it
            for (int t = 0; t < 80; t++) {
                post.tick();
            }
            assertEquals(4, post.count("Chase"));
            float closest = Float.POSITIVE_INFINITY;
            int[] chasers = {0, 1, 20, 21};
            for (int a : chasers) {
                for (int b : chasers) {
                    if (a < b) {
                        float[] p = post.positionOf(a);
                        float[] q = post.positionOf(b);
                        closest = Math.min(closest, (float) Math.hypot(p[0] - q[0], p[1] - q[1]));
                    }
                }
            }
            assertTrue(closest > 0.5f, "the movement system pushes chasers apart: closest pair " + closest + " m");
            assertTrue(post.nearestGuardDistance() < GuardsModel.PERSONAL_SPACE, "and they surround the intruder");
        }
    }

    @Test
    void serviceLoaderFindsTheGuardsModel() throws Exception {
        // the class path also holds agents-demo (the debugger) and its crowd model
        ModelDefinition guards = ModelJars.onClassPath(GuardsModel.class.getClassLoader()).stream()
                .filter(m -> m.name().equals("guards")).findFirst().orElseThrow();
        assertEquals(List.of("intruder", "sight"), guards.before().stream().map(HostSystemSpec::name).toList());
        assertEquals(List.of("movement"), guards.after().stream().map(HostSystemSpec::name).toList());
        assertEquals(GuardsModel.POSTS_PER_ROW * GuardsModel.POSTS_PER_ROW, guards.defaultAgents());
    }

    @Test
    void serviceLoaderFindsTheGuardsNodeProvider() {
        NodeRegistry registry = NodeProviders.registry(GuardNodes.class.getClassLoader());
        for (String type : List.of("canSee", "patrol", "moveTowards", "delay")) {
            assertTrue(registry.get(type) != null, type);
        }
        assertEquals(1000.0, registry.standaloneColumnValue(GuardNodes.DISTANCE));
    }

    @Test
    void theDemoPrintsTheGuardsPerStateTheCostAndTheMismatchedAlarm() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GuardsDemo.run(2000, 200, 2, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("tick 100: Patrol "), out);
        assertTrue(out.contains("tick 200: Patrol "), out);
        assertTrue(out.matches("(?s).*\\d+\\.\\d ns per guard and tick.*"), out);
        assertTrue(out.contains("payload mismatch: Alarm level: "), out);
        assertTrue(out.contains("closest any guard came to the intruder: "), out);
    }
}
