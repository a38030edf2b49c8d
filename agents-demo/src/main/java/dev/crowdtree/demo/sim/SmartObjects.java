package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.world.World;
import dev.crowdtree.demo.sim.CrowdComponents.Position;
import dev.crowdtree.demo.sim.CrowdComponents.SmartObject;
import dev.crowdtree.demo.sim.CrowdComponents.Slots;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Smart objects (benches, feeding spots) with a limited number of slots, as Dominion entities of the
 * simulation's world ({@link CrowdComponents}: {@code SmartObject + Position}, with {@code Slots}
 * when this simulation owns the object). Agents find a candidate with {@link #findFree} during the
 * parallel tree phase and post claim requests; the simulation thread grants or rejects them in chunk
 * order at the sync point (first come, first served), so the outcome does not depend on the number
 * of workers. Objects are indexed in a coarse grid for the nearest-free search.
 *
 * <p>The entities are found with Dominion queries when they are created and again when their
 * composition changes ({@link #ownOnly}); the components are kept by object index, the canonical
 * order (Dominion's own order means nothing, and its queries allocate, so a tick runs none). A
 * change of a {@code Slots} component goes through {@link #tryClaim} or {@link #release}, which
 * copy the new count into the flat array {@link #used} that {@link #findFree} reads.
 *
 * <p>THREADING: the simulation thread writes the components and {@link #used}, at the sync point
 * (claims resolved, a region's inbox) and between ticks; workers read {@link #x}, {@link #y} and
 * {@link #used} (through {@link #findFree} and the {@code CrowdWorld} external) only during the
 * parallel phases, which the executor's hand-off orders after those writes. Workers never touch
 * Dominion.
 */
public final class SmartObjects {
    private static final float GRID_CELL = 50f;

    final int count;
    /** Position by object index (objects do not move). Read-only. */
    public final float[] x;
    public final float[] y;
    public final int slots;
    /**
     * Slots in use by object index, as of the last sync point: a copy of the {@code Slots}
     * components, and {@link #slots} (full) for the objects another region owns. Read-only.
     */
    public final int[] used;
    private final Dominion dominion;
    /** The owned objects' {@code Slots} components by object index (null: another region owns it). */
    private final Slots[] owned;
    private final int side;
    private final int[] cellStart;
    private final int[] cellObjects;

    SmartObjects(World world, int count, int slots, float worldSize, long seed) {
        this.count = count;
        this.slots = slots;
        this.dominion = world.dominion();
        x = new float[count];
        y = new float[count];
        used = new int[count];
        owned = new Slots[count];
        for (int i = 0; i < count; i++) {
            world.createEntity(new SmartObject(i), new Position(CounterRng.range(20, worldSize - 20, seed, -100_000 - i, 0, 1, 0),
                    CounterRng.range(20, worldSize - 20, seed, -100_000 - i, 0, 1, 1)), new Slots(slots));
        }
        for (Results.With2<SmartObject, Position> e : dominion.findCompositionsWith(SmartObject.class, Position.class)) {
            x[e.comp1().index] = e.comp2().x;
            y[e.comp1().index] = e.comp2().y;
        }
        findSlots();
        side = Math.max(1, (int) Math.ceil(worldSize / GRID_CELL));
        cellStart = new int[side * side + 1];
        cellObjects = new int[count];
        int[] cell = new int[count];
        for (int i = 0; i < count; i++) {
            cell[i] = cellOf(x[i], y[i]);
            cellStart[cell[i] + 1]++;
        }
        for (int c = 1; c < cellStart.length; c++) {
            cellStart[c] += cellStart[c - 1];
        }
        int[] cursor = Arrays.copyOf(cellStart, cellStart.length);
        for (int i = 0; i < count; i++) {
            cellObjects[cursor[cell[i]]++] = i;
        }
    }

    public int count() {
        return count;
    }

    private int cellOf(float px, float py) {
        int cx = Math.max(0, Math.min(side - 1, (int) (px / GRID_CELL)));
        int cy = Math.max(0, Math.min(side - 1, (int) (py / GRID_CELL)));
        return cy * side + cx;
    }

    /**
     * The nearest object within {@code radius} of (px, py) that had a free slot at the last sync
     * point, or -1. Ties go to the lower object index. Allocation: none.
     */
    public int findFree(float px, float py, float radius) {
        int cx0 = Math.max(0, (int) ((px - radius) / GRID_CELL));
        int cx1 = Math.min(side - 1, (int) ((px + radius) / GRID_CELL));
        int cy0 = Math.max(0, (int) ((py - radius) / GRID_CELL));
        int cy1 = Math.min(side - 1, (int) ((py + radius) / GRID_CELL));
        int best = -1;
        float bestD2 = radius * radius;
        for (int cy = cy0; cy <= cy1; cy++) {
            for (int cx = cx0; cx <= cx1; cx++) {
                int c = cy * side + cx;
                for (int k = cellStart[c]; k < cellStart[c + 1]; k++) {
                    int o = cellObjects[k];
                    if (used[o] >= slots) {
                        continue;
                    }
                    float dx = x[o] - px;
                    float dy = y[o] - py;
                    float d2 = dx * dx + dy * dy;
                    if (d2 < bestD2 || (d2 == bestD2 && best >= 0 && o < best)) {
                        bestD2 = d2;
                        best = o;
                    }
                }
            }
        }
        return best;
    }

    /**
     * Finds the owned objects' {@code Slots} with a Dominion query, keeps them by object index and
     * copies their counts into {@link #used} (full for the others). Simulation thread.
     */
    private void findSlots() {
        Arrays.fill(owned, null);
        for (Results.With2<SmartObject, Slots> e : dominion.findCompositionsWith(SmartObject.class, Slots.class)) {
            owned[e.comp1().index] = e.comp2();
        }
        for (int o = 0; o < count; o++) {
            used[o] = owned[o] == null ? slots : owned[o].used;
        }
    }

    /**
     * Region mode: only the objects {@code mine} marks are this simulation's (the objects standing in
     * its region); the others lose their {@code Slots} (a structural change, at setup): they are shown
     * as full, so {@link #findFree} never offers them, and their slots are counted by the region that
     * owns them.
     */
    void ownOnly(boolean[] mine) {
        List<Entity> others = new ArrayList<>();
        for (Results.With1<SmartObject> e : dominion.findEntitiesWith(SmartObject.class)) {
            if (!mine[e.comp().index]) {
                others.add(e.entity());
            }
        }
        for (Entity e : others) { // not while iterating: a removal moves the entity between compositions
            e.removeType(Slots.class);
        }
        findSlots();
    }

    /** Whether object {@code o} is this simulation's: it has {@code Slots} (always, outside region mode). */
    boolean owns(int o) {
        return owned[o] != null;
    }

    /**
     * The sync point grants a claim on object {@code o} if it is owned here and has a free slot;
     * returns whether it did. Simulation thread.
     */
    boolean tryClaim(int o) {
        Slots s = owned[o];
        if (s == null || s.used >= s.capacity) {
            return false;
        }
        used[o] = ++s.used;
        return true;
    }

    /** A claimed slot of owned object {@code o} is given back. Simulation thread. */
    void release(int o) {
        used[o] = --owned[o].used;
    }

    /** Snapshot support: sets the owned objects' used slots from {@code saved} (by object index). */
    void restoreUsed(int[] saved) {
        for (int o = 0; o < count; o++) {
            if (owned[o] != null) {
                owned[o].used = saved[o];
            }
        }
        findSlots();
    }

    /** Total slots in use of the owned objects: a Dominion query over the {@code Slots} components. */
    public int usedSlots() {
        int u = 0;
        for (Slots s : dominion.findCompositionsWith(Slots.class)) {
            u += s.used;
        }
        return u;
    }

    /** A hash of every object's used slots in index order (the others' shown as full), as {@code Arrays.hashCode}. */
    long contentHash() {
        int h = 1;
        for (int o = 0; o < count; o++) {
            h = 31 * h + (owned[o] == null ? slots : owned[o].used);
        }
        return h;
    }

    /**
     * A hash of the owned objects' slots that does not depend on which simulation owns which: a sum of
     * one mix per object over a Dominion query (so its order does not matter), and the regions' sums
     * add up to the same value however the objects are split.
     */
    long ownedHash() {
        long h = 0;
        for (Results.With2<SmartObject, Slots> e : dominion.findCompositionsWith(SmartObject.class, Slots.class)) {
            long z = (e.comp1().index * 0x9E3779B97F4A7C15L) ^ e.comp2().used;
            z = (z ^ (z >>> 31)) * 0xBF58476D1CE4E5B9L;
            h += z ^ (z >>> 29);
        }
        return h;
    }
}
