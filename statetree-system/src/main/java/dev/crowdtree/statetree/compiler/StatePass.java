package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.SubtreeCopy;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueInput;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pass 4, states and their nodes: for each state in id order, adds it to the output with its
 * tasks (built with the slots of pass 3; a task's inputs see parameters, evaluators, earlier tasks of
 * its state and the tasks of its ancestors), its enter conditions (parameters and evaluators only),
 * the parameter values a linked state copies into its subtree copy, and its transitions (through
 * {@link TransitionPass}). Stops early when the tree outgrows 16-bit indices.
 */
final class StatePass {
    static final String TOO_MANY_NODES = "too many conditions, tasks or transitions for 16-bit indices";
    /** Most transitions one state may have. */
    static final int MAX_TRANSITIONS_PER_STATE = 255;

    private final Compilation c;
    private final Bindings bindings;
    private final NodeFactory nodes;
    private final TransitionPass transitions;

    StatePass(Compilation c, Bindings bindings, NodeFactory nodes, TransitionPass transitions) {
        this.c = c;
        this.bindings = bindings;
        this.nodes = nodes;
        this.transitions = transitions;
    }

    void run() {
        for (StateNode s : c.order) {
            compileState(s);
            if (!c.out.fitsIndices()) {
                // The tree cannot be built; compiling the remaining states would only cost time.
                c.error(null, null, TOO_MANY_NODES);
                break;
            }
        }
    }

    private void compileState(StateNode s) {
        c.out.addState(s.name, s.path, s.parent == null ? -1 : s.parent.id, s.depth, s.subtreeEnd, s.type,
                s.selection);

        // tasks (DFS order: this state's tasks come after all ancestors' tasks)
        for (int k = 0; k < s.tasks.size(); k++) {
            TaskInfo ti = s.tasks.get(k);
            String where = "tasks[" + ti.index + "]";
            Map<String, Integer> slots = new LinkedHashMap<>();
            ti.fieldSlots.forEach((f, slot) -> slots.put(f, slot.index()));
            Scope scope = new Scope(s, true, k, c.evalInfos.size(), "task inputs");
            Node n = nodes.createNode(ti.def, ti.type, ti.displayName, scope, slots, s.path, where, 0);
            boolean reselect = true;
            Object r = ti.def.properties().get("reselect");
            if (r != null) {
                if (r instanceof Boolean) {
                    reselect = (Boolean) r;
                } else {
                    c.error(s.path, where + ".reselect", "expected a boolean, got " + Values.describe(r));
                }
            }
            if (n != null) {
                c.out.addTask((Task) n, ti.displayName, reselect);
            }
        }

        Scope enterScope = new Scope(s, false, 0, c.evalInfos.size(), "enter conditions");
        c.out.setEnterConditions(nodes.compileConditionList(s.def.enterConditions(), enterScope, s.path,
                "enterConditions"));

        if (s.type == StateType.LINKED && !s.children.isEmpty()) {
            compileLinkedParameters(s);
        }

        List<TransitionDef> ts = s.def.transitions();
        if (ts.size() > MAX_TRANSITIONS_PER_STATE) {
            c.error(s.path, "transitions", "a state may have at most " + MAX_TRANSITIONS_PER_STATE
                    + " transitions, got " + ts.size());
        }
        for (int i = 0; i < ts.size() && i < MAX_TRANSITIONS_PER_STATE; i++) {
            transitions.compile(s, ts.get(i), "transitions[" + i + "]");
        }
    }

    private void compileLinkedParameters(StateNode s) {
        StateNode sub = s.children.get(0);
        SubtreeCopy inst = sub.copy;
        for (String key : s.def.linkedParameters().keySet()) {
            if (!inst.params.containsKey(key)) {
                c.error(s.path, "linkedParameters." + key, "subtree '" + inst.subtree + "' has no parameter '"
                        + key + "'; its parameters are " + inst.params.keySet());
            }
        }
        // Values see the tasks of the linked state's ancestors, not its own (entered after the copy).
        Scope scope = new Scope(s, true, 0, c.evalInfos.size(), "linked parameters");
        for (Param param : inst.params.values()) {
            Object raw = s.def.linkedParameters().get(param.name());
            ValueInput v = raw == null ? ValueInput.constant(param.type(), param.defaultValue())
                    : bindings.input(raw, param.type(), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, scope,
                    s.path, "linkedParameters." + param.name());
            if (v != null) {
                c.out.addLinkedParameter(param.type(), param.slot().index(), v);
            }
        }
    }
}
