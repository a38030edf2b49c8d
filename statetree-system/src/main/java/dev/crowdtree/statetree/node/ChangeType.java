package dev.crowdtree.statetree.node;

/** Unreal's {@code EStateTreeStateChangeType} as byte constants: why a task's state is entered or exited. */
public final class ChangeType {
    /** The state was not active before (enter) or does not stay active (exit). */
    public static final byte CHANGED = 0;
    /** The state stays active but is re-selected because it is on the transition's target branch. */
    public static final byte SUSTAINED = 1;

    private ChangeType() {
    }

    public static String name(byte changeType) {
        return changeType == SUSTAINED ? "sustained" : "changed";
    }
}
