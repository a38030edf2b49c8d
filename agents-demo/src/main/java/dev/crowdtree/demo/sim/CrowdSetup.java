package dev.crowdtree.demo.sim;

import dev.crowdtree.statetree.model.LodBands;
import dev.crowdtree.statetree.model.TickPeriods;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.node.NodeRegistry;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * Everything a {@link CrowdSim} is built from, in one immutable value: the world's
 * {@link CrowdConfig}, where the tree comes from (the embedded asset, a file, an asset's text in
 * region mode, or a tree compiled already with the node types that go with it), LOD and the observer,
 * and, in region mode, the region. Start from {@link #of} and change what differs:
 * <pre>
 *   new CrowdSim(CrowdSetup.of(config).tree(file).lod(LodBands.defaults()).observer(900f, 1100f))
 * </pre>
 * THREADING: immutable.
 */
public final class CrowdSetup {
    final CrowdConfig config;
    final Path treeFile;
    final long maxTreeBytes;
    final LodBands lod;
    final float observerX;
    final float observerY;
    final Function<CrowdData, TickPeriods> periods;
    final String treeName;
    final String treeText;
    final RegionGrid regions;
    final int region;
    final CompiledStateTree compiled;
    final NodeRegistry nodes;

    private CrowdSetup(CrowdConfig config, Path treeFile, long maxTreeBytes, LodBands lod, float observerX,
                       float observerY, Function<CrowdData, TickPeriods> periods, String treeName, String treeText,
                       RegionGrid regions, int region, CompiledStateTree compiled, NodeRegistry nodes) {
        this.config = config;
        this.treeFile = treeFile;
        this.maxTreeBytes = maxTreeBytes;
        this.lod = lod;
        this.observerX = observerX;
        this.observerY = observerY;
        this.periods = periods;
        this.treeName = treeName;
        this.treeText = treeText;
        this.regions = regions;
        this.region = region;
        this.compiled = compiled;
        this.nodes = nodes;
    }

    /** The whole crowd of {@code config} with the embedded tree, no LOD, the observer at the world's centre. */
    public static CrowdSetup of(CrowdConfig config) {
        return new CrowdSetup(config, null, InputFiles.DEFAULT_MAX_BYTES, null, config.worldSize() / 2,
                config.worldSize() / 2, null, null, null, null, -1, null, null);
    }

    /** The world's configuration. */
    public CrowdConfig config() {
        return config;
    }

    /** This setup with the tree asset {@code file} (null: the embedded one), compiled with the crowd's node types. */
    public CrowdSetup tree(Path file) {
        return new CrowdSetup(config, file, maxTreeBytes, lod, observerX, observerY, periods, treeName, treeText, regions,
                region, compiled, nodes);
    }

    /** This setup reading the tree file with its linked assets up to {@code bytes} (16 MB by default). */
    public CrowdSetup maxTreeBytes(long bytes) {
        return new CrowdSetup(config, treeFile, bytes, lod, observerX, observerY, periods, treeName, treeText, regions,
                region, compiled, nodes);
    }

    /** This setup with LOD by {@code bands} (null: off). */
    public CrowdSetup lod(LodBands bands) {
        return new CrowdSetup(config, treeFile, maxTreeBytes, bands, observerX, observerY, periods, treeName, treeText,
                regions, region, compiled, nodes);
    }

    /** This setup with the LOD observer at ({@code x}, {@code y}) from the start. */
    public CrowdSetup observer(float x, float y) {
        return new CrowdSetup(config, treeFile, maxTreeBytes, lod, x, y, periods, treeName, treeText, regions, region,
                compiled, nodes);
    }

    /**
     * This setup running {@code tree}, compiled already with {@code nodes} (the crowd's node types and
     * any other provider's); {@link #tree} stays the file it came from (null: the embedded asset), kept
     * for snapshots. Host columns and externals of other node types take the standalone values
     * {@code nodes} gives them.
     */
    public CrowdSetup compiled(CompiledStateTree tree, NodeRegistry nodes) {
        return new CrowdSetup(config, treeFile, maxTreeBytes, lod, observerX, observerY, periods, treeName, treeText,
                regions, region, tree, nodes);
    }

    /** This setup with LOD periods handed to what {@code make} makes of the crowd's data instead of the runtime (tests). */
    CrowdSetup periods(Function<CrowdData, TickPeriods> make) {
        return new CrowdSetup(config, treeFile, maxTreeBytes, lod, observerX, observerY, make, treeName, treeText,
                regions, region, compiled, nodes);
    }

    /**
     * Region mode: the agents of region {@code index} of {@code grid} (those whose start position falls
     * in it, with their ids in the whole world), the smart objects standing in it, and the tree
     * {@code text} (named {@code name} in messages). No LOD.
     */
    public CrowdSetup region(String name, String text, RegionGrid grid, int index) {
        return new CrowdSetup(config, null, maxTreeBytes, null, observerX, observerY, periods, name, text, grid, index,
                compiled, nodes);
    }
}
