package dev.crowdtree.demo.serve;

/**
 * The binary frame {@code GET /frame} returns: one snapshot of the crowd, little-endian, about 5
 * bytes per agent. The page reads it with a {@code DataView} for the header and typed-array views
 * for the sections (every section that a {@code Uint16Array} or {@code Uint32Array} views starts at
 * a multiple of 4).
 *
 * <pre>
 * header, {@value #HEADER_BYTES} bytes
 *   0  u32  magic "CTF1" (bytes 'C' 'T' 'F' '1')
 *   4  u16  version ({@value #VERSION})
 *   6  u16  header size in bytes ({@value #HEADER_BYTES})
 *   8  i64  tick number
 *  16  u32  frame sequence number (one per published snapshot; for {@code /frame?after=})
 *  20  u32  N, agents in the frame (table rows)
 *  24  u16  S, states in the tree
 *  26  u16  T, threats
 *  28  u32  O, smart objects
 *  32  f32  world size in metres (positions are quantized over [0, world size])
 *  36  f32  ticks per second, measured over the last second of wall time
 *  40  f32  speed (simulated seconds per real second)
 *  44  u8   flags: bit 0 = paused
 *  45  u8   slots per smart object (capped at 255)
 *  46  u16  reserved (0)
 *  48  i32  selected agent id, or -1
 *  52  u16  selected agent x (quantized), 54 u16 selected agent y (quantized)
 *  56  f32  mean milliseconds per tick over the last second
 *  60  u32  running agents (the sum of the occupancy counts)
 * sections, in this order
 *  occupancy   S x u32               running agents whose active state is s
 *  threats     T x 8 bytes           u16 x, u16 y, u16 radius (quantized like positions), u8 kind
 *                                    (0 predator, 1 fire), u8 active (0/1)
 *  positions   N x (u16 x, u16 y)    quantized: q = round(v / worldSize * 65535)
 *  states      N x u8                active state id of each agent, 255 = none
 *  objects     O x u8                slots in use per smart object (capped at 255)
 * </pre>
 *
 * Total: {@code 64 + 4S + 8T + 5N + O} bytes.
 */
public final class FrameFormat {
    /** "CTF1" read as a little-endian u32. */
    public static final int MAGIC = 'C' | 'T' << 8 | 'F' << 16 | '1' << 24;
    /** Format version. */
    public static final int VERSION = 1;
    /** Bytes before the first section. */
    public static final int HEADER_BYTES = 64;
    /** Bytes per threat record. */
    public static final int THREAT_BYTES = 8;
    /** State byte of an agent with no active state. */
    public static final int NO_STATE = 255;
    /** The largest state count one state byte can carry (ids 0..254). */
    public static final int MAX_STATES = 255;
    /** Largest quantized coordinate. */
    public static final int QMAX = 65535;

    // header offsets
    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 4;
    static final int OFF_HEADER = 6;
    static final int OFF_TICK = 8;
    static final int OFF_SEQ = 16;
    static final int OFF_AGENTS = 20;
    static final int OFF_STATES = 24;
    static final int OFF_THREATS = 26;
    static final int OFF_OBJECTS = 28;
    static final int OFF_WORLD = 32;
    static final int OFF_TPS = 36;
    static final int OFF_SPEED = 40;
    static final int OFF_FLAGS = 44;
    static final int OFF_SLOTS = 45;
    static final int OFF_SELECTED = 48;
    static final int OFF_SELECTED_X = 52;
    static final int OFF_SELECTED_Y = 54;
    static final int OFF_TICK_MS = 56;
    static final int OFF_RUNNING = 60;

    /** Flag bit: the simulation is paused. */
    public static final int FLAG_PAUSED = 1;

    private FrameFormat() {
    }

    /** The size of a frame in bytes. */
    public static int frameBytes(int agents, int states, int threats, int objects) {
        return HEADER_BYTES + 4 * states + THREAT_BYTES * threats + 5 * agents + objects;
    }

    /** Offset of the positions section. */
    public static int positionsOffset(int states, int threats) {
        return HEADER_BYTES + 4 * states + THREAT_BYTES * threats;
    }

    /** Offset of the states section. */
    public static int statesOffset(int agents, int states, int threats) {
        return positionsOffset(states, threats) + 4 * agents;
    }

    /** Offset of the smart-object section. */
    public static int objectsOffset(int agents, int states, int threats) {
        return statesOffset(agents, states, threats) + agents;
    }
}
