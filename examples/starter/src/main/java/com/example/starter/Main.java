package com.example.starter;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.model.ModelWorld;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The main loop: builds the villagers' world, ticks it and prints the villagers per state every 100
 * ticks and the world hash at the end (the same for the same seed on any number of workers).
 *
 * <pre>java -jar target/starter-demo.jar [villagers, default 10000] [ticks, default 300] [workers, default all]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws StateTreeCompileException {
        int villagers = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int ticks = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        run(villagers, ticks, workers, 1, System.out);
    }

    /** The model's world: its node types registered, its tree compiled, its villagers spawned. */
    public static ModelWorld world(int villagers, int workers, long seed) throws StateTreeCompileException {
        ModelDefinition model = new VillagersModel().define();
        NodeRegistry nodes = BuiltinNodes.registry();
        model.nodes().forEach(provider -> provider.register(nodes));
        CompiledStateTree tree = StateTreeJson.compile("villagers.json", model.trees().get(0).text().get(),
                new StateTreeCompiler(nodes));
        return ModelWorld.create(model, tree, nodes,
                ModelWorld.Settings.of(model).withAgents(villagers).withWorkers(workers).withSeed(seed));
    }

    /** Villagers per state, indexed by state id. */
    public static int[] occupancy(ModelWorld world) {
        int[] counts = new int[world.tree().stateCount];
        world.system().countActiveStates(counts);
        return counts;
    }

    /** Runs {@code ticks} ticks, printing on {@code out}; returns the world hash at the end. */
    public static long run(int villagers, int ticks, int workers, long seed, PrintStream out)
            throws StateTreeCompileException {
        try (ModelWorld world = world(villagers, workers, seed)) {
            CompiledStateTree tree = world.tree();
            int wander = tree.stateByPath("Root/Wander");
            int eat = tree.stateByPath("Root/Eat");
            int sleep = tree.stateByPath("Root/Sleep");
            out.printf(Locale.ROOT, "villagers: %,d on %d worker%s, %d ticks of %.1f s, seed %d%n",
                    villagers, workers, workers == 1 ? "" : "s", ticks, VillagersModel.DT, seed);
            for (int t = 1; t <= ticks; t++) {
                world.tick();
                if (t % 100 == 0 || t == ticks) {
                    int[] n = occupancy(world);
                    out.printf(Locale.ROOT, "tick %d: Wander %,d  Eat %,d  Sleep %,d%n", t, n[wander], n[eat], n[sleep]);
                }
            }
            out.printf(Locale.ROOT, "hash: %016x%n", world.contentHash());
            return world.contentHash();
        }
    }
}
