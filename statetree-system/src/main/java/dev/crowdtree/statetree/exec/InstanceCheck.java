package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.TableSnapshot;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.TimerKind;

/**
 * Checks the meaning of a snapshot's execution-state columns against the tree before they are
 * applied ({@link Snapshots#restore}): a checksum proves the bytes are those written, not that they
 * were written by this runtime for this tree. Every packed field of each row's execution word
 * ({@link ExecWord}) must name a state, task or status that exists, a running tree a state, a gate
 * a gated transition, a completed depth a depth, a history memory a state, a period a period, a
 * timer's due step a step. The first violation is reported with its row and column, so a tampered or
 * mismatched file is refused with one line instead of failing somewhere inside a tick.
 */
final class InstanceCheck {
    private InstanceCheck() {
    }

    /** Checks table {@code t}'s columns of {@code tree} (named with prefix {@code p}, {@code st.<tree>.}). */
    static void check(TableSnapshot t, CompiledStateTree tree, String p) throws SnapshotException {
        int rows = t.rows();
        long[] exec = (long[]) t.column(p + "exec");
        short[] gate = (short[]) t.column(p + "gate");
        int[] gateDue = (int[]) t.column(p + "gateDue");
        float[] gateValue = (float[]) t.column(p + "gateValue");
        byte[] done = (byte[]) t.column(p + "completedDepth");
        byte[] lod = (byte[]) t.column(p + "lodPeriod");
        short[] request = (short[]) t.column(p + "request");
        byte[] requestPriority = (byte[]) t.column(p + "requestPriority");
        byte[] requestSource = (byte[]) t.column(p + "requestSource");
        for (int r = 0; r < rows; r++) {
            long e = exec[r];
            int state = ExecWord.state(e);
            byte run = ExecWord.run(e);
            if (state > tree.stateCount) {
                throw bad(p + "exec", r, "names state " + (state - 1) + "; tree '" + tree.name + "' has "
                        + tree.stateCount + " states");
            }
            if (ExecWord.failed(e) > tree.taskCount()) {
                throw bad(p + "exec", r, "names task " + (ExecWord.failed(e) - 1) + "; tree '" + tree.name + "' has "
                        + tree.taskCount() + " tasks");
            }
            if (run > RunStatus.STOPPED) {
                throw bad(p + "exec", r, "has run status " + run + "; valid are 0.." + RunStatus.STOPPED);
            }
            if (run == RunStatus.RUNNING && state == 0) {
                throw bad(p + "exec", r, "is a running tree with no active state");
            }
            byte period = ExecWord.lod(e);
            if (!PeriodByte.valid(period, ExtraAgents.PERIODS)) {
                throw bad(p + "exec", r, "has tick period byte " + (period & 0xFF) + "; periods are 1..64 (log2 0..6)");
            }
            int g = gate[r];
            boolean gated = (e & ExecWord.GATE_BIT) != 0;
            if (g < 0 || g > tree.transitionCount || (g > 0 && !tree.isGated(g - 1)) || gated != (g > 0)) {
                throw bad(p + "gate", r, "holds gate " + g + (gated ? " (pending)" : "") + "; tree '" + tree.name
                        + "' has " + tree.transitionCount + " transitions, and only gated ones hold a gate");
            }
            if (gateDue[r] < 0 || !Float.isFinite(gateValue[r]) && gateDue[r] != InstanceData.NEVER) {
                throw bad(p + "gateDue", r, "is " + gateDue[r] + " (value " + gateValue[r] + ")");
            }
            if (done[r] < 0 || done[r] > CompiledStateTree.MAX_DEPTH + 1) {
                throw bad(p + "completedDepth", r, "is " + done[r] + "; depths are 0.." + (CompiledStateTree.MAX_DEPTH + 1));
            }
            if (lod != null && (lod[r] < 0 || lod[r] >= ExtraAgents.PERIODS)) {
                throw bad(p + "lodPeriod", r, "is " + lod[r] + "; periods are log2 0..6");
            }
            if (request != null && (request[r] < 0 || request[r] > tree.stateCount || requestPriority[r] < 0
                    || requestPriority[r] >= NodeContext.PRIORITIES.size() || requestSource[r] < 0
                    || requestSource[r] > CompiledStateTree.MAX_DEPTH + 1)) {
                throw bad(p + "request", r, "requests state " + (request[r] - 1) + " at priority " + requestPriority[r]
                        + "; tree '" + tree.name + "' has " + tree.stateCount + " states, priorities 0.."
                        + (NodeContext.PRIORITIES.size() - 1) + " (rule O1)");
            }
        }
        for (int h = 0; h < tree.history.count(); h++) {
            short[] memory = (short[]) t.column(p + "history#" + h);
            for (int r = 0; r < rows; r++) {
                if (memory[r] < 0 || memory[r] > tree.stateCount) {
                    throw bad(p + "history#" + h, r, "remembers state " + (memory[r] - 1) + "; tree '" + tree.name
                            + "' has " + tree.stateCount + " states");
                }
            }
        }
        for (int k = 0; k < tree.taskCount(); k++) {
            if (tree.taskTimer(k) == TimerKind.NONE) {
                continue;
            }
            String name = p + tree.intSlotNames(tree.taskTimerDueSlot(k)) + "#" + tree.taskTimerDueSlot(k);
            int[] due = (int[]) t.column(name);
            for (int r = 0; due != null && r < rows; r++) {
                if (due[r] < 0) {
                    throw bad(name, r, "is due at step " + due[r] + "; due steps are 0 (stopped) or later");
                }
            }
        }
    }

    private static SnapshotException bad(String column, int row, String what) {
        return new SnapshotException("the snapshot's column '" + column + "' at row " + row + " " + what
                + ": the file does not describe a tree this runtime ran");
    }
}
