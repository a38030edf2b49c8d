package dev.crowdtree.statetree.compiled;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of the asset format that name runtime behaviour, in one place: state types,
 * selection modes, composites, the scan order, history states, transition triggers and the special
 * transition targets. Each word maps to the byte code the compiled tree stores ({@link CompiledStateTree#STATE},
 * ...); the compiler parses with {@code parse}, error messages list {@code validNames}, and writers
 * (DOT, JSON) print {@code assetName}, so a new word is added here and nowhere else is spelled out.
 *
 * <p>docs/ASSET_FORMAT.md lists the same words with their meaning; docs/SEMANTICS.md defines what
 * each does at run time.
 */
public final class Vocabulary {
    /**
     * The owner label of the global tasks (docs/SEMANTICS.md, rules G1-G5): traces name a global
     * task {@code @global:<task>} where a state's task is {@code <state path>:<task>}, and a task
     * binding may name one {@code {"task": "@global:<task>.<output>"}}. State names cannot start
     * with '@', so the label never names a state.
     */
    public static final String GLOBAL_SCOPE = "@global";

    private Vocabulary() {
    }

    /** The type of a state ({@code "type"} of a state object). */
    public enum StateType {
        STATE("state", CompiledStateTree.STATE),
        GROUP("group", CompiledStateTree.GROUP),
        LINKED("linked", CompiledStateTree.LINKED),
        SUBTREE("subtree", CompiledStateTree.SUBTREE);

        private final String assetName;
        private final byte code;

        StateType(String assetName, byte code) {
            this.assetName = assetName;
            this.code = code;
        }

        public String assetName() {
            return assetName;
        }

        public byte code() {
            return code;
        }

        /** The type with this asset name, or null. */
        public static StateType parse(String name) {
            return Vocabulary.parse(values(), name, StateType::assetName);
        }

        /** The type stored as {@code code}. */
        public static StateType of(byte code) {
            return values()[code];
        }

        /** "state, group, linked, subtree". */
        public static String validNames() {
            return Vocabulary.names(values(), StateType::assetName);
        }
    }

    /** How a state picks an active child ({@code "selection"}). */
    public enum Selection {
        TRY_SELECT_CHILDREN_IN_ORDER("trySelectChildrenInOrder", CompiledStateTree.SELECT_CHILDREN_IN_ORDER),
        TRY_ENTER_STATE("tryEnterState", CompiledStateTree.TRY_ENTER),
        TRY_SELECT_CHILDREN_AT_RANDOM("trySelectChildrenAtRandom", CompiledStateTree.SELECT_AT_RANDOM),
        TRY_SELECT_CHILDREN_WITH_HIGHEST_UTILITY("trySelectChildrenWithHighestUtility",
                CompiledStateTree.SELECT_HIGHEST_UTILITY),
        TRY_SELECT_CHILDREN_AT_RANDOM_WEIGHTED_BY_UTILITY("trySelectChildrenAtRandomWeightedByUtility",
                CompiledStateTree.SELECT_WEIGHTED_BY_UTILITY);

        private final String assetName;
        private final byte code;

        Selection(String assetName, byte code) {
            this.assetName = assetName;
            this.code = code;
        }

        public String assetName() {
            return assetName;
        }

        public byte code() {
            return code;
        }

        /** The mode with this asset name, or null. */
        public static Selection parse(String name) {
            return Vocabulary.parse(values(), name, Selection::assetName);
        }

        /** The mode stored as {@code code}. */
        public static Selection of(byte code) {
            return values()[code];
        }

        /** All selection modes, comma-separated. */
        public static String validNames() {
            return Vocabulary.names(values(), Selection::assetName);
        }

        /** Whether the children of a state with this mode have a utility (weight and considerations). */
        public boolean usesUtility() {
            return this == TRY_SELECT_CHILDREN_WITH_HIGHEST_UTILITY || this == TRY_SELECT_CHILDREN_AT_RANDOM_WEIGHTED_BY_UTILITY;
        }
    }

    /**
     * A behavior tree's composite ({@code "composite"} of a state with children; docs/SEMANTICS.md,
     * rules K1-K6): what the state does when its active child completes.
     */
    public enum Composite {
        /** Runs its children in order while they succeed; selected only through its first child. */
        SEQUENCE("sequence"),
        /** Tries its children in order until one succeeds. */
        SELECTOR("selector");

        private final String assetName;

        Composite(String assetName) {
            this.assetName = assetName;
        }

        public String assetName() {
            return assetName;
        }

        /** The stored code: {@link ScanRules#SEQUENCE} or {@link ScanRules#SELECTOR} (the ordinal + 1; 0 is none). */
        public byte code() {
            return (byte) (ordinal() + 1);
        }

        /** The composite with this asset name, or null. */
        public static Composite parse(String name) {
            return Vocabulary.parse(values(), name, Composite::assetName);
        }

        /** The composite stored as {@code code}, or null for {@link ScanRules#NONE}. */
        public static Composite of(byte code) {
            return code == ScanRules.NONE ? null : values()[code - 1];
        }

        /** "sequence, selector". */
        public static String validNames() {
            return Vocabulary.names(values(), Composite::assetName);
        }
    }

    /**
     * The rule set a tree follows where the seeds and Unreal 5.8 differ ({@code "rules"} at the top
     * level; docs/SEMANTICS.md section 20, rules U1-U8): the seeds' (the default) or Unreal 5.8's.
     */
    public enum Rules {
        SEED("seed"), UNREAL_5_8("unreal-5.8");

        private final String assetName;

        Rules(String assetName) {
            this.assetName = assetName;
        }

        public String assetName() {
            return assetName;
        }

        /** The rule set with this asset name, or null. */
        public static Rules parse(String name) {
            return Vocabulary.parse(values(), name, Rules::assetName);
        }

        /** "seed, unreal-5.8". */
        public static String validNames() {
            return Vocabulary.names(values(), Rules::assetName);
        }
    }

    /**
     * The order of the transition scan ({@code "transitionScan"} at the top level; docs/SEMANTICS.md,
     * rules H1-H2): leaf to root (Unreal's, the default) or root to leaf (a hierarchical state
     * machine's "the higher level wins").
     */
    public enum TransitionScan {
        LEAF_FIRST("leafFirst"), ROOT_FIRST("rootFirst");

        private final String assetName;

        TransitionScan(String assetName) {
            this.assetName = assetName;
        }

        public String assetName() {
            return assetName;
        }

        /** The scan order with this asset name, or null. */
        public static TransitionScan parse(String name) {
            return Vocabulary.parse(values(), name, TransitionScan::assetName);
        }

        /** "leafFirst, rootFirst". */
        public static String validNames() {
            return Vocabulary.names(values(), TransitionScan::assetName);
        }
    }

    /**
     * A hierarchical state machine's history state ({@code "history"} of a state with children;
     * docs/SEMANTICS.md, rules Y1-Y7): what the state remembers of the path below it when it is left,
     * to resume there when it is selected again.
     */
    public enum History {
        /** Remembers its active child (UML's H). */
        SHALLOW("shallow"),
        /** Remembers the whole active path below it, down to its last state (UML's H*). */
        DEEP("deep");

        private final String assetName;

        History(String assetName) {
            this.assetName = assetName;
        }

        public String assetName() {
            return assetName;
        }

        /** The stored code: {@link HistoryStates#SHALLOW} or {@link HistoryStates#DEEP} (the ordinal + 1; 0 is none). */
        public byte code() {
            return (byte) (ordinal() + 1);
        }

        /** The history with this asset name, or null. */
        public static History parse(String name) {
            return Vocabulary.parse(values(), name, History::assetName);
        }

        /** The history stored as {@code code}, or null for {@link HistoryStates#NONE}. */
        public static History of(byte code) {
            return code == HistoryStates.NONE ? null : values()[code - 1];
        }

        /** "shallow, deep". */
        public static String validNames() {
            return Vocabulary.names(values(), History::assetName);
        }
    }

    /** The response curve of a utility consideration ({@code "curve"}): x in [0, 1] to [0, 1]. */
    public enum Curve {
        LINEAR("linear", CompiledStateTree.CURVE_LINEAR), INVERSE("inverse", CompiledStateTree.CURVE_INVERSE),
        QUADRATIC("quadratic", CompiledStateTree.CURVE_QUADRATIC), STEP("step", CompiledStateTree.CURVE_STEP);

        private final String assetName;
        private final byte code;

        Curve(String assetName, byte code) {
            this.assetName = assetName;
            this.code = code;
        }

        public String assetName() {
            return assetName;
        }

        public byte code() {
            return code;
        }

        /** The curve with this asset name, or null. */
        public static Curve parse(String name) {
            return Vocabulary.parse(values(), name, Curve::assetName);
        }

        /** "linear, inverse, quadratic, step". */
        public static String validNames() {
            return Vocabulary.names(values(), Curve::assetName);
        }
    }

    /** What fires a transition ({@code "trigger"}); {@link #flag} is the trigger bit set the runtimes test. */
    public enum Trigger {
        ON_STATE_COMPLETED("onStateCompleted", CompiledStateTree.TRIGGER_COMPLETED),
        ON_STATE_SUCCEEDED("onStateSucceeded", CompiledStateTree.TRIGGER_SUCCEEDED),
        ON_STATE_FAILED("onStateFailed", CompiledStateTree.TRIGGER_FAILED),
        ON_TICK("onTick", CompiledStateTree.TRIGGER_TICK),
        ON_EVENT("onEvent", CompiledStateTree.TRIGGER_EVENT);

        private final String assetName;
        private final byte flag;

        Trigger(String assetName, byte flag) {
            this.assetName = assetName;
            this.flag = flag;
        }

        public String assetName() {
            return assetName;
        }

        public byte flag() {
            return flag;
        }

        /** The trigger with this asset name, or null. */
        public static Trigger parse(String name) {
            return Vocabulary.parse(values(), name, Trigger::assetName);
        }

        /** The trigger stored as {@code flag}, or null. */
        public static Trigger of(byte flag) {
            for (Trigger t : values()) {
                if (t.flag == flag) {
                    return t;
                }
            }
            return null;
        }

        /** "onStateCompleted, onStateSucceeded, onStateFailed, onTick, onEvent". */
        public static String validNames() {
            return Vocabulary.names(values(), Trigger::assetName);
        }
    }

    /**
     * How much a tick or event transition outranks others ({@code "priority"}); the leaf-to-root
     * scan skips a transition whose priority is not above the best one found so far
     * (docs/SEMANTICS.md section 4). Completion transitions are always {@link #NORMAL}.
     */
    public enum Priority {
        LOW("low"), NORMAL("normal"), MEDIUM("medium"), HIGH("high"), CRITICAL("critical");

        private final String assetName;

        Priority(String assetName) {
            this.assetName = assetName;
        }

        public String assetName() {
            return assetName;
        }

        /** The stored code: the ordinal, so a higher code is a higher priority. */
        public byte code() {
            return (byte) ordinal();
        }

        /** The priority with this asset name, or null. */
        public static Priority parse(String name) {
            return Vocabulary.parse(values(), name, Priority::assetName);
        }

        /** The priority stored as {@code code}. */
        public static Priority of(byte code) {
            return values()[code];
        }

        /** "low, normal, medium, high, critical". */
        public static String validNames() {
            return Vocabulary.names(values(), Priority::assetName);
        }
    }

    /**
     * The special targets of a transition ({@code "to"} starting with {@code @}); any other target
     * names a state. Those relative to the transition's state ({@link #isRelative}) resolve to states
     * at compile time (Unreal's {@code NextState}, {@code NextSelectableState}, {@code Parent},
     * {@code NextParent}, {@code NextSelectableParent}); the others are stored as transition types
     * ({@link CompiledStateTree#NOT_SET}, ...).
     */
    public enum Target {
        NEXT("@next", CompiledStateTree.GOTO),
        /** The later siblings of the transition's state, tried in order: the first that can be selected. */
        NEXT_SELECTABLE("@next-selectable", CompiledStateTree.GOTO),
        PARENT("@parent", CompiledStateTree.GOTO),
        NEXT_PARENT("@next-parent", CompiledStateTree.GOTO),
        /** The later siblings of the transition's state's parent, tried in order. */
        NEXT_SELECTABLE_PARENT("@next-selectable-parent", CompiledStateTree.GOTO),
        SUCCEEDED("@succeeded", CompiledStateTree.TO_SUCCEEDED),
        FAILED("@failed", CompiledStateTree.TO_FAILED),
        NONE("@none", CompiledStateTree.NOT_SET);

        /** Every special target starts with this character; state names may not. */
        public static final String PREFIX = "@";

        private final String keyword;
        private final byte type;

        Target(String keyword, byte type) {
            this.keyword = keyword;
            this.type = type;
        }

        public String keyword() {
            return keyword;
        }

        /** The transition type stored for this target. */
        public byte type() {
            return type;
        }

        /** The target with this keyword, or null. */
        public static Target parse(String keyword) {
            return Vocabulary.parse(values(), keyword, Target::keyword);
        }

        /** Whether this target names states relative to the transition's state (resolved at compile time). */
        public boolean isRelative() {
            return type == CompiledStateTree.GOTO;
        }

        /** Whether this target tries several states in order ({@code @next-selectable}, {@code @next-selectable-parent}). */
        public boolean triesSeveral() {
            return this == NEXT_SELECTABLE || this == NEXT_SELECTABLE_PARENT;
        }

        /** The special target stored as transition type {@code type}, or null for a state target. */
        public static Target ofType(byte type) {
            for (Target t : values()) {
                if (!t.isRelative() && t.type == type) {
                    return t;
                }
            }
            return null;
        }

        /** "@next, @next-selectable, @parent, @next-parent, @next-selectable-parent, @succeeded, @failed, @none". */
        public static String validNames() {
            return Vocabulary.names(values(), Target::keyword);
        }
    }

    private static <E> E parse(E[] values, String name, java.util.function.Function<E, String> word) {
        for (E e : values) {
            if (word.apply(e).equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static <E> String names(E[] values, java.util.function.Function<E, String> word) {
        List<String> names = new ArrayList<>();
        for (E e : values) {
            names.add(word.apply(e));
        }
        return String.join(", ", names);
    }
}
