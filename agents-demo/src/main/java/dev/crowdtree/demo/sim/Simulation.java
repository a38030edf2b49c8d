package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.world.World;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeSystem;

/**
 * What {@code run}, {@code serve} and the frame writer drive: a population of agents running one
 * StateTree, ticked in fixed steps. Two kinds: the crowd ({@link CrowdSim}: movement, threats, smart
 * objects, for trees that use the crowd's node types) and a tree alone ({@link BehaviourSim}: the
 * agents stand on a grid and only their trees run, for any other tree).
 *
 * <p>Both keep the agents in a {@link CrowdData} table, whose {@code x} and {@code y} columns say
 * where each agent is drawn. THREADING: one thread drives a simulation.
 */
public interface Simulation extends AutoCloseable {
    /** The options it was built with (a tree alone has no threats or smart objects). */
    CrowdConfig config();

    /** The agent table, the threats and the smart objects. */
    CrowdData data();

    CompiledStateTree tree();

    StateTreeSystem system();

    World world();

    /** Tick and phase times ({@link #phases()}). */
    TickMetrics metrics();

    /** The phase names of one tick, in order. */
    String[] phases();

    /** Whether this is the crowd (movement, threats, smart objects), not a tree alone. */
    boolean isCrowd();

    /** Runs one tick. */
    void tick();

    /** Ticks run since the start. */
    long tickNumber();

    /** Agents awake in the StateTree phase of the last tick ({@link StateTreeSystem#awakeLastTick()}). */
    int awakeLastTick();

    /** Mean of {@link #awakeLastTick()} over the ticks run (0 before the first). */
    double awakeMean();

    /** Fewest agents awake in one tick so far (0 before the first tick). */
    int awakeMin();

    /** Most agents awake in one tick so far. */
    int awakeMax();

    /** Running agents (trees started and not finished). */
    default int runningAgents() {
        int n = 0;
        for (int c : occupancy()) {
            n += c;
        }
        return n;
    }

    /** Running agents per active (last) state, indexed by state id. */
    default int[] occupancy() {
        int[] counts = new int[tree().stateCount];
        system().countActiveStates(counts);
        return counts;
    }

    /** The LOD bands in effect, or null when LOD is off. */
    LodBands lod();

    /** Moves the LOD observer (between ticks); a simulation without LOD only remembers it. */
    void setObserver(float x, float y);

    float observerX();

    float observerY();

    /** Agents per LOD band into {@code counts}; all zero when LOD is off. */
    void countLodBands(int[] counts);

    /** A hash of the whole simulation: every column of every agent, and the world's other entities. */
    long worldHash();

    @Override
    void close();
}
