/**
 * The simulation core: SoA agent tables, the world (agent ids, spawning and despawning through
 * command buffers, a Dominion instance for sparse entities), chunked parallel execution on persistent workers,
 * counter-based randomness, a fixed-step clock and tick metrics.
 */
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"}) // the qualified export below; HdrHistogram has no module name
module dev.crowdtree.core {
    requires transitive dev.dominion.ecs.api;
    requires jdk.management;
    requires transitive HdrHistogram;
    requires org.jctools.core;

    exports dev.crowdtree.core.metrics;
    exports dev.crowdtree.core.random;
    exports dev.crowdtree.core.schedule;
    exports dev.crowdtree.core.storage;
    exports dev.crowdtree.core.time;
    exports dev.crowdtree.core.world;
    /* Argument checks shared by the project's modules; not an API. */
    exports dev.crowdtree.core.util to dev.crowdtree.statetree, dev.crowdtree.demo;
}
