package dev.crowdtree.demo.cli;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.exec.PayloadMismatch;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The summary's payload mismatch lines (docs/SEMANTICS.md rule E5): {@code payload mismatches: N},
 * then one line per (tag, field, reason) with its count, e.g.
 * {@code   Alarm level: wrong type (sent float, declared int)  3}.
 */
final class PayloadMismatchLines {
    private PayloadMismatchLines() {
    }

    static void print(PrintStream out, List<PayloadMismatch> mismatches) {
        long total = 0;
        for (PayloadMismatch m : mismatches) {
            total += m.count();
        }
        out.printf(Locale.ROOT, "payload mismatches: %d%n", total);
        for (PayloadMismatch m : mismatches) {
            out.printf(Locale.ROOT, "  %s %s: %s  %d%n", Printable.escape(m.tag()), Printable.escape(m.field()), m.reason(),
                    m.count());
        }
    }
}
