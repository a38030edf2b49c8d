package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;
import dev.crowdtree.statetree.node.Payload;
import dev.crowdtree.statetree.reference.ReferenceInterpreter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rule E5 (docs/SEMANTICS.md section 8): events an onEvent transition with payload fields on the
 * agent's active path rejects for a missing field or a field of another type are counted per (tag,
 * field, reason) when they become visible to the agent, alike in the reference interpreter and the
 * batched runtime on any number of workers; and rule V6 (section 18): so are those a state's
 * required event rejects, wherever the agent is.
 */
class PayloadMismatchTest {
    /**
     * Idle has two Alarm transitions that both declare {@code level} first, and a Noise one with a
     * condition that never passes; Alert (not on Idle's path) has a Danger one; Watch's Relay sends
     * itself a float {@code level} on enter and completes at once (the event is seen in the next
     * round, on the path Root/Watch/Relay, where Watch declares {@code level} an int). Ping is
     * used only by a task; Reset is a transition without payload fields.
     */
    static final String TREE = """
            {"name": "Mismatch", "root": {"name": "Root",
              "transitions": [{"trigger": "onEvent", "event": "Reset", "to": "Idle"},
                              {"trigger": "onEvent", "event": "Go", "to": "Relay"}],
              "children": [
                {"name": "Idle", "tasks": [{"type": "run"}], "transitions": [
                  {"trigger": "onEvent", "event": "Alarm", "to": "Alert", "payloadFields": {"level": "int"}},
                  {"trigger": "onEvent", "event": "Alarm", "to": "Alert", "payloadFields": {"level": "int", "urgent": "bool"}},
                  {"trigger": "onEvent", "event": "Noise", "to": "Alert", "payloadFields": {"volume": "float"},
                   "conditions": [{"type": "compare", "input": {"event": "volume"}, "op": ">", "value": 1000}]}]},
                {"name": "Alert", "tasks": [{"type": "sendEvent", "tag": "Ping"}, {"type": "run"}], "transitions": [
                  {"trigger": "onEvent", "event": "Danger", "to": "Idle", "payloadFields": {"level": "int"}},
                  {"trigger": "onEvent", "event": "Alarm.Fire", "to": "Idle"}]},
                {"name": "Watch", "transitions": [
                  {"trigger": "onEvent", "event": "Alarm", "to": "Idle", "payloadFields": {"level": "int"}}],
                 "children": [
                  {"name": "Relay", "tasks": [{"type": "sendEvent", "tag": "Alarm", "payload": {"level": 2.5}},
                                              {"type": "succeed", "onEnter": true}],
                   "transitions": [{"trigger": "onStateCompleted", "to": "Calm"}]},
                  {"name": "Calm", "tasks": [{"type": "run"}]}]}]}}
            """;

    private static final String WRONG_FLOAT_INT = "wrong type (sent float, declared int)";

    static CompiledStateTree tree(String json) throws Exception {
        return StateTreeJson.compile("test", json, StateTreeCompiler.withBuiltins());
    }

    /** The runtimes compared: the reference (plain and scheduled) and the batched one on 1, 2, 3 and 8 workers. */
    private static List<Supplier<StateTreeRuntime>> runtimes(CompiledStateTree t, int agents) {
        return List.of(() -> new ReferenceInterpreter(t, agents, 5),
                () -> new ReferenceInterpreter(t, agents, 5, ReferenceInterpreter.TickMode.SCHEDULED),
                () -> StateTreeSystem.standalone(t, agents, 5, 1, 64),
                () -> StateTreeSystem.standalone(t, agents, 5, 2, 4),
                () -> StateTreeSystem.standalone(t, agents, 5, 3, 16),
                () -> StateTreeSystem.standalone(t, agents, 5, 8, 1));
    }

    /**
     * Rule V6: required events count as onEvent transitions do, wherever the agent is. Idle's Alarm
     * transition declares {@code level}; Respond requires an Alarm with {@code level} and {@code x};
     * Other, never on the path here, requires a Danger with {@code x}.
     */
    static final String REQUIRED = """
            {"name": "Required", "root": {"name": "Root", "children": [
              {"name": "Idle", "tasks": [{"type": "run"}], "transitions": [
                {"trigger": "onEvent", "event": "Alarm", "to": "Respond", "payloadFields": {"level": "int"}},
                {"trigger": "onEvent", "event": "Back", "to": "Idle"}]},
              {"name": "Respond", "requiredEvent": {"tag": "Alarm", "payloadFields": {"level": "int", "x": "float"}},
               "tasks": [{"type": "run"}], "transitions": [{"trigger": "onEvent", "event": "Back", "to": "Idle"}]},
              {"name": "Other", "requiredEvent": {"tag": "Danger", "payloadFields": {"x": "float"}},
               "tasks": [{"type": "run"}]}]}}
            """;

    /** Starts one agent, lets {@code host} send before tick 1, ticks twice; the counts, the same on every runtime. */
    private static List<PayloadMismatch> afterOneTick(Consumer<StateTreeRuntime> host) throws Exception {
        return afterOneTick(TREE, host);
    }

    /** As {@link #afterOneTick(Consumer)}, with the tree {@code json}. */
    private static List<PayloadMismatch> afterOneTick(String json, Consumer<StateTreeRuntime> host) throws Exception {
        CompiledStateTree t = tree(json);
        List<PayloadMismatch> first = null;
        for (Supplier<StateTreeRuntime> make : runtimes(t, 1)) {
            try (StateTreeRuntime rt = make.get()) {
                rt.startAll(0);
                host.accept(rt);
                rt.tickAll(1, 0.1f);
                rt.tickAll(2, 0.1f);
                List<PayloadMismatch> got = rt.unmatchedPayloads();
                if (first == null) {
                    first = got;
                }
                assertEquals(first, got, rt.getClass().getSimpleName());
            }
        }
        return first;
    }

    private static PayloadMismatch m(String tag, String field, String reason, long count) {
        return new PayloadMismatch(tag, field, reason, count);
    }

    @Test
    void aFloatSentToAnIntFieldIsCountedOnceThoughTwoTransitionsRejectIt() throws Exception {
        assertEquals(List.of(m("Alarm", "level", WRONG_FLOAT_INT, 1)),
                afterOneTick(rt -> rt.sendEvent(0, "Alarm", Map.of("level", 3.0))));
        assertEquals(List.of(m("Alarm", "level", WRONG_FLOAT_INT, 2)), afterOneTick(rt -> {
            rt.sendEvent(0, "Alarm", Map.of("level", 3.0));
            rt.sendEvent(0, "Alarm", Map.of("level", 4.5f, "urgent", true));
        }), "two events count twice");
    }

    @Test
    void aMisspeltFieldAndAMissingPayloadAreMissing() throws Exception {
        assertEquals(List.of(m("Alarm", "level", "missing", 1)),
                afterOneTick(rt -> rt.sendEvent(0, "Alarm", Map.of("levle", 3))));
        assertEquals(List.of(m("Alarm", "level", "missing", 2)), afterOneTick(rt -> {
            rt.sendEvent(0, "Alarm", (Payload) null);
            rt.sendEvent(0, "Alarm", 3f, true); // a number is the field 'value'
        }));
    }

    @Test
    void eachRejectingTransitionCountsItsFirstFailingField() throws Exception {
        // the first Alarm transition fires; the second one rejects the event for 'urgent'
        assertEquals(List.of(m("Alarm", "urgent", "missing", 1)),
                afterOneTick(rt -> rt.sendEvent(0, "Alarm", Map.of("level", 3))));
        assertEquals(List.of(m("Alarm", "urgent", "wrong type (sent int, declared bool)", 1)),
                afterOneTick(rt -> rt.sendEvent(0, "Alarm", Map.of("level", 3, "urgent", 1))));
    }

    @Test
    void anIntSentToAFloatFieldIsAccepted() throws Exception {
        assertEquals(List.of(), afterOneTick(rt -> rt.sendEvent(0, "Noise", Map.of("volume", 3))));
        assertEquals(List.of(m("Noise", "volume", "wrong type (sent bool, declared float)", 1)),
                afterOneTick(rt -> rt.sendEvent(0, "Noise", Map.of("volume", true))));
    }

    @Test
    void eventsNoTransitionOnThePathMatchesAreNotCounted() throws Exception {
        assertEquals(List.of(), afterOneTick(rt -> {
            rt.sendEvent(0, "Ping", Map.of("level", 1.5));   // no transition on the path has this tag
            rt.sendEvent(0, "Reset", Map.of("level", 1.5));  // a transition without payload fields
            rt.sendEvent(0, "Danger", Map.of("level", 1.5)); // a transition of Alert, not on the path
            rt.sendEvent(0, "Nobody", Map.of("level", 1.5)); // a tag the tree does not use: dropped
        }));
    }

    @Test
    void hierarchicalTagsCountUnderTheTagTheEventTravelsWith() throws Exception {
        assertEquals(List.of(m("Alarm", "level", WRONG_FLOAT_INT, 1), m("Alarm.Fire", "level", "missing", 1)),
                afterOneTick(rt -> {
                    rt.sendEvent(0, "Alarm.Fire", (Payload) null);              // a tag the tree uses
                    rt.sendEvent(0, "Alarm.Smoke.Dense", Map.of("level", 0.5)); // travels as Alarm
                }));
    }

    @Test
    void anEventSentDuringEnterStateIsCountedAgainstTheNextRoundsPath() throws Exception {
        // Go: Root -> Relay; Relay sends itself Alarm {level: 2.5} and completes; in round two the
        // event is seen on Root/Watch/Relay, whose Watch rejects it; then Relay -> Calm.
        assertEquals(List.of(m("Alarm", "level", WRONG_FLOAT_INT, 1)), afterOneTick(rt -> rt.sendEvent(0, "Go", (Payload) null)));
    }

    @Test
    void requiredEventsCountLikeOnEventTransitionsOncePerKey() throws Exception {
        // the transition and Respond reject level for the same reason: one key, counted once
        assertEquals(List.of(m("Alarm", "level", WRONG_FLOAT_INT, 1)),
                afterOneTick(REQUIRED, rt -> rt.sendEvent(0, "Alarm", Map.of("level", 3.0, "x", 1))));
        // the transition accepts it (and is checked, but Respond cannot be selected): Respond lacks x
        assertEquals(List.of(m("Alarm", "x", "missing", 1)),
                afterOneTick(REQUIRED, rt -> rt.sendEvent(0, "Alarm", Map.of("level", 3))));
        // Other is not on the path, and counts anyway: any state may be selected by some transition
        assertEquals(List.of(m("Danger", "x", "wrong type (sent bool, declared float)", 1)),
                afterOneTick(REQUIRED, rt -> rt.sendEvent(0, "Danger", Map.of("x", true))));
        assertEquals(List.of(), afterOneTick(REQUIRED, rt -> {
            rt.sendEvent(0, "Danger", Map.of("x", 2));                  // an int for a float
            rt.sendEvent(0, "Alarm", Map.of("level", 1, "x", 0.5));     // accepted by both: Idle -> Respond
            rt.sendEvent(0, "Back", Map.of("x", true));                 // no required event on that tag
        }));
    }

    /**
     * Many agents, random events with every kind of payload, tick periods that change, and trees
     * that move between states with and without payload transitions: the counts agree on every
     * runtime and worker count.
     */
    @Test
    void countsAreTheSameOnEveryRuntimeAndWorkerCount() throws Exception {
        countsAgree(TREE, 8);
    }

    /** The same with required events (rule V6). */
    @Test
    void requiredEventCountsAreTheSameOnEveryRuntimeAndWorkerCount() throws Exception {
        countsAgree(REQUIRED, 4);
    }

    private static void countsAgree(String json, int atLeast) throws Exception {
        CompiledStateTree t = tree(json);
        int agents = 300;
        List<List<PayloadMismatch>> results = new ArrayList<>();
        for (Supplier<StateTreeRuntime> make : runtimes(t, agents)) {
            SplittableRandom rnd = new SplittableRandom(42);
            try (StateTreeRuntime rt = make.get()) {
                rt.startAll(0);
                for (int k = 1; k <= 60; k++) {
                    for (int e = 0; e < 150; e++) {
                        rt.sendEvent(rnd.nextInt(8) == 0 ? StateTreeRuntime.ALL : rnd.nextInt(agents), randomTag(rnd),
                                randomPayload(rnd));
                    }
                    if (rnd.nextInt(4) == 0) {
                        rt.setTickPeriod(rnd.nextInt(agents), 1 << rnd.nextInt(4));
                    }
                    rt.tickAll(k, 0.1f);
                }
                results.add(rt.unmatchedPayloads());
            }
        }
        List<PayloadMismatch> reference = results.get(0);
        assertTrue(reference.size() >= atLeast, "a variety of mismatches: " + reference);
        for (int i = 1; i < results.size(); i++) {
            assertEquals(reference, results.get(i), "runtime " + i);
        }
    }

    private static String randomTag(SplittableRandom rnd) {
        // Back: a tag TREE does not use, dropped when sent (it must not take a place in a window)
        String[] tags = {"Alarm", "Alarm.Fire", "Alarm.Smoke", "Noise", "Danger", "Go", "Reset", "Ping", "Back"};
        return tags[rnd.nextInt(tags.length)];
    }

    private static Payload randomPayload(SplittableRandom rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> null;
            case 1 -> Payload.number(rnd.nextInt(5));
            case 2 -> Payload.of(Map.of("level", rnd.nextInt(5)));
            case 3 -> Payload.of(Map.of("level", rnd.nextInt(5) + 0.5));
            case 4 -> Payload.of(Map.of("level", rnd.nextInt(3), "urgent", rnd.nextBoolean()));
            case 5 -> Payload.of(Map.of("levle", 1, "urgent", 2, "x", rnd.nextBoolean() ? (Object) 1.5 : (Object) false));
            case 6 -> Payload.of(Map.of("volume", rnd.nextBoolean() ? (Object) 2000 : (Object) true));
            default -> Payload.of(Map.of("level", true, "volume", 5.5));
        };
    }
}
