package dev.crowdtree.core;

import java.util.random.RandomGenerator;

/** Test helper: random permutations for {@code World.reorder}. */
final class Permutations {
    private Permutations() {
    }

    /** A uniformly random permutation of {@code 0..n-1} (Fisher-Yates, from the last element down). */
    static int[] random(int n, RandomGenerator rnd) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        return order;
    }
}
