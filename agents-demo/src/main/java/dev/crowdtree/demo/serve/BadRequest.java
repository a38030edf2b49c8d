package dev.crowdtree.demo.serve;

/** An answer other than 200, with its message: thrown while a request is checked, answered as {@code {"error": ...}}. */
final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status. */
    final int status;

    BadRequest(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }
}
