package dev.crowdtree.demo.sim;

/**
 * The components of the crowd's Dominion entities: the sparse, heterogeneous things of the world,
 * created in the simulation's {@code World.dominion()} (the agents themselves are rows of the SoA
 * table, not entities):
 * <ul>
 *   <li>a predator: {@link Threat}, {@link Position}, {@link Predator};</li>
 *   <li>a fire: {@link Threat}, {@link Position}, {@link Fire};</li>
 *   <li>a smart object: {@link SmartObject}, {@link Position}, and {@link Slots} when this
 *       simulation owns it (in region mode, the objects standing in other regions have none).</li>
 * </ul>
 * Each kind carries a stable index ({@link Threat#index()}, {@link SmartObject#index()}): the order
 * in which everything that depends on order happens (the threat update, the packed threats, the
 * hashes, snapshots), because the order of Dominion's query results means nothing (it depends on
 * the instance's history, and instances are reused).
 *
 * <p>Fields are written only by {@link Threats} and {@link SmartObjects}, on the simulation thread
 * at sync points; other code reads them through the getters.
 */
public final class CrowdComponents {
    private CrowdComponents() {
    }

    /** Where an entity stands, in metres. Predators move every tick, fires move when they ignite, objects stay. */
    public static final class Position {
        float x;
        float y;

        Position(float x, float y) {
            this.x = x;
            this.y = y;
        }

        /** Metres along the world's x axis. */
        public float x() {
            return x;
        }

        /** Metres along the world's y axis. */
        public float y() {
            return y;
        }
    }

    /** A threat: its stable index (its place in the packed threats, the key of its random streams) and radius. */
    public static final class Threat {
        final int index;
        final float radius;

        Threat(int index, float radius) {
            this.index = index;
            this.radius = radius;
        }

        /** The threat's stable index, 0 .. threats - 1: predators first, then fires. */
        public int index() {
            return index;
        }

        /** Metres from the centre within which the threat is felt as touching. */
        public float radius() {
            return radius;
        }
    }

    /** A predator's state: the heading of its random walk, in radians. */
    public static final class Predator {
        float heading;

        Predator(float heading) {
            this.heading = heading;
        }

        /** Radians, 0 along +x. */
        public float heading() {
            return heading;
        }
    }

    /** A fire's state: burning or not, and the ticks left until it ignites or burns out. */
    public static final class Fire {
        boolean burning;
        int timer;

        Fire(boolean burning, int timer) {
            this.burning = burning;
            this.timer = timer;
        }

        /** Whether the fire burns (is a threat) now. */
        public boolean burning() {
            return burning;
        }

        /** Ticks until the fire ignites (idle) or burns out (burning). */
        public int timer() {
            return timer;
        }
    }

    /** A smart object (a bench): its stable index, the value of an agent's {@code claimObject} column. */
    public static final class SmartObject {
        final int index;

        SmartObject(int index) {
            this.index = index;
        }

        /** The object's stable index, 0 .. objects - 1. */
        public int index() {
            return index;
        }
    }

    /** The slots of a smart object this simulation owns: how many there are and how many are claimed. */
    public static final class Slots {
        final int capacity;
        int used;

        Slots(int capacity) {
            this.capacity = capacity;
        }

        /** Agents the object serves at once. */
        public int capacity() {
            return capacity;
        }

        /** Slots claimed now. */
        public int used() {
            return used;
        }
    }
}
