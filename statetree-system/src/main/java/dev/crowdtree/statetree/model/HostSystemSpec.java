package dev.crowdtree.statetree.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A host system's declaration: its name (the phase name in tick timings), the model columns it
 * reads and writes, and the factory that makes one instance per world. Immutable; build one with
 * {@link #named}:
 * <pre>{@code
 * HostSystemSpec.named("sight").reads("x", "y").writes("distance").factory(SightSystem::new)
 * }</pre>
 * A column written is also readable. The declared access is enforced when the system binds its
 * columns ({@link SystemBinding}), and it is what a reader of the model sees of the data flow.
 */
public final class HostSystemSpec {
    private final String name;
    private final List<String> reads;
    private final List<String> writes;
    private final Supplier<? extends HostSystem> factory;

    private HostSystemSpec(String name, List<String> reads, List<String> writes, Supplier<? extends HostSystem> factory) {
        this.name = name;
        this.reads = List.copyOf(reads);
        this.writes = List.copyOf(writes);
        this.factory = factory;
    }

    /** A system named {@code name} (letters, digits, {@code _} and {@code -}), reading and writing nothing yet. */
    public static HostSystemSpec named(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z][A-Za-z0-9_-]{0,39}")) {
            throw new IllegalArgumentException("host system name '" + name + "' is not valid; use a letter, then up to "
                    + "39 letters, digits, '_' or '-'");
        }
        return new HostSystemSpec(name, List.of(), List.of(), null);
    }

    /** This spec, also reading {@code columns}. */
    public HostSystemSpec reads(String... columns) {
        return new HostSystemSpec(name, union(reads, columns), writes, factory);
    }

    /** This spec, also writing (and reading) {@code columns}. */
    public HostSystemSpec writes(String... columns) {
        return new HostSystemSpec(name, reads, union(writes, columns), factory);
    }

    /** This spec with the factory that makes the system, once per world. */
    public HostSystemSpec factory(Supplier<? extends HostSystem> make) {
        return new HostSystemSpec(name, reads, writes, Objects.requireNonNull(make, "factory"));
    }

    public String name() {
        return name;
    }

    /** The columns read (and not written), in declaration order. */
    public List<String> reads() {
        List<String> out = new ArrayList<>(reads);
        out.removeAll(writes);
        return Collections.unmodifiableList(out);
    }

    /** The columns written, in declaration order. */
    public List<String> writes() {
        return writes;
    }

    /** Whether the system may read {@code column} (declared read or written). */
    public boolean mayRead(String column) {
        return reads.contains(column) || writes.contains(column);
    }

    /** Whether the system may write {@code column}. */
    public boolean mayWrite(String column) {
        return writes.contains(column);
    }

    /** A new instance. */
    HostSystem create() {
        if (factory == null) {
            throw new IllegalStateException("host system '" + name + "' has no factory (HostSystemSpec.factory)");
        }
        HostSystem s = factory.get();
        if (s == null) {
            throw new IllegalStateException("the factory of host system '" + name + "' made null");
        }
        return s;
    }

    boolean hasFactory() {
        return factory != null;
    }

    private static List<String> union(List<String> a, String[] more) {
        Set<String> s = new LinkedHashSet<>(a);
        for (String c : more) {
            if (c == null || c.isBlank()) {
                throw new IllegalArgumentException("a host system's column needs a name");
            }
            s.add(c);
        }
        return new ArrayList<>(s);
    }

    @Override
    public String toString() {
        return name + " (reads " + reads() + ", writes " + writes + ")";
    }
}
