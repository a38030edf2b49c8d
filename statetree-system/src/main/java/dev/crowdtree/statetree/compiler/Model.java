package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.definition.NodeDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.node.NodeType;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compiler's intermediate form, handed from pass to pass: expanded states (one per state of the
 * final tree, linked subtrees copied in), their laid-out tasks, parameters and evaluator outputs with
 * their slots, and the scopes bindings are resolved in.
 */
final class Model {
    private Model() {
    }

    /** A per-agent value slot: its type and index among the slots of that type. */
    record Slot(ValueType type, int index) {
    }

    /**
     * A parameter of the tree, of a subtree copy or of a state. An {@code enum} parameter is an int
     * slot holding the index of its value in {@code enumValues} (null for other types); an
     * {@code entity} one an int slot holding an agent id, -1 for none, with the agent's generation in
     * int slot {@code generationSlot} (-1 for other types). A state parameter may have a {@code value}
     * as authored (a literal, binding or function, null: its default), compiled by {@link StatePass}.
     */
    record Param(String name, ValueType type, double defaultValue, Slot slot, String[] enumValues, boolean entity,
                 int generationSlot, Object value) {
        Param(String name, ValueType type, double defaultValue, Slot slot) {
            this(name, type, defaultValue, slot, null, false);
        }

        Param(String name, ValueType type, double defaultValue, Slot slot, String[] enumValues, boolean entity) {
            this(name, type, defaultValue, slot, enumValues, entity, -1);
        }

        Param(String name, ValueType type, double defaultValue, Slot slot, String[] enumValues, boolean entity,
              int generationSlot) {
            this(name, type, defaultValue, slot, enumValues, entity, generationSlot, null);
        }

        /** This parameter with {@code newValue} as its authored value. */
        Param withValue(Object newValue) {
            return new Param(name, type, defaultValue, slot, enumValues, entity, generationSlot, newValue);
        }

        /** This parameter with its slots moved by {@code offsets} (indexed by {@link ValueType} ordinal). */
        Param moved(int[] offsets) {
            Slot at = new Slot(slot.type(), slot.index() + offsets[slot.type().ordinal()]);
            int generation = generationSlot < 0 ? -1 : generationSlot + offsets[ValueType.INT.ordinal()];
            return new Param(name, type, defaultValue, at, enumValues, entity, generation, value);
        }

        /** The index of enum value {@code value}, or -1. */
        int enumIndex(String value) {
            return enumValues == null ? -1 : java.util.Arrays.asList(enumValues).indexOf(value);
        }
    }

    /**
     * A transition as compiled, kept for the authoring warnings ({@link WarningPass}): its field
     * ({@code transitions[i]}), trigger, event tag (onEvent only), target state ids (none for
     * {@code @succeeded}, {@code @failed}, {@code @none}; the later siblings tried in order for
     * {@code @next-selectable}), gate and declared payload fields.
     */
    record TransitionInfo(String field, Vocabulary.Trigger trigger, String event, int[] targets, float delay,
                          float delayVariance, Map<String, ValueType> payloadFields) {
    }

    /**
     * A built-in {@code sendEvent} as compiled, kept for warning W3: where it is (a state's task, or
     * a global task with a null path), its tag and the name and type of every payload field it sends
     * (the number form sends the float field {@code value}).
     */
    record SentEvent(String statePath, String field, String tag, Map<String, ValueType> fields) {
    }

    /**
     * A state's required event to enter as checked (rules V1-V6): its tag, the payload fields it
     * declares with their types, whether it is consumed, and (after the slot layout) the per-agent
     * slot each declared field is kept in while the state is active.
     */
    record RequiredEventInfo(String tag, Map<String, ValueType> fields, boolean consume, Map<String, Slot> slots) {
    }

    /** A compiled evaluator's name and outputs, and whether it is disabled ({@code "enabled": false}). */
    record EvalInfo(String name, Map<String, Slot> outputs, boolean disabled) {
    }

    /** One copy of a subtree under a linked state, with the parameters of that copy. */
    static final class SubtreeCopy {
        final String subtree;
        final SubtreeCopy outer;
        final Map<String, Param> params = new LinkedHashMap<>();
        StateNode root;

        SubtreeCopy(String subtree, SubtreeCopy outer) {
            this.subtree = subtree;
            this.outer = outer;
        }

        /** Whether {@code s} lies inside this copy (directly or in a copy nested in it). */
        boolean contains(StateNode s) {
            for (SubtreeCopy i = s.copy; i != null; i = i.outer) {
                if (i == this) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A task as laid out: its display name, type and field slots. */
    static final class TaskInfo {
        final NodeDef def;
        final int index;
        final NodeType type;
        String displayName;
        /** Field name -> {type ordinal, offset within the state's block}. */
        final Map<String, int[]> fieldOffsets = new LinkedHashMap<>();
        final Map<String, Slot> fieldSlots = new LinkedHashMap<>();
        final Map<String, ValueType> outputs = new LinkedHashMap<>();
        /** In a {@code completion: all} state: the offset, then the slot, of its runtime-owned "finished" flag. */
        int doneOffset = -1;
        int doneSlot = -1;
        /** {@code "enabled": false} on the task itself: validated, then left out (rules N1, N4). */
        final boolean disabled;

        TaskInfo(NodeDef def, int index, NodeType type) {
            this.def = def;
            this.index = index;
            this.type = type;
            this.disabled = EnabledFlags.isDisabled(def.properties().get(EnabledFlags.KEY));
        }
    }

    /** A state of the expanded tree. */
    static final class StateNode {
        final StateDef def;
        final String name;
        final String path;
        final StateNode parent;
        final int depth;
        /** The subtree copy this state belongs to, null for the tree's own states. */
        final SubtreeCopy copy;
        final List<StateNode> children = new ArrayList<>();
        Vocabulary.StateType type;
        Vocabulary.Selection selection;
        /** {@code "completion": "all"}: the state succeeds when all its counted tasks have succeeded. */
        boolean completionAll;
        /** The state or one of its ancestors says {@code "enabled": false} (rule N2). */
        boolean disabled;
        /** Its composite ({@code sequence} or {@code selector}, rules K1-K6), or null. */
        Vocabulary.Composite composite;
        /** Its history ({@code shallow} or {@code deep}, rules Y1-Y7), or null. */
        Vocabulary.History history;
        /** Its required event to enter (rules V1-V6), or null. */
        RequiredEventInfo requiredEvent;
        /** log2 of its {@code tickPeriod} (rule Z1), -1 without one. */
        int periodLog = -1;
        /**
         * The parameters it declares, by name: a subtree copy's root holds the copy's (its linked state
         * gives their values), any other state its state parameters (rules X1-X6). Nearest first, a
         * binding's {@code {"param": ...}} looks here, then in its ancestors', then the tree's.
         */
        Map<String, Param> params = Map.of();
        /** Whether {@link #params} are state parameters (not a subtree copy's). */
        boolean stateParams;
        int id;
        int subtreeEnd;
        final List<TaskInfo> tasks = new ArrayList<>();
        /** The transitions as compiled, in declared order (all of them when the tree compiles). */
        final List<TransitionInfo> transitions = new ArrayList<>();
        /** The states its tasks' {@code state} properties name: transitions they may request (rules O1-O4). */
        final List<Integer> requestTargets = new ArrayList<>();

        StateNode(StateDef def, String name, StateNode parent, SubtreeCopy copy) {
            this.def = def;
            this.name = name;
            this.parent = parent;
            this.depth = parent == null ? 0 : parent.depth + 1;
            this.path = parent == null ? name : parent.path + "/" + name;
            this.copy = copy;
        }
    }

    /**
     * What a binding may refer to at a given place (Unreal's binding scopes, rule A16 in
     * docs/SEMANTICS.md section 13; the rules are in docs/ASSET_FORMAT.md): parameters in scope always; evaluators listed before {@code evaluatorLimit}; with
     * {@code tasks}, the first {@code ownTaskLimit} tasks of {@code state} and all tasks of its
     * ancestors; with {@code eventFields} (an onEvent transition's conditions), the payload
     * fields the transition declares (or, in a state's enter conditions, those its required event
     * declares: the event being tried); with {@code eventSlots} (a state's task inputs), the slots that
     * keep the payload of the event its required event was entered with (rule V5). {@code what} names
     * the place in error messages. With {@code disabledSite}, the place itself is disabled (rule N5: it
     * may bind disabled nodes' outputs). With {@code outerParams}, the parameters in scope are those of
     * the state's parent: its own state parameters are not (rule X2: the values they are given, and
     * utility considerations).
     */
    record Scope(StateNode state, boolean tasks, int ownTaskLimit, int evaluatorLimit, String what,
                 Map<String, ValueType> eventFields, boolean disabledSite, Map<String, Slot> eventSlots,
                 boolean outerParams) {
        /** A scope whose {@code {"event": ...}} bindings, if any, read the event being tried, and that sees the state's own parameters. */
        Scope(StateNode state, boolean tasks, int ownTaskLimit, int evaluatorLimit, String what,
              Map<String, ValueType> eventFields, boolean disabledSite) {
            this(state, tasks, ownTaskLimit, evaluatorLimit, what, eventFields, disabledSite, null, false);
        }

        /** A scope where no event payload can be bound. */
        Scope(StateNode state, boolean tasks, int ownTaskLimit, int evaluatorLimit, String what) {
            this(state, tasks, ownTaskLimit, evaluatorLimit, what, null);
        }

        /** A scope of an enabled place, or of a place in a disabled state. */
        Scope(StateNode state, boolean tasks, int ownTaskLimit, int evaluatorLimit, String what,
              Map<String, ValueType> eventFields) {
            this(state, tasks, ownTaskLimit, evaluatorLimit, what, eventFields, state != null && state.disabled);
        }

        /** This scope, for a place that is disabled itself ({@code "enabled": false}) when {@code disabled}. */
        Scope disabledIf(boolean disabled) {
            return disabled ? new Scope(state, tasks, ownTaskLimit, evaluatorLimit, what, eventFields, true, eventSlots,
                    outerParams) : this;
        }

        /** This scope, reading {@code {"event": ...}} from the slots of the state's required event (rule V5). */
        Scope withEventSlots(RequiredEventInfo event) {
            return event == null ? this : new Scope(state, tasks, ownTaskLimit, evaluatorLimit, what, event.fields(),
                    disabledSite, event.slots(), outerParams);
        }

        /** This scope without the state's own parameters (rule X2). */
        Scope outer() {
            return new Scope(state, tasks, ownTaskLimit, evaluatorLimit, what, eventFields, disabledSite, eventSlots, true);
        }

        /** The state whose parameters, then its ancestors', are in scope (null: the tree's only). */
        StateNode paramState() {
            return state == null ? null : outerParams ? state.parent : state;
        }
    }
}
