package dev.crowdtree.statetree.node;


/**
 * A node input: a constant, a per-agent slot (a parameter, an evaluator output or an output of a
 * task in scope), a payload field of the event an {@code onEvent} transition is being tested
 * against ({@link #eventField}), or a property function of other inputs ({@code {"fn": "add", "args": [...]}}),
 * resolved by the compiler. Bound inputs are read live, at the moment the kernel reads them.
 *
 * <p>Functions: {@code add}, {@code mul}, {@code min}, {@code max} (2 or more args), {@code sub},
 * {@code div} (2), {@code abs}, {@code neg} (1), {@code clamp} (value, min, max). With all
 * arguments int the result is int, computed in Java int arithmetic (division truncates toward
 * zero); with any float argument it is float, each step in float. A division by zero gives 0 and
 * is counted ({@link #divisionsByZero}), never thrown.
 *
 * <p>Reading costs one predictable switch on a final field; kernels that care may test
 * {@link #isConstant()} once and take the array themselves.
 */
public final class ValueInput {
    public static final byte CONST = 0;
    public static final byte FLOAT_SLOT = 1;
    public static final byte INT_SLOT = 2;
    public static final byte BOOL_SLOT = 3;
    public static final byte FUNCTION = 4;
    public static final byte EVENT_FIELD = 5;

    /** Property functions, by name ({@link #function}); the index is the function's code. */
    public static final java.util.List<String> FUNCTIONS = java.util.List.of("add", "sub", "mul", "div", "min", "max",
            "abs", "neg", "clamp");
    private static final byte ADD = 0, SUB = 1, MUL = 2, DIV = 3, MIN = 4, MAX = 5, ABS = 6, NEG = 7, CLAMP = 8;

    private final byte kind;
    private final ValueType type;
    private final double constant;
    private final int slot;
    private final String description;
    private final byte fn;
    private final ValueInput[] args;
    private final java.util.concurrent.atomic.LongAdder divByZero;

    private ValueInput(byte kind, ValueType type, double constant, int slot, String description) {
        this(kind, type, constant, slot, description, (byte) -1, null, null);
    }

    private ValueInput(byte kind, ValueType type, double constant, int slot, String description, byte fn,
                       ValueInput[] args, java.util.concurrent.atomic.LongAdder divByZero) {
        this.kind = kind;
        this.type = type;
        this.constant = constant;
        this.slot = slot;
        this.description = description;
        this.fn = fn;
        this.args = args;
        this.divByZero = divByZero;
    }

    /**
     * The property function {@code name} of {@code args} (compiler use: names and arities are
     * checked there). Its type is int when every argument is int, else float; divisions by zero
     * are added to {@code divisionsByZero}.
     */
    public static ValueInput function(String name, ValueInput[] args, java.util.concurrent.atomic.LongAdder divisionsByZero) {
        int code = FUNCTIONS.indexOf(name);
        if (code < 0) {
            throw new IllegalArgumentException("no property function '" + name + "'; valid ones are " + FUNCTIONS);
        }
        boolean allInt = true;
        StringBuilder d = new StringBuilder(name).append('(');
        for (int i = 0; i < args.length; i++) {
            allInt &= args[i].type == ValueType.INT;
            d.append(i == 0 ? "" : ", ").append(args[i]);
        }
        return new ValueInput(FUNCTION, allInt ? ValueType.INT : ValueType.FLOAT, 0, -1, d.append(')').toString(),
                (byte) code, args.clone(), divisionsByZero);
    }

    /** How many divisions by zero this function (with the others of its tree) has met. */
    public long divisionsByZero() {
        return divByZero == null ? 0 : divByZero.sum();
    }

    private int intFn(NodeContext ctx, int row) {
        int a = args[0].getInt(ctx, row);
        switch (fn) {
            case ABS:
                return Math.abs(a);
            case NEG:
                return -a;
            case CLAMP:
                return Math.max(args[1].getInt(ctx, row), Math.min(args[2].getInt(ctx, row), a));
            case SUB:
                return a - args[1].getInt(ctx, row);
            case DIV: {
                int b = args[1].getInt(ctx, row);
                if (b == 0) {
                    divByZero.increment();
                    return 0;
                }
                return a / b;
            }
            default:
                for (int i = 1; i < args.length; i++) {
                    int b = args[i].getInt(ctx, row);
                    a = fn == ADD ? a + b : fn == MUL ? a * b : fn == MIN ? Math.min(a, b) : Math.max(a, b);
                }
                return a;
        }
    }

    private float floatFn(NodeContext ctx, int row) {
        float a = args[0].getFloat(ctx, row);
        switch (fn) {
            case ABS:
                return Math.abs(a);
            case NEG:
                return -a;
            case CLAMP:
                return Math.max(args[1].getFloat(ctx, row), Math.min(args[2].getFloat(ctx, row), a));
            case SUB:
                return a - args[1].getFloat(ctx, row);
            case DIV: {
                float b = args[1].getFloat(ctx, row);
                if (b == 0f) {
                    divByZero.increment();
                    return 0f;
                }
                return a / b;
            }
            default:
                for (int i = 1; i < args.length; i++) {
                    float b = args[i].getFloat(ctx, row);
                    a = fn == ADD ? a + b : fn == MUL ? a * b : fn == MIN ? Math.min(a, b) : Math.max(a, b);
                }
                return a;
        }
    }

    private float fnValue(NodeContext ctx, int row) {
        return type == ValueType.INT ? intFn(ctx, row) : floatFn(ctx, row);
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

    /**
     * An input reading payload field {@code field} (declared with {@code type}) of the event being
     * tested for the row ({@link NodeContext#eventFloat}); only valid in an onEvent transition's
     * conditions, which the compiler checks.
     */
    public static ValueInput eventField(ValueType type, int field, String name) {
        return new ValueInput(EVENT_FIELD, type, 0, field, "event:" + name);
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
            case FUNCTION:
                return fnValue(ctx, row);
            case EVENT_FIELD:
                return ctx.eventFloat(row, slot);
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
            case FUNCTION:
                return type == ValueType.INT ? intFn(ctx, row) : floatFn(ctx, row);
            case EVENT_FIELD:
                return type == ValueType.FLOAT ? ctx.eventFloat(row, slot) : ctx.eventInt(row, slot);
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
            case FUNCTION:
                return type == ValueType.INT ? intFn(ctx, row) : (int) floatFn(ctx, row);
            case EVENT_FIELD:
                return ctx.eventInt(row, slot);
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
