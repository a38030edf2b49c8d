package dev.crowdtree.statetree.node;

import dev.crowdtree.core.random.CounterRng;

/**
 * What a node kernel sees of the world: the per-agent slot arrays assigned by the compiler, the
 * agents' ids, time, randomness, event sending and, for tasks, completion reporting. One context
 * per worker; the runtime refreshes it before each batch of calls.
 *
 * <p>Slot arrays are indexed by table row. They are valid for the duration of the call only (the
 * table may grow between ticks), so read them at the start of each kernel call, not in a
 * constructor.
 *
 * <p>THREADING: confined to the worker that owns it.
 */
public final class NodeContext {
    float[][] floats;
    int[][] ints;
    byte[][] bools;
    int[] agentIds;
    /** Host column arrays by column handle ({@code float[]}, {@code int[]} or {@code byte[]}). */
    Object[] hostColumns = new Object[0];
    Object[] externals = new Object[0];
    long seed;
    long tick;
    float dt;
    byte changeType;
    byte exitStatus = RunStatus.RUNNING;
    /** While a task that is not considered for completion runs: its completions are ignored. */
    boolean background;
    int currentState = -1;
    int targetState = -1;
    EventOutbox outbox;
    private EventFields eventFields;
    private EventPayload payloadScratch = new EventPayload(0);
    private int valueField = -1;
    TimerService timers;
    /** Where transition requests go; null when no task type of the tree declares them. */
    TransitionRequests requests;
    /** The task being called (enterState, tick, onTimer), -1 outside one: a request's source (rule O2). */
    private int callingTask = -1;
    private int currentTask = -1;
    /**
     * The current task's {@link TimerKind}, by ordinal: set twice per task call per agent, and a
     * reference stored into this long-lived object would pay the collector's card-marking barrier
     * (with a fence, under G1) each time.
     */
    private byte currentTimer = (byte) TimerKind.NONE.ordinal();
    private static final TimerKind[] TIMER_KINDS = TimerKind.values();

    private byte[] status;
    private int statusBase;
    private int completions;

    private int[] rowList = new int[0];
    private boolean[][] scratch = new boolean[0][];
    private int scratchTop;
    private int scratchSize;

    /** Created by a {@link ContextControl}, which the runtime keeps; node authors only receive contexts. */
    NodeContext() {
    }

    /** The float slot {@code slot}, indexed by row. */
    public float[] floats(int slot) {
        return floats[slot];
    }

    /** The int slot {@code slot}, indexed by row. */
    public int[] ints(int slot) {
        return ints[slot];
    }

    /** The bool slot {@code slot} (0 or 1 per row). */
    public byte[] bools(int slot) {
        return bools[slot];
    }

    /** The host column with handle {@code column} ({@link NodeConfig#column}), a float column, indexed by row. */
    public float[] hostFloats(int column) {
        return (float[]) hostColumns[column];
    }

    /** The host int column with handle {@code column}, indexed by row. */
    public int[] hostInts(int column) {
        return (int[]) hostColumns[column];
    }

    /** The host byte column with handle {@code column}, indexed by row. */
    public byte[] hostBytes(int column) {
        return (byte[]) hostColumns[column];
    }

    /** The host object bound for {@code ref} ({@link NodeConfig#external}); call once per batch. */
    public <T> T external(External<T> ref) {
        return ref.type().cast(externals[ref.index()]);
    }

    /**
     * Writes {@code value}, converted to {@code type} (float cast, int cast, bool = value != 0),
     * into slot {@code slot} of {@code row}: the one conversion rule for parameter writes and
     * linked-state parameter copies.
     */
    public void write(ValueType type, int slot, int row, double value) {
        switch (type) {
            case FLOAT:
                floats[slot][row] = (float) value;
                break;
            case INT:
                ints[slot][row] = (int) value;
                break;
            default:
                bools[slot][row] = (byte) (value != 0 ? 1 : 0);
        }
    }

    /** Agent ids by row. */
    public int[] agentIds() {
        return agentIds;
    }

    /** The agent id of {@code row}. */
    public int agentId(int row) {
        return agentIds[row];
    }

    /** Seconds of this tick (0 for the evaluators' first tick at start). */
    public float dt() {
        return dt;
    }

    /** Tick number: 0 at start, then 1, 2, ... */
    public long tick() {
        return tick;
    }

    /** Seed of the simulation. */
    public long seed() {
        return seed;
    }

    /** During enter/exit: {@link ChangeType#CHANGED} or {@link ChangeType#SUSTAINED}. */
    public byte changeType() {
        return changeType;
    }

    /**
     * During ExitState: why the state is left. {@link RunStatus#RUNNING} when a tick or event
     * transition fired; {@link RunStatus#SUCCEEDED} or {@link RunStatus#FAILED} when the agent's
     * last tick status was that completion (a completion transition, the restart from the root, or
     * a transition in the same tick after it); {@link RunStatus#STOPPED} when the tree is stopped or
     * the agent despawned. With {@link #changeType} it tells a task whether its state ended and how.
     */
    public byte exitStatus() {
        return exitStatus;
    }

    /** During enter/exit: the state being entered or exited. */
    public int currentState() {
        return currentState;
    }

    /** During enter/exit: the transition's target state, or -1 for a terminal transition or a stop. */
    public int targetState() {
        return targetState;
    }

    /** A uniform float in [0, 1) for this agent, tick and stream; the same when asked twice. */
    public float random(int row, int stream) {
        return CounterRng.uniform(seed, agentIds[row], tick, stream);
    }

    /** A uniform float in [0, 1) for this agent, tick, stream and draw number. */
    public float random(int row, int stream, int draw) {
        return CounterRng.uniform(seed, agentIds[row], tick, stream, draw);
    }

    /** Completes the state of {@code row} with success (call from {@link Task#tick}). */
    public void succeed(int row) {
        complete(row, RunStatus.SUCCEEDED);
    }

    /** Completes the state of {@code row} with failure (call from {@link Task#tick}). */
    public void fail(int row) {
        complete(row, RunStatus.FAILED);
    }

    /** Records the first completion of {@code row} in this tick; later ones are ignored. */
    public void complete(int row, byte runStatus) {
        if (background) {
            return; // a task not considered for completion: its result never completes its state
        }
        int i = row - statusBase;
        if (status[i] == RunStatus.RUNNING) {
            status[i] = runStatus;
            completions++;
        }
    }

    /**
     * Sends an event to the agent in {@code row} itself, with the number {@code payload} as its
     * payload field {@code value} when {@code hasPayload}.
     */
    public void sendEvent(int row, int tag, float payload, boolean hasPayload) {
        outbox.sendToSelf(row, tag, numeric(payload, hasPayload));
    }

    /** Sends an event to another agent by id, with a number payload; it arrives at the start of the next tick. */
    public void sendEventToAgent(int agentId, int tag, float payload, boolean hasPayload) {
        outbox.sendToAgent(agentId, tag, numeric(payload, hasPayload));
    }

    /** Sends an event with {@code payload} (null: none; it is copied) to the agent in {@code row} itself. */
    public void sendEvent(int row, int tag, EventPayload payload) {
        outbox.sendToSelf(row, tag, payload);
    }

    /** Sends an event with {@code payload} (null: none; it is copied) to another agent by id. */
    public void sendEventToAgent(int agentId, int tag, EventPayload payload) {
        outbox.sendToAgent(agentId, tag, payload);
    }

    /** The generation of the agent with id {@code agentId} now (-1 if there is none). */
    public int generationOf(int agentId) {
        return outbox.generationOf(agentId);
    }

    /**
     * The agent an entity parameter names for {@code row}: its id, or -1 when it names none or a
     * stale handle (that agent is gone, maybe its id was given to another).
     */
    public int entity(ParamRef p, int row) {
        int id = ints[p.slot()][row];
        if (id < 0 || (p.generationSlot() >= 0 && generationOf(id) != ints[p.generationSlot()][row])) {
            return -1;
        }
        return id;
    }

    /**
     * Sends an event to the agent an entity parameter names for {@code row}; to a stale handle it
     * is dropped and counted, as for an agent that does not exist.
     */
    public void sendEventToEntity(ParamRef p, int row, int tag, EventPayload payload) {
        outbox.sendToAgent(entity(p, row), tag, payload);
    }

    /**
     * This worker's payload scratch, emptied: set the fields (ids from the tree's payload schema)
     * and pass it to {@link #sendEvent(int, int, EventPayload)}. Fields no transition of the tree
     * declares have no id: no condition could read them.
     */
    public EventPayload payload() {
        return payloadScratch.clear();
    }

    private EventPayload numeric(float value, boolean has) {
        if (!has || valueField < 0) {
            return null;
        }
        payloadScratch.clear().setFloat(valueField, value);
        return payloadScratch;
    }

    /** Payload field {@code field} of the event being tested for {@code row}, as a float. */
    public float eventFloat(int row, int field) {
        return EventPayload.asFloat(eventFields.eventFieldType(row, field), eventFields.eventFieldBits(row, field));
    }

    /** Payload field {@code field} of the event being tested for {@code row}, as an int. */
    public int eventInt(int row, int field) {
        return EventPayload.asInt(eventFields.eventFieldType(row, field), eventFields.eventFieldBits(row, field));
    }

    /** The transition priorities by code, low to critical: {@code PRIORITIES.indexOf(name)} is the code. */
    public static final java.util.List<String> PRIORITIES = java.util.List.of("low", "normal", "medium", "high", "critical");

    /**
     * Requests a transition of the agent in {@code row} to state {@code state} (from a
     * {@link NodeType.Builder#state} property, {@link NodeConfig#state}) at priority {@code priority}
     * (a code of {@link #PRIORITIES}): its next transition scan tries it before the states'
     * transitions, as a transition found at that priority (docs/SEMANTICS.md, rules O1-O4). Call
     * from a task's {@link Task#enterState}, {@link Task#tick}, {@link Task#onTimer} or
     * {@link Task#exitState}, in a task type that declares {@link NodeType.Builder#requestsTransitions}. Of several requests before
     * the scan, the one of highest priority is kept, the first among equals.
     *
     * @throws IllegalStateException when no task type of the tree declares requests
     */
    public void requestTransition(int row, int state, int priority) {
        if (requests == null) {
            throw new IllegalStateException("a transition request from a task whose type does not declare it; "
                    + "declare it with NodeType.Builder.requestsTransitions()");
        }
        if (priority < 0 || priority >= PRIORITIES.size()) {
            throw new IllegalArgumentException("priority " + priority + " is not one of 0.." + (PRIORITIES.size() - 1)
                    + " (" + PRIORITIES + ")");
        }
        requests.request(row, state, priority, callingTask);
    }

    /**
     * Starts (or restarts) the calling task's SECONDS timer for {@code row}: from the next tick on,
     * every tick the task is reached in TickTasks subtracts the agent's dt, and when the remaining
     * time is {@code <= 0} the timer stops and {@link Task#onTimer} is called (a NaN or infinite time
     * never runs out). Call from {@link Task#enterState} or {@link Task#onTimer} of a task whose type
     * declares a {@link TimerKind#SECONDS} timer.
     */
    public void startTimer(int row, float seconds) {
        timers.startTimer(timerTask(TimerKind.SECONDS), row, seconds);
    }

    /**
     * Starts (or restarts) the calling task's TICKS timer: it runs out on the {@code ticks}-th tick
     * (at least 1) from the next one on at which the task is reached in TickTasks. Call like
     * {@link #startTimer}, from a task whose type declares a {@link TimerKind#TICKS} timer.
     */
    public void startTickTimer(int row, int ticks) {
        if (ticks < 1) {
            throw new IllegalArgumentException("a tick timer needs at least 1 tick, got " + ticks);
        }
        timers.startTickTimer(timerTask(TimerKind.TICKS), row, ticks);
    }

    private int timerTask(TimerKind kind) {
        if (currentTask < 0 || currentTimer != kind.ordinal()) {
            throw new IllegalStateException(currentTask < 0
                    ? "timers can be started only from a task's enterState or onTimer"
                    : "task " + currentTask + " has a " + TIMER_KINDS[currentTimer] + " timer, not " + kind
                    + " (declare it with NodeType.Builder.timer)");
        }
        return currentTask;
    }

    /**
     * The rows {@code rowFrom .. rowTo-1} as a list (index 0 holds {@code rowFrom}), in a scratch
     * array valid until the next call; for default implementations of range kernels.
     */
    public int[] rowsBetween(int rowFrom, int rowTo) {
        int n = rowTo - rowFrom;
        if (rowList.length < n) {
            rowList = new int[n]; // sized by the runtime's ensureScratch; only a misuse grows it here
        }
        for (int i = 0; i < n; i++) {
            rowList[i] = rowFrom + i;
        }
        return rowList;
    }

    /** Borrows a temporary result array of at least the batch size; release with {@link #popScratch()}. */
    public boolean[] pushScratch() {
        if (scratchTop == scratch.length) {
            throw new IllegalStateException("condition nesting deeper than the compiled maximum " + scratch.length);
        }
        return scratch[scratchTop++];
    }

    public void popScratch() {
        scratchTop--;
    }

    // ---- runtime side: reached only through ContextControl ------------------------------------

    /** See {@link ContextControl#bindHost}. */
    void bindHost(Object[] columnArrays, Object[] externalObjects) {
        this.hostColumns = columnArrays;
        this.externals = externalObjects;
    }

    void bindSlots(float[][] floatSlots, int[][] intSlots, byte[][] boolSlots, int[] ids) {
        this.floats = floatSlots;
        this.ints = intSlots;
        this.bools = boolSlots;
        this.agentIds = ids;
    }

    /** Sets time (runtime use). */
    void setTime(long seed, long tick, float dt) {
        this.seed = seed;
        this.tick = tick;
        this.dt = dt;
    }

    /** Sets the enter/exit description (runtime use). */
    void setChange(byte changeType, int currentState, int targetState) {
        this.changeType = changeType;
        this.currentState = currentState;
        this.targetState = targetState;
    }

    void setExitStatus(byte status) {
        this.exitStatus = status;
    }

    void setOutbox(EventOutbox outbox) {
        this.outbox = outbox;
    }

    void setEvents(EventFields fields, int payloadFieldCount, int valueFieldId) {
        this.eventFields = fields;
        this.payloadScratch = new EventPayload(payloadFieldCount);
        this.valueField = valueFieldId;
    }

    /** The task whose tick runs next, or -1 (runtime use; {@link #setTask} sets it too). */
    void setCallingTask(int task) {
        this.callingTask = task;
    }

    /** Sets where transition requests go, null for none (runtime use). */
    void setRequests(TransitionRequests requests) {
        this.requests = requests;
    }

    /** Sets where timers go (runtime use). */
    void setTimers(TimerService timers) {
        this.timers = timers;
    }

    /** The task whose enterState or onTimer runs next, or -1 (runtime use). */
    void setTask(int task, TimerKind timer) {
        this.currentTask = task;
        this.callingTask = task;
        this.currentTimer = (byte) timer.ordinal();
    }

    /**
     * Directs task completions to {@code statusByRow[row - base]} (runtime use); entries must be
     * {@link RunStatus#RUNNING} for rows that may still complete.
     */
    void bindStatus(byte[] statusByRow, int base) {
        this.status = statusByRow;
        this.statusBase = base;
    }

    /** Number of completions reported since the last {@link #resetCompletions()}. */
    int completions() {
        return completions;
    }

    void resetCompletions() {
        completions = 0;
    }

    /** Makes sure {@code depth} scratch arrays of at least {@code size} exist (runtime use). */
    void ensureScratch(int depth, int size) {
        if (rowList.length < size) {
            rowList = new int[size];
        }
        if (scratch.length < depth || scratchSize < size) {
            int d = Math.max(depth, scratch.length);
            int s = Math.max(size, scratchSize);
            boolean[][] next = new boolean[d][];
            for (int i = 0; i < d; i++) {
                next[i] = new boolean[s];
            }
            scratch = next;
            scratchSize = s;
        }
        scratchTop = 0;
    }
}
