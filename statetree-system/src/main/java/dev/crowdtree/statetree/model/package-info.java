/**
 * Your simulation as a model: the unit a user brings to every tool. A {@link
 * dev.crowdtree.statetree.model.SimulationModel} (found with {@link java.util.ServiceLoader}, beside
 * {@link dev.crowdtree.statetree.node.NodeProvider}) declares a {@link
 * dev.crowdtree.statetree.model.ModelDefinition}: per-agent host columns with deterministic initial
 * values, how many agents, its trees, its node types, its externals and its host systems (per-tick
 * kernels before and after the StateTree phase, each declaring what it reads and writes, as Unreal
 * Mass's processors do), and optionally its position columns, world bounds and how far an agent's
 * reads reach. {@link dev.crowdtree.statetree.model.ModelWorld} runs one on the world's chunk
 * executor, deterministically on any number of workers; {@link
 * dev.crowdtree.statetree.model.ModelJars} loads models from jars and fingerprints them.
 */
package dev.crowdtree.statetree.model;
