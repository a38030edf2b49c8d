package dev.crowdtree.statetree.node;

/**
 * Run status as {@code byte} constants for the hot path (Unreal's {@code EStateTreeRunStatus}),
 * plus {@link #STOPPED} for a tree stopped from outside. {@link #UNSET} is 0 so that a zeroed row
 * reads as "not started".
 */
public final class RunStatus {
    public static final byte UNSET = 0;
    public static final byte RUNNING = 1;
    public static final byte SUCCEEDED = 2;
    public static final byte FAILED = 3;
    public static final byte STOPPED = 4;

    private RunStatus() {
    }

    /** Whether {@code status} is a completion: {@link #SUCCEEDED} or {@link #FAILED}. */
    public static boolean isCompletion(byte status) {
        return status == SUCCEEDED || status == FAILED;
    }

    /** Lower-case name for traces and reports. */
    public static String name(byte status) {
        switch (status) {
            case UNSET:
                return "unset";
            case RUNNING:
                return "running";
            case SUCCEEDED:
                return "succeeded";
            case FAILED:
                return "failed";
            case STOPPED:
                return "stopped";
            default:
                return "status(" + status + ")";
        }
    }
}
