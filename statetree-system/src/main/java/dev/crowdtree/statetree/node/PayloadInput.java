package dev.crowdtree.statetree.node;

/**
 * A payload property as compiled ({@link PropertySpec.Kind#PAYLOAD}): the fields the tree can
 * observe (ids from its payload schema), each with an input read live and the slot type it is
 * written as. Fields no transition of the tree declares are left out by the compiler: nothing
 * could read them. Immutable.
 */
public final class PayloadInput {
    private final int[] fields;
    private final ValueInput[] values;
    private final ValueType[] types;
    private final String description;

    /** Field {@code fields[i]} gets {@code values[i]} written as {@code types[i]}. */
    public PayloadInput(int[] fields, ValueInput[] values, ValueType[] types, String description) {
        this.fields = fields.clone();
        this.values = values.clone();
        this.types = types.clone();
        this.description = description;
    }

    /** The payload for {@code row}, in the worker's scratch ({@link NodeContext#payload()}). */
    public EventPayload fill(NodeContext ctx, int row) {
        EventPayload p = ctx.payload();
        for (int i = 0; i < fields.length; i++) {
            ValueInput v = values[i];
            switch (types[i]) {
                case BOOL:
                    p.setBool(fields[i], v.getBool(ctx, row));
                    break;
                case INT:
                    p.setInt(fields[i], v.getInt(ctx, row));
                    break;
                default:
                    p.setFloat(fields[i], v.getFloat(ctx, row));
            }
        }
        return p;
    }

    /** The payload as written, e.g. {@code {volume: param:loudness}}. */
    @Override
    public String toString() {
        return description;
    }
}
