package dev.crowdtree.demo.http;

/** An answer other than 200, with its message: thrown while a request is checked, answered as {@code {"error": ...}}. */
public final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status. */
    public final int status;

    public BadRequest(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }
}
