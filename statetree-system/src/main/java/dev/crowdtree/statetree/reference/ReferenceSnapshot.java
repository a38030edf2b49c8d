package dev.crowdtree.statetree.reference;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.core.storage.SnapshotReader;
import dev.crowdtree.core.storage.SnapshotWriter;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.internal.TreeFingerprint;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Snapshot and restore of a {@link ReferenceInterpreter} (docs/SNAPSHOT.md), kind {@value #KIND}:
 * section {@code tree} (name and {@link TreeFingerprint}, as the batched runtime's) and section
 * {@code interpreter}: the agent count and tick mode, every agent's {@code ExecutionState}
 * (statuses, active path, gate, counters, its event lists with tags by name, tick period (and, in a
 * tree with state tick periods, its LOD period), sleep and step bookkeeping), every slot and host
 * column, and the scheduler (step, last dt, awake agents, wake-up queue); and, for a tree with
 * history states, section {@code history}: every memory (rule Y7). Restore parses everything into
 * fresh objects and checks it before it copies anything in.
 */
final class ReferenceSnapshot {
    static final String KIND = "statetree.reference";

    private ReferenceSnapshot() {
    }

    static void write(InterpreterData d, TickScheduler s, OutputStream out) throws IOException {
        CompiledStateTree tree = d.tree;
        SnapshotWriter w = new SnapshotWriter(KIND);
        TreeFingerprint.write(tree, w);
        DataOutputStream o = w.section("interpreter");
        o.writeInt(d.agents);
        o.writeUTF(s.tickMode().name());
        for (ExecutionState e : d.execs) {
            o.writeByte(e.treeRunStatus);
            o.writeByte(e.lastTickStatus);
            o.writeInt(e.activeStates.num);
            for (int i = 0; i < e.activeStates.num; i++) {
                o.writeShort(e.activeStates.states[i]);
            }
            o.writeInt(e.gatedTransitionIndex);
            o.writeFloat(e.gatedTransitionTime);
            o.writeInt(e.enterStateFailedTaskIndex);
            o.writeInt(e.globalTasksEntered);
            o.writeInt(e.stateChangeCount);
            if (tree.requestsTransitions) {
                o.writeInt(e.requestState); // rule O3: a request waits for the next scan
                o.writeByte(e.requestPriority);
                o.writeByte(e.requestSourceDepth);
            }
            writeEvents(o, tree, e.events);
            writeEvents(o, tree, e.eventsToProcess);
            writeEvents(o, tree, e.enterExitEvents);
            o.writeBoolean(e.chosenEvent != null);
            if (e.chosenEvent != null) {
                writeEvents(o, tree, List.of(e.chosenEvent));
            }
            o.writeInt(e.periodLog);
            o.writeInt(e.pendingLog);
            if (tree.tickPeriods.any) {
                o.writeInt(e.hostLog); // only trees with state tick periods: elsewhere it is derived (rule Z2)
            }
            o.writeInt(e.sleepUntil);
            o.writeInt(e.lastStep);
            o.writeFloat(e.sleptDt);
            o.writeBoolean(e.despawned);
            o.writeInt(e.completedIndex);
        }
        for (float[] a : d.floats) {
            for (float v : a) {
                o.writeFloat(v);
            }
        }
        for (int[] a : d.ints) {
            for (int v : a) {
                o.writeInt(v);
            }
        }
        for (byte[] a : d.bools) {
            o.write(a);
        }
        for (Object c : d.hostColumns) {
            writeArray(o, c);
        }
        o.writeInt(s.awakeLastTick);
        o.writeInt(s.step);
        o.writeFloat(s.lastDt);
        o.writeInt(s.awakeCount);
        for (int i = 0; i < s.awakeCount; i++) {
            o.writeInt(s.awake[i]);
        }
        o.writeInt(s.woken.size());
        for (int a : s.woken) {
            o.writeInt(a);
        }
        Long[] queue = s.wakeQueue.toArray(new Long[0]);
        java.util.Arrays.sort(queue);
        o.writeInt(queue.length);
        for (long q : queue) {
            o.writeLong(q);
        }
        if (tree.history.count() > 0) {
            DataOutputStream h = w.section("history"); // rule Y7: only trees with history states have it
            for (short[] memory : d.history) {
                for (short v : memory) {
                    h.writeShort(v);
                }
            }
        }
        w.writeTo(out);
    }

    private static void writeArray(DataOutputStream o, Object c) throws IOException {
        if (c instanceof float[] f) {
            for (float v : f) {
                o.writeFloat(v);
            }
        } else if (c instanceof int[] n) {
            for (int v : n) {
                o.writeInt(v);
            }
        } else {
            o.write((byte[]) c);
        }
    }

    private static void readArray(DataInputStream in, Object c) throws IOException {
        if (c instanceof float[] f) {
            for (int i = 0; i < f.length; i++) {
                f[i] = in.readFloat();
            }
        } else if (c instanceof int[] n) {
            for (int i = 0; i < n.length; i++) {
                n[i] = in.readInt();
            }
        } else {
            in.readFully((byte[]) c);
        }
    }

    private static void writeEvents(DataOutputStream o, CompiledStateTree tree, List<Event> events) throws IOException {
        o.writeInt(events.size());
        for (Event e : events) {
            o.writeBoolean(e.tag() >= 0); // the reference keeps events of tags no node uses, matching nothing
            o.writeUTF(e.tag() >= 0 ? tree.tagName(e.tag()) : "");
            o.writeInt(e.types().length);
            o.write(e.types());
            for (int b : e.bits()) {
                o.writeInt(b);
            }
        }
    }

    private static List<Event> readEvents(DataInputStream in, CompiledStateTree tree) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw malformed();
        }
        List<Event> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean known = in.readBoolean();
            String tag = in.readUTF();
            int id = known ? tree.tagId(tag) : -1;
            int width = in.readInt();
            if (known && id < 0 || width != tree.payloads.fieldCount()) {
                throw new SnapshotException("the snapshot has an event tagged '" + tag + "' that tree '" + tree.name
                        + "' cannot take");
            }
            byte[] types = new byte[width];
            in.readFully(types);
            int[] bits = new int[width];
            for (int f = 0; f < width; f++) {
                bits[f] = in.readInt();
            }
            list.add(new Event(id, types, bits));
        }
        return list;
    }

    private static SnapshotException malformed() {
        return new SnapshotException("the snapshot's interpreter section is malformed");
    }

    static void restore(InterpreterData d, TickScheduler s, InputStream source) throws IOException {
        SnapshotReader r = SnapshotReader.read(source);
        r.requireKind(KIND);
        CompiledStateTree tree = d.tree;
        TreeFingerprint.check(r, tree);
        DataInputStream in = r.section("interpreter");
        // parse into fresh objects first
        ExecutionState[] execs = new ExecutionState[d.agents];
        Object[] host = new Object[d.hostColumns.length];
        float[][] floats = new float[d.floats.length][d.agents];
        int[][] ints = new int[d.ints.length][d.agents];
        byte[][] bools = new byte[d.bools.length][d.agents];
        int awakeLast;
        int step;
        float lastDt;
        int[] awake;
        List<Integer> woken = new ArrayList<>();
        List<Long> queue = new ArrayList<>();
        try {
            int agents = in.readInt();
            String mode = in.readUTF();
            if (agents != d.agents || !mode.equals(s.tickMode().name())) {
                throw new SnapshotException("snapshot of a reference interpreter of " + agents + " agents in tick mode "
                        + mode + ", this one has " + d.agents + " agents in tick mode " + s.tickMode());
            }
            for (int a = 0; a < agents; a++) {
                execs[a] = readExec(in, tree);
            }
            for (float[] f : floats) {
                readArray(in, f);
            }
            for (int[] n : ints) {
                readArray(in, n);
            }
            for (byte[] b : bools) {
                in.readFully(b);
            }
            for (int c = 0; c < host.length; c++) {
                host[c] = tree.hostColumns.get(c).type().newArray(d.agents);
                readArray(in, host[c]);
            }
            awakeLast = in.readInt();
            step = in.readInt();
            lastDt = in.readFloat();
            int n = in.readInt();
            if (n < 0 || n > s.awake.length) {
                throw malformed();
            }
            awake = new int[n];
            for (int i = 0; i < n; i++) {
                awake[i] = in.readInt();
            }
            int m = in.readInt();
            if (m < 0 || m > in.available()) {
                throw malformed();
            }
            for (int i = 0; i < m; i++) {
                woken.add(in.readInt());
            }
            int k = in.readInt();
            if (k < 0 || k > in.available()) {
                throw malformed();
            }
            for (int i = 0; i < k; i++) {
                queue.add(in.readLong());
            }
        } catch (EOFException e) {
            throw malformed();
        }
        short[][] history = readHistory(r, tree, d.agents);
        // checked: copy in
        for (int a = 0; a < d.agents; a++) {
            copyExec(execs[a], d.execs[a]);
        }
        for (int i = 0; i < floats.length; i++) {
            System.arraycopy(floats[i], 0, d.floats[i], 0, d.agents);
        }
        for (int i = 0; i < ints.length; i++) {
            System.arraycopy(ints[i], 0, d.ints[i], 0, d.agents);
        }
        for (int i = 0; i < bools.length; i++) {
            System.arraycopy(bools[i], 0, d.bools[i], 0, d.agents);
        }
        for (int c = 0; c < host.length; c++) {
            System.arraycopy(host[c], 0, d.hostColumns[c], 0, d.agents);
        }
        for (int h = 0; h < history.length; h++) {
            System.arraycopy(history[h], 0, d.history[h], 0, d.agents);
        }
        d.outgoing.clear();
        s.awakeLastTick = awakeLast;
        s.step = step;
        s.lastDt = lastDt;
        System.arraycopy(awake, 0, s.awake, 0, awake.length);
        s.awakeCount = awake.length;
        s.woken.clear();
        s.woken.addAll(woken);
        s.wakeQueue.clear();
        s.wakeQueue.addAll(queue);
    }

    /** One agent's execution state as written by {@code snapshot}, its active states checked against {@code tree}. */
    private static ExecutionState readExec(DataInputStream in, CompiledStateTree tree) throws IOException {
        ExecutionState e = new ExecutionState();
        e.treeRunStatus = in.readByte();
        e.lastTickStatus = in.readByte();
        int num = in.readInt();
        if (num < 0 || num > e.activeStates.states.length) {
            throw malformed();
        }
        for (int i = 0; i < num; i++) {
            int st = in.readShort();
            if (st < 0 || st >= tree.stateCount) {
                throw malformed();
            }
            e.activeStates.push(st);
        }
        e.gatedTransitionIndex = in.readInt();
        e.gatedTransitionTime = in.readFloat();
        e.enterStateFailedTaskIndex = in.readInt();
        e.globalTasksEntered = in.readInt();
        e.stateChangeCount = in.readInt();
        if (tree.requestsTransitions) {
            e.requestState = in.readInt();
            e.requestPriority = in.readByte();
            e.requestSourceDepth = in.readByte();
            if (e.requestState < ReferenceInterpreter.INVALID || e.requestState >= tree.stateCount || e.requestPriority < 0
                    || e.requestPriority >= dev.crowdtree.statetree.node.NodeContext.PRIORITIES.size()
                    || e.requestSourceDepth < -1 || e.requestSourceDepth > CompiledStateTree.MAX_DEPTH) {
                throw malformed();
            }
        }
        e.events.addAll(readEvents(in, tree));
        e.eventsToProcess.addAll(readEvents(in, tree));
        e.enterExitEvents.addAll(readEvents(in, tree));
        if (in.readBoolean()) {
            List<Event> chosen = readEvents(in, tree);
            if (chosen.size() != 1) {
                throw malformed();
            }
            e.chosenEvent = chosen.get(0);
        }
        e.periodLog = in.readInt();
        e.pendingLog = in.readInt();
        e.hostLog = tree.tickPeriods.any ? in.readInt() : e.pendingLog >= 0 ? e.pendingLog : e.periodLog;
        e.sleepUntil = in.readInt();
        e.lastStep = in.readInt();
        e.sleptDt = in.readFloat();
        e.despawned = in.readBoolean();
        e.completedIndex = in.readInt();
        return e;
    }

    /** Copies a checked execution state {@code e} into the interpreter's {@code to}. */
    private static void copyExec(ExecutionState e, ExecutionState to) {
        to.treeRunStatus = e.treeRunStatus;
        to.lastTickStatus = e.lastTickStatus;
        to.activeStates.reset();
        for (int i = 0; i < e.activeStates.num; i++) {
            to.activeStates.push(e.activeStates.states[i]);
        }
        to.gatedTransitionIndex = e.gatedTransitionIndex;
        to.gatedTransitionTime = e.gatedTransitionTime;
        to.enterStateFailedTaskIndex = e.enterStateFailedTaskIndex;
        to.globalTasksEntered = e.globalTasksEntered;
        to.stateChangeCount = e.stateChangeCount;
        to.requestState = e.requestState;
        to.requestPriority = e.requestPriority;
        to.requestSourceDepth = e.requestSourceDepth;
        replace(to.events, e.events);
        replace(to.eventsToProcess, e.eventsToProcess);
        replace(to.enterExitEvents, e.enterExitEvents);
        to.chosenEvent = e.chosenEvent;
        to.periodLog = e.periodLog;
        to.pendingLog = e.pendingLog;
        to.hostLog = e.hostLog;
        to.sleepUntil = e.sleepUntil;
        to.lastStep = e.lastStep;
        to.sleptDt = e.sleptDt;
        to.despawned = e.despawned;
        to.completedIndex = e.completedIndex;
    }

    /**
     * The section {@code history} of a tree with history states: per history state, per agent, the
     * state it remembers, which must be none or below it (a child for shallow history).
     */
    private static short[][] readHistory(SnapshotReader r, CompiledStateTree tree, int agents) throws IOException {
        short[][] history = new short[tree.history.count()][agents];
        if (history.length == 0) {
            return history;
        }
        DataInputStream in = r.section("history");
        try {
            for (int h = 0; h < history.length; h++) {
                int state = tree.history.state(h);
                for (int a = 0; a < agents; a++) {
                    short v = in.readShort();
                    if (v != HistoryStates.NO_MEMORY && !remembers(tree, state, v)) {
                        throw new SnapshotException("the snapshot's history section is malformed");
                    }
                    history[h][a] = v;
                }
            }
        } catch (EOFException e) {
            throw new SnapshotException("the snapshot's history section is malformed");
        }
        return history;
    }

    /** Whether history state {@code h} can remember {@code v}: a state below it, its child for shallow history. */
    private static boolean remembers(CompiledStateTree tree, int h, int v) {
        if (v <= 0 || v >= tree.stateCount) {
            return false;
        }
        int depth = 1;
        for (int s = tree.stateParent(v); s != h; s = tree.stateParent(s), depth++) {
            if (s <= 0) {
                return false;
            }
        }
        return depth == 1 || tree.history.kind(h) == HistoryStates.DEEP;
    }

    private static void replace(List<Event> to, List<Event> from) {
        to.clear();
        to.addAll(from);
    }
}
