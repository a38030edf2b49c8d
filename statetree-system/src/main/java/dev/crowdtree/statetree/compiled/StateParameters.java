package dev.crowdtree.statetree.compiled;

import dev.crowdtree.statetree.node.ValueInput;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameters states declare ({@code "parameters"} on a state other than a subtree's root;
 * docs/SEMANTICS.md section 19, rules X1-X6): per state a range of entries, each a parameter's
 * name, type, slot (an entity's also its generation slot, else -1) and the value its state gives it
 * when entered, its {@code value} or its default. Both runtimes write them through
 * {@code internal.StateParameterValues}. In a tree without any, {@link #any} is false.
 *
 * <p>THREADING: immutable after construction; safe to share.
 */
public final class StateParameters {
    /** Whether some state declares parameters. */
    public final boolean any;
    private final short[] begin;
    private final short[] num;
    private final short[] state;
    private final String[] name;
    private final ValueType[] type;
    private final int[] slot;
    private final int[] generationSlot;
    private final ValueInput[] value;

    StateParameters(CompiledTreeBuilder b) {
        begin = Freeze.shorts(b.stateParamsBegin);
        num = Freeze.counts(b.stateParamsBegin, b.stateParamName.size());
        state = Freeze.shorts(b.stateParamState);
        name = b.stateParamName.toArray(new String[0]);
        type = b.stateParamType.toArray(new ValueType[0]);
        slot = Freeze.ints(b.stateParamSlot);
        generationSlot = Freeze.ints(b.stateParamGenerationSlot);
        value = b.stateParamValue.toArray(new ValueInput[0]);
        any = name.length > 0;
    }

    /** The first entry of state {@code s}. */
    public int begin(int s) {
        return begin[s];
    }

    /** How many parameters state {@code s} declares. */
    public int count(int s) {
        return num[s];
    }

    /** Entry {@code i}'s parameter name. */
    public String name(int i) {
        return name[i];
    }

    public ValueType type(int i) {
        return type[i];
    }

    public int slot(int i) {
        return slot[i];
    }

    /** An entity parameter's generation slot (its handle, with the id), else -1. */
    public int generationSlot(int i) {
        return generationSlot[i];
    }

    /** What entry {@code i} is set to when its state is entered (rule X3). */
    public ValueInput value(int i) {
        return value[i];
    }

    /** The number of entries of the whole tree. */
    public int size() {
        return name.length;
    }

    /**
     * For a host's {@code setParameter} of a name the tree's parameters lack: " (a state parameter of
     * ...)" naming the states that declare it (their paths from {@code statePaths}), else "". A host
     * sets the tree's parameters only (rule X5).
     */
    public String hostNote(String paramName, List<String> statePaths) {
        List<String> paths = new ArrayList<>();
        for (int s : statesDeclaring(paramName)) {
            paths.add(statePaths.get(s));
        }
        return paths.isEmpty() ? "" : " (a state parameter of " + String.join(", ", paths) + ": its state gives it "
                + "its value when entered and its setParameter tasks may write it; a host sets the tree's parameters "
                + "only, rule X5)";
    }

    /** The states that declare a parameter named {@code paramName}, in id order. */
    public List<Integer> statesDeclaring(String paramName) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < name.length; i++) {
            if (name[i].equals(paramName)) {
                out.add((int) state[i]); // a state declares a name once
            }
        }
        return out;
    }
}
