package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.util.Printable;

/**
 * A scenario file is malformed or does not fit its tree: names the scenario (its file), the field
 * ({@code inputs[2].tick}) and what is wrong. The message is printable as it is: control
 * characters are escaped ({@link Printable#escape}) and a huge field or problem is shortened in the
 * middle; the accessors return the parts as given.
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;
    private static final int MAX_SOURCE = 300;
    private static final int MAX_FIELD = 200;
    private static final int MAX_PROBLEM = 2000;

    private final String source;
    private final String field;
    private final String problem;

    /**
     * @param source  the scenario's file name or label
     * @param field   the offending field ({@code inputs[2].tick}), or null for the whole file
     * @param problem what is wrong
     */
    public ScenarioException(String source, String field, String problem) {
        super(Printable.clean(source, MAX_SOURCE) + ": "
                + (field == null || field.isEmpty() ? "" : Printable.clean(field, MAX_FIELD) + ": ")
                + Printable.clean(problem, MAX_PROBLEM));
        this.source = source;
        this.field = field;
        this.problem = problem;
    }

    /** The scenario's file name or label. */
    public String source() {
        return source;
    }

    /** The offending field, or null. */
    public String field() {
        return field;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }
}
