package dev.crowdtree.statetree.compiled;

/**
 * What a tree under {@code "rules": "unreal-5.8"} needs beyond the seeds' rules (docs/SEMANTICS.md
 * section 20, rules U1-U8), precomputed per state: the linked state whose subtree a completion
 * transition inside it completes (rule U2), and the paths with no task at all, which succeed at
 * their last state (rule U6). In a tree under the default {@code seed} rules {@link #on} is false
 * and the runtimes look no further.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class UnrealRules {
    /** Whether the tree follows Unreal 5.8's rules. */
    public final boolean on;
    private final short[] linkedAncestor;
    private final boolean[] noTask;
    /** Whether some state lies on a path without tasks (rule U6). */
    public final boolean anyNoTaskPath;

    /** From the compiler's fact pass: per state, rules U2 and U6. */
    UnrealRules(boolean on, short[] linkedAncestor, boolean[] noTask, boolean anyNoTaskPath) {
        this.on = on;
        this.linkedAncestor = linkedAncestor;
        this.noTask = noTask;
        this.anyNoTaskPath = anyNoTaskPath;
    }

    /**
     * Rule U2: the innermost linked (or linkedAsset) state that {@code s} lies strictly below, or -1.
     * Under {@code unreal-5.8} a {@code @succeeded}/{@code @failed} transition of {@code s} completes
     * that state instead of the tree.
     */
    public int linkedAncestor(int s) {
        return linkedAncestor[s];
    }

    /**
     * Rule U6: under {@code unreal-5.8}, whether no state from the root down to {@code s} has a task
     * (global tasks do not count), so that a path ending at {@code s} succeeds at {@code s} in
     * TickTasks. Always false under the seeds' rules.
     */
    public boolean noTaskOnPath(int s) {
        return noTask[s];
    }
}
