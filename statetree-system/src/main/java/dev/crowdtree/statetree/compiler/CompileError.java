package dev.crowdtree.statetree.compiler;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiled.CompileWarning;

/**
 * One problem in an asset: where (source file, state path, field) and what is wrong.
 *
 * <p>The parts are kept as found; {@link #toString()} is what to print: control characters (which
 * an asset's names may hold) escaped as {@code \}{@code uXXXX} ({@link Printable#escape}), and a
 * pathologically long state path or field (over {@value #MAX_PATH} characters) or message (over
 * {@value #MAX_MESSAGE}) shortened in the middle, keeping its start and its end.
 *
 * @param source    the asset's source name (file name or label)
 * @param statePath the state path ({@code Root/Danger/Flee}), or null for tree-level problems
 * @param field     the field within the state or tree ({@code tasks[1].duration}), or null
 * @param message   what is wrong and, where possible, what would be valid
 */
public record CompileError(String source, String statePath, String field, String message) {
    /** The longest source, state path or field printed whole. */
    public static final int MAX_PATH = CompileWarning.MAX_PATH;
    /** The longest message printed whole. */
    public static final int MAX_MESSAGE = CompileWarning.MAX_MESSAGE;

    /** {@code source: state 'path': field: message}, printable (see the class comment). */
    @Override
    public String toString() {
        return CompileWarning.line(source, statePath, field, message);
    }
}
