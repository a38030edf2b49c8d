package dev.crowdtree.statetree.definition;

import java.util.Objects;

/**
 * A reference from a node input to a value produced elsewhere: a parameter
 * ({@code {"param": "ammo"}}), an evaluator output ({@code {"eval": "perception.threatDistance"}})
 * or an output of a task in scope ({@code {"task": "claim.slotX"}}, optionally qualified with the
 * owning state's path: {@code {"task": "Root/Use:claim.slotX"}}), or a payload field of the event
 * an onEvent transition is tested against ({@code {"event": "volume"}}).
 */
public final class Binding {
    /** What a binding refers to. */
    public enum Kind {
        PARAM("param"), EVAL("eval"), TASK("task"), EVENT("event");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        /** The JSON key that introduces this kind of binding. */
        public String key() {
            return key;
        }
    }

    private final Kind kind;
    private final String ref;

    public Binding(Kind kind, String ref) {
        this.kind = Objects.requireNonNull(kind);
        this.ref = Objects.requireNonNull(ref);
    }

    public static Binding param(String name) {
        return new Binding(Kind.PARAM, name);
    }

    public static Binding eval(String evaluatorAndOutput) {
        return new Binding(Kind.EVAL, evaluatorAndOutput);
    }

    public static Binding task(String taskAndOutput) {
        return new Binding(Kind.TASK, taskAndOutput);
    }

    /**
     * Payload field {@code field} of the event an onEvent transition is tested against: only in
     * that transition's conditions, and only for a field it declares in {@code payloadFields}.
     */
    public static Binding event(String field) {
        return new Binding(Kind.EVENT, field);
    }

    public Kind kind() {
        return kind;
    }

    public String ref() {
        return ref;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Binding && ((Binding) o).kind == kind && ((Binding) o).ref.equals(ref);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + ref.hashCode();
    }

    @Override
    public String toString() {
        return "{\"" + kind.key + "\": \"" + ref + "\"}";
    }
}
