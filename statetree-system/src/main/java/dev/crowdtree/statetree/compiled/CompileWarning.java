package dev.crowdtree.statetree.compiled;

import dev.crowdtree.core.util.Printable;

/**
 * An authoring warning: something in a tree that compiles but cannot work as written, such as a
 * completion transition on a state that never completes. The compiler gives them to callers on
 * the compiled tree ({@link CompiledStateTree#warnings}) instead of failing; the command line's
 * {@code validate} prints them, and {@code validate --strict} fails on them.
 *
 * <p>Each kind has a stable id, defined in docs/SEMANTICS.md ("Authoring warnings"):
 * {@value #NEVER_COMPLETES}, {@value #UNREACHABLE}, {@value #PAYLOAD_MISMATCH},
 * {@value #DELAYED_ON_EVENT}. The location is that of a {@code CompileError} (this record is in the
 * package of the compiled tree, which carries it); {@link #toString()} is what to print.
 *
 * @param id        the warning's kind, {@code W1} ...
 * @param source    the asset's source name (file name or label)
 * @param statePath the state path ({@code Root/Danger/Flee}), or null for tree-level warnings
 * @param field     the field within the state or tree ({@code transitions[1].trigger}), or null
 * @param message   what cannot work and why
 */
public record CompileWarning(String id, String source, String statePath, String field, String message) {
    /** W1: a completion transition on a state that can never complete (that way). */
    public static final String NEVER_COMPLETES = "W1";
    /** W2: a state that no selection and no transition can make active. */
    public static final String UNREACHABLE = "W2";
    /** W3: the tree's own {@code sendEvent} sends a payload that its receiving transitions reject or drop. */
    public static final String PAYLOAD_MISMATCH = "W3";
    /** W4: a delayed {@code onEvent} transition, which needs the event again on every tick of its delay. */
    public static final String DELAYED_ON_EVENT = "W4";
    /** W5: an {@code onEvent} or required event tag that no node of the tree sends and the host is not said to send. */
    public static final String NEVER_SENT = "W5";

    /** The longest source, state path or field printed whole. */
    public static final int MAX_PATH = 300;
    /** The longest message printed whole. */
    public static final int MAX_MESSAGE = 2000;

    /** {@code source: state 'path': field: [W1] message}, printable (as {@link #line}). */
    @Override
    public String toString() {
        return line(source, statePath, field, "[" + id + "] " + message);
    }

    /**
     * {@code source: state 'path': field: message}, the one-line form of errors and warnings:
     * control characters escaped as {@code \}{@code uXXXX} ({@link Printable#escape}), and a source,
     * state path or field over {@value #MAX_PATH} characters, or a message over
     * {@value #MAX_MESSAGE}, shortened in the middle. A null state path or an empty field is left out.
     */
    public static String line(String source, String statePath, String field, String message) {
        StringBuilder sb = new StringBuilder(source == null ? "<tree>" : Printable.clean(source, MAX_PATH)).append(": ");
        if (statePath != null) {
            sb.append("state '").append(Printable.clean(statePath, MAX_PATH)).append("': ");
        }
        if (field != null && !field.isEmpty()) {
            sb.append(Printable.clean(field, MAX_PATH)).append(": ");
        }
        return sb.append(Printable.clean(message, MAX_MESSAGE)).toString();
    }
}
