package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.CompiledTreeBuilder;
import dev.crowdtree.statetree.compiled.Vocabulary.Priority;
import dev.crowdtree.statetree.compiled.Vocabulary.Target;
import dev.crowdtree.statetree.compiled.Vocabulary.Trigger;
import dev.crowdtree.statetree.compiler.Model.Scope;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.Condition;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.crowdtree.statetree.compiler.Compilation.quote;

/**
 * Pass 5, transitions and targets: checks a transition's trigger (and event tag), resolves its
 * target (a special {@code @} target, a state path, or a state name unique among the states visible
 * from the source: its own subtree copy first, then the tree's own states; the states inside a
 * subtree are reached only through the linked state), its gate delays and its conditions (which also
 * see the tasks of the state and its ancestors), and adds it to the output.
 */
final class TransitionPass {
    private final Compilation c;
    private final Bindings bindings;
    private final NodeFactory nodes;

    TransitionPass(Compilation c, Bindings bindings, NodeFactory nodes) {
        this.c = c;
        this.bindings = bindings;
        this.nodes = nodes;
    }

    /**
     * Checks and adds one transition of {@code s}. Trigger, event, target, delays and conditions are
     * checked independently, so one bad field does not hide the errors of the others; the transition
     * is added only when all of them are valid.
     */
    void compile(StateNode s, TransitionDef t, int index) {
        String where = "transitions[" + index + "]";
        if (t == null) {
            c.error(s.path, where, "expected a transition object");
            return;
        }
        boolean ok = true;
        String trig = t.trigger();
        Trigger trigger = trig == null ? null : Trigger.parse(trig);
        if (trig == null) {
            c.error(s.path, where + ".trigger", "a transition needs a 'trigger': onStateCompleted, "
                    + "onStateSucceeded, onStateFailed, onTick or onEvent");
            ok = false;
        } else if (trigger == null) {
            c.error(s.path, where + ".trigger", "unknown trigger " + quote(trig) + "; valid triggers are "
                    + Trigger.validNames() + c.didYouMean(trig, Trigger.validNames()));
            ok = false;
        }
        int event = -1;
        if (trigger == Trigger.ON_EVENT) {
            if (t.event() == null || t.event().isEmpty()) {
                c.error(s.path, where + ".event", "an onEvent transition needs an 'event' tag");
                ok = false;
            } else {
                event = c.out.tagId(t.event());
            }
        } else if (t.event() != null && trig != null && ok) {
            c.error(s.path, where + ".event", "'event' is only valid with trigger onEvent (trigger is " + trig + ")");
        }
        byte type = CompiledStateTree.GOTO;
        int[] targets = NO_TARGETS; // the states tried in order (one but for the selectable targets)
        Target special = null;
        String to = t.to();
        if (to == null) {
            c.error(s.path, where + ".to", "a transition needs a target 'to': a state path, a unique state "
                    + "name, or one of " + Target.validNames());
            ok = false;
        } else if (to.startsWith(Target.PREFIX)) {
            special = Target.parse(to);
            if (special == null) {
                c.error(s.path, where + ".to", "unknown target " + quote(to)
                        + "; valid special targets are " + Target.validNames() + c.didYouMean(to, Target.validNames()));
                ok = false;
            } else if (special.isRelative()) {
                targets = relativeTargets(s, special, where);
                ok &= targets.length > 0;
            } else {
                type = special.type();
            }
        } else {
            int target = resolveTarget(s, to, where + ".to");
            ok &= target >= 0;
            targets = new int[] {target};
        }
        Priority priority = Priority.NORMAL;
        if (t.priority() != null) {
            priority = Priority.parse(t.priority());
            if (priority == null) {
                c.error(s.path, where + ".priority", "unknown priority " + quote(t.priority())
                        + "; valid priorities are " + Priority.validNames() + c.didYouMean(t.priority(), Priority.validNames()));
                ok = false;
            } else if (trigger != null && trigger != Trigger.ON_TICK && trigger != Trigger.ON_EVENT) {
                c.error(s.path, where + ".priority", "'priority' is only valid on onTick and onEvent transitions "
                        + "(trigger is " + trig + "); completion transitions are scanned at priority normal");
                ok = false;
            }
        }
        Boolean consume = flag(t.consumeEvent(), true, trigger == null || trigger == Trigger.ON_EVENT, s, where
                + ".consumeEvent", "'consumeEvent' is only valid with trigger onEvent (trigger is " + trig + ")");
        Boolean reactivate = flag(t.reactivateTarget(), false, !ok || type == CompiledStateTree.GOTO, s, where
                + ".reactivateTarget", "'reactivateTarget' is only valid with a state target (a state path or name, "
                + "or a relative target such as @parent); " + to + " enters no state");
        ok &= consume != null && reactivate != null;
        int errorsBeforeFields = c.errorCount();
        Map<String, ValueType> payload = payloadFields(t.payloadFields(), trigger, trig, s, where);
        ok &= c.errorCount() == errorsBeforeFields;
        Double delay = bindings.optionalSeconds(t.delay(), s.path, where + ".delay");
        Double variance = bindings.optionalSeconds(t.delayVariance(), s.path, where + ".delayVariance");
        ok &= delay != null && variance != null;
        if (ok && c.unreal && (delay > 0 || variance > 0) && trigger != null && trigger != Trigger.ON_TICK
                && trigger != Trigger.ON_EVENT) {
            c.error(s.path, where + (delay > 0 ? ".delay" : ".delayVariance"), "a delay is only valid on onTick and "
                    + "onEvent transitions in a tree with \"rules\": \"unreal-5.8\" (rule U1; trigger is " + trig
                    + "): Unreal 5.8 has no delay on completion transitions");
            ok = false;
        }
        int errorsBefore = c.errorCount();
        EnabledFlags.check(c, t.enabled(), s.path, where + "." + EnabledFlags.KEY);
        Scope scope = new Scope(s, true, s.tasks.size(), c.evalInfos.size(), "transition conditions",
                trigger == Trigger.ON_EVENT ? payload : null).disabledIf(EnabledFlags.isDisabled(t.enabled()));
        List<Condition> guards = nodes.compileConditionList(t.conditions(), scope, s.path, where + ".conditions");
        if (!ok || c.errorCount() != errorsBefore) {
            return; // errors reported; the whole compilation fails, nothing is emitted
        }
        // A selectable target is one compiled transition per state it tries, in order, each with the same
        // trigger, conditions (the same nodes), priority and declared index: a target that cannot be
        // selected lets the scan go on to the next transition (section 4), which tries the next state.
        for (int target : type == CompiledStateTree.GOTO ? targets : new int[] {-1}) {
            c.out.addTransition(trigger, event, type, target, guards, delay.floatValue(), variance.floatValue(), priority,
                    consume, reactivate, payload, index);
        }
        s.transitions.add(new Model.TransitionInfo(where, trigger, t.event(), targets, delay.floatValue(),
                variance.floatValue(), payload));
    }

    /**
     * A transition's boolean key at {@code field}: {@code raw}, or {@code absent} when the key is
     * not there; null after reporting an error: not a boolean, or the key given where it is not
     * {@code valid} (then {@code invalid} says why).
     */
    private Boolean flag(Object raw, boolean absent, boolean valid, StateNode s, String field, String invalid) {
        if (raw == null) {
            return absent;
        }
        if (!(raw instanceof Boolean)) {
            c.error(s.path, field, "expected a boolean, got " + Values.describe(raw));
            return null;
        }
        if (!valid) {
            c.error(s.path, field, invalid);
            return null;
        }
        return (Boolean) raw;
    }

    private static final int[] NO_TARGETS = new int[0];

    /**
     * The states a target relative to {@code s} names, in the order they are tried: {@code @next} its
     * next sibling, {@code @next-selectable} its later siblings, {@code @parent} its parent,
     * {@code @next-parent} its parent's next sibling, {@code @next-selectable-parent} its parent's
     * later siblings. Empty after reporting that there is none.
     */
    private int[] relativeTargets(StateNode s, Target special, String where) {
        StateNode from = special == Target.NEXT_PARENT || special == Target.NEXT_SELECTABLE_PARENT ? s.parent : s;
        if (special == Target.PARENT || from == null) {
            if (s.parent == null) {
                c.error(s.path, where + ".to", special.keyword() + ": state '" + s.name + "' is the root, which has "
                        + "no parent");
                return NO_TARGETS;
            }
            return special == Target.PARENT ? new int[] {s.parent.id} : NO_TARGETS;
        }
        int at = from.parent == null ? -1 : from.parent.children.indexOf(from);
        int later = from.parent == null ? 0 : from.parent.children.size() - 1 - at;
        if (later == 0) {
            c.error(s.path, where + ".to", special.keyword() + ": state '" + from.name + "' has no next sibling"
                    + (from == s ? "" : " (it is the parent of '" + s.name + "')"));
            return NO_TARGETS;
        }
        int[] out = new int[special.triesSeveral() ? later : 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = from.parent.children.get(at + 1 + i).id;
        }
        return out;
    }

    /**
     * Registers the payload fields the transitions and required events of {@code state} and its
     * descendants declare, so that fields have ids before any node that sends a payload is compiled
     * (errors are reported later, by {@link #declaredFields}).
     */
    static void registerPayloadFields(CompiledTreeBuilder out, StateDef state) {
        if (state == null) {
            return;
        }
        for (TransitionDef t : state.transitions()) {
            registerPayloadFields(out, t.payloadFields());
        }
        if (state.requiredEvent() != null) {
            registerPayloadFields(out, state.requiredEvent().payloadFields()); // rule V1
        }
        for (StateDef child : state.children()) {
            registerPayloadFields(out, child);
        }
    }

    private static void registerPayloadFields(CompiledTreeBuilder out, Object payloadFields) {
        if (payloadFields instanceof Map) {
            for (Object name : ((Map<?, ?>) payloadFields).keySet()) {
                if (name instanceof String && !((String) name).isEmpty() && !Payload.RESERVED.contains(name)) {
                    out.payloadFieldId((String) name);
                }
            }
        }
    }

    /**
     * The transition's {@code payloadFields} (onEvent only) as names with types: the valid ones,
     * after reporting the others (so that the conditions are checked against what is valid).
     */
    private Map<String, ValueType> payloadFields(Object raw, Trigger trigger, String trig, StateNode s, String where) {
        if (raw == null) {
            return new LinkedHashMap<>();
        }
        String f = where + ".payloadFields";
        if (trigger != null && trigger != Trigger.ON_EVENT) {
            c.error(s.path, f, "'payloadFields' is only valid with trigger onEvent (trigger is " + trig + ")");
            return new LinkedHashMap<>();
        }
        return declaredFields(c, raw, s.path, f);
    }

    /**
     * A {@code payloadFields} object (of an onEvent transition, or of a state's required event, rule
     * V1) at field {@code f}: the valid names with their types, after reporting the others.
     */
    static Map<String, ValueType> declaredFields(Compilation c, Object raw, String path, String f) {
        Map<String, ValueType> out = new LinkedHashMap<>();
        if (!(raw instanceof Map) || ((Map<?, ?>) raw).isEmpty()) {
            c.error(path, f, "expected an object mapping payload field names to \"bool\", \"int\" or \"float\", "
                    + "got " + Values.describe(raw));
            return out;
        }
        for (Map.Entry<?, ?> e : ((Map<?, ?>) raw).entrySet()) {
            String name = (String) e.getKey();
            ValueType type = e.getValue() instanceof String ? ValueType.parse((String) e.getValue()) : null;
            if (name.isEmpty() || Payload.RESERVED.contains(name)) {
                c.error(path, f + "." + name, "payload field name " + quote(name) + " is not allowed (not empty, "
                        + "and not one of " + Payload.RESERVED + ", which introduce bindings)");
            } else if (type == null) {
                c.error(path, f + "." + name, "expected \"bool\", \"int\" or \"float\", got "
                        + Values.describe(e.getValue()));
            } else {
                out.put(name, type);
            }
        }
        return out;
    }

    /**
     * A node's state property (a task that requests transitions, rules O1-O4): a state path or a
     * name, resolved as a transition's target, or a relative target that names one state
     * ({@code @parent}, {@code @next}, {@code @next-parent}) relative to {@code s}; -1 after
     * reporting an error.
     */
    int resolveState(StateNode s, String to, String field) {
        if (!to.startsWith(Target.PREFIX)) {
            return resolveTarget(s, to, field);
        }
        Target special = Target.parse(to);
        if (special == null || !special.isRelative() || special.triesSeveral()) {
            c.error(s.path, field, "a state property takes a state path or name, or one of @parent, @next, "
                    + "@next-parent; got " + quote(to));
            return -1;
        }
        int[] targets = relativeTargets(s, special, field);
        return targets.length == 1 ? targets[0] : -1;
    }

    /** Resolves a target path or name as seen from state {@code s}; -1 after reporting an error. */
    int resolveTarget(StateNode s, String to, String field) {
        List<StateNode> candidates = new ArrayList<>();
        if (to.contains("/")) {
            // Inside a subtree copy, a path starting with the subtree root's name is relative to the copy.
            if (s.copy != null && to.startsWith(s.copy.root.name + "/")) {
                String full = s.copy.root.path + to.substring(s.copy.root.name.length());
                findByPath(full, candidates);
            } else {
                findByPath(to, candidates);
            }
            if (candidates.isEmpty()) {
                c.error(s.path, field, "unknown target state path '" + to + "'" + suggest(s, to));
                return -1;
            }
        } else {
            List<StateNode> named = c.statesByName.getOrDefault(to, List.of());
            for (StateNode n : named) {
                if (n.copy == s.copy) {
                    candidates.add(n);
                }
            }
            if (candidates.isEmpty() && s.copy != null) {
                for (StateNode n : named) {
                    if (n.copy == null) {
                        candidates.add(n);
                    }
                }
            }
            if (candidates.isEmpty()) {
                List<String> owners = c.authoredNames.get(to);
                if (owners != null) {
                    c.error(s.path, field, "state '" + to + "' is inside " + owners.get(0)
                            + "; states of a subtree are reached only through a linked state");
                } else {
                    c.error(s.path, field, "unknown target state '" + to + "'" + suggest(s, to));
                }
                return -1;
            }
            if (candidates.size() > 1) {
                List<String> paths = new ArrayList<>();
                for (StateNode candidate : candidates) {
                    paths.add(candidate.path);
                }
                c.error(s.path, field, "ambiguous target '" + to + "': " + paths + "; use a full path");
                return -1;
            }
        }
        StateNode target = candidates.get(0);
        if (target.copy != null && target.copy != s.copy && !target.copy.contains(s)) {
            c.error(s.path, field, "state '" + target.path + "' is inside subtree '" + target.copy.subtree
                    + "'; states of a subtree are reached only through its linked state");
            return -1;
        }
        return target.id;
    }

    void findByPath(String path, List<StateNode> out) {
        StateNode n = c.statesByPath.get(path);
        if (n != null) {
            out.add(n); // paths are unique: duplicate sibling names are not expanded
        }
    }

    /**
     * {@code "; did you mean [paths]?"}: among the states {@code s} may target (not those inside
     * another subtree copy), those whose name is closest to the last name of {@code to} (a path's
     * last name, or the name itself; case differences first), or "".
     */
    String suggest(StateNode s, String to) {
        String last = to.contains("/") ? to.substring(to.lastIndexOf('/') + 1) : to;
        List<StateNode> visible = new ArrayList<>();
        for (StateNode n : c.order) {
            if (n.copy == null || n.copy == s.copy || n.copy.contains(s)) {
                visible.add(n);
            }
        }
        List<String> paths = new ArrayList<>();
        for (StateNode n : c.suggestions.closestOf(last, visible, n -> n.name)) {
            paths.add(n.path);
        }
        return Suggestions.format(paths);
    }
}
