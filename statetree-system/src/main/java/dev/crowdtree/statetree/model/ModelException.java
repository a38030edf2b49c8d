package dev.crowdtree.statetree.model;

/**
 * A model that cannot be loaded or defined, in one line naming where it came from (the jar, the
 * class) and what is wrong.
 */
public final class ModelException extends Exception {
    private static final long serialVersionUID = 1L;

    public ModelException(String message) {
        super(message);
    }

    public ModelException(String message, Throwable cause) {
        super(message, cause);
    }
}
