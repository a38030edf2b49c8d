package dev.crowdtree.bench.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Draws the harness chart as a hand-written SVG: ns per agent-tick (log y) against agent count
 * (log x), one panel per variant with a shared y scale, one line per implementation, a legend.
 */
final class SvgChart {
    private static final int PANEL_W = 520;
    private static final int PANEL_H = 380;
    private static final int LEFT = 80;
    private static final int TOP = 60;
    private static final int GAP = 90;
    private static final int PLOT_W = PANEL_W - 40;
    private static final int PLOT_H = PANEL_H - 70;

    private SvgChart() {
    }

    static String color(String impl) {
        switch (impl) {
            case "ours-1w":
                return "#1f77b4";
            case "ours-2w":
                return "#17becf";
            case "ours-allw":
                return "#9467bd";
            case "reference":
                return "#ff7f0e";
            case "reference-scheduled":
                return "#bcbd22";
            case "gdx-ai":
                return "#d62728";
            case "dominion":
                return "#8c564b";
            default:
                return "#555555";
        }
    }

    static String legendLabel(String impl) {
        switch (impl) {
            case "gdx-ai":
                return "gdx-ai (BehaviorTree: hierarchical, aborts; DefaultStateMachine: flat, sleepy)";
            default:
                for (Impl i : Impl.values()) {
                    if (i.id().equals(impl)) {
                        return i.label(Variant.HIERARCHICAL);
                    }
                }
                return impl;
        }
    }

    /** One panel of the chart: the results whose {@code variant} is {@code id}, titled {@code title}. */
    record Panel(String id, String title) {
    }

    /** The chart of the built-in variants: a panel per variant that has results. */
    static String render(List<RunResult> results, List<Variant> variants) {
        List<Panel> panels = new ArrayList<>();
        for (Variant v : variants) {
            for (RunResult r : results) {
                if (r.variant().equals(v.id())) {
                    panels.add(new Panel(v.id(), v.title() + " variant"));
                    break;
                }
            }
        }
        if (panels.isEmpty()) {
            Variant v = variants.isEmpty() ? Variant.HIERARCHICAL : variants.get(0);
            panels.add(new Panel(v.id(), v.title() + " variant"));
        }
        return renderPanels(results, panels);
    }

    /** The chart with the given panels. */
    static String renderPanels(List<RunResult> results, List<Panel> panels) {
        double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, minY = Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
        Set<String> impls = new LinkedHashSet<>();
        for (RunResult r : results) {
            minX = Math.min(minX, Math.log10(r.agents()));
            maxX = Math.max(maxX, Math.log10(r.agents()));
            minY = Math.min(minY, Math.log10(r.nsPerAgentTick()));
            maxY = Math.max(maxY, Math.log10(r.nsPerAgentTick()));
            impls.add(r.impl());
        }
        if (results.isEmpty()) {
            minX = 4;
            maxX = 6;
            minY = 0;
            maxY = 3;
        }
        double x0 = Math.floor(minX - 0.15), x1 = Math.ceil(maxX + 0.15);
        double y0 = Math.floor(minY), y1 = Math.ceil(maxY);
        if (y1 - y0 < 1) {
            y1 = y0 + 1;
        }
        int legendRows = (impls.size() + 1) / 2;
        int width = LEFT + panels.size() * PANEL_W + (panels.size() - 1) * GAP + 30;
        int height = TOP + PLOT_H + 70 + legendRows * 22 + 10;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>%n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", width, height, width, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">"
                + "Cost per agent-tick of the same decision logic (lower is better; log-log)</text>%n", LEFT));
        for (int p = 0; p < panels.size(); p++) {
            Panel v = panels.get(p);
            int ox = LEFT + p * (PANEL_W + GAP);
            int oy = TOP;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                    ox, oy - 10, escape(v.title())));
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
                    ox, oy, PLOT_W, PLOT_H));
            // y grid: 1, 2, 5 per decade
            for (int d = (int) y0; d <= (int) y1; d++) {
                for (int m : new int[] {1, 2, 5}) {
                    double ly = d + Math.log10(m);
                    if (ly < y0 - 1e-9 || ly > y1 + 1e-9) {
                        continue;
                    }
                    double py = oy + PLOT_H - (ly - y0) / (y1 - y0) * PLOT_H;
                    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                            ox, py, ox + PLOT_W, py, m == 1 ? "#cccccc" : "#eeeeee"));
                    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\">%s</text>%n",
                            ox - 6, py + 4, number(Math.pow(10, ly))));
                }
            }
            // x grid: decades
            for (int d = (int) x0; d <= (int) x1; d++) {
                double px = ox + (d - x0) / (x1 - x0) * PLOT_W;
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cccccc\"/>%n",
                        px, oy, px, oy + PLOT_H));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%s</text>%n",
                        px, oy + PLOT_H + 18, count(Math.pow(10, d))));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">agents (log scale)</text>%n",
                    ox + PLOT_W / 2, oy + PLOT_H + 40));
            s.append(String.format(Locale.ROOT, "<text transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">"
                    + "ns per agent-tick (log scale)</text>%n", ox - 55, oy + PLOT_H / 2));
            for (String impl : impls) {
                List<RunResult> pts = new ArrayList<>();
                for (RunResult r : results) {
                    if (r.variant().equals(v.id()) && r.impl().equals(impl)) {
                        pts.add(r);
                    }
                }
                pts.sort(Comparator.comparingInt(RunResult::agents));
                if (pts.isEmpty()) {
                    continue;
                }
                StringBuilder path = new StringBuilder();
                StringBuilder marks = new StringBuilder();
                for (RunResult r : pts) {
                    double px = ox + (Math.log10(r.agents()) - x0) / (x1 - x0) * PLOT_W;
                    double py = oy + PLOT_H - (Math.log10(r.nsPerAgentTick()) - y0) / (y1 - y0) * PLOT_H;
                    path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
                    marks.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s, %s agents: %s ns/agent-tick</title></circle>%n",
                            px, py, color(impl), escape(r.label()), count(r.agents()), Report.fmt(r.nsPerAgentTick())));
                }
                s.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                        path, color(impl), impl.equals("floor") ? " stroke-dasharray=\"6 4\"" : ""));
                s.append(marks);
            }
        }
        int ly = TOP + PLOT_H + 72;
        int i = 0;
        for (String impl : impls) {
            int lx = LEFT + (i % 2) * 520;
            int y = ly + (i / 2) * 22;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>%n",
                    lx, y - 4, lx + 30, y - 4, color(impl), impl.equals("floor") ? " stroke-dasharray=\"6 4\"" : ""));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 38, y, escape(legendLabel(impl))));
            i++;
        }
        s.append("</svg>\n");
        return s.toString();
    }

    static String number(double v) {
        if (v >= 1) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2g", v);
    }

    static String count(double n) {
        if (n >= 1e6) {
            return Report.fmt(n / 1e6).replaceAll("\\.0+$", "") + "M";
        }
        if (n >= 1e3) {
            return Report.fmt(n / 1e3).replaceAll("\\.0+$", "") + "k";
        }
        return String.format(Locale.ROOT, "%.0f", n);
    }

    static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
