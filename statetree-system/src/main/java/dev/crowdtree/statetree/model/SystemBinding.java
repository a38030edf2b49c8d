package dev.crowdtree.statetree.model;

import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;

import java.util.Map;

/**
 * What a {@link HostSystem} may reach, handed to {@link HostSystem#bind} once per world: the model
 * columns its spec declares (by name and type; any other is refused, naming the system, the column
 * and what it declared), the agent ids by row, the model's externals, and the {@link Neighbourhood}
 * when the model reads other agents.
 *
 * <p>THREADING: the simulation thread, during {@code bind}.
 */
public final class SystemBinding {
    private final HostSystemSpec spec;
    private final SoaTable table;
    private final Map<String, Object> externals;
    private final Neighbourhood neighbourhood;
    private final int workers;

    SystemBinding(HostSystemSpec spec, SoaTable table, Map<String, Object> externals, Neighbourhood neighbourhood,
                  int workers) {
        this.spec = spec;
        this.table = table;
        this.externals = externals;
        this.neighbourhood = neighbourhood;
        this.workers = workers;
    }

    /** Float column {@code name}, declared read or written by the system. */
    public FloatColumn floats(String name) {
        return column(name, FloatColumn.class, "float");
    }

    /** Int column {@code name}, declared read or written by the system. */
    public IntColumn ints(String name) {
        return column(name, IntColumn.class, "int");
    }

    /** Byte column {@code name}, declared read or written by the system. */
    public ByteColumn bytes(String name) {
        return column(name, ByteColumn.class, "byte");
    }

    /** The agent id in each row ({@code agentIds().data()[row]}), always readable. */
    public IntColumn agentIds() {
        return table.agentIds();
    }

    /** Worker threads of the world: the size of per-worker scratch ({@code chunk.worker()} indexes it). */
    public int workers() {
        return workers;
    }

    /**
     * The model's external {@code name} ({@link ModelDefinition.Builder#external}), the same object
     * the trees' nodes see.
     *
     * @throws IllegalArgumentException naming the valid externals when there is none of that name or type
     */
    public <T> T external(String name, Class<T> type) {
        Object o = externals.get(name);
        if (o == null || !type.isInstance(o)) {
            throw new IllegalArgumentException("host system '" + spec.name() + "': no external '" + name + "' of type "
                    + type.getName() + "; the model's externals are " + externals.keySet());
        }
        return type.cast(o);
    }

    /**
     * The other agents near a point, as of the start of the tick (and, in a region, the neighbouring
     * regions' agents within the model's reach).
     *
     * @throws IllegalStateException when the model declares no positions and reach
     */
    public Neighbourhood neighbourhood() {
        if (neighbourhood == null) {
            throw new IllegalStateException("host system '" + spec.name() + "' asks for the neighbourhood, but the model "
                    + "declares no positions and reach (ModelDefinition.Builder.positions and reach)");
        }
        return neighbourhood;
    }

    private <C extends Column> C column(String name, Class<C> kind, String word) {
        if (!spec.mayRead(name)) {
            throw new IllegalArgumentException("host system '" + spec.name() + "' did not declare column '" + name
                    + "'; it reads " + spec.reads() + " and writes " + spec.writes() + " (HostSystemSpec.reads/writes)");
        }
        Column c = table.column(name);
        if (c == null) {
            throw new IllegalArgumentException("host system '" + spec.name() + "': the agent table has no column '" + name
                    + "'");
        }
        if (!kind.isInstance(c)) {
            throw new IllegalArgumentException("host system '" + spec.name() + "': column '" + name + "' is " + c.typeName()
                    + ", not " + word);
        }
        return kind.cast(c);
    }
}
