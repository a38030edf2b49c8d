package dev.crowdtree.statetree.model;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeProvider;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.reference.StandaloneHost;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a {@link SimulationModel} declares, immutable: its name, per-agent host columns with their
 * initial values, how many agents by default and the seconds per tick, its trees, its node
 * providers, its externals, its host systems before and after the trees, and optionally its
 * position columns with the world's bounds, how far an agent's reads of other agents reach, the
 * columns those reads see, and whether level of detail applies. Build one with {@link #builder}:
 * <pre>{@code
 * ModelDefinition.builder("guards")
 *         .agents(10_000).dt(0.1f)
 *         .column("x", FLOAT, (seed, id, i) -> (id % 100) * 20f)
 *         .column("distance", FLOAT, 1000)
 *         .positions("x", "y", 2000, 2000).reach(4)
 *         .tree("guards.json", () -> text)
 *         .nodes(new GuardNodes())
 *         .external("intruder", Intruder.class, Intruder::new)
 *         .before(HostSystemSpec.named("sight").reads("x", "y").writes("distance").factory(Sight::new))
 *         .after(HostSystemSpec.named("movement").reads("vx", "vy").writes("x", "y").factory(Movement::new))
 *         .build();
 * }</pre>
 * Every mistake is refused by {@link Builder#build} in one line naming the model and what is wrong.
 */
public final class ModelDefinition {
    /** Phase names of a model world's tick that are not a host system's. */
    static final List<String> RESERVED = List.of("neighbourhood", "lod", "statetree", "sync");

    /** Most agents a model may ask for by default (the tools' {@code --agents} may ask up to 16M). */
    public static final int MAX_DEFAULT_AGENTS = 16_000_000;

    /**
     * A tree the model runs: its name (a file name, for messages and snapshots) and a supplier of its
     * JSON text.
     */
    public record Tree(String name, Supplier<String> text) {
        /** Checks the fields. */
        public Tree {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(text, "text");
        }
    }

    /** An external the model binds: a world-level object its nodes and systems share, one per world. */
    public record External(String name, Class<?> type, Supplier<?> factory) {
        /** Checks the fields. */
        public External {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(factory, "factory");
        }

        /** A new object for one world, checked against the declared type. */
        public Object create() {
            Object o = factory.get();
            if (!type.isInstance(o)) {
                throw new IllegalStateException("the factory of external '" + name + "' made "
                        + (o == null ? "null" : "a " + o.getClass().getName()) + ", not a " + type.getName());
            }
            return o;
        }
    }

    private final String name;
    private final String description;
    private final int agents;
    private final float dt;
    private final List<ModelColumn> columns;
    private final List<Tree> trees;
    private final List<NodeProvider> nodes;
    private final List<External> externals;
    private final List<HostSystemSpec> before;
    private final List<HostSystemSpec> after;
    private final String xColumn;
    private final String yColumn;
    private final float width;
    private final float height;
    private final float reach;
    private final List<String> shared;
    private final boolean lod;

    private ModelDefinition(Builder b) {
        this.name = b.name;
        this.description = b.description;
        this.agents = b.agents;
        this.dt = b.dt;
        this.columns = List.copyOf(b.columns.values());
        this.trees = List.copyOf(b.trees);
        this.nodes = List.copyOf(b.nodes);
        this.externals = List.copyOf(b.externals.values());
        this.before = List.copyOf(b.before);
        this.after = List.copyOf(b.after);
        this.xColumn = b.xColumn;
        this.yColumn = b.yColumn;
        this.width = b.width;
        this.height = b.height;
        this.reach = b.reach;
        this.shared = List.copyOf(b.shared);
        this.lod = b.lod == null ? b.xColumn != null : b.lod;
    }

    /** A builder for a model named {@code name} (letters, digits, {@code .}, {@code _} and {@code -}). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** One line on what the model simulates (empty: none given). */
    public String description() {
        return description;
    }

    /** Agents when the tools are not told how many. */
    public int defaultAgents() {
        return agents;
    }

    /** Seconds per tick when the tools are not told. */
    public float defaultDt() {
        return dt;
    }

    /** The per-agent host columns, in declaration order. */
    public List<ModelColumn> columns() {
        return columns;
    }

    /** Column {@code name}, or null. */
    public ModelColumn column(String name) {
        for (ModelColumn c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** The trees; the first is the default. */
    public List<Tree> trees() {
        return trees;
    }

    /** The node providers whose types the trees use, registered in this order. */
    public List<NodeProvider> nodes() {
        return nodes;
    }

    public List<External> externals() {
        return externals;
    }

    /** External {@code externalName}, or null. */
    public External external(String externalName) {
        for (External e : externals) {
            if (e.name().equals(externalName)) {
                return e;
            }
        }
        return null;
    }

    /**
     * Checks that {@code tree} can run in this model: the model's columns it uses have the tree's
     * types, the model's externals it uses are of the types it needs, and every other host column and
     * external has a standalone value in {@code registry}.
     *
     * @throws IllegalArgumentException one line naming the column or external, the model, the tree
     *                                  and the node that uses it
     */
    public void check(CompiledStateTree tree, NodeRegistry registry) {
        for (HostColumn c : tree.hostColumns) {
            ModelColumn m = column(c.name());
            if (m != null && m.type() != c.type()) {
                throw new IllegalArgumentException("model '" + name + "' declares column '" + c.name() + "' as "
                        + m.type().word() + ", but tree '" + tree.name + "' uses it as " + c.type().word() + " ("
                        + tree.hostColumnUsers.get(c.name()) + ")");
            }
        }
        for (dev.crowdtree.statetree.node.External<?> e : tree.externals) {
            External m = external(e.name());
            if (m != null && !e.type().isAssignableFrom(m.type())) {
                throw new IllegalArgumentException("model '" + name + "' declares external '" + e.name() + "' as "
                        + m.type().getName() + ", but tree '" + tree.name + "' needs a " + e.type().getName() + " ("
                        + tree.externalUsers.get(e.name()) + ")");
            }
        }
        List<String> unmet = StandaloneHost.unmet(tree, registry, c -> column(c) != null, e -> external(e) != null);
        if (!unmet.isEmpty()) {
            throw new IllegalArgumentException(StandaloneHost.unmetMessage(tree, unmet));
        }
    }

    /** The columns an agent's panel shows: this model's, in order, then the others {@code tree}'s nodes use. */
    public List<String> columnNames(CompiledStateTree tree) {
        List<String> names = new ArrayList<>();
        for (ModelColumn c : columns) {
            names.add(c.name());
        }
        for (HostColumn c : tree.hostColumns) {
            if (!names.contains(c.name())) {
                names.add(c.name());
            }
        }
        return names;
    }

    /** Host systems before the trees, in order. */
    public List<HostSystemSpec> before() {
        return before;
    }

    /** Host systems after the trees, in order. */
    public List<HostSystemSpec> after() {
        return after;
    }

    /** Whether the model has position columns (viewer, frames, spatial regions, LOD). */
    public boolean hasPositions() {
        return xColumn != null;
    }

    /** The x position column, or null. */
    public String xColumn() {
        return xColumn;
    }

    /** The y position column, or null. */
    public String yColumn() {
        return yColumn;
    }

    /** The world's extent in x (positions lie in 0..width), or 0 without positions. */
    public float width() {
        return width;
    }

    /** The world's extent in y, or 0 without positions. */
    public float height() {
        return height;
    }

    /** How far an agent's host systems read other agents (0: they read none). */
    public float reach() {
        return reach;
    }

    /** The columns other agents' systems read through the {@link Neighbourhood}, besides positions. */
    public List<String> shared() {
        return shared;
    }

    /** Whether level of detail (tick periods by distance to an observer) applies. */
    public boolean allowsLod() {
        return lod;
    }

    @Override
    public String toString() {
        return "model '" + name + "'";
    }

    /** Builds a {@link ModelDefinition}; every method returns the builder. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private int agents = 10_000;
        private float dt = 0.1f;
        private final Map<String, ModelColumn> columns = new LinkedHashMap<>();
        private final List<Tree> trees = new ArrayList<>();
        private final List<NodeProvider> nodes = new ArrayList<>();
        private final Map<String, External> externals = new LinkedHashMap<>();
        private final List<HostSystemSpec> before = new ArrayList<>();
        private final List<HostSystemSpec> after = new ArrayList<>();
        private String xColumn;
        private String yColumn;
        private float width;
        private float height;
        private float reach;
        private final List<String> shared = new ArrayList<>();
        private Boolean lod;

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Za-z][A-Za-z0-9._-]{0,63}")) {
                throw new IllegalArgumentException("model name '" + name + "' is not valid; use a letter, then up to 63 "
                        + "letters, digits, '.', '_' or '-'");
            }
            this.name = name;
        }

        /** One line on what the model simulates. */
        public Builder description(String text) {
            this.description = Objects.requireNonNull(text, "description");
            return this;
        }

        /** Agents when the tools are not told how many (default 10,000). */
        public Builder agents(int count) {
            if (count < 1 || count > MAX_DEFAULT_AGENTS) {
                throw error("agents = " + count + " is out of range; valid range is 1.." + MAX_DEFAULT_AGENTS);
            }
            this.agents = count;
            return this;
        }

        /** Seconds per tick when the tools are not told (default 0.1). */
        public Builder dt(float seconds) {
            if (!(seconds > 0) || !Float.isFinite(seconds)) {
                throw error("dt = " + seconds + " is not a positive finite number of seconds");
            }
            this.dt = seconds;
            return this;
        }

        /** A per-agent column whose initial value {@code init} gives for each agent. */
        public Builder column(String column, HostColumn.Type type, ColumnInit init) {
            ModelColumn c = new ModelColumn(column, type, init);
            if (columns.putIfAbsent(column, c) != null) {
                throw error("column '" + column + "' is declared twice");
            }
            return this;
        }

        /** A per-agent column that starts at {@code value} for every agent. */
        public Builder column(String column, HostColumn.Type type, double value) {
            type.check(column, value);
            return column(column, type, ColumnInit.constant(value));
        }

        /** A tree the model runs; the first declared is the default. */
        public Builder tree(String treeName, Supplier<String> text) {
            trees.add(new Tree(treeName, text));
            return this;
        }

        /** A tree from a class path resource next to {@code anchor} ({@code "/guards.json"}: the jar's root). */
        public Builder treeResource(Class<?> anchor, String resource) {
            String shortName = resource.substring(resource.lastIndexOf('/') + 1);
            return tree(shortName, () -> {
                try (InputStream in = anchor.getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IllegalStateException("model '" + name + "': tree resource " + resource
                                + " is missing from the class path of " + anchor.getName());
                    }
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** Node providers whose types the model's trees use. */
        public Builder nodes(NodeProvider... providers) {
            for (NodeProvider p : providers) {
                nodes.add(Objects.requireNonNull(p, "provider"));
            }
            return this;
        }

        /** A world-level object bound as external {@code external}, one per world, made by {@code factory}. */
        public <T> Builder external(String external, Class<T> type, Supplier<? extends T> factory) {
            if (externals.putIfAbsent(external, new External(external, type, factory)) != null) {
                throw error("external '" + external + "' is declared twice");
            }
            return this;
        }

        /** A host system that runs before the trees each tick (after those declared before it). */
        public Builder before(HostSystemSpec system) {
            before.add(Objects.requireNonNull(system, "system"));
            return this;
        }

        /** A host system that runs after the trees each tick (after those declared before it). */
        public Builder after(HostSystemSpec system) {
            after.add(Objects.requireNonNull(system, "system"));
            return this;
        }

        /**
         * The float columns {@code x} and {@code y} are each agent's position, in a world of
         * {@code width} x {@code height} (positions lie in 0..width, 0..height): the viewer and frames
         * draw agents there, a run split into regions partitions by it, and LOD measures from it.
         */
        public Builder positions(String x, String y, float width, float height) {
            if (!(width > 0) || !(height > 0) || !Float.isFinite(width) || !Float.isFinite(height)) {
                throw error("the world's bounds " + width + " x " + height + " must be positive and finite");
            }
            this.xColumn = Objects.requireNonNull(x, "x");
            this.yColumn = Objects.requireNonNull(y, "y");
            this.width = width;
            this.height = height;
            return this;
        }

        /**
         * How far (in the positions' unit) a host system reads other agents through the
         * {@link Neighbourhood}: a region's halo holds its neighbours' agents this close to its border.
         */
        public Builder reach(float distance) {
            if (!(distance >= 0) || !Float.isFinite(distance)) {
                throw error("reach = " + distance + " must be a finite distance >= 0");
            }
            this.reach = distance;
            return this;
        }

        /** Columns that other agents' host systems read through the {@link Neighbourhood} (positions always are). */
        public Builder shared(String... shareColumns) {
            for (String c : shareColumns) {
                if (!shared.contains(c)) {
                    shared.add(c);
                }
            }
            return this;
        }

        /** Whether LOD applies (default: when the model has positions). */
        public Builder lod(boolean allowed) {
            this.lod = allowed;
            return this;
        }

        /**
         * The definition.
         *
         * @throws IllegalArgumentException naming the model and what is wrong: no tree, a position,
         *                                  shared or system column that is not declared (or not a
         *                                  float for positions), a reach without positions, two
         *                                  systems of one name, a system without a factory, LOD
         *                                  without positions
         */
        public ModelDefinition build() {
            if (trees.isEmpty()) {
                throw error("declares no tree (ModelDefinition.Builder.tree or treeResource)");
            }
            if (xColumn != null) {
                for (String p : new String[] {xColumn, yColumn}) {
                    ModelColumn c = columns.get(p);
                    if (c == null || c.type() != HostColumn.Type.FLOAT) {
                        throw error("position column '" + p + "' must be a float column the model declares; it declares "
                                + columns.keySet());
                    }
                }
            } else if (reach > 0 || !shared.isEmpty()) {
                throw error("reads other agents (reach or shared columns) but declares no positions "
                        + "(ModelDefinition.Builder.positions)");
            }
            if (Boolean.TRUE.equals(lod) && xColumn == null) {
                throw error("asks for LOD but declares no positions (LOD measures the distance to an observer)");
            }
            for (String c : shared) {
                if (!columns.containsKey(c)) {
                    throw error("shared column '" + c + "' is not a column it declares; it declares " + columns.keySet());
                }
            }
            List<String> names = new ArrayList<>();
            List<HostSystemSpec> all = new ArrayList<>(before);
            all.addAll(after);
            for (HostSystemSpec s : all) {
                if (names.contains(s.name()) || RESERVED.contains(s.name())) {
                    throw error("host system name '" + s.name() + "' is used twice or reserved " + RESERVED);
                }
                names.add(s.name());
                if (!s.hasFactory()) {
                    throw error("host system '" + s.name() + "' has no factory (HostSystemSpec.factory)");
                }
                List<String> used = new ArrayList<>(s.reads());
                used.addAll(s.writes());
                for (String c : used) {
                    if (!columns.containsKey(c)) {
                        throw error("host system '" + s.name() + "' uses column '" + c + "', which the model does not "
                                + "declare; it declares " + columns.keySet());
                    }
                }
            }
            return new ModelDefinition(this);
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("model '" + name + "' " + what);
        }
    }
}
