package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompileWarning;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiled.Vocabulary.Selection;
import dev.crowdtree.statetree.compiled.Vocabulary.StateType;
import dev.crowdtree.statetree.compiled.Vocabulary.Target;
import dev.crowdtree.statetree.compiled.Vocabulary.Trigger;
import dev.crowdtree.statetree.compiler.Model.SentEvent;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.compiler.Model.TaskInfo;
import dev.crowdtree.statetree.compiler.Model.TransitionInfo;
import dev.crowdtree.statetree.definition.TransitionDef;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last pass, authoring warnings (docs/SEMANTICS.md, "Authoring warnings"), on the expanded
 * tree of a compilation that found no error: W1 completion transitions on states that cannot
 * complete that way, W2 states that can never become active, W3 payloads of the tree's own
 * {@code sendEvent} that its receiving transitions (and required events) reject or drop, W4 delayed {@code onEvent}
 * transitions, W5 event tags that nothing sends. Each is added to the output ({@code CompiledStateTree.warnings}); at most {@link StateTreeCompileException#MAX_KEPT}
 * are kept. W1, W2 and W4 are linear in the states, tasks and transitions; W3 summarises the
 * receivers of each tag once and stays within a work budget ({@link #W3_BUDGET}).
 */
final class WarningPass {
    /** The built-in task that sends an event to its own agent (the only one whose payload W3 checks). */
    static final String SEND_EVENT = "sendEvent";

    private final Compilation c;
    private int kept;
    /** Per state: selecting it always succeeds ({@link #alwaysSelected}). */
    private boolean[] always;
    /** {@code targetedBefore[i]}: how many states with an id below i some transition targets. */
    private int[] targetedBefore;
    /** The onEvent transitions by tag, each with where it is in words (for W3). */
    private final Map<String, List<Receiver>> receivers = new HashMap<>();
    /** By the receiving tags of a sent tag: the receivers, summarised (for W3). */
    private final Map<List<String>, Audience> audiences = new HashMap<>();
    /** The work W3 has done (receivers summarised, fields compared); see {@link #W3_BUDGET}. */
    private long w3Work;
    /**
     * The most work W3 does (a hostile tree can hold thousands of senders, receiving tags and
     * distinct sets of declared fields): far more than a real tree needs. Past it, the senders
     * left are not checked and the one being checked is taken to fit.
     */
    private static final long W3_BUDGET = 20_000_000L;

    /** An onEvent transition and where it is: {@code transitions[0] of state 'Root/A'}. */
    private record Receiver(TransitionInfo t, String where) {
        /** {@code that transition}, or {@code that state} for a required event. */
        String which() {
            return RequiredEventKey.KEY.equals(t.field()) ? "that state" : "that transition";
        }
    }

    WarningPass(Compilation c) {
        this.c = c;
    }

    /** Whether nodes of {@code type} send their agent an event: the built-in {@code sendEvent} task. */
    static boolean sendsToItself(NodeType type) {
        return type.category() == NodeType.Category.TASK && SEND_EVENT.equals(type.name());
    }

    void run() {
        int n = c.order.size();
        boolean[] canSucceed = new boolean[n];
        boolean[] canFail = new boolean[n];
        completions(canSucceed, canFail);
        boolean[] active = new boolean[n];
        boolean[] selected = new boolean[n];
        reach(active, selected);
        for (StateNode s : c.order) {
            if (!active[s.id] && !s.disabled && (s.parent == null || active[s.parent.id])) {
                unreachable(s, selected); // a disabled state is never selected, by its author's choice (N2)
            }
            for (TransitionInfo t : s.transitions) {
                neverCompletes(s, t, canSucceed[s.id], canFail[s.id]);
                delayedOnEvent(s, t);
            }
        }
        if (!c.sentEvents.isEmpty()) {
            for (StateNode s : c.order) {
                for (TransitionInfo t : s.transitions) {
                    if (t.trigger() == Trigger.ON_EVENT) {
                        receivers.computeIfAbsent(t.event(), k -> new ArrayList<>())
                                .add(new Receiver(t, t.field() + " of state '" + s.path + "'"));
                    }
                }
                if (s.requiredEvent != null && !s.disabled) {
                    // a required event receives the events of its tag too (rule V1)
                    TransitionInfo t = new TransitionInfo(RequiredEventKey.KEY, Trigger.ON_EVENT, s.requiredEvent.tag(),
                            new int[0], 0, 0, s.requiredEvent.fields());
                    receivers.computeIfAbsent(t.event(), k -> new ArrayList<>())
                            .add(new Receiver(t, "the requiredEvent of state '" + s.path + "'"));
                }
            }
        }
        for (SentEvent e : c.sentEvents) {
            if (kept >= StateTreeCompileException.MAX_KEPT) {
                break;
            }
            payload(e);
        }
        neverSent();
    }

    /**
     * W5: an {@code onEvent} transition's tag or a required event's tag that nothing is known to
     * send: no node of the tree names it (a property of kind TAG: {@code sendEvent}'s {@code tag},
     * or a node type of yours that takes one), and neither the tree's {@code hostEvents} nor the
     * compiler's ({@link StateTreeCompiler#withHostEvents}: a scenario's events) list it. Most often
     * a typo; "did you mean" offers the tags that are sent or received elsewhere in the tree. An
     * event of a tag below it ({@code Noise.Loud} for {@code Noise}) counts as its (section 8).
     */
    private void neverSent() {
        Set<String> tags = new LinkedHashSet<>(c.nodeTags);
        if (c.def != null) {
            tags.addAll(c.def.hostEvents());
        }
        tags.addAll(c.extraHostEvents);
        // every tag sent, and every tag above one (Noise for Noise.Loud): a lookup per receiver, in
        // time linear in the tags' lengths whatever their number
        Set<String> sent = new java.util.HashSet<>();
        for (String t : tags) {
            for (int dot = t.indexOf('.'); dot >= 0; dot = t.indexOf('.', dot + 1)) {
                sent.add(t.substring(0, dot));
            }
            sent.add(t);
        }
        Set<String> known = new LinkedHashSet<>(tags);
        for (StateNode s : c.order) {
            for (TransitionInfo t : s.transitions) {
                if (t.trigger() == Trigger.ON_EVENT) {
                    known.add(t.event());
                }
            }
            if (s.requiredEvent != null) {
                known.add(s.requiredEvent.tag());
            }
        }
        for (StateNode s : c.order) {
            if (kept >= StateTreeCompileException.MAX_KEPT) {
                return;
            }
            for (TransitionInfo t : s.transitions) {
                if (t.trigger() == Trigger.ON_EVENT && !sent.contains(t.event())) {
                    neverSent(s.path, t.field() + ".event", t.event(), known);
                }
            }
            if (s.requiredEvent != null && !s.disabled && !sent.contains(s.requiredEvent.tag())) {
                neverSent(s.path, RequiredEventKey.KEY + ".tag", s.requiredEvent.tag(), known);
            }
        }
    }

    private void neverSent(String statePath, String field, String tag, Set<String> known) {
        List<String> others = new ArrayList<>(known);
        others.remove(tag);
        warn(CompileWarning.NEVER_SENT, statePath, field, "event '" + tag + "' is never sent: no node of the tree "
                + "sends it and the tree's \"hostEvents\" does not list it" + c.suggestions.suggest(tag, others)
                + "; if your program (or a scenario) sends it, list it in the tree's top-level \"hostEvents\"");
    }

    private void warn(String id, String statePath, String field, String message) {
        if (kept++ < StateTreeCompileException.MAX_KEPT) {
            c.out.addWarning(new CompileWarning(id, c.source, statePath, field, message));
        }
    }

    // ---- W1: completion transitions that cannot fire ----------------------------------------------

    /**
     * Per state: whether it or a state below it can be the completed state with success, and with
     * failure (completion is scoped, docs/SEMANTICS.md section 4: the completed state and its
     * ancestors match). A state completes with a counted task (not {@code considerForCompletion:
     * false}) whose type may complete that way ({@link NodeType#canSucceed}, {@link NodeType#canFail});
     * under {@code completion: all} it succeeds only if every counted task may succeed.
     */
    private void completions(boolean[] canSucceed, boolean[] canFail) {
        if (c.unreal) {
            unrealCompletions(canSucceed, canFail);
        }
        for (int i = c.order.size() - 1; i >= 0; i--) {
            StateNode s = c.order.get(i);
            int counted = 0;
            int succeeding = 0;
            for (TaskInfo t : s.tasks) {
                if (counted(t)) {
                    counted++;
                    succeeding += t.type.canSucceed() ? 1 : 0;
                    canFail[i] |= t.type.canFail();
                }
            }
            canSucceed[i] |= s.completionAll ? counted > 0 && succeeding == counted : succeeding > 0;
            for (StateNode child : s.children) {
                canSucceed[i] |= canSucceed[child.id];
                canFail[i] |= canFail[child.id];
            }
            if (s.composite != null && (canSucceed[i] || canFail[i])) {
                // a composite turns its children's outcomes into its own, either way (rules K4-K6):
                // a sequence fails when its next child cannot be selected, a selector succeeds on a
                // child's success and fails when no later child can be selected
                canSucceed[i] = true;
                canFail[i] = true;
            }
        }
    }

    /**
     * Under {@code "rules": "unreal-5.8"}, what completes a state beyond its tasks: a path without
     * tasks succeeds at its last state (rule U6), and a linked state completes as a
     * {@code @succeeded}/{@code @failed} transition below it says (rule U2).
     */
    private void unrealCompletions(boolean[] canSucceed, boolean[] canFail) {
        int n = c.order.size();
        boolean[] noTask = new boolean[n];
        for (int i = 0; i < n; i++) { // parents first
            StateNode s = c.order.get(i);
            noTask[i] = s.tasks.isEmpty() && (s.parent == null || noTask[s.parent.id]);
            canSucceed[i] = noTask[i] && (s.children.isEmpty() || s.selection == Selection.TRY_ENTER_STATE);
            if (s.type == StateType.LINKED) {
                for (int j = i + 1; j < s.subtreeEnd; j++) {
                    for (TransitionDef t : c.order.get(j).def.transitions()) {
                        canSucceed[i] |= Target.SUCCEEDED.keyword().equals(t.to());
                        canFail[i] |= Target.FAILED.keyword().equals(t.to());
                    }
                }
            }
        }
    }

    private static boolean counted(TaskInfo t) {
        return !Boolean.FALSE.equals(t.def.properties().get("considerForCompletion"));
    }

    private void neverCompletes(StateNode s, TransitionInfo t, boolean succeeds, boolean fails) {
        String outcome;
        if (t.trigger() == Trigger.ON_STATE_COMPLETED && !succeeds && !fails) {
            outcome = "complete";
        } else if (t.trigger() == Trigger.ON_STATE_SUCCEEDED && !succeeds) {
            outcome = "succeed";
        } else if (t.trigger() == Trigger.ON_STATE_FAILED && !fails) {
            outcome = "fail";
        } else {
            return;
        }
        Set<String> types = new LinkedHashSet<>();
        boolean all = false;
        for (int i = s.id; i < s.subtreeEnd; i++) {
            StateNode below = c.order.get(i);
            for (TaskInfo task : below.tasks) {
                if (counted(task)) {
                    types.add(task.type.name());
                    all |= below.completionAll && t.trigger() == Trigger.ON_STATE_SUCCEEDED;
                }
            }
        }
        warn(CompileWarning.NEVER_COMPLETES, s.path, t.field() + ".trigger", t.trigger().assetName()
                + " can never fire: no task of this state or of a state below it can " + outcome + " it ("
                + (types.isEmpty() ? "they have no tasks counted for completion" : "their counted task types: "
                + String.join(", ", types)) + (all ? "; under \"completion\": \"all\" every counted task must be "
                + "able to succeed" : "") + ")");
    }

    // ---- W2: states that can never become active --------------------------------------------------

    /**
     * Which states may be selected ({@code SelectState} called on them: the root, transition
     * targets, and the children a selected state's selection tries) and which may become active (a
     * selected state and its ancestors), with enter conditions assumed to pass or fail as needed:
     * only transitions of active states count. An in-order selection stops at a child that is
     * always selected ({@link #alwaysSelected}); {@code tryEnterState} tries no child. A state a
     * history state may remember counts as selected once it can be active ({@link #remembered}).
     */
    private void reach(boolean[] active, boolean[] selected) {
        always = alwaysSelected();
        targetedBefore = new int[c.order.size() + 1];
        for (StateNode s : c.order) {
            for (TransitionInfo t : s.transitions) {
                for (int target : t.targets()) {
                    targetedBefore[target + 1] = 1;
                }
            }
            for (int target : s.requestTargets) {
                targetedBefore[target + 1] = 1;
            }
        }
        for (int i = 1; i < targetedBefore.length; i++) {
            targetedBefore[i] += targetedBefore[i - 1];
        }
        ArrayDeque<StateNode> work = new ArrayDeque<>();
        select(c.order.get(0), selected, work);
        while (!work.isEmpty()) {
            StateNode s = work.pop();
            for (StateNode a = s; a != null && !active[a.id]; a = a.parent) {
                active[a.id] = true;
                if (remembered(a)) {
                    select(a, selected, work); // a history state selected again selects what it remembers (Y3, Y4)
                }
                for (TransitionInfo t : a.transitions) {
                    for (int target : t.targets()) {
                        select(c.order.get(target), selected, work);
                    }
                }
                for (int target : a.requestTargets) {
                    select(c.order.get(target), selected, work); // a task's request (O1-O4)
                }
            }
            if (s.selection == Selection.TRY_ENTER_STATE) {
                continue;
            }
            for (StateNode child : s.children) {
                select(child, selected, work);
                // a composite's rule selects its later children when an earlier one completes (K4, K5)
                if (s.composite == null && s.selection == Selection.TRY_SELECT_CHILDREN_IN_ORDER && always[child.id]) {
                    break;
                }
            }
        }
    }

    /**
     * Whether a history state may remember active state {@code a} and select it when it is selected
     * again (rules Y2-Y4): the child of a shallow history state; below a deep one, a state that can
     * end an active path (a leaf, {@code tryEnterState}, or a state with tasks, where a failure on
     * enter cuts the path). Such a state's own selection then runs, so its children count as selected.
     */
    private static boolean remembered(StateNode a) {
        if (a.parent != null && a.parent.history == Vocabulary.History.SHALLOW) {
            return true;
        }
        boolean endsAPath = a.children.isEmpty() || a.selection == Selection.TRY_ENTER_STATE || !a.def.tasks().isEmpty();
        for (StateNode h = a.parent; endsAPath && h != null; h = h.parent) {
            if (h.history == Vocabulary.History.DEEP) {
                return true;
            }
        }
        return false;
    }

    private static void select(StateNode s, boolean[] selected, ArrayDeque<StateNode> work) {
        if (!selected[s.id] && !s.disabled) { // SelectStateInternal refuses a disabled state (N2)
            selected[s.id] = true;
            work.push(s);
        }
    }

    /**
     * Per state: whether selecting it always succeeds, whatever the agent's data: no enter
     * conditions, and it ends the path itself (a leaf, or {@code tryEnterState}) or tries its
     * children in order and one of them is always selected. (Other selection modes are not
     * counted: a smaller set only means fewer warnings.)
     */
    private boolean[] alwaysSelected() {
        boolean[] out = new boolean[c.order.size()];
        for (int i = c.order.size() - 1; i >= 0; i--) {
            StateNode s = c.order.get(i);
            boolean self = s.children.isEmpty() || s.selection == Selection.TRY_ENTER_STATE;
            if (!self && s.composite == Vocabulary.Composite.SEQUENCE) {
                self = out[s.children.get(0).id]; // selected only through its first child (K2)
            } else if (!self && s.selection == Selection.TRY_SELECT_CHILDREN_IN_ORDER) {
                for (StateNode child : s.children) {
                    self |= out[child.id];
                }
            }
            // a required event is checked like an enter condition: a selection may skip the state (rule V2)
            out[i] = self && s.def.enterConditions().isEmpty() && s.requiredEvent == null && !s.disabled;
        }
        return out;
    }

    private void unreachable(StateNode s, boolean[] selected) {
        StateNode p = s.parent;
        String why;
        if (p == null) {
            return; // the root is always selected at start
        } else if (p.selection == Selection.TRY_ENTER_STATE) {
            why = "its parent selects with tryEnterState, which never selects a child";
        } else if (!selected[p.id]) {
            why = "its parent is entered only on the way to a transition target below it, so the parent's "
                    + "selection never runs";
        } else {
            // a selected parent whose selection did not reach s: an in-order one stopped at an earlier child
            StateNode stop = null;
            for (StateNode child : p.children) {
                if (child == s || stop != null) {
                    break;
                }
                stop = always[child.id] ? child : null;
            }
            why = stop == null ? "its parent's selection never reaches it" : "its parent tries its children in order "
                    + "and stops at '" + stop.name + "', which is always selected (no enter conditions)";
        }
        boolean targeted = targetedBefore[s.subtreeEnd] > targetedBefore[s.id];
        int below = s.subtreeEnd - s.id - 1;
        warn(CompileWarning.UNREACHABLE, s.path, null, "this state can never become active: " + why + ", and "
                + (targeted ? "the only transitions to it or below it are on states that can never become active either"
                : "no transition targets it or a state below it")
                + (below == 0 ? "" : " (nor can the " + below + (below == 1 ? " state" : " states") + " below it)"));
    }

    // ---- W3: the tree's own payloads --------------------------------------------------------------

    /**
     * The receivers of one sent tag, summarised so that a sender costs its own fields and the
     * distinct sets of declared fields, not every receiver: the onEvent transitions whose tag
     * matches it (tags match hierarchically: {@code Noise} receives {@code Noise.Loud}).
     */
    private static final class Audience {
        /** One receiver declares no payload fields: it matches any payload. */
        boolean untyped;
        /** Field -> declared type -> the first receiver declaring it so, and how many do. */
        final Map<String, Map<ValueType, Declared>> byField = new LinkedHashMap<>();
        /** Distinct declared field sets -> the first receiver declaring that set. */
        final Map<Map<String, ValueType>, Receiver> signatures = new LinkedHashMap<>();
    }

    /** The first receiver that declares a field with a type, and how many receivers do. */
    private static final class Declared {
        final Receiver first;
        int count;

        Declared(Receiver first) {
            this.first = first;
        }
    }

    /** The receivers of {@code sentTag}: one summary per set of receiving tags (its own and the tags above it). */
    private Audience audience(String sentTag) {
        List<String> tags = new ArrayList<>();
        for (String tag = sentTag; ; tag = tag.substring(0, tag.lastIndexOf('.'))) {
            if (receivers.containsKey(tag)) {
                tags.add(tag);
            }
            if (tag.lastIndexOf('.') < 0) {
                break;
            }
        }
        return audiences.computeIfAbsent(tags, k -> {
            Audience a = new Audience();
            for (String tag : tags) {
                for (Receiver r : receivers.get(tag)) {
                    Map<String, ValueType> want = r.t().payloadFields();
                    a.untyped |= want.isEmpty();
                    if (!want.isEmpty()) {
                        a.signatures.putIfAbsent(want, r);
                    }
                    want.forEach((f, type) -> a.byField.computeIfAbsent(f, x -> new LinkedHashMap<>())
                            .computeIfAbsent(type, x -> new Declared(r)).count++);
                    w3Work += 1 + want.size();
                }
            }
            return a;
        });
    }

    /** W3 for one sender: see docs/SEMANTICS.md, "Authoring warnings". */
    private void payload(SentEvent e) {
        if (w3Work > W3_BUDGET) {
            return;
        }
        Audience a = audience(e.tag());
        if (a.signatures.isEmpty()) {
            return; // no receiver reads a payload: nothing to fit
        }
        String field = e.field() + ".payload";
        for (Map.Entry<String, ValueType> f : e.fields().entrySet()) {
            Map<ValueType, Declared> declared = a.byField.get(f.getKey());
            if (declared == null) {
                warn(CompileWarning.PAYLOAD_MISMATCH, e.statePath(), field + "." + f.getKey(), "payload field '"
                        + f.getKey() + "' of event '" + e.tag() + "' is declared by no onEvent transition on that tag, "
                        + "so it is dropped when sent (they declare " + a.byField.keySet() + ")"
                        + c.didYouMean(f.getKey(), a.byField.keySet()));
                continue;
            }
            for (Map.Entry<ValueType, Declared> d : declared.entrySet()) {
                if (!d.getKey().accepts(f.getValue())) {
                    int more = d.getValue().count - 1;
                    warn(CompileWarning.PAYLOAD_MISMATCH, e.statePath(), field + "." + f.getKey(), "payload field '"
                            + f.getKey() + "' of event '" + e.tag() + "' is sent as " + f.getValue().assetName() + " but "
                            + d.getValue().first.where() + " declares it " + d.getKey().assetName()
                            + (more == 0 ? ": " + d.getValue().first.which() + " never matches" : " (and " + more + " more"
                            + (more == 1 ? " receiver" : " receivers") + "): they never match") + " this event");
                }
            }
        }
        if (a.untyped || fitsOne(e, a)) {
            return;
        }
        for (Receiver r : a.signatures.values()) {
            if (kept >= StateTreeCompileException.MAX_KEPT) {
                return;
            }
            for (Map.Entry<String, ValueType> f : r.t().payloadFields().entrySet()) {
                if (!e.fields().containsKey(f.getKey())) {
                    warn(CompileWarning.PAYLOAD_MISMATCH, e.statePath(), e.fields().isEmpty() ? e.field() : field,
                            "event '" + e.tag() + "' is sent without payload field '" + f.getKey() + "', which "
                                    + r.where() + " declares (" + f.getValue().assetName() + "), and no transition "
                                    + "on that tag matches it as sent");
                    break;
                }
            }
        }
    }

    /**
     * Whether one declared field set of {@code a} is carried by {@code e} with accepted types (or
     * the work done is past {@link #W3_BUDGET}).
     */
    private boolean fitsOne(SentEvent e, Audience a) {
        for (Map<String, ValueType> want : a.signatures.keySet()) {
            boolean fits = true;
            for (Map.Entry<String, ValueType> f : want.entrySet()) {
                ValueType sent = e.fields().get(f.getKey());
                fits &= sent != null && f.getValue().accepts(sent);
            }
            w3Work += want.size();
            if (fits || w3Work > W3_BUDGET) {
                return true;
            }
        }
        return false;
    }

    // ---- W4: delayed onEvent transitions ----------------------------------------------------------

    private void delayedOnEvent(StateNode s, TransitionInfo t) {
        if (t.trigger() != Trigger.ON_EVENT || (t.delay() <= 0 && t.delayVariance() <= 0) || c.unreal) {
            return; // under unreal-5.8 one event arms the delay (rule U4)
        }
        warn(CompileWarning.DELAYED_ON_EVENT, s.path, t.field() + (t.delay() > 0 ? ".delay" : ".delayVariance"),
                "a delayed onEvent transition fires only if an event '" + t.event() + "' is in the agent's window on "
                        + "every tick until the delay runs out: a tick without one cancels the delay (docs/SEMANTICS.md "
                        + "section 4); to act on one event after a delay, go to a state with a delay task");
    }
}
