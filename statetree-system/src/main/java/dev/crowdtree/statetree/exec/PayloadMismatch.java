package dev.crowdtree.statetree.exec;

/**
 * How often events of tag {@code tag} were rejected by an onEvent transition with payload fields
 * because of field {@code field} (docs/SEMANTICS.md section 8, rule E5): {@code reason} is
 * {@code missing}, or {@code wrong type (sent float, declared int)} with the sent and declared type
 * words {@code bool}, {@code int}, {@code float}. See {@link StateTreeRuntime#unmatchedPayloads()}.
 *
 * @param tag    the event's tag as the runtimes carry it: the tag sent, or its nearest ancestor the
 *               tree uses (section 8)
 * @param field  the declared payload field that failed
 * @param reason why it failed
 * @param count  how many events were counted under this key
 */
public record PayloadMismatch(String tag, String field, String reason, long count) {
}
