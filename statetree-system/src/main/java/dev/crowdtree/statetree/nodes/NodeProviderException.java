package dev.crowdtree.statetree.nodes;

/**
 * Node providers could not be loaded from a path: the message is one line naming the path and, where
 * one is to blame, the provider class, and saying what is wrong.
 */
public final class NodeProviderException extends Exception {
    private static final long serialVersionUID = 1L;

    /** An exception with its one-line message. */
    public NodeProviderException(String message) {
        super(message);
    }
}
