package dev.crowdtree.statetree.node;

/**
 * Where a runtime takes the transition requests of tasks ({@link NodeContext#requestTransition};
 * docs/SEMANTICS.md, rules O1-O4): per agent, the best request so far until its next transition
 * scan.
 */
public interface TransitionRequests {
    /**
     * The agent in {@code row} requests a transition to state {@code state} (a state index of the
     * compiled tree) at priority {@code priority} (0 low .. 4 critical), from task {@code task} (its
     * index in the compiled tree, -1 when unknown): kept if the agent has no request yet or this
     * one's priority is higher (among equals the first stays).
     */
    void request(int row, int state, int priority, int task);
}
