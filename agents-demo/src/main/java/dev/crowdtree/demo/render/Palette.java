package dev.crowdtree.demo.render;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.awt.Color;

/**
 * Colours per state, shared by the PNG frames and the live viewer: states under a branch named
 * Danger get warm colours, others cool ones, so a frame reads at a glance.
 */
public final class Palette {
    private static final int[] COOL = {0x4E79A7, 0x59A14F, 0x76B7B2, 0x8CD17D, 0xB07AA1, 0x9C755F, 0x86BCB6, 0xBAB0AC,
        0x499894, 0xA0CBE8, 0xD4A6C8, 0x79706E};
    private static final int[] WARM = {0xE15759, 0xF28E2B, 0xFFBE7D, 0xFF9D9A, 0xEDC948, 0xD37295};

    private Palette() {
    }

    /**
     * One RGB colour per state id. Leaf states are coloured first, so the states agents actually sit
     * in get distinct colours; states under a branch named Danger get warm colours.
     */
    public static int[] stateColors(CompiledStateTree t) {
        int[] rgb = new int[t.stateCount];
        int cool = 0;
        int warm = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int s = 0; s < t.stateCount; s++) {
                boolean leaf = !t.hasChildren(s);
                if (leaf != (pass == 0)) {
                    continue;
                }
                boolean danger = t.statePath(s).contains("/Danger");
                rgb[s] = danger ? WARM[warm++ % WARM.length] : COOL[cool++ % COOL.length];
            }
        }
        return rgb;
    }

    public static Color color(int rgb) {
        return new Color(rgb);
    }
}
