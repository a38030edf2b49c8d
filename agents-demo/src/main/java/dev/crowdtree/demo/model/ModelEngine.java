package dev.crowdtree.demo.model;

import dev.crowdtree.statetree.model.ModelDefinition;
import dev.crowdtree.statetree.node.NodeRegistry;

/**
 * A model on the tools' class path that brings its own engine instead of the library's
 * {@code ModelWorld}: the crowd ({@link CrowdModel}), whose grid, smart objects and threats are
 * hand-tuned kernels. {@link Models} asks it for the {@link RunnableModel} the tools run; a model
 * without an engine runs on {@code ModelWorld}.
 */
public interface ModelEngine {
    /**
     * The runnable model of {@code definition} (this model's own), compiling trees with
     * {@code registry} (the built-ins, this model's node types and any {@code --nodes} jars'), with
     * {@code fingerprint} for cluster handshakes and snapshots.
     */
    RunnableModel runnable(ModelDefinition definition, NodeRegistry registry, String fingerprint);
}
