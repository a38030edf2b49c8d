package dev.crowdtree.statetree.node;

/**
 * A jar's node types, found by {@link java.util.ServiceLoader}: the way your tasks, conditions and
 * evaluators reach every tool that reads a tree ({@code validate}, {@code dot}, {@code trace},
 * {@code run} and {@code serve}, each with {@code --nodes PATH}) without a line of their code
 * changed.
 *
 * <p>Declare the implementation (a public class with a public no-argument constructor) in the jar
 * as a service: a file {@code META-INF/services/dev.crowdtree.statetree.node.NodeProvider} listing
 * its class name, or, in a modular jar, {@code provides dev.crowdtree.statetree.node.NodeProvider
 * with ...;} in {@code module-info.java} (a modular jar given to {@code --nodes} is read from the
 * class path, so give it the services file too).
 *
 * <p>{@link #register} adds the node types, and what they need when no host program runs them
 * (a <em>standalone</em> run: {@code trace}, or {@code run} and {@code serve} for a tree that does
 * not use the crowd's node types): a value for every host column the types read or write
 * ({@link NodeRegistry#standaloneColumn}), and an object for every external they need
 * ({@link NodeRegistry#standaloneExternal}). A tree whose needs no loaded provider meets cannot run
 * standalone; the tools say which column or external is missing and which node needs it.
 *
 * <pre>{@code
 * public final class GuardNodes implements NodeProvider {
 *     public void register(NodeRegistry registry) {
 *         registry.register(NodeType.condition("canSee")
 *                 .input("range", ValueType.FLOAT, p -> p.required().min(0))
 *                 .reads("distance", HostColumn.Type.FLOAT)
 *                 .factory(CanSeeCondition::new).build());
 *         registry.standaloneColumn("distance", 100);       // far away, unless a scenario says otherwise
 *     }
 * }
 * }</pre>
 *
 * <p>THREADING: called once, on the thread that builds the registry, before any compilation.
 */
public interface NodeProvider {
    /**
     * Registers this provider's node types and their standalone needs in {@code registry}, which
     * already holds the built-in types and those of providers registered before this one.
     *
     * @throws IllegalArgumentException when a type's name is taken (the tools report it, naming the
     *                                  provider), or for a bad declaration
     */
    void register(NodeRegistry registry);
}
