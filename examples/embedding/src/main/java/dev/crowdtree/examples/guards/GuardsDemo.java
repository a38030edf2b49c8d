package dev.crowdtree.examples.guards;

import dev.crowdtree.statetree.compiler.StateTreeCompileException;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The demo: an evening at the guard post. An intruder crosses the grounds diagonally at 5 m/s, 7 m
 * off the line of posts; the
 * guards it passes see it and chase it, lose it and go home; a third of the way in, the host raises
 * an alarm (level 2, an int) for the guards within 60 m, who respond; half way, a second alarm sends
 * its level as a float by mistake, which no transition accepts and the runtime counts. Every tick
 * the host writes its input (each guard's distance to the intruder) and reads an output (how close
 * the nearest guard came); it prints the guards per state every 100 ticks and the cost per guard
 * and tick.
 *
 * <pre>java -jar target/guards-demo.jar [guards, default 50000] [ticks, default 600] [workers, default all]</pre>
 */
public final class GuardsDemo {
    /** The intruder's walk per tick (5 m/s). */
    static final float INTRUDER_STEP = 5f * GuardPost.DT;
    /** Its path runs 7 m north of the diagonal of posts, between them. */
    static final float OFFSET = 7f;

    private GuardsDemo() {
    }

    public static void main(String[] args) throws StateTreeCompileException {
        int guards = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int ticks = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        run(guards, ticks, workers, System.out);
    }

    /** Runs the evening and prints it on {@code out}; returns the post's hash at the end. */
    static long run(int guards, int ticks, int workers, PrintStream out) throws StateTreeCompileException {
        try (GuardPost post = new GuardPost(guards, workers, 1)) {
            out.printf(Locale.ROOT, "guards: %,d on %d workers, %d ticks of %.1f s%n", guards, workers, ticks, GuardPost.DT);
            long nanos = 0;
            float nearest = Float.POSITIVE_INFINITY;
            for (int t = 1; t <= ticks; t++) {
                float along = -20 + t * INTRUDER_STEP;
                post.intruder().moveTo(along, along + OFFSET);
                if (t == ticks / 3) {
                    out.printf(Locale.ROOT, "tick %d: alarm, level 2, to %d guards%n", t,
                            post.alarm(along, along + OFFSET, 60, 2));
                }
                if (t == ticks / 2) {
                    out.printf(Locale.ROOT, "tick %d: alarm, level 3.0 (a float), to %d guards%n", t,
                            post.alarm(along, along + OFFSET, 60, 3.0));
                }
                long t0 = System.nanoTime();
                post.tick();
                nanos += System.nanoTime() - t0;
                nearest = Math.min(nearest, post.nearestGuardDistance());
                if (t % 100 == 0 || t == ticks) {
                    out.printf(Locale.ROOT, "tick %d: Patrol %,d  Chase %,d  Respond %,d  Return %,d%n", t,
                            post.count("Patrol"), post.count("Chase"), post.count("Respond"), post.count("Return"));
                }
            }
            out.printf(Locale.ROOT, "%.1f ns per guard and tick (the model's systems and the trees), %.2f ms per tick%n",
                    nanos / ((double) ticks * guards), nanos / 1e6 / ticks);
            out.printf(Locale.ROOT, "closest any guard came to the intruder: %.2f m%n", nearest);
            post.brains().unmatchedPayloads().forEach(m -> out.printf(Locale.ROOT,
                    "payload mismatch: %s %s: %s, %d events%n", m.tag(), m.field(), m.reason(), m.count()));
            out.printf(Locale.ROOT, "hash: %016x%n", post.hash());
            return post.hash();
        }
    }
}
