package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.Slot;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.node.FieldSpec;
import dev.crowdtree.statetree.node.Node;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.ValueType;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The global tasks (the asset's {@code globalTasks}; docs/SEMANTICS.md, rules G1-G5), right after
 * the declarations and before any state is added to the output: each gets its type (a task type),
 * a display name (its name, with {@code #i} appended when two global tasks share it, as within a
 * state) and a block of per-agent slots of its own (global tasks are active whenever the tree
 * runs, so they share no block with a state's tasks). Then each is built in declared order: its
 * inputs see the tree's parameters, every evaluator and the global tasks listed before it (a
 * {@link Scope} without a state, whose {@code ownTaskLimit} counts the visible global tasks); and it is added to the output ahead of the root's tasks, so the
 * global tasks are tasks {@code 0 .. n-1} of the compiled tree. {@code reselect} is an error on a
 * global task: it is never re-selected.
 */
final class GlobalTaskPass {
    /** The top-level key, as errors name it. */
    static final String KEY = "globalTasks";

    private final Compilation c;
    private final Bindings bindings;
    private final NodeFactory nodes;

    GlobalTaskPass(Compilation c, Bindings bindings, NodeFactory nodes) {
        this.c = c;
        this.bindings = bindings;
        this.nodes = nodes;
    }

    void run() {
        List<NodeDef> defs = c.def.globalTasks();
        if (defs.isEmpty()) {
            return;
        }
        layout(defs);
        for (int k = 0; k < c.globalTasks.size(); k++) {
            compile(c.globalTasks.get(k), k);
        }
    }

    private void layout(List<NodeDef> defs) {
        Map<String, Integer> nameCount = new HashMap<>();
        for (NodeDef nd : defs) {
            if (nd != null) {
                nameCount.merge(nd.name() != null ? nd.name() : String.valueOf(nd.type()), 1, Integer::sum);
            }
        }
        for (int i = 0; i < defs.size(); i++) {
            NodeDef nd = defs.get(i);
            String where = KEY + "[" + i + "]";
            if (nd == null) {
                c.error(null, where, "expected a task object");
                continue;
            }
            NodeType type = nodes.nodeType(nd, NodeType.Category.TASK, null, where);
            if (type == null) {
                continue;
            }
            TaskInfo ti = new TaskInfo(nd, i, type);
            String base = nd.name() != null ? nd.name() : type.name();
            ti.displayName = nameCount.getOrDefault(base, 0) > 1 ? base + "#" + i : base;
            for (FieldSpec f : type.fields()) {
                Slot slot = c.newSlot(f.type(), "global." + ti.displayName + "." + f.name());
                ti.fieldSlots.put(f.name(), slot);
                if (f.output()) {
                    ti.outputs.put(f.name(), f.type());
                }
            }
            c.globalTasks.add(ti);
        }
    }

    /** Builds global task {@code ti}, the {@code k}-th with a type, and adds it to the output. */
    private void compile(TaskInfo ti, int k) {
        String where = KEY + "[" + ti.index + "]";
        if (ti.def.properties().containsKey("reselect")) {
            c.error(null, where + ".reselect", "'reselect' is not valid on a global task: a global task is "
                    + "entered once when the tree starts and exited when it finishes, never re-selected; "
                    + "remove it");
        }
        Map<String, Integer> slots = new LinkedHashMap<>();
        ti.fieldSlots.forEach((f, slot) -> slots.put(f, slot.index()));
        // no state, with tasks: the first k global tasks are visible (see Bindings.taskOutput)
        Scope scope = new Scope(null, true, k, c.evalInfos.size(), "global task inputs").disabledIf(ti.disabled);
        EnabledFlags.check(c, ti.def.properties().get(EnabledFlags.KEY), null, where + "." + EnabledFlags.KEY);
        Node n = nodes.createNode(ti.def, ti.type, ti.displayName, scope, slots, null, where, 0);
        Object raw = ti.def.properties().get("considerForCompletion");
        Double considered = raw == null ? Double.valueOf(1)
                : bindings.literal(raw, ValueType.BOOL, 0, 1, null, where + ".considerForCompletion");
        if (n != null) {
            c.out.addGlobalTask((Task) n, ti.displayName, considered == null || considered != 0);
        }
    }
}
