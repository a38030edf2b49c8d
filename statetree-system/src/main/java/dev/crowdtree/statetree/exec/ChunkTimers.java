package dev.crowdtree.statetree.exec;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.Countdown;
import dev.crowdtree.statetree.node.RunStatus;
import dev.crowdtree.statetree.node.TimerKind;
import dev.crowdtree.statetree.node.TimerService;

import static dev.crowdtree.statetree.exec.InstanceData.NEVER;

/**
 * Timers and gates as due steps (docs/SEMANTICS.md section 3.1; gates of section 4; periods of
 * section 12): the {@link TimerService} of the worker's {@code NodeContext} (a task starts its timer),
 * the due step of a countdown ({@link Countdown}), and the re-derivation of running timers and gates
 * when the agent's dt changes (a new host dt, or a tick period switch).
 *
 * <p>A SECONDS timer started at step s with t seconds is due at {@code s + Countdown.steps(t, p * dt) * p},
 * exactly the step at which counting down by {@code p * dt} per step reaches zero; a pause adds p; a
 * change of dt or of period re-derives the due step from the value counted so far
 * ({@code Countdown.after}). THREADING: confined to its worker.
 */
final class ChunkTimers implements TimerService {
    private final ChunkBinding st;
    private final CompiledStateTree t;
    private final InstanceData d;

    ChunkTimers(ChunkBinding state) {
        this.st = state;
        this.t = state.t;
        this.d = state.d;
    }

    @Override
    public void startTimer(int task, int row, float seconds) {
        int p = PeriodByte.period(st.lodOf(row));
        d.floats[t.taskTimerValueSlot(task)][row] = seconds;
        d.ints[t.taskTimerDueSlot(task)][row] = dueStep(lastPart(row, st.step), seconds, p);
    }

    @Override
    public void startTickTimer(int task, int row, int ticks) {
        int p = PeriodByte.period(st.lodOf(row));
        d.ints[t.taskTimerDueSlot(task)][row] = clampDue(lastPart(row, st.step) + (long) ticks * p);
    }

    /**
     * The dt the timers were derived from changed from {@code oldDt} to {@code newDt} before step
     * {@code k}: re-derive every running timer and gate of the chunk's rows {@code [from, to)}.
     */
    void rebaseChunk(int from, int to, int k, float oldDt, float newDt) {
        st.bindColumns();
        for (int r = from; r < to; r++) {
            if (st.runOf(r) == RunStatus.RUNNING) {
                int p = PeriodByte.period(st.lodOf(r));
                rebaseRow(r, lastPart(r, k - 1), p, p * oldDt, p, p * newDt);
            }
        }
    }

    /**
     * Re-derives the due steps of row {@code r}'s running timers and gate: they counted with period
     * {@code p} and agent dt {@code dOld} up to and including step {@code j} (a step the agent took
     * part in), and count with {@code q} and {@code dNew} from there on.
     */
    void rebaseRow(int r, int j, int p, float dOld, int q, float dNew) {
        int leaf = st.stateOf(r) - 1;
        if (leaf < 0) {
            return;
        }
        for (int i = t.statePathTimersBegin(leaf), e = t.statePathTimersBegin(leaf + 1); i < e; i++) {
            int k = t.pathTimerTasks(i);
            int[] dueSlot = d.ints[t.taskTimerDueSlot(k)];
            int due = dueSlot[r];
            if (due == 0) {
                continue;
            }
            if (t.taskTimer(k) == TimerKind.TICKS) {
                dueSlot[r] = due == NEVER ? NEVER : clampDue(j + (long) ((due - j) / p) * q);
            } else {
                float[] valueSlot = d.floats[t.taskTimerValueSlot(k)];
                float v = counted(valueSlot[r], due, j, p, dOld);
                valueSlot[r] = v;
                dueSlot[r] = dueStep(j, v, q, dNew);
            }
        }
        final int[] gateDue = st.gateDue;
        final float[] gateValue = st.gateValue;
        int gd = gateDue[r];
        if (st.gate[r] != 0 && gd != 0) {
            float v = counted(gateValue[r], gd, j, p, dOld);
            gateValue[r] = v;
            gateDue[r] = dueStep(j, v, q, dNew);
        }
    }

    /**
     * The value of a countdown due at {@code due} (from {@code v}, period p, dt d) after step {@code j}.
     * {@link Countdown#after} costs a few operations per binade whatever the steps counted, so a due
     * step long before {@code j} (a restored snapshot's) costs no more than a recent one; a due step
     * that the value cannot have come from (later than counting from {@code j} would give) counts none.
     */
    private static float counted(float v, int due, int j, int p, float d) {
        if (due == NEVER) {
            return v; // never changes under d (NaN, infinite, or steps below its precision)
        }
        long ref = due - Countdown.steps(v, d) * p;
        return Countdown.after(v, d, Math.max(0, (j - ref) / p));
    }

    /** The step at which a countdown from {@code v} started after step {@code ref} runs out with period {@code p}. */
    int dueStep(int ref, float v, int p) {
        return dueStep(ref, v, p, p * st.timerDt);
    }

    private static int dueStep(int ref, float v, int p, float agentDt) {
        long n = Countdown.steps(v, agentDt);
        return n == Countdown.NEVER ? NEVER : clampDue(ref + n * p);
    }

    private static int clampDue(long due) {
        return due >= NEVER ? NEVER : (int) due;
    }

    /** The last step at or before {@code s} that row {@code r} takes part in under its period. */
    int lastPart(int r, int s) {
        return PeriodByte.lastPart(s, st.ids[r], st.lodOf(r));
    }
}
