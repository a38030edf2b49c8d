package dev.crowdtree.statetree.compiler;

import java.util.List;

/**
 * Every error found in an asset, reported at once. This is the only exception the JSON loader and
 * the compiler throw for bad input.
 */
public final class StateTreeCompileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<CompileError> errors;

    public StateTreeCompileException(List<CompileError> errors) {
        super(format(errors));
        this.errors = List.copyOf(errors);
    }

    /** The errors in the order they were found. */
    public List<CompileError> errors() {
        return errors;
    }

    private static String format(List<CompileError> errors) {
        StringBuilder sb = new StringBuilder();
        sb.append(errors.size()).append(errors.size() == 1 ? " error" : " errors");
        for (CompileError e : errors) {
            sb.append(System.lineSeparator()).append("  ").append(e);
        }
        return sb.toString();
    }
}
