package dev.crowdtree.demo.sim;

import java.io.DataInputStream;
import java.io.IOException;

/**
 * The crowd's part of a region's exchange with its neighbours ({@link RegionalSim}, docs/SCALE.md):
 * releases of smart objects owned by another region, and the halo of agents in the grid cells a
 * border cuts (position and danger flag), read into the crowd's {@link Halo}.
 *
 * <p>THREADING: the thread stepping the region.
 */
final class CrowdExchange {
    private final CrowdData data;
    private final RegionGrid regions;
    private final int region;
    private final Halo halo;
    /** Which of its agents each neighbour's halo needs. */
    private final HaloCells haloCells;

    CrowdExchange(CrowdData data, RegionGrid regions, int region, Halo halo) {
        this.data = data;
        this.regions = regions;
        this.region = region;
        this.halo = halo;
        this.haloCells = new HaloCells(regions, data::cellOf, data.side, region);
    }

    void takeReleases(RegionalSim.ReleaseSink sink) throws IOException {
        for (int i = 0; i < data.foreignReleaseCount; i++) {
            int o = data.foreignReleases[i];
            sink.release(regions.regionOf(data.objects.x[o], data.objects.y[o]), o);
        }
        data.foreignReleaseCount = 0;
    }

    boolean acceptRelease(int object) {
        if (!data.objects.owns(object)) {
            return false;
        }
        data.objects.release(object);
        return true;
    }

    /** A neighbour's agent: its position and danger flag. */
    void readHalo(DataInputStream in, int agent, int owner) throws IOException {
        halo.add(agent, in.readFloat(), in.readFloat(), in.readByte(), owner);
    }

    /** Each neighbour gets this region's agents in the grid cells a border between them cuts ({@link HaloCells}). */
    void writeHalo(RegionWire.Section[] out, int[] neighbours) throws IOException {
        float[] x = data.x.data();
        float[] y = data.y.data();
        byte[] danger = data.danger.data();
        int[] ids = data.table.agentIds().data();
        // a quick first cut, wider than needed: a cut cell lies within one cell of the border
        float w = 2 * regions.haloWidth;
        float x0 = regions.x0(region) + w;
        float x1 = regions.x1(region) - w;
        float y0 = regions.y0(region) + w;
        float y1 = regions.y1(region) - w;
        int col = region % regions.columns;
        int row = region / regions.columns;
        for (int r = 0, n = data.table.size(); r < n; r++) {
            float px = x[r];
            float py = y[r];
            if (px > x0 && px < x1 && py > y0 && py < y1) {
                continue; // deep inside: no neighbour sees it
            }
            int cell = data.cellOf(px, py);
            for (int i = 0; i < neighbours.length; i++) {
                int dx = neighbours[i] % regions.columns - col;
                int dy = neighbours[i] / regions.columns - row;
                if (haloCells.needed(dx, dy, cell)) {
                    RegionWire.Section s = out[i];
                    s.out.writeInt(ids[r]);
                    s.out.writeFloat(px);
                    s.out.writeFloat(py);
                    s.out.writeByte(danger[r]);
                    s.count++;
                }
            }
        }
    }
}
