package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.CompiledTreeBuilder;
import dev.crowdtree.statetree.compiled.HistoryStates;
import dev.crowdtree.statetree.compiled.ScanRules;
import dev.crowdtree.statetree.compiled.TreeFacts;
import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.node.Evaluator;
import dev.crowdtree.statetree.node.Task;
import dev.crowdtree.statetree.node.TimerKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The last pass, after assembly: the facts the runtimes need that follow from the assembled tree
 * (what a {@link CompiledStateTree} exposes but no asset states), derived from what the builder
 * holds and set into its {@link TreeFacts}, so that the compiled tree's constructor only freezes.
 * In order: the transitions' ranking and gates, the plain leaves, the tags' coverage, the composites, rules U2 and
 * U6, the history states' memory indices, the tick periods on each path, the tasks' timers, the
 * evaluators by schedule, the condition depth, and per state its triggers, ticking, wakefulness,
 * awake group and the timer tasks on its path. {@link CompiledTreeBuilder#build} refuses a builder
 * this pass has not run on.
 */
final class RuntimeFactsPass {
    private final CompiledTreeBuilder b;
    private final TreeFacts out;
    private final int n;
    /** {@link #paths}'s table, for the passes after it. */
    private int[] pathBegin;
    private short[] pathStates;

    RuntimeFactsPass(CompiledTreeBuilder b) {
        this.b = b;
        this.out = b.facts();
        this.n = b.stateCount();
    }

    void run() {
        transitions();
        plainLeaves();
        tags();
        composites();
        boolean[] noTask = unrealRules();
        history();
        periods();
        paths();
        timers();
        evaluators();
        for (int i = 0; i < b.conditionCount(); i++) {
            b.noteConditionDepth(b.condition(i).depth());
        }
        states(noTask);
    }

    private void transitions() {
        int count = b.transitionCount();
        boolean ranked = b.requestsTransitions(); // a request may come at any priority (rule O2)
        boolean[] gated = new boolean[count];
        for (int t = 0; t < count; t++) {
            ranked |= b.transitionPriority(t) != Vocabulary.Priority.NORMAL.code();
            gated[t] = b.transitionDelay(t) > 0f || b.transitionDelayVariance(t) > 0f;
        }
        out.setTransitionFacts(ranked, gated);
    }

    /**
     * Per state, whether it is a plain leaf: leaving it exits its tasks and entering it enters them
     * and nothing else (no history, parameters, required event or completion "all", no linked state
     * above it, whose values are copied on every enter; not under unreal-5.8, whose rule U3 may enter
     * the parents again). A move between two plain leaves under the same parent takes the batched
     * runtime's fast path ({@link CompiledStateTree#isSiblingLeafMove}).
     */
    private void plainLeaves() {
        boolean[] plain = new boolean[n];
        for (int s = 0; s < n && !b.unrealRules(); s++) {
            boolean ok = b.stateIsLeaf(s) && b.stateType(s) == CompiledStateTree.STATE
                    && b.stateHistory(s) == HistoryStates.NONE && !b.stateEnterHasExtras(s);
            for (int a = b.stateParent(s); a >= 0 && ok; a = b.stateParent(a)) {
                ok = b.stateType(a) != CompiledStateTree.LINKED;
            }
            plain[s] = ok;
        }
        out.setPlainLeaves(plain);
    }

    /** Tags are hierarchical: a transition on {@code Danger} matches {@code Danger} and {@code Danger.Fire}, not {@code DangerZone}. */
    private void tags() {
        List<String> names = b.tagNames();
        boolean[][] covers = new boolean[names.size()][names.size()];
        for (int a = 0; a < names.size(); a++) {
            for (int e = 0; e < names.size(); e++) {
                covers[a][e] = a == e || names.get(e).startsWith(names.get(a) + ".");
            }
        }
        out.setTagCovers(covers);
    }

    private void composites() {
        boolean any = false;
        for (int s = 0; s < n; s++) {
            any |= b.stateComposite(s) != ScanRules.NONE;
        }
        out.setHasComposites(any);
    }

    /** Rules U2 and U6; returns the states on a task-less path. */
    private boolean[] unrealRules() {
        short[] linkedAncestor = new short[n];
        boolean[] noTask = new boolean[n];
        boolean on = b.unrealRules();
        boolean any = false;
        for (int s = 0; s < n; s++) { // parents come before their children
            int p = b.stateParent(s);
            linkedAncestor[s] = (short) (p < 0 ? -1 : b.stateType(p) == CompiledStateTree.LINKED ? p : linkedAncestor[p]);
            noTask[s] = on && b.stateTasksNum(s) == 0 && (p < 0 || noTask[p]);
            any |= noTask[s];
        }
        out.setUnrealFacts(linkedAncestor, noTask, any);
        return noTask;
    }

    private void history() {
        int[] index = new int[n];
        List<Integer> found = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            boolean has = b.stateHistory(s) != HistoryStates.NONE;
            index[s] = has ? found.size() : -1;
            if (has) {
                found.add(s);
            }
        }
        out.setHistoryIndex(index, found.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Per state, log2 of the smallest period declared from the root to it (0: none); rule Z2. */
    private void periods() {
        byte[] min = new byte[n]; // -1: no period on the path so far
        byte[] path = new byte[n];
        boolean some = false;
        for (int s = 0; s < n; s++) {
            int p = b.stateParent(s);
            byte above = p < 0 ? -1 : min[p];
            byte own = b.statePeriodLog(s);
            min[s] = own < 0 ? above : above < 0 ? own : (byte) Math.min(own, above);
            path[s] = (byte) Math.max(0, min[s]);
            some |= own >= 0;
        }
        out.setPeriodPaths(path, some);
    }

    /**
     * Every state's path, root first, one after another (parents come before their children):
     * {@code pathStates[pathBegin[s] .. pathBegin[s + 1])}; also read by {@link #timers}.
     */
    private void paths() {
        int[] depth = new int[n];
        int[] begin = new int[n + 1];
        for (int s = 0; s < n; s++) {
            int p = b.stateParent(s);
            depth[s] = p < 0 ? 0 : depth[p] + 1;
            begin[s + 1] = begin[s] + depth[s] + 1;
        }
        short[] states = new short[begin[n]];
        for (int s = 0; s < n; s++) {
            for (int a = s, d = depth[s]; d >= 0; a = b.stateParent(a), d--) {
                states[begin[s] + d] = (short) a;
            }
        }
        pathBegin = begin;
        pathStates = states;
        out.setStatePaths(begin, states);
    }

    private void timers() {
        int tasks = b.taskCount();
        TimerKind[] kind = new TimerKind[tasks];
        int[] valueSlot = new int[tasks];
        int[] dueSlot = new int[tasks];
        for (int k = 0; k < tasks; k++) {
            Task task = b.task(k);
            kind[k] = task.timer();
            valueSlot[k] = task.timerValueSlot();
            dueSlot[k] = task.timerDueSlot();
        }
        int[] timersBegin = new int[n + 1];
        List<Short> pathTimers = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            timersBegin[s] = pathTimers.size();
            // from task 0 at the root: the global tasks come just before its own
            for (int i = pathBegin[s]; i < pathBegin[s + 1]; i++) {
                int a = pathStates[i];
                int end = b.stateTasksBegin(a) + b.stateTasksNum(a);
                for (int k = a == 0 ? 0 : b.stateTasksBegin(a); k < end; k++) {
                    if (kind[k] != TimerKind.NONE) {
                        pathTimers.add((short) k);
                    }
                }
            }
        }
        timersBegin[n] = pathTimers.size();
        short[] pathTasks = new short[pathTimers.size()];
        for (int i = 0; i < pathTasks.length; i++) {
            pathTasks[i] = pathTimers.get(i);
        }
        out.setTimers(kind, valueSlot, dueSlot, timersBegin, pathTasks);
    }

    private void evaluators() {
        List<Evaluator> all = b.evaluators();
        out.setEvaluatorSchedules(
                all.stream().filter(e -> e.schedule() == Evaluator.Schedule.EVERY_TICK).toArray(Evaluator[]::new),
                all.stream().filter(e -> e.schedule() == Evaluator.Schedule.WHEN_AWAKE).toArray(Evaluator[]::new));
    }

    /** Per state: triggers, ticking (SEMANTICS.md section 11, rule U6), always awake, awake group. */
    private void states(boolean[] noTask) {
        byte[] triggers = new byte[n];
        boolean[] ticks = new boolean[n];
        boolean[] ticking = new boolean[n];
        boolean[] awake = new boolean[n];
        for (int s = 0; s < n; s++) {
            for (int t = b.stateTransitionsBegin(s), end = t + b.stateTransitionsNum(s); t < end; t++) {
                triggers[s] |= b.transitionTrigger(t);
            }
            for (int k = b.stateTasksBegin(s), end = k + b.stateTasksNum(s); k < end; k++) {
                ticks[s] |= b.task(k).ticks();
            }
            int parent = b.stateParent(s);
            ticking[s] = ticks[s] || (triggers[s] & CompiledStateTree.TRIGGER_TICK) != 0
                    || (s == 0 && b.globalTasksTick()) || noTask[s]; // rule U6: it completes at a tick
            // parents have smaller ids (DFS pre-order), so the parent's flag is final here
            awake[s] = ticking[s] || (parent >= 0 && awake[parent]);
        }
        out.setStateFacts(triggers, ticks, ticking, awake);
        int[] group = new int[n];
        int[] groupsBegin = new int[n + 1];
        int groups = 0;
        for (int s = 0; s < n; s++) {
            groupsBegin[s] = groups;
            group[s] = ticking[s] ? groups++ : awake[s] ? group[b.stateParent(s)] : -1;
        }
        groupsBegin[n] = groups;
        out.setAwakeGroups(group, groupsBegin);
    }
}
