package dev.crowdtree.bench.soak;

import dev.crowdtree.bench.compare.Variant;

import java.util.Locale;

/**
 * The options of {@code benchmarks.jar soak}, parsed like {@code compare}'s ({@code --name value} or
 * {@code --name=value}; counts accept {@code 10k}, {@code 1M}). See {@link #usage()}.
 */
final class SoakOptions {
    /** Samples a run takes when {@code --sample-every} is not given. */
    static final int DEFAULT_SAMPLES = 50;

    int agents = 1_000_000;
    int ticks = 100_000;
    int workers = Runtime.getRuntime().availableProcessors();
    long seed = 1;
    Variant tree = Variant.HIERARCHICAL;
    /** 0: {@link #DEFAULT_SAMPLES} samples over the run. */
    int sampleEvery;

    /** Ticks between two heap samples: {@code --sample-every}, or about {@value #DEFAULT_SAMPLES} samples per run. */
    int sampleEvery() {
        return sampleEvery > 0 ? sampleEvery : Math.max(1, ticks / DEFAULT_SAMPLES);
    }

    static String usage() {
        return String.join("\n",
                "usage: java -jar bench/target/benchmarks.jar soak [options]",
                "Runs one batched StateTree runtime for a long time under host activity (events, parameters, tick",
                "periods, despawn and respawn with id reuse), node error policy ISOLATE, and checks that the heap after",
                "a full GC stays flat and that no node failed. Progress on stderr, the summary on stdout; exit status 0",
                "when the heap is flat within 5% and nothing failed, 1 otherwise, 2 for a usage error.",
                "  --agents N          agents, e.g. 1000000 or 1M (default 1M)",
                "  --ticks T           ticks (default 100000)",
                "  --workers W         worker threads (default: the machine's cores, here "
                        + Runtime.getRuntime().availableProcessors() + ")",
                "  --seed S            simulation and host seed (default 1)",
                "  --tree NAME         " + String.join("|", Variant.ids().split(","))
                        + ": compare's benchmark tree, plus a root onEvent Poke",
                "                      transition where it has none (default hierarchical)",
                "  --sample-every K    ticks between heap samples (default: ticks / " + DEFAULT_SAMPLES + ")",
                "  --help");
    }

    /**
     * Parses {@code args}; null for {@code --help}.
     *
     * @throws IllegalArgumentException with a one-line message for a usage error
     */
    static SoakOptions parse(String[] args) {
        SoakOptions o = new SoakOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            } else {
                if (!a.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument '" + a + "'");
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                value = args[++i];
            }
            switch (a) {
                case "--agents":
                    o.agents = count(a, value);
                    break;
                case "--ticks":
                    o.ticks = count(a, value);
                    break;
                case "--workers":
                    o.workers = count(a, value);
                    break;
                case "--seed":
                    o.seed = number(a, value);
                    break;
                case "--tree":
                    try {
                        o.tree = Variant.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--tree must be one of " + Variant.ids().replace(',', '|')
                                + ", got '" + value + "'");
                    }
                    break;
                case "--sample-every":
                    o.sampleEvery = count(a, value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return o;
    }

    /** A positive count, with an optional {@code k} or {@code M} suffix and {@code _} separators. */
    static int count(String option, String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long mul = 1;
        if (t.endsWith("k")) {
            mul = 1000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            mul = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(t) * mul;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number, got '" + s + "'");
        }
        if (n <= 0 || n > Integer.MAX_VALUE - 2) {
            throw new IllegalArgumentException(option + " must be in 1.." + (Integer.MAX_VALUE - 2) + ", got '" + s + "'");
        }
        return (int) n;
    }

    private static long number(String option, String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number, got '" + s + "'");
        }
    }
}
