package dev.crowdtree.statetree.reference;

import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INDEX_NONE;
import static dev.crowdtree.statetree.reference.ReferenceInterpreter.INVALID;

import dev.crowdtree.statetree.compiled.CompiledStateTree;

/**
 * {@code FStateTreeActiveStates}: a fixed-capacity array of state handles, root first (with the
 * event each state with a required event was selected with, Unreal 5.5's state events). The reference
 * interpreter compares these arrays element by element ({@code IndexOfReverse}, {@code GetStateSafe})
 * as the seed does (docs/SEMANTICS.md sections 5 and 6), never the DFS-range shortcuts of
 * {@link CompiledStateTree}.
 */
final class ActiveStates {
    final short[] states = new short[CompiledStateTree.MAX_DEPTH];
    /**
     * Per index, the event a state with a required event was selected with (rules V2, V3), or null:
     * set by the selection of a path, read when the path is entered (rules V4, V5).
     */
    private final Event[] events = new Event[CompiledStateTree.MAX_DEPTH];
    int num;

    boolean push(int state) {
        if (num == states.length) {
            return false;
        }
        events[num] = null;
        states[num++] = (short) state;
        return true;
    }

    /** The last state was selected with {@code event} (its required event, rules V2, V3). */
    void setLastEvent(Event event) {
        events[num - 1] = event;
    }

    /** The event the state at {@code index} was selected with, or null. */
    Event eventAt(int index) {
        return events[index];
    }

    void pop() {
        num--;
    }

    int last() {
        return states[num - 1];
    }

    int get(int index) {
        return states[index];
    }

    /** The handle at {@code index}, or {@link ReferenceInterpreter#INVALID} when out of range. */
    int getStateSafe(int index) {
        return index < num ? states[index] : INVALID;
    }

    int indexOfReverse(int state) {
        for (int i = num - 1; i >= 0; i--) {
            if (states[i] == state) {
                return i;
            }
        }
        return INDEX_NONE;
    }

    boolean isEmpty() {
        return num == 0;
    }

    void reset() {
        num = 0;
    }

    void setNum(int n) {
        num = n;
    }

    void copyFrom(ActiveStates other) {
        System.arraycopy(other.states, 0, states, 0, other.num);
        System.arraycopy(other.events, 0, events, 0, other.num);
        num = other.num;
    }
}
