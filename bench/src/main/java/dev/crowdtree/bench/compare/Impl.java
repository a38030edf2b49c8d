package dev.crowdtree.bench.compare;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.exec.StateTreeRuntime;
import dev.crowdtree.statetree.exec.StateTreeSystem;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The implementations the harness runs side by side. */
public enum Impl {
    /** Our batched {@link StateTreeSystem}, 1 worker (the calling thread). */
    OURS_1W("ours-1w"),
    /**
     * Our batched {@link StateTreeSystem}, 1 worker, with the population counters on
     * ({@code setRecording}): what they cost, against {@link #OURS_1W}.
     */
    OURS_1W_COUNTERS("ours-1w-counters"),
    /**
     * {@link #OURS_1W_COUNTERS} with 1% of the agents watched (every 100th agent id,
     * {@code Recorder.watch}): what watching costs, against {@link #OURS_1W}.
     */
    OURS_1W_WATCH1("ours-1w-watch1"),
    /** Our batched {@link StateTreeSystem}, 2 workers. */
    OURS_2W("ours-2w"),
    /** Our batched {@link StateTreeSystem}, one worker per available core (skipped when that is 1 or 2). */
    OURS_ALL("ours-allw"),
    /** Our per-agent {@link ReferenceInterpreter} (Unreal's one execution context per agent), every agent every tick. */
    REFERENCE("reference"),
    /**
     * Our per-agent {@link ReferenceInterpreter} with {@link ReferenceInterpreter.TickMode#SCHEDULED}
     * (Unreal 5.6's scheduled tick: an agent with nothing to do sleeps until its next wake-up).
     */
    REFERENCE_SCHEDULED("reference-scheduled"),
    /**
     * gdx-ai: a {@code DefaultStateMachine} per agent (flat, sleepy) or a {@code BehaviorTree} per
     * agent (hierarchical; aborts with a {@code DynamicGuardSelector} whose guards hold while their
     * own branch runs, gdx-ai having no observer aborts).
     */
    GDX_AI("gdx-ai"),
    /** Dominion ECS: per-agent state in components, systems iterate {@code findEntitiesWith}. */
    DOMINION("dominion"),
    /** A hand-written switch FSM over primitive arrays: no framework at all. */
    FLOOR("floor");

    /** Chunk size of our batched runtime in the comparison (the runtime's default for crowds). */
    public static final int CHUNK = 4096;

    private final String id;

    Impl(String id) {
        this.id = id;
    }

    /** The option value ({@code ours-1w}, {@code reference}, ...). */
    public String id() {
        return id;
    }

    /** Workers used by the OURS_* implementations. */
    public int workers() {
        switch (this) {
            case OURS_1W:
            case OURS_1W_COUNTERS:
            case OURS_1W_WATCH1:
                return 1;
            case OURS_2W:
                return 2;
            case OURS_ALL:
                return Runtime.getRuntime().availableProcessors();
            default:
                return 1;
        }
    }

    /** Human-readable name for tables and the chart legend ({@code v}: the variant, or null for a user's tree). */
    public String label(Variant v) {
        switch (this) {
            case OURS_1W:
                return "ours batched, 1 worker";
            case OURS_1W_COUNTERS:
                return "ours batched, 1 worker, counters on";
            case OURS_1W_WATCH1:
                return "ours batched, 1 worker, counters on, 1% watched";
            case OURS_2W:
                return "ours batched, 2 workers";
            case OURS_ALL:
                return "ours batched, " + workers() + " workers (all cores)";
            case REFERENCE:
                return "ours reference interpreter";
            case REFERENCE_SCHEDULED:
                return "ours reference interpreter, scheduled tick";
            case GDX_AI:
                return v == Variant.HIERARCHICAL ? "gdx-ai BehaviorTree"
                        : v == Variant.ABORTS ? "gdx-ai BehaviorTree, DynamicGuardSelector (guards hold while their branch runs)"
                        : "gdx-ai DefaultStateMachine";
            case DOMINION:
                return "Dominion ECS";
            default:
                return "floor (hand-written switch)";
        }
    }

    /** Whether this implementation is run by default on this machine. */
    public boolean availableHere() {
        return this != OURS_ALL || workers() > 2;
    }

    /** The implementation with id {@code s} (case-insensitive). */
    public static Impl parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (Impl i : values()) {
            if (i.id.equals(k)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown implementation '" + s + "'; known: " + ids(List.of(values())));
    }

    /** The ids of {@code impls}, comma-separated. */
    public static String ids(List<Impl> impls) {
        List<String> s = new ArrayList<>();
        for (Impl i : impls) {
            s.add(i.id);
        }
        return String.join(",", s);
    }

    /**
     * Whether this implementation runs any compiled tree (our batched runtime and the reference
     * interpreter), and so a user's tree ({@code compare --model}, {@code --tree}); the peers
     * (gdx-ai, Dominion, the floor) implement only the built-in variants by hand.
     */
    public boolean runsAnyTree() {
        return this != GDX_AI && this != DOMINION && this != FLOOR;
    }

    /** The implementations that {@link #runsAnyTree() run any tree}. */
    public static List<Impl> anyTree() {
        List<Impl> out = new ArrayList<>();
        for (Impl i : values()) {
            if (i.runsAnyTree()) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * A runtime of this implementation running {@code tree} for {@code agents} agents, not started
     * (counters and watching set up as the implementation says).
     *
     * @throws UnsupportedOperationException for an implementation that does not {@link #runsAnyTree() run any tree}
     */
    public StateTreeRuntime runtime(CompiledStateTree tree, int agents, long seed) {
        switch (this) {
            case OURS_1W:
            case OURS_2W:
            case OURS_ALL:
                return StateTreeSystem.standalone(tree, agents, seed, workers(), CHUNK);
            case OURS_1W_COUNTERS: {
                StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, seed, workers(), CHUNK);
                sys.setRecording(true);
                return sys;
            }
            case OURS_1W_WATCH1: {
                StateTreeSystem sys = StateTreeSystem.standalone(tree, agents, seed, workers(), CHUNK);
                sys.setRecording(true);
                for (int a = 0; a < agents; a += 100) {
                    sys.recorder().watch(a);
                }
                return sys;
            }
            case REFERENCE:
                return new ReferenceInterpreter(tree, agents, seed, ReferenceInterpreter.TickMode.EVERY_TICK);
            case REFERENCE_SCHEDULED:
                return new ReferenceInterpreter(tree, agents, seed, ReferenceInterpreter.TickMode.SCHEDULED);
            default:
                throw new UnsupportedOperationException(id + " implements only the built-in variants (" + Variant.ids()
                        + "), not any tree");
        }
    }

    /** A runtime made by {@link #runtime} as a population. */
    static Population population(StateTreeRuntime runtime) {
        if (runtime instanceof StateTreeSystem) {
            return new OursPopulation((StateTreeSystem) runtime);
        }
        return new ReferencePopulation((ReferenceInterpreter) runtime);
    }

    /** A population of {@code agents} agents running {@code logic}, not started yet. */
    public Population create(Logic logic, int agents, long seed) {
        if (runsAnyTree()) {
            return population(runtime(logic.tree, agents, seed));
        }
        switch (this) {
            case GDX_AI:
                switch (logic.variant) {
                    case HIERARCHICAL:
                        return new GdxBtPopulation(logic, agents, seed);
                    case FLAT:
                        return new GdxFsmPopulation(logic, agents, seed);
                    case SLEEPY:
                        return new GdxFsmSleepyPopulation(logic, agents, seed);
                    default:
                        return new GdxBtAbortsPopulation(logic, agents, seed);
                }
            case DOMINION:
                return new DominionPopulation(logic, agents, seed);
            default:
                return new FloorPopulation(logic, agents, seed);
        }
    }
}
