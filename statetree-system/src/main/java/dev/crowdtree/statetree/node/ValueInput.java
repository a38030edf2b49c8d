package dev.crowdtree.statetree.node;


/**
 * A node input: either a constant or a per-agent slot (a parameter, an evaluator output or an
 * output of a task in scope), resolved by the compiler. Bound inputs are read live, at the moment
 * the kernel reads them.
 *
 * <p>Reading costs one predictable switch on a final field; kernels that care may test
 * {@link #isConstant()} once and take the array themselves.
 */
public final class ValueInput {
    public static final byte CONST = 0;
    public static final byte FLOAT_SLOT = 1;
    public static final byte INT_SLOT = 2;
    public static final byte BOOL_SLOT = 3;

    private final byte kind;
    private final ValueType type;
    private final double constant;
    private final int slot;
    private final String description;

    private ValueInput(byte kind, ValueType type, double constant, int slot, String description) {
        this.kind = kind;
        this.type = type;
        this.constant = constant;
        this.slot = slot;
        this.description = description;
    }

    public static ValueInput constant(ValueType type, double value) {
        String d = type == ValueType.BOOL ? String.valueOf(value != 0)
                : type == ValueType.INT ? String.valueOf((long) value) : String.valueOf(value);
        return new ValueInput(CONST, type, value, -1, d);
    }

    /** An input reading slot {@code slot} of the given type; {@code description} names the source. */
    public static ValueInput slot(ValueType type, int slot, String description) {
        byte k = type == ValueType.FLOAT ? FLOAT_SLOT : type == ValueType.INT ? INT_SLOT : BOOL_SLOT;
        return new ValueInput(k, type, 0, slot, description);
    }

    public boolean isConstant() {
        return kind == CONST;
    }

    public byte kind() {
        return kind;
    }

    /** The type of the source value. */
    public ValueType type() {
        return type;
    }

    public int slot() {
        return slot;
    }

    public double constantValue() {
        return constant;
    }

    public float getFloat(NodeContext ctx, int row) {
        switch (kind) {
            case CONST:
                return (float) constant;
            case FLOAT_SLOT:
                return ctx.floats[slot][row];
            case INT_SLOT:
                return ctx.ints[slot][row];
            default:
                return ctx.bools[slot][row];
        }
    }

    public double getDouble(NodeContext ctx, int row) {
        switch (kind) {
            case CONST:
                return constant;
            case FLOAT_SLOT:
                return ctx.floats[slot][row];
            case INT_SLOT:
                return ctx.ints[slot][row];
            default:
                return ctx.bools[slot][row];
        }
    }

    public int getInt(NodeContext ctx, int row) {
        switch (kind) {
            case CONST:
                return (int) constant;
            case FLOAT_SLOT:
                return (int) ctx.floats[slot][row];
            case INT_SLOT:
                return ctx.ints[slot][row];
            default:
                return ctx.bools[slot][row];
        }
    }

    public boolean getBool(NodeContext ctx, int row) {
        switch (kind) {
            case CONST:
                return constant != 0;
            case BOOL_SLOT:
                return ctx.bools[slot][row] != 0;
            default:
                return getDouble(ctx, row) != 0;
        }
    }

    /** A readable form: the constant, or the bound source such as {@code param:ammo}. */
    @Override
    public String toString() {
        return description;
    }
}
