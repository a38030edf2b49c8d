package dev.crowdtree.statetree.exec;

/**
 * One node failure (rule R1): at {@code tick}, the kernel of {@code node} (such as
 * {@code task 'aim'}, {@code condition 'compare'}, {@code evaluator 'clock'}) threw
 * {@code error} (the exception's class and message) while processing agent {@code agentId},
 * whose active leaf was {@code state} ({@code -} for none).
 */
public record NodeFailure(long tick, int agentId, String node, String state, String error) {
    /** {@code tick 12 agent 5: task 'boom' in Root/A: IllegalStateException: kaboom}. */
    @Override
    public String toString() {
        return "tick " + tick + " agent " + agentId + ": " + node + " in " + state + ": " + error;
    }

    /** An exception as {@code ClassName: message} (the simple class name). */
    /**
     * Throws what a node threw (a {@code RuntimeException}, or an {@code Error} such as a
     * {@code StackOverflowError}, which the failure policies handle like an exception), for the
     * {@code fail} policy; declared to return one so a caller can write {@code throw rethrow(e)}.
     */
    public static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        }
        if (e instanceof Error) {
            throw (Error) e;
        }
        throw new IllegalStateException(e);
    }

    public static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
