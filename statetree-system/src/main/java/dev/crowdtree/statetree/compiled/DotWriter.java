package dev.crowdtree.statetree.compiled;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link CompiledStateTree} as a Graphviz DOT digraph, for documentation and debugging
 * ({@code dot -Tsvg tree.dot -o tree.svg}).
 *
 * <p>One box per state (after inlining, so every linked state shows its own copy of its subtree):
 * the state's name, its type, selection and composite ({@code sequence}, {@code selector}) when not
 * the defaults, its history as UML draws it ({@code H} shallow, {@code H*} deep), its task names,
 * its required event to enter ({@code requires Alarm {x: float}}, {@code (kept)} when it is not
 * consumed), its tick period and its own parameters with the values they are entered with, and its
 * number of enter conditions. The graph's label names the tree
 * and its source, and its {@code transitionScan} when it is not the default ({@code rootFirst}).
 * Solid edges go from parent to child. Transitions are dashed edges labelled
 * {@code #<index in the state> <trigger>}, with the event tag, the number of conditions and the gate
 * delay when present; {@code @succeeded} and {@code @failed} lead to two terminal nodes, and an
 * {@code @none} transition (which masks the transitions of the ancestors, or of the descendants in a
 * tree scanned root first) is a dotted self-loop. The global tasks, if any, are a note above the
 * root. A disabled state ({@code "enabled": false}, docs/SEMANTICS.md rules N1-N5) is drawn in grey
 * with a dashed border and {@code (disabled)}, and so are its descendants and the transitions that
 * target it (they never fire); disabled tasks, evaluators and transitions are not drawn at all,
 * since the compiled tree leaves them out.
 *
 * <p>The output is deterministic: states, edges and transitions in index order, numbers printed by
 * {@link Float#toString(float)}. Every label and the graph name are quoted and escaped, so state
 * names may hold spaces, quotes and backslashes.
 *
 * <p>THREADING: stateless; the tree is only read.
 */
public final class DotWriter {
    private DotWriter() {
    }

    /** The tree as a DOT {@code digraph} named after it. */
    public static String toDot(CompiledStateTree t) {
        StringBuilder sb = new StringBuilder();
        String name = t.name == null ? "" : t.name;
        sb.append("digraph ").append(quote(name)).append(" {\n");
        String scan = (t.scanRules.rootFirst ? "\ntransitionScan: " + Vocabulary.TransitionScan.ROOT_FIRST.assetName() : "")
                + (t.unreal.on ? "\nrules: " + Vocabulary.Rules.UNREAL_5_8.assetName() : "");
        sb.append("  graph [label=").append(quote(name + " (" + t.source + ")" + scan))
                .append(", labelloc=t, fontname=\"Helvetica\"];\n");
        sb.append("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n");
        sb.append("  edge [fontname=\"Helvetica\", fontsize=10];\n");

        if (t.globalTaskCount > 0) {
            List<String> tasks = new ArrayList<>();
            for (int k = 0; k < t.globalTaskCount; k++) {
                tasks.add(t.taskName(k));
            }
            sb.append("  global [shape=note, label=").append(quote(Vocabulary.GLOBAL_SCOPE + "\ntasks: "
                    + String.join(", ", tasks))).append("];\n  global -> ").append(id(0)).append(" [style=dotted];\n");
        }
        for (int s = 0; s < t.stateCount; s++) {
            sb.append("  ").append(id(s)).append(" [label=").append(quote(stateLabel(t, s)))
                    .append(t.stateEnabled(s) ? "" : ", " + DISABLED + ", style=\"rounded,dashed\"").append("];\n");
        }
        for (int s = 0; s < t.stateCount; s++) {
            if (t.stateParent(s) >= 0) {
                sb.append("  ").append(id(t.stateParent(s))).append(" -> ").append(id(s))
                        .append(t.stateEnabled(s) ? "" : " [" + DISABLED + "]").append(";\n");
            }
        }

        boolean succeeded = false;
        boolean failed = false;
        for (int s = 0; s < t.stateCount; s++) {
            int begin = t.stateTransitionsBegin(s);
            for (int i = 0; i < t.stateTransitionsNum(s); i++) {
                int tr = begin + i;
                String label = transitionLabel(t, tr, t.transitionDeclaredIndex(tr) & 0xFF); // as the asset numbers it
                sb.append("  ").append(id(s)).append(" -> ");
                switch (t.transitionType(tr)) {
                    case CompiledStateTree.TO_SUCCEEDED:
                        succeeded = true;
                        sb.append("succeeded [style=dashed, label=").append(quote(label));
                        break;
                    case CompiledStateTree.TO_FAILED:
                        failed = true;
                        sb.append("failed [style=dashed, label=").append(quote(label));
                        break;
                    case CompiledStateTree.NOT_SET:
                        sb.append(id(s)).append(" [style=dotted, label=").append(quote(label + "\n@none (masks "
                                + (t.scanRules.rootFirst ? "descendants)" : "ancestors)")));
                        break;
                    default:
                        boolean off = !t.stateEnabled(t.transitionTarget(tr));
                        sb.append(id(t.transitionTarget(tr))).append(" [style=dashed, ").append(off ? DISABLED + ", " : "")
                                .append("label=").append(quote(off ? label + "\ntarget disabled: never fires" : label));
                }
                sb.append(", constraint=false];\n");
            }
        }
        if (succeeded) {
            sb.append("  succeeded [shape=doublecircle, style=solid, fontsize=10, label=\"@succeeded\"];\n");
        }
        if (failed) {
            sb.append("  failed [shape=doublecircle, style=solid, fontsize=10, label=\"@failed\"];\n");
        }
        sb.append("}\n");
        return sb.toString();
    }

    /** The DOT attributes of a disabled state, and of the edges to it. */
    private static final String DISABLED = "color=gray, fontcolor=gray";

    private static String id(int state) {
        return "s" + state;
    }

    private static String stateLabel(CompiledStateTree t, int s) {
        List<String> lines = new ArrayList<>();
        lines.add(t.stateName(s));
        if (!t.stateEnabled(s)) {
            lines.add("(disabled)");
        }
        List<String> kind = new ArrayList<>();
        if (t.stateType(s) != CompiledStateTree.STATE) {
            kind.add(Vocabulary.StateType.of(t.stateType(s)).assetName());
        }
        if (t.stateSelection(s) != CompiledStateTree.SELECT_CHILDREN_IN_ORDER) {
            kind.add(Vocabulary.Selection.of(t.stateSelection(s)).assetName());
        }
        if (t.scanRules.isComposite(s)) {
            kind.add(Vocabulary.Composite.of(t.scanRules.composite(s)).assetName());
        }
        if (t.history.has(s)) {
            kind.add(t.history.kind(s) == HistoryStates.DEEP ? "H*" : "H");
        }
        if (!kind.isEmpty()) {
            lines.add("(" + String.join(", ", kind) + ")");
        }
        if (t.stateTasksNum(s) > 0) {
            List<String> tasks = new ArrayList<>();
            for (int k = t.stateTasksBegin(s); k < t.stateTasksBegin(s) + t.stateTasksNum(s); k++) {
                tasks.add(t.taskName(k));
            }
            lines.add("tasks: " + String.join(", ", tasks));
        }
        if (t.requiredEvents.has(s)) {
            lines.add(requiredEventLabel(t, s));
        }
        if (t.tickPeriods.declaredPeriod(s) > 0) {
            lines.add("tickPeriod " + t.tickPeriods.declaredPeriod(s));
        }
        if (t.stateParameters.count(s) > 0) {
            List<String> params = new ArrayList<>();
            for (int i = t.stateParameters.begin(s), end = i + t.stateParameters.count(s); i < end; i++) {
                params.add(t.stateParameters.name(i) + ": " + t.stateParameters.value(i));
            }
            lines.add("parameters: " + String.join(", ", params));
        }
        int enter = t.stateEnterConditionsNum(s);
        if (enter > 0) {
            lines.add(enter + (enter == 1 ? " enter condition" : " enter conditions"));
        }
        return String.join("\n", lines);
    }

    /** {@code requires Alarm {x: float}}, with {@code (kept)} when the event is not consumed (rules V1-V6). */
    private static String requiredEventLabel(CompiledStateTree t, int s) {
        RequiredEvents r = t.requiredEvents;
        StringBuilder sb = new StringBuilder("requires ").append(t.tagName(r.tag(s)));
        int set = r.payloadSet(s);
        for (int i = 0, n = t.payloads.requirementsNum(set); i < n; i++) {
            int req = t.payloads.requirementsBegin(set) + i;
            sb.append(i == 0 ? " {" : ", ").append(t.payloads.fieldName(t.payloads.requiredField(req))).append(": ")
                    .append(TYPE_WORDS[t.payloads.requiredType(req)]).append(i == n - 1 ? "}" : "");
        }
        return sb.append(r.consumes(s) ? "" : " (kept)").toString();
    }

    /** The asset words of the payload slot types ({@code EventPayload.BOOL}, {@code INT}, {@code FLOAT}). */
    private static final String[] TYPE_WORDS = {"?", "bool", "int", "float"};

    private static String transitionLabel(CompiledStateTree t, int tr, int indexInState) {
        StringBuilder sb = new StringBuilder("#").append(indexInState).append(' ');
        Vocabulary.Trigger trigger = Vocabulary.Trigger.of(t.transitionTrigger(tr));
        sb.append(trigger.assetName());
        if (trigger == Vocabulary.Trigger.ON_EVENT) {
            sb.append(' ').append(t.transitionEvent(tr) >= 0 ? t.tagName(t.transitionEvent(tr)) : "?");
        }
        if (t.transitionPriority(tr) != Vocabulary.Priority.NORMAL.code()) {
            sb.append(" [").append(Vocabulary.Priority.of(t.transitionPriority(tr)).assetName()).append(']');
        }
        int conditions = t.transitionConditionsNum(tr);
        if (conditions > 0) {
            sb.append("\nif ").append(conditions).append(conditions == 1 ? " condition" : " conditions");
        }
        float delay = t.transitionDelay(tr);
        float variance = t.transitionDelayVariance(tr);
        if (delay > 0 || variance > 0) {
            sb.append("\ndelay ").append(delay).append('s');
            if (variance > 0) {
                sb.append(" \u00b1").append(variance).append('s');
            }
        }
        return sb.toString();
    }

    /** A DOT quoted string: backslashes and quotes escaped, line breaks as {@code \n}, other controls as spaces. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    break;
                default:
                    sb.append(c < 0x20 || c == 0x7f ? ' ' : c);
            }
        }
        return sb.append('"').toString();
    }
}
