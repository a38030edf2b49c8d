package dev.crowdtree.statetree.compiler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * "Did you mean" for unknown names: the valid names closest to a misspelt one by edit distance.
 *
 * <p>Names are compared ignoring case, by optimal string alignment distance (Levenshtein with
 * transpositions of two neighbouring characters: {@code dealy} is one edit from {@code delay}). A
 * valid name is suggested when its distance from the unknown one is at most
 * {@code max(1, length / 3)} of the unknown name; at most {@value #MAX_SUGGESTIONS} are suggested,
 * closest first, ties in the order the valid names were given. A name differing only in case is at
 * distance 0, so it always comes first.
 *
 * <p>Cost: a hostile asset can hold thousands of unknown names and thousands of valid ones, so an
 * instance spends at most a budget of character comparisons ({@link #Suggestions(long)}); once it
 * is spent, only names that differ in case are suggested. Names longer than {@value #MAX_LENGTH}
 * characters are only compared ignoring case. The static methods have no budget.
 * THREADING: an instance is confined to one thread; the static methods are pure.
 */
public final class Suggestions {
    /** The most names suggested for one unknown name. */
    public static final int MAX_SUGGESTIONS = 3;
    /** Names longer than this are only compared ignoring case, never by edit distance. */
    public static final int MAX_LENGTH = 64;
    /**
     * The budget of one compilation or one asset file read: character comparisons, far more than
     * any real asset needs (a fraction of a second).
     */
    public static final long DEFAULT_BUDGET = 50_000_000L;

    private long budget;

    /** Suggestions spending at most {@code budget} character comparisons in all. */
    public Suggestions(long budget) {
        this.budget = budget;
    }

    /** The valid names closest to {@code word}: see the class comment. */
    public static List<String> closest(String word, Collection<String> valid) {
        return new Suggestions(Long.MAX_VALUE).closestOf(word, valid, Function.identity());
    }

    /**
     * {@code "; did you mean [a, b]?"} with the names closest to {@code word}, or {@code ""} when none
     * is close enough: the tail of an "unknown ..." message.
     */
    public static String didYouMean(String word, Collection<String> valid) {
        return format(closest(word, valid));
    }

    /** As {@link #didYouMean(String, Collection)}, spending this instance's budget. */
    public String suggest(String word, Collection<String> valid) {
        return format(closestOf(word, valid, Function.identity()));
    }

    /**
     * The items of {@code valid} whose {@code name} is closest to {@code word}, without repeating an
     * item: see the class comment.
     */
    public <T> List<T> closestOf(String word, Collection<T> valid, Function<T, String> name) {
        if (word == null || valid.isEmpty()) {
            return List.of();
        }
        String w = word.toLowerCase(Locale.ROOT);
        int limit = Math.max(1, w.length() / 3);
        boolean edits = w.length() <= MAX_LENGTH;
        List<List<T>> byDistance = new ArrayList<>();
        for (int d = 0; d <= limit; d++) {
            byDistance.add(new ArrayList<>());
        }
        for (T item : new LinkedHashSet<>(valid)) {
            String n = name.apply(item);
            if (n == null) {
                continue;
            }
            int d;
            if (n.equalsIgnoreCase(word)) {
                d = 0;
            } else if (!edits || n.length() > MAX_LENGTH || Math.abs(n.length() - w.length()) > limit || budget <= 0) {
                continue;
            } else {
                d = osa(w, n.toLowerCase(Locale.ROOT), limit);
            }
            if (d <= limit) {
                byDistance.get(d).add(item);
            }
        }
        List<T> out = new ArrayList<>();
        for (List<T> same : byDistance) {
            for (T item : same) {
                if (out.size() < MAX_SUGGESTIONS) {
                    out.add(item);
                }
            }
        }
        return out;
    }

    /** {@code "; did you mean [a, b]?"}, or {@code ""} for no names. */
    public static String format(List<String> names) {
        return names.isEmpty() ? "" : "; did you mean " + names + "?";
    }

    /**
     * The optimal string alignment distance of {@code a} and {@code b} (case-sensitive), or any
     * value above {@code limit} as soon as it is certain to exceed it.
     */
    public static int distance(String a, String b, int limit) {
        return new Suggestions(Long.MAX_VALUE).osa(a, b, limit);
    }

    private int osa(String a, String b, int limit) {
        int n = a.length();
        int m = b.length();
        if (Math.abs(n - m) > limit) {
            return limit + 1;
        }
        int[] before = new int[m + 1];
        int[] prev = new int[m + 1];
        int[] cur = new int[m + 1];
        for (int j = 0; j <= m; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= n; i++) {
            cur[0] = i;
            int rowMin = i;
            char ca = a.charAt(i - 1);
            for (int j = 1; j <= m; j++) {
                char cb = b.charAt(j - 1);
                int cost = ca == cb ? 0 : 1;
                int v = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
                if (i > 1 && j > 1 && ca == b.charAt(j - 2) && a.charAt(i - 2) == cb) {
                    v = Math.min(v, before[j - 2] + 1);
                }
                cur[j] = v;
                rowMin = Math.min(rowMin, v);
            }
            budget -= m;
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] t = before;
            before = prev;
            prev = cur;
            cur = t;
        }
        return prev[m];
    }
}
