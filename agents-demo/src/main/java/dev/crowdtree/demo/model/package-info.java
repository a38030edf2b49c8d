/**
 * The models the tools run ({@link dev.crowdtree.demo.model.RunnableModel}): the crowd
 * ({@link dev.crowdtree.demo.model.CrowdModel}, the default), a model of yours from a jar
 * ({@code --model PATH}, a {@code SimulationModel} run by the library's {@code ModelWorld}), or the
 * plain model of {@code --nodes} alone (a tree of yours with no host systems). {@link
 * dev.crowdtree.demo.model.Models} finds and loads them, with the node types each brings; node type
 * names clash only among what is loaded.
 */
package dev.crowdtree.demo.model;
