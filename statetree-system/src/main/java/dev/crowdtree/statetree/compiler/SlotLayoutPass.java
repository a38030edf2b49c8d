package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.Model.Slot;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.node.FieldSpec;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pass 3, slot layout of task fields and state parameters: finds each task's type, gives it a
 * display name (its name, with {@code #i} appended when its state has two of that name) and lays its
 * per-agent fields out, with the slots that keep the payload of a state's required event (rule V5),
 * as a union per depth: only one state per depth is active, so all states at depth d share one
 * block of slots, sized by the largest of them. A state's own parameters (rules X1, X6; checked
 * here) follow its task fields in its depth's block: only while the state is active, or being
 * selected (when the values there before are put back afterwards), are they read. The blocks follow
 * the slots already given to parameters and evaluators (pass 1) and to subtree-copy parameters
 * (pass 2).
 */
final class SlotLayoutPass {
    private final Compilation c;
    private final NodeFactory nodes;
    private final DeclarationPass declarations;

    SlotLayoutPass(Compilation c, NodeFactory nodes, DeclarationPass declarations) {
        this.c = c;
        this.nodes = nodes;
        this.declarations = declarations;
    }

    void run() {
        int[][] perDepth = new int[CompiledStateTree.MAX_DEPTH][3];
        Map<StateNode, Map<String, int[]>> eventOffsets = new HashMap<>();
        for (StateNode s : c.order) {
            int[] used = new int[3];
            Map<String, Integer> nameCount = new HashMap<>();
            for (NodeDef nd : s.def.tasks()) {
                if (nd != null) {
                    nameCount.merge(nd.name() != null ? nd.name() : String.valueOf(nd.type()), 1, Integer::sum);
                }
            }
            for (int i = 0; i < s.def.tasks().size(); i++) {
                NodeDef nd = s.def.tasks().get(i);
                if (nd == null) {
                    c.error(s.path, "tasks[" + i + "]", "expected a task object");
                    continue;
                }
                NodeType type = nodes.nodeType(nd, NodeType.Category.TASK, s.path, "tasks[" + i + "]");
                if (type == null) {
                    continue;
                }
                TaskInfo ti = new TaskInfo(nd, i, type);
                String base = nd.name() != null ? nd.name() : type.name();
                ti.displayName = nameCount.getOrDefault(base, 0) > 1 ? base + "#" + i : base;
                for (FieldSpec f : type.fields()) {
                    int k = f.type().ordinal();
                    ti.fieldOffsets.put(f.name(), new int[] {k, used[k]++});
                    if (f.output()) {
                        ti.outputs.put(f.name(), f.type());
                    }
                }
                if (s.completionAll || (c.unreal && Boolean.FALSE.equals(nd.properties().get("considerForCompletion")))) {
                    // runtime-owned: the task has finished (completion "all"), or under unreal-5.8 a background
                    // task has completed and is not reached again while its state stays (rule U9)
                    ti.doneOffset = used[ValueType.BOOL.ordinal()]++;
                }
                s.tasks.add(ti);
            }
            if (s.requiredEvent != null) {
                // the payload of the event the state was entered with, kept while it is active (rule V5)
                Map<String, int[]> offsets = new LinkedHashMap<>();
                s.requiredEvent.fields().forEach((f, t) -> offsets.put(f, new int[] {t.ordinal(), used[t.ordinal()]++}));
                eventOffsets.put(s, offsets);
            }
            if (!s.def.parameters().isEmpty() && (s.copy == null || s.copy.root != s)) {
                // state parameters (rules X1, X6): after the task fields, at offsets moved below
                s.params = new LinkedHashMap<>();
                s.stateParams = true;
                declarations.compileParameters(s.def.parameters(), s.params, s.path, "parameters", "state.param.",
                        (type, slotName) -> new Slot(type, used[type.ordinal()]++), null);
            }
            for (int k = 0; k < 3; k++) {
                perDepth[s.depth][k] = Math.max(perDepth[s.depth][k], used[k]);
            }
        }
        // Depth blocks follow the global slots; slots of depth d are shared by all states at d.
        int[][] base = new int[CompiledStateTree.MAX_DEPTH][3];
        for (int k = 0; k < 3; k++) {
            ValueType vt = ValueType.values()[k];
            for (int d = 0; d < CompiledStateTree.MAX_DEPTH; d++) {
                base[d][k] = c.out.slotCount(vt);
                for (int j = 0; j < perDepth[d][k]; j++) {
                    c.newSlot(vt, "task.depth" + d + "." + vt.assetName() + j);
                }
            }
        }
        for (StateNode s : c.order) {
            if (s.stateParams) {
                int[] offsets = base[s.depth];
                s.params.replaceAll((name, p) -> p.moved(offsets));
            }
            for (TaskInfo ti : s.tasks) {
                for (Map.Entry<String, int[]> e : ti.fieldOffsets.entrySet()) {
                    int k = e.getValue()[0];
                    ti.fieldSlots.put(e.getKey(), new Slot(ValueType.values()[k], base[s.depth][k] + e.getValue()[1]));
                }
                if (ti.doneOffset >= 0) {
                    ti.doneSlot = base[s.depth][ValueType.BOOL.ordinal()] + ti.doneOffset;
                }
            }
            eventOffsets.getOrDefault(s, Map.of()).forEach((f, o) -> s.requiredEvent.slots().put(f,
                    new Slot(ValueType.values()[o[0]], base[s.depth][o[0]] + o[1])));
        }
    }
}
