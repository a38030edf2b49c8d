package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.RunStatus;

/**
 * What a tree's transition scan does beyond checking its transitions (docs/SEMANTICS.md section
 * 4.1): the order it visits the active states in (rules H1-H2: leaf to root, the default, or root
 * to leaf) and the rules of its composite states (K1-K6: a {@code sequence} or {@code selector}
 * that decides what follows when its active child completes). Both runtimes read it; in a tree
 * with neither, {@link #rootFirst} and {@link #hasComposites} are false and the runtimes look no
 * further.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class ScanRules {
    /** The composite of a state ({@link Vocabulary.Composite}): none, {@code sequence}, {@code selector}. */
    public static final byte NONE = 0, SEQUENCE = 1, SELECTOR = 2;
    /** {@link #siblingsToTry}: every sibling after the completed child. */
    public static final int EVERY_LATER_SIBLING = Integer.MAX_VALUE;

    private final byte[] composite;
    /** Whether the scan goes root to leaf ({@code "transitionScan": "rootFirst"}, rule H2). */
    public final boolean rootFirst;
    /** Whether some state is a composite (rules K1-K6). */
    public final boolean hasComposites;

    ScanRules(byte[] composite, boolean rootFirst, boolean hasComposites) {
        this.composite = composite;
        this.rootFirst = rootFirst;
        this.hasComposites = hasComposites;
    }

    /** The composite of state {@code s}: {@link #NONE}, {@link #SEQUENCE} or {@link #SELECTOR}. */
    public byte composite(int s) {
        return composite[s];
    }

    /** Whether state {@code s} is a composite. */
    public boolean isComposite(int s) {
        return composite[s] != NONE;
    }

    /** Whether state {@code s} is a {@code sequence}, which is selected only through its first child (rule K2). */
    public boolean isSequence(int s) {
        return composite[s] == SEQUENCE;
    }

    /**
     * Rules K4 and K5: how many of the siblings after its active child composite {@code s} tries to
     * select, in declared order, when that child (or a state below it) completed with
     * {@code status}: a sequence whose child succeeded tries the next sibling only, a selector whose
     * child failed tries every later one ({@link #EVERY_LATER_SIBLING}), otherwise none. The first
     * that can be selected is the target of the transition the rule fires. When the composite tries
     * none (or its child is the last), it completes with {@code status}; when it tries some and none
     * can be selected, it completes with {@link RunStatus#FAILED} (rule K6).
     */
    public int siblingsToTry(int s, byte status) {
        byte c = composite[s];
        if (c == SEQUENCE && status == RunStatus.SUCCEEDED) {
            return 1;
        }
        return c == SELECTOR && status == RunStatus.FAILED ? EVERY_LATER_SIBLING : 0;
    }
}
