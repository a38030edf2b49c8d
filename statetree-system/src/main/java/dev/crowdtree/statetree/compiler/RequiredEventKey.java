package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiler.Model.RequiredEventInfo;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.definition.RequiredEventDef;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.Values;
import dev.crowdtree.statetree.node.ValueType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A state's {@code requiredEvent} key (Unreal 5.5's Required Event to Enter; docs/SEMANTICS.md
 * section 18, rule V1): a non-empty {@code tag}, optional {@code payloadFields} (as an onEvent
 * transition's, rule E2) and {@code consumeEvent} (a boolean, default true), on any state but the
 * tree's root, which is selected at Start, when the window of events is empty (rule V2). The
 * loader has checked the object's keys; the values are checked here.
 */
final class RequiredEventKey {
    /** The state key. */
    static final String KEY = "requiredEvent";

    private RequiredEventKey() {
    }

    /**
     * The checked required event of state {@code n} (authored as {@code d}), or null when it has
     * none. After an error it is still returned, with the valid payload fields, so that the bindings
     * of the state's enter conditions and tasks are checked against them.
     */
    static RequiredEventInfo check(Compilation c, StateDef d, StateNode n) {
        RequiredEventDef e = d.requiredEvent();
        if (e == null) {
            return null;
        }
        if (n.parent == null) {
            c.error(n.path, KEY, "a requiredEvent is not allowed on the root: the root is selected at Start, when "
                    + "the agent's window of events is always empty (docs/SEMANTICS.md rule V2), so the tree could "
                    + "never start; put it on the states below the root that wait for the event");
        }
        if (e.tag() == null || e.tag().isEmpty()) {
            c.error(n.path, KEY + ".tag", "a requiredEvent needs a non-empty 'tag': the tag of the event the "
                    + "state waits for (a tag below it matches too)");
        }
        boolean consume = true;
        if (e.consumeEvent() instanceof Boolean) {
            consume = (Boolean) e.consumeEvent();
        } else if (e.consumeEvent() != null) {
            c.error(n.path, KEY + ".consumeEvent", "expected a boolean, got " + Values.describe(e.consumeEvent()));
        }
        Map<String, ValueType> fields = e.payloadFields() == null ? new LinkedHashMap<>()
                : TransitionPass.declaredFields(c, e.payloadFields(), n.path, KEY + ".payloadFields");
        return new RequiredEventInfo(e.tag(), fields, consume, new LinkedHashMap<>());
    }
}
