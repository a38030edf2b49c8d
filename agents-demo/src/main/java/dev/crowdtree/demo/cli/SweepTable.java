package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.SweepRow;

import java.io.IOException;
import java.util.Locale;

/**
 * A sweep's table as CSV (RFC 4180: a field with a comma, a quote or a line break is quoted) or as a
 * Markdown pipe table, one row per job in job order, with the columns {@value #HEADER}. When a job
 * failed, a last column {@code error} says why (empty for the jobs that did not fail), and that
 * job's wall time, hash and alarms are empty. Names from outside (scenario file names, error
 * messages) have their control characters escaped.
 */
final class SweepTable {
    /** The columns, as the CSV header. */
    static final String HEADER = "job,agents,ticks,wall_ms,ns_per_agent_tick,world_hash,alarms,member";
    private static final String[] COLUMNS = HEADER.split(",");
    /** Which columns are numbers (right-aligned in Markdown). */
    private static final boolean[] NUMERIC = {false, true, true, true, true, false, true, false};

    private SweepTable() {
    }

    /** Writes the CSV table (header and rows, with {@code \n} line ends) to {@code out}. */
    static void csv(SweepRow[] rows, Appendable out) throws IOException {
        boolean errors = anyFailed(rows);
        out.append(HEADER).append(errors ? ",error\n" : "\n");
        for (SweepRow r : rows) {
            String[] cells = cells(r, errors);
            for (int c = 0; c < cells.length; c++) {
                if (c > 0) {
                    out.append(',');
                }
                out.append(csvField(cells[c]));
            }
            out.append('\n');
        }
    }

    /** Writes the Markdown table (header, alignment row, rows) to {@code out}. */
    static void markdown(SweepRow[] rows, Appendable out) throws IOException {
        boolean errors = anyFailed(rows);
        StringBuilder head = new StringBuilder("|");
        StringBuilder rule = new StringBuilder("|");
        for (int c = 0; c < COLUMNS.length; c++) {
            head.append(' ').append(COLUMNS[c]).append(" |");
            rule.append(NUMERIC[c] ? " ---: |" : " --- |");
        }
        if (errors) {
            head.append(" error |");
            rule.append(" --- |");
        }
        out.append(head).append('\n').append(rule).append('\n');
        for (SweepRow r : rows) {
            out.append('|');
            for (String cell : cells(r, errors)) {
                out.append(' ').append(cell.replace("\\", "\\\\").replace("|", "\\|")).append(" |");
            }
            out.append('\n');
        }
    }

    /** The row's cells, as printed (control characters escaped), with the error cell when {@code errors}. */
    private static String[] cells(SweepRow r, boolean errors) {
        String[] cells = new String[COLUMNS.length + (errors ? 1 : 0)];
        boolean failed = r.failedRun();
        cells[0] = Printable.escape(r.job());
        cells[1] = Integer.toString(r.agents());
        cells[2] = Integer.toString(r.ticks());
        cells[3] = failed ? "" : String.format(Locale.ROOT, "%.1f", r.wallMillis());
        cells[4] = failed ? "" : String.format(Locale.ROOT, "%.1f", r.nsPerAgentTick());
        cells[5] = failed ? "" : String.format(Locale.ROOT, "%016x", r.worldHash());
        cells[6] = failed || r.alarms() < 0 ? "" : Long.toString(r.alarms());
        cells[7] = Printable.escape(r.member());
        if (errors) {
            cells[8] = failed ? Printable.clean(r.error(), 500) : "";
        }
        return cells;
    }

    private static boolean anyFailed(SweepRow[] rows) {
        for (SweepRow r : rows) {
            if (r.failedRun()) {
                return true;
            }
        }
        return false;
    }

    private static String csvField(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
