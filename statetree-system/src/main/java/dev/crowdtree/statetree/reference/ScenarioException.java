package dev.crowdtree.statetree.reference;

/**
 * A scenario file is malformed or does not fit its tree: names the scenario (its file), the field
 * ({@code inputs[2].tick}) and what is wrong.
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String field;
    private final String problem;

    /**
     * @param source  the scenario's file name or label
     * @param field   the offending field ({@code inputs[2].tick}), or null for the whole file
     * @param problem what is wrong
     */
    public ScenarioException(String source, String field, String problem) {
        super(source + ": " + (field == null || field.isEmpty() ? "" : field + ": ") + problem);
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
