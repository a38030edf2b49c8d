/**
 * On top of both the authoring side and the runtime: the per-agent reference interpreter (the
 * oracle the batched runtime is tested against, plain or with Unreal 5.6's scheduled tick) and the
 * scenarios that script a run and print its canonical trace, used by the command line's
 * {@code trace} and by the golden tests. The trace format and sinks themselves belong to the runtime
 * ({@code exec.TraceFormat}, {@code exec.TraceSink}).
 */
package dev.crowdtree.statetree.reference;
