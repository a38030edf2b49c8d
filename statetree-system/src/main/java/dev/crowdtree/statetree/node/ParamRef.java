package dev.crowdtree.statetree.node;


/**
 * A resolved reference to a parameter slot, for nodes that read or write parameters. An
 * {@code entity} parameter is an agent handle: the id in {@code slot}, the agent's generation in
 * {@code generationSlot} (-1 for other parameters), so a stale handle is told apart from a later
 * agent given the same id ({@link NodeContext#entity}).
 */
public record ParamRef(String name, ValueType type, int slot, String[] enumValues, int generationSlot) {
    /** A parameter that is not an enum. */
    public ParamRef(String name, ValueType type, int slot) {
        this(name, type, slot, null, -1);
    }

    /** A parameter that is not an entity. */
    public ParamRef(String name, ValueType type, int slot, String[] enumValues) {
        this(name, type, slot, enumValues, -1);
    }

    /**
     * Writes {@code value} (converted to the parameter's type) into the agent's parameter; for an
     * entity, the handle of the agent with that id now.
     */
    public void set(NodeContext ctx, int row, double value) {
        ctx.write(type, slot, row, value);
        if (generationSlot >= 0) {
            ctx.write(ValueType.INT, generationSlot, row, ctx.generationOf((int) value));
        }
    }

    /** The parameter as an input. */
    public ValueInput asInput() {
        return ValueInput.slot(type, slot, "param:" + name);
    }
}
