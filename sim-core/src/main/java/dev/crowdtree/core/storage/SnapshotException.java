package dev.crowdtree.core.storage;

import java.io.IOException;

/**
 * A snapshot that cannot be read or does not fit what it is restored into: not a snapshot, another
 * format version, a checksum mismatch (corrupted or truncated), another tree or table layout. The
 * message is one line meant for the user. Restoring checks everything before it changes anything,
 * so after this exception the target is unchanged.
 */
public final class SnapshotException extends IOException {
    private static final long serialVersionUID = 1L;

    /** A snapshot error with the one-line {@code message}. */
    public SnapshotException(String message) {
        super(message);
    }
}
