package dev.crowdtree.demo.sim;

import dev.crowdtree.demo.sim.CrowdComponents.Fire;
import dev.crowdtree.demo.sim.CrowdComponents.Position;
import dev.crowdtree.demo.sim.CrowdComponents.Predator;
import dev.crowdtree.demo.sim.CrowdComponents.Slots;
import dev.crowdtree.demo.sim.CrowdComponents.SmartObject;
import dev.crowdtree.demo.sim.CrowdComponents.Threat;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Results;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The crowd's threats and smart objects are Dominion entities, and the kernels' flat copies follow them. */
class CrowdEntitiesTest {

    private static long count(Results<?> r) {
        return r.stream().count();
    }

    /** Every threat's and object's flat copy equals its components; returns the threats burning. */
    private static int assertCopiesFollowComponents(CrowdSim sim) {
        Dominion d = sim.world().dominion();
        Threats th = sim.data().threats;
        int burning = 0;
        for (Results.With3<Threat, Position, Predator> e : d.findEntitiesWith(Threat.class, Position.class, Predator.class)) {
            int i = e.comp1().index();
            assertEquals(e.comp2().x(), th.x[i]);
            assertEquals(e.comp2().y(), th.y[i]);
            assertEquals(Threats.PREDATOR, th.kind[i]);
            assertTrue(th.active[i]);
        }
        for (Results.With3<Threat, Position, Fire> e : d.findEntitiesWith(Threat.class, Position.class, Fire.class)) {
            int i = e.comp1().index();
            assertEquals(e.comp2().x(), th.x[i]);
            assertEquals(Threats.FIRE, th.kind[i]);
            assertEquals(e.comp3().burning(), th.active[i]);
            burning += e.comp3().burning() ? 1 : 0;
        }
        float[] packed = th.packed();
        for (int i = 0, j = 0; i < th.count(); i++) { // the active ones, in index order
            if (th.active[i]) {
                assertEquals(th.x[i], packed[4 * j]);
                assertEquals(th.radius[i], packed[4 * j + 2]);
                j++;
            }
        }
        SmartObjects ob = sim.data().objects;
        int used = 0;
        for (Results.With3<SmartObject, Position, Slots> e
                : d.findEntitiesWith(SmartObject.class, Position.class, Slots.class)) {
            int o = e.comp1().index();
            assertEquals(e.comp2().x(), ob.x[o]);
            assertEquals(e.comp3().used(), ob.used[o]);
            used += e.comp3().used();
        }
        assertEquals(used, ob.usedSlots());
        return burning;
    }

    @Test
    void threatsAndSmartObjectsAreEntitiesWhoseFlatCopiesFollowThem() throws Exception {
        CrowdConfig c = CrowdSimTest.config(5000, 2);
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(c))) {
            Dominion d = sim.world().dominion();
            assertEquals(c.predators(), count(d.findEntitiesWith(Threat.class, Predator.class)));
            assertEquals(c.fires(), count(d.findEntitiesWith(Threat.class, Fire.class)));
            assertEquals(c.smartObjects(), count(d.findEntitiesWith(SmartObject.class, Slots.class)),
                    "outside region mode every object is owned");
            assertEquals(0, count(d.findEntitiesWith(dev.crowdtree.core.world.AgentHandle.class)),
                    "agents are table rows, not entities");
            int burningSeen = 0;
            for (int t = 1; t <= 1200; t++) {
                sim.tick();
                if (t % 100 == 0) {
                    burningSeen += assertCopiesFollowComponents(sim);
                }
            }
            assertTrue(burningSeen > 0, "a fire burned");
            assertTrue(sim.data().objects.usedSlots() > 0, "slots were claimed");
        }
    }

    @Test
    void aRegionOwnsTheSlotsOfTheObjectsStandingInIt() throws Exception {
        CrowdConfig c = new CrowdConfig(3000, 7, 1, 1f / 30f, 400f, 2, 1, 60, 4, 4f);
        RegionGrid grid = new RegionGrid(4, c.worldSize(), c.cellSize());
        int owned = 0;
        for (int r = 0; r < grid.count; r++) {
            try (Region region = Region.create(new CrowdSim(CrowdSetup.of(c).region("crowd", CrowdSim.embeddedTreeText(),
                    grid, r)), grid, r)) {
                CrowdSim sim = (CrowdSim) region.sim();
                Dominion d = sim.world().dominion();
                assertEquals(c.smartObjects(), count(d.findEntitiesWith(SmartObject.class, Position.class)),
                        "every region knows where every object stands");
                for (Results.With3<SmartObject, Position, Slots> e
                        : d.findEntitiesWith(SmartObject.class, Position.class, Slots.class)) {
                    assertEquals(r, grid.regionOf(e.comp2().x(), e.comp2().y()));
                    owned++;
                }
                SmartObjects ob = sim.data().objects;
                for (int o = 0; o < ob.count(); o++) {
                    if (!ob.owns(o)) {
                        assertEquals(ob.slots, ob.used[o], "another region's object looks full");
                    }
                }
                assertCopiesFollowComponents(sim);
            }
        }
        assertEquals(c.smartObjects(), owned, "each object has one owner");
    }
}
