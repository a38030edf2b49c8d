package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary.Selection;
import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.definition.Values;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Unreal 5.3's {@code "enabled": false} on states, tasks, evaluators, global tasks and transitions
 * (docs/SEMANTICS.md, rules N1-N5). The compiler checks a tree with its disabled elements like any
 * other; the tree it then builds is {@link #prune}'s: the same asset without them, where a disabled
 * state stays as an empty placeholder (its name, its children's names, nothing else) that no
 * selection takes, so that its parent keeps its children and every target resolves as before.
 */
final class EnabledFlags {
    /** The key, in states, transitions and task and evaluator objects. */
    static final String KEY = "enabled";

    private EnabledFlags() {
    }

    /** Whether an {@code enabled} value disables its element (only {@code false} does; absent means enabled). */
    static boolean isDisabled(Object raw) {
        return Boolean.FALSE.equals(raw);
    }

    /** Reports an {@code enabled} value that is not a boolean. */
    static void check(Compilation c, Object raw, String path, String field) {
        if (raw != null && !(raw instanceof Boolean)) {
            c.error(path, field, "'enabled' must be a boolean (true or false), got " + Values.describe(raw));
        }
    }

    /** Whether anything in {@code def} is disabled. */
    static boolean anyDisabled(TreeDef def) {
        if (anyNode(def.evaluators()) || anyNode(def.globalTasks()) || anyState(def.root())) {
            return true;
        }
        for (StateDef s : def.subtrees()) {
            if (anyState(s)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyNode(List<NodeDef> nodes) {
        for (NodeDef n : nodes) {
            if (n != null && isDisabled(n.properties().get(KEY))) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyState(StateDef s) {
        if (s == null) {
            return false;
        }
        if (isDisabled(s.enabled()) || anyNode(s.tasks())) {
            return true;
        }
        for (TransitionDef t : s.transitions()) {
            if (t != null && isDisabled(t.enabled())) {
                return true;
            }
        }
        for (StateDef child : s.children()) {
            if (anyState(child)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code def} without its disabled elements: disabled evaluators, global tasks, tasks and
     * transitions left out; a disabled state replaced by a placeholder ({@link #placeholder}). Tasks
     * keep the names the full asset gives them ({@code run#1} stays {@code run#1} when {@code run#0}
     * is disabled), so traces and bindings do not change when a sibling is disabled.
     */
    static TreeDef prune(TreeDef def) {
        List<StateDef> subtrees = new ArrayList<>();
        for (StateDef s : def.subtrees()) {
            subtrees.add(state(s, false));
        }
        return new TreeDef(def.source(), def.name(), def.parameters(), enabledNodes(def.evaluators()),
                state(def.root(), false), subtrees, enabledNodes(def.globalTasks()), def.transitionScan(), def.rules(),
                def.hostEvents());
    }

    /** The enabled nodes of a list, each named as in the full list (a name shared by several gets {@code #<index>}). */
    private static List<NodeDef> enabledNodes(List<NodeDef> nodes) {
        Map<String, Integer> nameCount = new HashMap<>();
        for (NodeDef nd : nodes) {
            if (nd != null) {
                nameCount.merge(baseName(nd), 1, Integer::sum);
            }
        }
        List<NodeDef> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeDef nd = nodes.get(i);
            if (nd == null || isDisabled(nd.properties().get(KEY))) {
                continue;
            }
            String base = baseName(nd);
            out.add(nameCount.get(base) > 1 ? new NodeDef(nd.type(), base + "#" + i, nd.properties()) : nd);
        }
        return out;
    }

    private static String baseName(NodeDef nd) {
        return nd.name() != null ? nd.name() : String.valueOf(nd.type());
    }

    private static StateDef state(StateDef s, boolean parentUsesUtility) {
        if (s == null) {
            return null;
        }
        if (isDisabled(s.enabled())) {
            return placeholder(s, parentUsesUtility);
        }
        Selection selection = s.selection() == null ? null : Selection.parse(s.selection());
        boolean utility = selection != null && selection.usesUtility();
        List<StateDef> children = new ArrayList<>();
        for (StateDef child : s.children()) {
            children.add(state(child, utility));
        }
        List<TransitionDef> transitions = new ArrayList<>();
        for (TransitionDef t : s.transitions()) {
            // a disabled transition keeps its place, as a bare placeholder the pruned pass skips, so
            // that the others keep their declared index (in warnings and why lines)
            transitions.add(t == null || !isDisabled(t.enabled()) ? t
                    : new TransitionDef(t.trigger(), null, null, List.of(), null, null, null, null, null, false));
        }
        // every other key is kept as it is (composite, required event, ...)
        return s.withTasks(enabledNodes(s.tasks())).withTransitions(transitions).withChildren(children);
    }

    /**
     * A disabled state as the compiled tree keeps it: its name and {@code "enabled": false}; its
     * children as placeholders too (a linked state's subtree is not copied); a subtree keeps its type
     * and its parameters (the linked states give them values); under a utility selection, weight 0,
     * so that it takes no part in a weighted draw. Nothing else: no tasks, conditions, transitions,
     * state parameters (only the disabled states below it could read them) or tick period.
     */
    private static StateDef placeholder(StateDef s, boolean parentUsesUtility) {
        boolean subtree = StateType.SUBTREE.assetName().equals(s.type());
        List<StateDef> children = new ArrayList<>();
        if (!StateType.LINKED.assetName().equals(s.type())) {
            for (StateDef child : s.children()) {
                children.add(child == null ? null : placeholder(child, false));
            }
        }
        return new StateDef(s.name(), subtree ? s.type() : null, null, null, null, subtree ? s.parameters() : null,
                null, null, null, children, parentUsesUtility ? (Object) 0L : null, null, null, Boolean.FALSE, null);
    }
}
