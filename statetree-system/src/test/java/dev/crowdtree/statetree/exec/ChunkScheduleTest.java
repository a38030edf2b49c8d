package dev.crowdtree.statetree.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ChunkSchedule} against plain models: the timer wheel pops every row exactly at its wake-up
 * step (across level 0, the level-1 cascade and the overflow list, including the steps next to each
 * level's reach), and the always-awake order keeps every group exactly the set of rows filed in it.
 */
class ChunkScheduleTest {
    private static final int ROWS = 512;
    private static final int LONG = 128;

    @Test
    void everyRowIsPoppedExactlyAtItsWakeUpStep() {
        SplittableRandom rnd = new SplittableRandom(17);
        ChunkSchedule s = new ChunkSchedule(0, ROWS, 1);
        s.clear(0, ROWS, 0);
        int[] model = new int[ROWS]; // wake-up step per row, 0: none
        int[] out = new int[ROWS + 1]; // advance writes one past its last row
        // reaches of the levels, and where a half-span or full-span refile would go wrong
        int[] edges = {1, 2, 255, 256, 257, 511, 65_279, 65_280, 65_281, 65_535, 65_536, 65_537,
            98_000, 131_071, 131_072, 131_329, 196_608, 200_000};
        long popped = 0;
        for (int step = 1; step <= 420_000; step++) {
            int n = s.advance(step, out, 0);
            boolean[] seen = new boolean[ROWS];
            for (int i = 0; i < n; i++) {
                int l = out[i];
                assertEquals(step, model[l], "row " + l + " popped at step " + step);
                assertTrue(!seen[l], "row " + l + " popped twice at step " + step);
                seen[l] = true;
                model[l] = 0;
            }
            popped += n;
            for (int l = 0; l < ROWS; l++) {
                assertTrue(model[l] != step || seen[l], "row " + l + " was due at step " + step + " and not popped");
            }
            // rows below LONG hold one long timer each, placed at a level's reach, left alone until
            // it pops; the other rows churn: schedule near or far, reschedule, unschedule
            for (int l = 0; l < LONG && step < 200_000; l++) {
                if (model[l] == 0) {
                    int ahead = edges[rnd.nextInt(edges.length)] + (rnd.nextBoolean() ? 0 : rnd.nextInt(3) - 1);
                    s.schedule(l, step + Math.max(1, ahead));
                    model[l] = step + Math.max(1, ahead);
                }
            }
            for (int k = rnd.nextInt(3); k > 0; k--) {
                int l = LONG + rnd.nextInt(ROWS - LONG);
                int op = rnd.nextInt(10);
                if (op == 0) {
                    s.unschedule(l);
                    model[l] = 0;
                } else if (step < 200_000) {
                    int ahead = op < 4 ? 1 + rnd.nextInt(300) : op < 7 ? edges[rnd.nextInt(edges.length)]
                            : 1 + rnd.nextInt(210_000);
                    s.schedule(l, step + ahead);
                    model[l] = step + ahead;
                }
            }
        }
        for (int l = 0; l < ROWS; l++) {
            assertEquals(0, model[l], "row " + l + " still waits");
        }
        assertTrue(popped > 50_000, "popped " + popped);
        assertTrue(s.compactions > 0, "rescheduling must have filled the pool with holes at least once");
    }

    @Test
    void groupsHoldExactlyTheRowsFiledInThem() {
        SplittableRandom rnd = new SplittableRandom(23);
        int groups = 9;
        ChunkSchedule s = new ChunkSchedule(0, ROWS, groups);
        s.clear(1000, ROWS, 0);
        int[] groupOf = new int[ROWS];
        for (int l = 0; l < ROWS; l++) {
            groupOf[l] = rnd.nextInt(groups + 1) - 1;
        }
        s.buildOrder(groupOf);
        for (int i = 0; i < 100_000; i++) {
            refile(s, groupOf, rnd.nextInt(ROWS), rnd.nextInt(groups + 1) - 1);
            if (i % 997 == 0) {
                check(s, groupOf, groups, ROWS);
            }
        }
        check(s, groupOf, groups, ROWS);
    }

    @Test
    void sortingTheOrderKeepsEveryGroupsRowsAndPutsThemInAscendingOrder() {
        SplittableRandom rnd = new SplittableRandom(29);
        int groups = 5;
        ChunkSchedule s = new ChunkSchedule(0, ROWS, groups);
        s.clear(1000, ROWS - 3, 0); // a chunk shorter than the schedule: the last word of bits is partial
        int rows = ROWS - 3;
        int[] groupOf = new int[ROWS];
        for (int l = 0; l < rows; l++) {
            groupOf[l] = rnd.nextInt(groups + 1) - 1;
        }
        groupOf[rows - 1] = groups - 1; // the chunk's last row listed, in the last group
        s.buildOrder(groupOf);
        assertEquals(0, s.scattered);
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 2_000; i++) {
                refile(s, groupOf, rnd.nextInt(rows - 1), rnd.nextInt(groups + 1) - 1);
            }
            assertTrue(s.scattered > 0, "moves, inserts and removes are counted");
            s.sortOrder();
            assertEquals(0, s.scattered);
            check(s, groupOf, groups, rows);
            for (int g = 0; g < groups; g++) {
                for (int i = s.groupBegin[g] + 1; i < s.groupBegin[g + 1]; i++) {
                    assertTrue(s.order[i - 1] < s.order[i], "group " + g + " is ascending at position " + i);
                }
            }
        }
    }

    /** Row {@code l} goes to group {@code g} (-1: out of the order), in the schedule and in the model. */
    private static void refile(ChunkSchedule s, int[] groupOf, int l, int g) {
        int cur = groupOf[l];
        if (cur >= 0 && g >= 0) {
            s.move(l, cur, g);
        } else if (cur >= 0) {
            s.remove(l, cur);
        } else if (g >= 0) {
            s.insert(l, g);
        }
        groupOf[l] = g;
    }

    private static void check(ChunkSchedule s, int[] groupOf, int groups, int rows) {
        int listed = 0;
        for (int g = 0; g < groups; g++) {
            List<Integer> inGroup = new ArrayList<>();
            for (int i = s.groupBegin[g]; i < s.groupBegin[g + 1]; i++) {
                int l = s.order[i] - 1000;
                inGroup.add(l);
                assertEquals(g, groupOf[l], "row " + l + " sits in group " + g);
                assertEquals(i, s.pos[l], "position of row " + l);
            }
            listed += inGroup.size();
        }
        int expected = 0;
        for (int l = 0; l < rows; l++) {
            if (groupOf[l] >= 0) {
                expected++;
            } else {
                assertEquals(ChunkSchedule.NONE, s.pos[l], "row " + l + " is not listed");
            }
        }
        assertEquals(expected, listed);
        assertEquals(expected, s.listed());
    }
}
