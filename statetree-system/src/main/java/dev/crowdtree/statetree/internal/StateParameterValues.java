package dev.crowdtree.statetree.internal;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.StateParameters;
import dev.crowdtree.statetree.node.NodeContext;
import dev.crowdtree.statetree.node.ValueType;

/**
 * States' own parameters written into their slots (docs/SEMANTICS.md section 19, rules X3, X4), the
 * one definition both runtimes call:
 * <ul>
 *   <li>{@link #enter} on EnterState, for each state that is entered (changed or sustained): each of
 *       its parameters gets its value, evaluated now, or its default;</li>
 *   <li>{@link #setForSelection} when SelectStateInternal tries a state, before its enter conditions,
 *       and {@link #setAbove} for the states SelectState pushes without trying them (Q-A6) that are
 *       not active: they get the values entering would give them, so that the conditions and
 *       selections below see them; {@link #restore} puts back what was there once that selection is
 *       over (the slots are shared per depth with other states, rule X6), so a selection changes
 *       nothing by itself.</li>
 * </ul>
 * An entity parameter is written as a handle: the id and that agent's generation now (as a
 * {@code setParameter} task writes it). Saved values are read back exactly.
 *
 * <p>Scratch sized once for the tree; allocation-free. THREADING: one instance per worker.
 */
public final class StateParameterValues {
    private final CompiledStateTree t;
    private final StateParameters p;
    /** Saved (entry, value, generation) of the parameters set for a selection, a stack. */
    private final int[] savedEntry;
    private final double[] savedValue;
    private final int[] savedGeneration;
    private int top;
    private final int[] above = new int[CompiledStateTree.MAX_DEPTH];

    public StateParameterValues(CompiledStateTree tree) {
        this.t = tree;
        this.p = tree.stateParameters;
        // a selection sets each state at most once: the states above the target, then the target and below it
        this.savedEntry = new int[p.size()];
        this.savedValue = new double[p.size()];
        this.savedGeneration = new int[p.size()];
    }

    /** Whether state {@code s} declares parameters. */
    public boolean declares(int s) {
        return p.any && p.count(s) > 0;
    }

    /** EnterState enters state {@code s}: its parameters get their values for {@code row} (rule X3). */
    public void enter(NodeContext ctx, int s, int row) {
        for (int i = p.begin(s), end = i + p.count(s); i < end; i++) {
            write(ctx, i, row, p.value(i).getDouble(ctx, row));
        }
    }

    /**
     * SelectStateInternal tries state {@code s} for {@code row}: saves its parameters, then gives them
     * the values entering would (rule X4). Returns the mark to give {@link #restore} once the
     * selection of {@code s} is over.
     */
    public int setForSelection(NodeContext ctx, int s, int row) {
        int mark = top;
        for (int i = p.begin(s), end = i + p.count(s); i < end; i++) {
            double v = p.value(i).getDouble(ctx, row); // evaluated before any of the state's own is written
            savedEntry[top] = i;
            savedValue[top] = LinkedParameters.read(ctx, p.type(i), p.slot(i), row);
            savedGeneration[top] = p.generationSlot(i) < 0 ? 0 : ctx.ints(p.generationSlot(i))[row];
            top++;
            write(ctx, i, row, v);
        }
        return mark;
    }

    /**
     * SelectState to {@code target} from the active path ending at {@code leaf} (-1: empty): the
     * states between the first active ancestor of {@code target} and {@code target}, which it pushes
     * without trying them, get their values as by {@link #setForSelection}, top down. Returns the mark
     * for {@link #restore}.
     */
    public int setAbove(NodeContext ctx, int target, int leaf, int row) {
        int mark = top;
        if (!p.any) {
            return mark;
        }
        int n = 0;
        for (int a = t.stateParent(target); a >= 0 && (leaf < 0 || !t.isAncestorOrSelf(a, leaf)); a = t.stateParent(a)) {
            above[n++] = a;
        }
        while (n > 0) {
            setForSelection(ctx, above[--n], row);
        }
        return mark;
    }

    /** Puts back, newest first, every parameter saved since {@code mark} for {@code row}. */
    public void restore(NodeContext ctx, int row, int mark) {
        while (top > mark) {
            int i = savedEntry[--top];
            ctx.write(p.type(i), p.slot(i), row, savedValue[top]);
            if (p.generationSlot(i) >= 0) {
                ctx.write(ValueType.INT, p.generationSlot(i), row, savedGeneration[top]);
            }
        }
    }

    private void write(NodeContext ctx, int i, int row, double v) {
        ctx.write(p.type(i), p.slot(i), row, v);
        if (p.generationSlot(i) >= 0) {
            ctx.write(ValueType.INT, p.generationSlot(i), row, ctx.generationOf((int) v)); // a handle (issue 11)
        }
    }
}
