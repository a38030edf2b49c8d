package dev.crowdtree.demo.http;

/**
 * An answer other than 200, with its message: thrown while a request is checked, answered as
 * {@code {"error": ...}}; a 503 may say when to come back ({@code Retry-After}).
 */
public final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status. */
    public final int status;
    /** Seconds for a {@code Retry-After} header, or 0 for none. */
    public final int retryAfterSeconds;

    /** An answer of {@code status} saying {@code message}. */
    public BadRequest(int status, String message) {
        this(status, message, 0);
    }

    private BadRequest(int status, String message, int retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A 503 (the server is busy with something that ends) with {@code Retry-After: seconds}. */
    public static BadRequest busy(String message, int seconds) {
        return new BadRequest(503, message, Math.max(1, seconds));
    }
}
