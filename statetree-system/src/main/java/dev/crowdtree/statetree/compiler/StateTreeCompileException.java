package dev.crowdtree.statetree.compiler;

import java.util.ArrayList;
import java.util.List;

/**
 * Every error found in an asset, reported at once. This is the only exception the JSON loader and
 * the compiler throw for bad input.
 *
 * <p>A hostile asset can have millions of errors, so the loader and the compiler keep the first
 * {@value #MAX_KEPT} of each and only count the rest ({@link #errorCount()}); the message lists
 * the first {@value #MAX_LISTED} ({@link #listing()}), then {@code ... and N more errors}. Each
 * listed error is printable as it is (see {@link CompileError#toString()}).
 */
public final class StateTreeCompileException extends Exception {
    private static final long serialVersionUID = 1L;
    /** The most errors the message (and a command line) lists. */
    public static final int MAX_LISTED = 100;
    /** The most errors the loader, and the compiler, keep; beyond that they count. */
    public static final int MAX_KEPT = 1000;

    private final transient List<CompileError> errors;
    private final int omitted;

    /** Exactly {@code errors}. */
    public StateTreeCompileException(List<CompileError> errors) {
        this(errors, 0);
    }

    /**
     * {@code errors}, and {@code omitted} more that were found but not kept.
     *
     * @param omitted errors found beyond {@code errors}, at least 0
     */
    public StateTreeCompileException(List<CompileError> errors, int omitted) {
        super(format(errors, Math.max(0, omitted)));
        this.errors = List.copyOf(errors);
        this.omitted = Math.max(0, omitted);
    }

    /** The errors kept (at most a few thousand), in the order they were found. */
    public List<CompileError> errors() {
        return errors;
    }

    /** How many errors were found: those kept ({@link #errors()}) and those only counted. */
    public int errorCount() {
        return (int) Math.min(Integer.MAX_VALUE, (long) errors.size() + omitted);
    }

    /**
     * What to print: the first {@value #MAX_LISTED} errors, one line each, and then, if there are
     * more, the line {@code ... and N more errors}.
     */
    public List<String> listing() {
        return listing(errors, omitted);
    }

    private static List<String> listing(List<CompileError> errors, int omitted) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(MAX_LISTED, errors.size()); i++) {
            out.add(errors.get(i).toString());
        }
        long more = (long) errors.size() + omitted - out.size();
        if (more > 0) {
            out.add("... and " + more + (more == 1 ? " more error" : " more errors"));
        }
        return out;
    }

    private static String format(List<CompileError> errors, int omitted) {
        long count = (long) errors.size() + omitted;
        StringBuilder sb = new StringBuilder();
        sb.append(count).append(count == 1 ? " error" : " errors");
        for (String line : listing(errors, omitted)) {
            sb.append(System.lineSeparator()).append("  ").append(line);
        }
        return sb.toString();
    }
}
