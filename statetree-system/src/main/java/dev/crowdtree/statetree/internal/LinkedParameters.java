package dev.crowdtree.statetree.internal;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueType;

/**
 * A linked state's {@code linkedParameters} written into its subtree copy's parameters
 * (docs/SEMANTICS.md sections 5 and 6, rules A16.5 and L3), the one definition both runtimes call:
 * <ul>
 *   <li>{@link #copy} on EnterState, for every linked state of the next path;</li>
 *   <li>{@link #setForSelection} / {@link #restore} around the selection of the subtree copy's root
 *       in SelectStateInternal, so that its enter conditions (and those below it) see the values the
 *       linked state gives, defaults included, even on the first selection; the previous values are
 *       put back afterwards, so that a selection leaves no trace (EnterState sets them for good).</li>
 * </ul>
 * Writes convert as {@link NodeContext#write} does; the saved values are read back exactly (a float,
 * an int or a bool slot's value is exact in a double).
 *
 * <p>Scratch sized once for the tree; allocation-free. THREADING: one instance per worker.
 */
public final class LinkedParameters {
    private final CompiledStateTree t;
    /** Saved values of the linked states being selected, a stack (nested links push above their outer one). */
    private final double[] saved;
    private int top;

    public LinkedParameters(CompiledStateTree tree) {
        this.t = tree;
        this.saved = new double[tree.linkedParamCount()];
    }

    /** EnterState: evaluates linked state {@code s}'s parameters for {@code row} and writes them into its subtree copy. */
    public void copy(NodeContext ctx, int s, int row) {
        for (int i = t.stateLinkedParamsBegin(s), end = i + t.stateLinkedParamsNum(s); i < end; i++) {
            ctx.write(t.linkedParamType(i), t.linkedParamSlot(i), row, t.linkedParamValue(i).getDouble(ctx, row));
        }
    }

    /**
     * SelectStateInternal reached linked state {@code s} (its enter conditions passed): saves its
     * subtree copy's parameters of {@code row}, then writes the linked values. Returns the mark to
     * give {@link #restore} once the copy's selection is over.
     */
    public int setForSelection(NodeContext ctx, int s, int row) {
        int mark = top;
        for (int i = t.stateLinkedParamsBegin(s), end = i + t.stateLinkedParamsNum(s); i < end; i++) {
            saved[top++] = read(ctx, t.linkedParamType(i), t.linkedParamSlot(i), row);
        }
        copy(ctx, s, row);
        return mark;
    }

    /** Puts back the parameters {@link #setForSelection} saved at {@code mark} for linked state {@code s}. */
    public void restore(NodeContext ctx, int s, int row, int mark) {
        int k = mark;
        for (int i = t.stateLinkedParamsBegin(s), end = i + t.stateLinkedParamsNum(s); i < end; i++) {
            ctx.write(t.linkedParamType(i), t.linkedParamSlot(i), row, saved[k++]);
        }
        top = mark;
    }

    /** The value of a parameter slot of {@code type} for {@code row}, exactly (also for {@link StateParameterValues}). */
    static double read(NodeContext ctx, ValueType type, int slot, int row) {
        switch (type) {
            case FLOAT:
                return ctx.floats(slot)[row];
            case INT:
                return ctx.ints(slot)[row];
            default:
                return ctx.bools(slot)[row];
        }
    }
}
