package dev.crowdtree.statetree.internal;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.core.util.Hashes;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ValueType;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A 64-bit hash of a compiled tree's structure: its name, states (paths, types, selection, parents,
 * tasks, enter conditions, transitions), tasks (names, node classes, timers, slots), transitions
 * (triggers, event tags, targets, priorities), the required events to enter, evaluators,
 * parameters, the slot layout, the event tags and the payload fields. Two compilations of the same asset have the same fingerprint; a
 * snapshot taken with one tree is refused by a runtime of a tree with another fingerprint. Node
 * constants (a delay's duration, say) are not part of it.
 *
 * <p>THREADING: stateless.
 */
public final class TreeFingerprint {
    private TreeFingerprint() {
    }

    /** Writes a snapshot's section {@code tree}: {@code t}'s name and fingerprint (both runtimes' snapshots). */
    public static void write(CompiledStateTree t, SnapshotWriter w) throws IOException {
        DataOutputStream out = w.section("tree");
        out.writeUTF(t.name);
        out.writeLong(of(t));
    }

    /**
     * Reads a snapshot's section {@code tree} and requires it to describe {@code t}.
     *
     * @throws SnapshotException naming both trees
     */
    public static void check(SnapshotReader r, CompiledStateTree t) throws IOException {
        DataInputStream in = r.section("tree");
        String name = in.readUTF();
        long fp = in.readLong();
        long mine = of(t);
        if (fp != mine || !name.equals(t.name)) {
            throw new SnapshotException("snapshot of tree '" + name + "' (fingerprint " + hex(fp)
                    + "), this runtime runs tree '" + t.name + "' (fingerprint " + hex(mine) + ")");
        }
    }

    /** The fingerprint of {@code t}. */
    public static long of(CompiledStateTree t) {
        StringBuilder b = new StringBuilder(1024);
        b.append("tree ").append(t.name).append('\n');
        for (int s = 0; s < t.stateCount; s++) {
            b.append("state ").append(t.statePath(s)).append(' ').append(t.stateType(s)).append(' ')
                    .append(t.stateSelection(s)).append(' ').append(t.stateParent(s)).append(' ')
                    .append(t.stateTasksBegin(s)).append('+').append(t.stateTasksNum(s)).append(' ')
                    .append(t.stateEnterConditionsBegin(s)).append('+').append(t.stateEnterConditionsNum(s)).append(' ')
                    .append(t.stateTransitionsBegin(s)).append('+').append(t.stateTransitionsNum(s)).append(' ')
                    .append(t.stateCompletionAll(s)).append(t.stateEnabled(s) ? "" : " disabled").append('\n');
        }
        for (int i = 0; i < t.taskCount(); i++) {
            b.append("task ").append(t.taskName(i)).append(' ').append(t.task(i).getClass().getName()).append(' ')
                    .append(t.taskState(i)).append(' ').append(t.taskTimer(i)).append(' ').append(t.taskTimerValueSlot(i))
                    .append(' ').append(t.taskTimerDueSlot(i)).append(' ').append(t.taskDoneSlot(i)).append('\n');
        }
        b.append("globals ").append(t.globalTaskCount).append('\n');
        if (t.scanRules.rootFirst || t.scanRules.hasComposites) {
            // rules H1, K1; trees with neither keep the fingerprints they had before
            b.append("scan ").append(t.scanRules.rootFirst);
            for (int s = 0; s < t.stateCount; s++) {
                b.append(' ').append(t.scanRules.composite(s));
            }
            b.append('\n');
        }
        if (t.unreal.on) {
            b.append("rules unreal-5.8\n"); // rule U1; trees under the seeds' rules keep their fingerprints
        }
        if (t.history.count() > 0) {
            // rule Y1; trees without history keep the fingerprints they had before
            b.append("history");
            for (int h = 0; h < t.history.count(); h++) {
                b.append(' ').append(t.history.state(h)).append(':').append(t.history.kind(t.history.state(h)));
            }
            b.append('\n');
        }
        for (int k = 0; k < t.requiredEvents.count(); k++) {
            // rules V1-V6; trees without required events keep the fingerprints they had before
            int s = t.requiredEvents.state(k);
            int set = t.requiredEvents.payloadSet(s);
            b.append("required ").append(s).append(' ').append(t.requiredEvents.tag(s)).append(' ')
                    .append(t.requiredEvents.consumes(s));
            for (int i = t.payloads.requirementsBegin(set); i < t.payloads.requirementsBegin(set)
                    + t.payloads.requirementsNum(set); i++) {
                b.append(' ').append(t.payloads.requiredField(i)).append(':').append(t.payloads.requiredType(i));
            }
            b.append('\n');
        }
        if (t.tickPeriods.any || t.stateParameters.any) {
            // rules Z1, X1 (the runtime keeps a column of LOD periods); trees with neither keep their fingerprints
            b.append("periods");
            for (int s = 0; s < t.stateCount; s++) {
                b.append(' ').append(t.tickPeriods.declaredPeriod(s));
            }
            for (int i = 0; i < t.stateParameters.size(); i++) {
                b.append(" ; ").append(t.stateParameters.name(i)).append(' ').append(t.stateParameters.type(i))
                        .append(' ').append(t.stateParameters.slot(i))
                        .append(' ').append(t.stateParameters.generationSlot(i));
            }
            b.append('\n');
        }
        for (int i = 0; i < t.conditionCount(); i++) {
            b.append("condition ").append(t.condition(i).getClass().getName()).append('\n');
        }
        for (int i = 0; i < t.evaluatorCount(); i++) {
            b.append("evaluator ").append(t.evaluator(i).getClass().getName()).append('\n');
        }
        for (int i = 0; i < t.transitionCount; i++) {
            b.append("transition ").append(t.transitionSource(i)).append(' ').append(t.transitionTrigger(i)).append(' ')
                    .append(t.transitionEvent(i)).append(' ').append(t.transitionType(i)).append(' ')
                    .append(t.transitionTarget(i)).append(' ').append(t.transitionPriority(i)).append(' ')
                    .append(t.transitionConditionsBegin(i)).append('+').append(t.transitionConditionsNum(i)).append(' ')
                    .append(t.isGated(i)).append('\n');
        }
        for (int i = 0; i < t.paramCount(); i++) {
            b.append("param ").append(t.paramName(i)).append(' ').append(t.paramType(i)).append(' ')
                    .append(t.paramSlot(i)).append('\n');
        }
        b.append("slots ").append(t.slotNames(ValueType.FLOAT)).append(t.slotNames(ValueType.INT))
                .append(t.slotNames(ValueType.BOOL)).append('\n');
        b.append("tags ").append(t.tags()).append('\n');
        b.append("payload");
        for (int i = 0; i < t.payloads.fieldCount(); i++) {
            b.append(' ').append(t.payloads.fieldName(i));
        }
        return Hashes.fnv1a64(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The fingerprint as 16 hex digits. */
    public static String hex(long fingerprint) {
        return String.format("%016x", fingerprint);
    }
}
