package dev.crowdtree.statetree.node;


/** A resolved reference to a parameter slot, for nodes that write parameters. */
public record ParamRef(String name, ValueType type, int slot, String[] enumValues) {
    /** A parameter that is not an enum. */
    public ParamRef(String name, ValueType type, int slot) {
        this(name, type, slot, null);
    }

    /** Writes {@code value} (converted to the parameter's type) into the agent's parameter. */
    public void set(NodeContext ctx, int row, double value) {
        ctx.write(type, slot, row, value);
    }

    /** The parameter as an input. */
    public ValueInput asInput() {
        return ValueInput.slot(type, slot, "param:" + name);
    }
}
