package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.TickPeriods;
import dev.crowdtree.statetree.compiled.Vocabulary.Composite;
import dev.crowdtree.statetree.compiled.Vocabulary.History;
import dev.crowdtree.statetree.compiled.Vocabulary.Selection;
import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.SubtreeCopy;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.Values;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.crowdtree.statetree.compiler.Compilation.quote;

/**
 * Pass 2, expansion and numbering: builds the tree of {@link StateNode}s from the authored states,
 * checking names, types, selection modes, composites, history, required events, tick periods and
 * depth; under every {@code linked} state it inlines a private copy of the linked subtree (with its
 * own parameters; a cycle of linked states is an error), so the result is a plain tree. Then it
 * numbers the states in depth-first pre-order (root = 0), the order every later pass and the
 * compiled tree use.
 */
final class ExpansionPass {
    /** The start of the error for a tree over {@link CompiledStateTree#MAX_STATES}. */
    static final String TOO_MANY_STATES = "the tree has more than " + CompiledStateTree.MAX_STATES
            + " states after inlining linked subtrees";
    private final Compilation c;
    private final DeclarationPass declarations;

    ExpansionPass(Compilation c, DeclarationPass declarations) {
        this.c = c;
        this.declarations = declarations;
    }

    /** Expands and numbers the tree from {@code root}; null if nothing can be numbered. */
    StateNode run(StateDef root) {
        StateNode n = expand(root, null, null, new ArrayList<>(), "root");
        if (n == null || c.tooManyStates) {
            return null;
        }
        number(n);
        return n;
    }

    StateNode expand(StateDef d, StateNode parent, SubtreeCopy inst, List<String> linkStack, String where) {
        String parentPath = parent == null ? null : parent.path;
        if (d == null) {
            c.error(parentPath, where, "expected a state object");
            return null;
        }
        if (d.name() == null || d.name().isBlank()) {
            c.error(parentPath, where + ".name", "a state needs a non-empty 'name'");
            return null;
        }
        if (d.name().contains("/") || d.name().contains(":") || d.name().startsWith("@")) {
            c.error(parentPath, where + ".name", "state name " + quote(d.name())
                    + " may not contain '/' or ':' or start with '@'");
            return null;
        }
        if (++c.expanded > CompiledStateTree.MAX_STATES) {
            if (!c.tooManyStates) {
                c.error(null, null, TOO_MANY_STATES + " (16-bit indices)");
            }
            c.tooManyStates = true;
            return null;
        }
        StateNode n = new StateNode(d, d.name(), parent, inst);
        if (n.depth >= CompiledStateTree.MAX_DEPTH) {
            // Reported where the offending state is declared, like every other per-child error.
            c.error(parentPath, where, "state '" + d.name() + "' makes the path deeper than "
                    + CompiledStateTree.MAX_DEPTH + " states (Unreal's MaxStates): " + n.path
                    + "; flatten the hierarchy");
            return null;
        }
        boolean isCopyRoot = inst != null && inst.root == null;
        if (isCopyRoot) {
            inst.root = n;
        }
        n.disabled = (parent != null && parent.disabled) || EnabledFlags.isDisabled(d.enabled());
        EnabledFlags.check(c, d.enabled(), n.path, EnabledFlags.KEY);
        n.type = stateType(d.type(), n, isCopyRoot);
        n.selection = selection(d.selection(), n);
        n.composite = composite(d, n);
        n.history = history(d, n);
        n.requiredEvent = RequiredEventKey.check(c, d, n);
        if (d.completion() != null && !d.completion().equals("any")) {
            if (d.completion().equals("all")) {
                n.completionAll = true;
            } else {
                c.error(n.path, "completion", "unknown completion " + quote(d.completion())
                        + "; valid values are any, all" + c.didYouMean(d.completion(), "any, all"));
            }
        }
        if (n.type != StateType.LINKED) {
            if (d.linkedSubtree() != null) {
                c.error(n.path, "linkedSubtree", "only states of type 'linked' may name a linkedSubtree");
            }
            if (!d.linkedParameters().isEmpty()) {
                c.error(n.path, "linkedParameters", "only states of type 'linked' may give linkedParameters");
            }
        }
        if (isCopyRoot) {
            declarations.compileParameters(d.parameters(), inst.params, inst, "parameters");
            n.params = inst.params;
        } // other states' parameters are state parameters: SlotLayoutPass lays them out (rules X1, X6)
        n.periodLog = tickPeriod(d.tickPeriod(), n);
        if (n.type == StateType.GROUP && !d.tasks().isEmpty()) {
            c.error(n.path, "tasks", "a group state cannot have tasks (" + d.tasks().size()
                    + " given); use type 'state' or move the tasks to a child");
        }
        if (n.type == StateType.LINKED) {
            if (!d.children().isEmpty()) {
                c.error(n.path, "children", "a linked state cannot have children; its subtree is its content");
            }
            String target = d.linkedSubtree();
            StateDef sub = target == null ? null : c.subtrees.get(target);
            if (target == null) {
                c.error(n.path, "linkedSubtree", "a linked state must name a subtree in 'linkedSubtree'; "
                        + "available subtrees: " + c.subtrees.keySet());
            } else if (sub == null) {
                c.error(n.path, "linkedSubtree", "unknown subtree '" + target + "'; available subtrees: "
                        + c.subtrees.keySet() + " (a linked state must point at a state of type 'subtree'"
                        + " in the top-level 'subtrees' list)" + c.didYouMean(target, c.subtrees.keySet()));
            } else if (linkStack.contains(target)) {
                List<String> cycle = new ArrayList<>(linkStack.subList(linkStack.indexOf(target), linkStack.size()));
                cycle.add(target);
                c.error(n.path, "linkedSubtree", "cycle of linked states: " + String.join(" -> ", cycle));
            } else {
                List<String> stack = new ArrayList<>(linkStack);
                stack.add(target);
                StateNode copyRoot = expand(sub, n, new SubtreeCopy(target, inst), stack, "linkedSubtree");
                if (copyRoot != null) {
                    n.children.add(copyRoot);
                }
            }
        } else {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < d.children().size(); i++) {
                StateDef cd = d.children().get(i);
                if (cd != null && cd.name() != null && !names.add(cd.name())) {
                    c.error(n.path, "children[" + i + "]", "duplicate child name '" + cd.name()
                            + "'; sibling states need unique names");
                    continue;
                }
                StateNode child = expand(cd, n, inst, linkStack, "children[" + i + "]");
                if (child != null) {
                    n.children.add(child);
                }
                if (c.tooManyStates) {
                    break;
                }
            }
        }
        return n;
    }

    StateType stateType(String t, StateNode n, boolean isCopyRoot) {
        StateType type = t == null ? StateType.STATE : StateType.parse(t);
        if (type == null) {
            c.error(n.path, "type", "unknown state type " + quote(t) + "; valid types are " + StateType.validNames()
                    + c.didYouMean(t, StateType.validNames()));
            return StateType.STATE;
        }
        if (type == StateType.SUBTREE && !isCopyRoot) {
            c.error(n.path, "type", "a state of type 'subtree' belongs in the top-level 'subtrees' "
                    + "list and is reached through a 'linked' state");
        }
        return type;
    }

    Selection selection(String s, StateNode n) {
        Selection selection = s == null ? Selection.TRY_SELECT_CHILDREN_IN_ORDER : Selection.parse(s);
        if (selection == null) {
            c.error(n.path, "selection", "unknown selection " + quote(s) + "; valid values are "
                    + Selection.validNames() + c.didYouMean(s, Selection.validNames()));
            return Selection.TRY_SELECT_CHILDREN_IN_ORDER;
        }
        return selection;
    }

    /**
     * The state's composite (rule K1), or null: only on a state with children, with the default
     * selection, not on a linked state (nor a linkedAsset one, which the loader made linked), and
     * not in a tree scanned root first.
     */
    Composite composite(StateDef d, StateNode n) {
        if (d.composite() == null) {
            return null;
        }
        Composite composite = Composite.parse(d.composite());
        if (composite == null) {
            c.error(n.path, "composite", "unknown composite " + quote(d.composite()) + "; valid values are "
                    + Composite.validNames());
            return null;
        }
        String what = "composite " + quote(composite.assetName());
        String wrong = null;
        if (n.type == StateType.LINKED) {
            wrong = what + " is not allowed on a linked or linkedAsset state (its only child is the subtree it "
                    + "runs): put 'composite' on the root of that subtree or asset";
        } else if (d.children().isEmpty()) {
            wrong = what + " needs children: a composite decides which of its children runs next when one "
                    + "completes, and this state has none";
        } else if (n.selection != Selection.TRY_SELECT_CHILDREN_IN_ORDER) {
            wrong = what + " cannot be combined with \"selection\": " + quote(n.selection.assetName())
                    + "; a composite selects its children itself (a sequence through its first child, a selector "
                    + "in declared order): leave 'selection' out";
        } else if (c.rootFirst) {
            wrong = what + " cannot be used in a tree with \"transitionScan\": \"rootFirst\": a composite's rule "
                    + "is part of the leaf-to-root scan; use one or the other";
        } else if (c.unreal) {
            wrong = what + " cannot be used in a tree with \"rules\": \"unreal-5.8\" (rule U1): Unreal 5.8 has no "
                    + "composites; wire the children with onStateSucceeded/onStateFailed transitions instead";
        }
        if (wrong != null) {
            c.error(n.path, "composite", wrong);
            return null;
        }
        return composite;
    }

    /**
     * The state's history (rule Y1), or null: only on a state with children, not on a linked state
     * (nor a linkedAsset one): its only child is the subtree copy, whose root may have the key.
     */
    History history(StateDef d, StateNode n) {
        if (d.history() == null) {
            return null;
        }
        History history = History.parse(d.history());
        String wrong = null;
        if (history == null) {
            wrong = "unknown history " + quote(d.history()) + "; valid values are " + History.validNames()
                    + c.didYouMean(d.history(), History.validNames());
        } else if (n.type == StateType.LINKED) {
            wrong = "history " + quote(history.assetName()) + " is not allowed on a linked or linkedAsset state (its "
                    + "only child is the subtree it runs): put 'history' on the root of that subtree or asset";
        } else if (d.children().isEmpty()) {
            wrong = "history " + quote(history.assetName()) + " needs children: a history state remembers which "
                    + "of its children was active, and this state has none";
        }
        if (wrong != null) {
            c.error(n.path, "history", wrong);
            return null;
        }
        return history;
    }

    /** log2 of the state's {@code tickPeriod} (rule Z1), -1 without one; an error unless 1, 2, 4, ..., 64. */
    int tickPeriod(Object raw, StateNode n) {
        if (raw == null) {
            return -1;
        }
        double d = raw instanceof Number ? ((Number) raw).doubleValue() : Double.NaN;
        if (d >= 1 && d <= 1 << TickPeriods.MAX_LOG && d == Math.rint(d) && Integer.bitCount((int) d) == 1) {
            return Integer.numberOfTrailingZeros((int) d);
        }
        c.error(n.path, "tickPeriod", "expected a tick period 1, 2, 4, 8, 16, 32 or 64 (the agent then ticks every "
                + "that many steps while the state is active), got " + Values.describe(raw));
        return -1;
    }

    void number(StateNode n) {
        n.id = c.order.size();
        c.order.add(n);
        c.statesByName.computeIfAbsent(n.name, k -> new ArrayList<>()).add(n);
        c.statesByPath.putIfAbsent(n.path, n);
        for (StateNode child : n.children) {
            number(child);
        }
        n.subtreeEnd = c.order.size();
    }
}
