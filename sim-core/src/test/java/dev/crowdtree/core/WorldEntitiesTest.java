package dev.crowdtree.core;

import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.core.world.AgentHandle;
import dev.crowdtree.core.world.World;
import dev.crowdtree.core.world.WorldSnapshot;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The world's Dominion side: an agent's optional cold data, the host's own entities, reuse after close. */
class WorldEntitiesTest {

    /** Cold data an agent may carry. */
    record Name(String name) {
    }

    /** A host entity's component. */
    record Marker(int value) {
    }

    private static List<String> namedAgents(World w) {
        List<String> out = new ArrayList<>();
        for (Results.With2<AgentHandle, Name> r : w.dominion().findEntitiesWith(AgentHandle.class, Name.class)) {
            out.add(r.comp1().id() + "#" + r.comp1().generation() + "=" + r.comp2().name());
        }
        out.sort(null); // Dominion's order means nothing
        return out;
    }

    @Test
    void coldDataIsAttachedOnDemandAndLeavesWithItsAgent() throws Exception {
        try (World w = World.builder().workers(1).maxAgents(16).build()) {
            SoaTable t = w.createTable("t");
            for (int i = 0; i < 4; i++) {
                w.commands().spawn(t, (tb, row, id, arg) -> { }, 0);
            }
            w.sync();
            assertEquals(0, w.dominion().findEntitiesWith(AgentHandle.class).stream().count(),
                    "no entity until asked for");
            w.entity(1).add(new Name("ada"));
            w.entity(2).add(new Name("bob"));
            assertSame(w.entity(1), w.entity(1), "one entity per agent");
            assertEquals(List.of("1#0=ada", "2#0=bob"), namedAgents(w));

            w.commands().despawn(1);
            w.sync();
            assertEquals(List.of("2#0=bob"), namedAgents(w), "despawn drops the cold data");
            assertNull(w.entity(1));
            w.commands().spawn(t, (tb, row, id, arg) -> { }, 0);
            w.sync(); // id 1 again, a new incarnation without the old one's data
            assertNull(w.entity(1).get(Name.class));
            assertEquals(1, w.entity(1).get(AgentHandle.class).generation());

            w.emigrate(2);
            assertEquals(List.of(), namedAgents(w), "an agent leaving for another world leaves its cold data");

            w.entity(3).add(new Name("cy"));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            WorldSnapshot.write(w, t, new DataOutputStream(bytes));
            WorldSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))).applyTo(w, t);
            assertEquals(List.of(), namedAgents(w), "a restored world starts without cold data");
        }
    }

    @Test
    void hostEntitiesAreDeletedAtCloseSoTheReusedInstanceIsEmpty() {
        for (int round = 0; round < 3; round++) {
            Dominion used;
            try (World w = World.builder().workers(1).maxAgents(4).build()) {
                used = w.dominion();
                assertEquals(0, w.dominion().findEntitiesWith(Marker.class).stream().count(),
                        "a world's Dominion starts empty, even when reused");
                Entity a = w.createEntity(new Marker(1));
                w.createEntity(new Marker(2));
                w.entity(-1); // no such agent: nothing created
                assertEquals(2, w.dominion().findEntitiesWith(Marker.class).stream().count());
                assertTrue(w.deleteEntity(a));
                assertFalse(w.deleteEntity(a), "already gone");
                assertEquals(1, w.dominion().findEntitiesWith(Marker.class).stream().count());
                SoaTable t = w.createTable("t");
                w.commands().spawn(t, (tb, row, id, arg) -> { }, 0);
                w.sync();
                w.entity(0).add(new Name("left at close"));
            }
            assertEquals(0, used.findEntitiesWith(Marker.class).stream().count(), "closing deleted the host's entities");
            assertEquals(0, used.findEntitiesWith(AgentHandle.class).stream().count(), "and the agents' ones");
        }
    }
}
