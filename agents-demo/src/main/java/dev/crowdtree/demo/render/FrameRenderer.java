package dev.crowdtree.demo.render;

import dev.crowdtree.demo.sim.Scene;
import dev.crowdtree.demo.sim.Simulation;
import dev.crowdtree.demo.sim.Threats;
import dev.crowdtree.statetree.compiled.CompiledStateTree;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a frame of the crowd with Java2D, headless: agents as dots coloured by their active state,
 * smart objects as squares (filled by use), predators and fires as circles, a legend with the
 * current occupancy and a small stacked chart of occupancy over time.
 */
public final class FrameRenderer {
    private static final int MAP = 900;
    private static final int PANEL = 330;

    private final Simulation sim;
    private final int[] colors;
    private final List<int[]> history = new ArrayList<>();
    private final List<Integer> shown = new ArrayList<>();

    public FrameRenderer(Simulation sim) {
        this.sim = sim;
        this.colors = Palette.stateColors(sim.tree());
    }

    /** Records the current occupancy for the chart; the chart shows the last 240 samples. */
    public void sample() {
        history.add(sim.occupancy());
        if (history.size() > 240) {
            history.remove(0);
        }
    }

    public BufferedImage render() {
        BufferedImage img = new BufferedImage(MAP + PANEL, MAP, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(0x15181C));
        g.fillRect(0, 0, MAP + PANEL, MAP);
        Scene d = sim.scene();
        float scale = MAP / Math.max(sim.width(), sim.height());
        drawObjects(g, d, scale);
        drawAgents(img, scale);
        drawThreats(g, d, scale);
        drawPanel(g);
        g.dispose();
        return img;
    }

    private void drawObjects(Graphics2D g, Scene d, float scale) {
        for (int o = 0; o < d.objects(); o++) {
            int px = (int) (d.objectX()[o] * scale);
            int py = (int) (d.objectY()[o] * scale);
            g.setColor(d.objectUsed()[o] > 0 ? new Color(0xC9B458) : new Color(0x4A4A40));
            g.fillRect(px - 1, py - 1, 3, 3);
        }
    }

    private void drawAgents(BufferedImage img, float scale) {
        float[] x = sim.xs();
        float[] y = sim.ys();
        int n = sim.table().size();
        for (int r = 0; r < n; r++) {
            int s = sim.system().activeStateOfRow(r);
            if (s < 0) {
                continue;
            }
            int px = (int) (x[r] * scale);
            int py = (int) (y[r] * scale);
            if (px >= 0 && px < MAP && py >= 0 && py < MAP) {
                img.setRGB(px, py, colors[s]);
            }
        }
    }

    private void drawThreats(Graphics2D g, Scene th, float scale) {
        g.setStroke(new BasicStroke(2f));
        for (int k = 0; k < th.threats(); k++) {
            if (!th.threatActive()[k]) {
                continue;
            }
            int px = (int) (th.threatX()[k] * scale);
            int py = (int) (th.threatY()[k] * scale);
            int rad = Math.max(4, (int) (th.threatRadius()[k] * scale));
            if (th.threatKind()[k] == Threats.FIRE) {
                g.setColor(new Color(255, 120, 0, 90));
                g.fillOval(px - rad, py - rad, 2 * rad, 2 * rad);
                g.setColor(new Color(0xFF7A00));
            } else {
                g.setColor(new Color(0xFF3B3B));
            }
            g.drawOval(px - rad, py - rad, 2 * rad, 2 * rad);
        }
    }

    private void drawPanel(Graphics2D g) {
        CompiledStateTree t = sim.tree();
        int[] occ = sim.occupancy();
        int total = 0;
        for (int c : occ) {
            total += c;
        }
        shown.clear();
        for (int s = 0; s < occ.length; s++) {
            if (occ[s] > 0 || !t.hasChildren(s)) {
                shown.add(s);
            }
        }
        int x0 = MAP + 16;
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString("crowdtree: " + sim.modelName(), x0, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(0xB0B0B0));
        g.drawString(String.format(Locale.ROOT, "tick %d   t = %.1f s   %,d agents", sim.tickNumber(),
                sim.tickNumber() * sim.settings().dt(), sim.settings().agents()), x0, 48);
        int y = 76;
        for (int s : shown) {
            g.setColor(new Color(colors[s]));
            g.fillRect(x0, y - 10, 12, 12);
            g.setColor(Color.WHITE);
            String path = t.statePath(s);
            String label = path.substring(path.indexOf('/') + 1);
            g.drawString(label, x0 + 18, y);
            g.drawString(String.format(Locale.ROOT, "%5.1f%%", 100.0 * occ[s] / Math.max(1, total)), x0 + PANEL - 70, y);
            y += 18;
        }
        y += 6;
        g.setColor(new Color(0xB0B0B0));
        Scene scene = sim.scene();
        if (scene.threats() > 0) {
            g.drawString("red: predators   orange: fires", x0, y);
        }
        if (scene.objects() > 0) {
            g.drawString("squares: smart objects (yellow: in use)", x0, y + 16);
        }
        drawChart(g, x0, y + 48, PANEL - 32, MAP - y - 64);
    }

    private void drawChart(Graphics2D g, int x0, int y0, int w, int h) {
        g.setColor(new Color(0x22262B));
        g.fillRect(x0, y0, w, h);
        if (history.isEmpty()) {
            return;
        }
        int n = history.size();
        float colW = (float) w / Math.max(1, n);
        for (int i = 0; i < n; i++) {
            int[] occ = history.get(i);
            int total = 0;
            for (int c : occ) {
                total += c;
            }
            float acc = 0;
            for (int s = 0; s < occ.length; s++) {
                if (occ[s] == 0) {
                    continue;
                }
                float part = (float) occ[s] / Math.max(1, total) * h;
                g.setColor(new Color(colors[s]));
                g.fillRect((int) (x0 + i * colW), (int) (y0 + h - acc - part), Math.max(1, (int) Math.ceil(colW)),
                        Math.max(1, Math.round(part)));
                acc += part;
            }
        }
        g.setColor(new Color(0xB0B0B0));
        g.drawString("state occupancy over time", x0, y0 - 4);
    }
}
