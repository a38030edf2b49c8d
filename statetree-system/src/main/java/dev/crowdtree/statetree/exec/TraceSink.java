package dev.crowdtree.statetree.exec;

/**
 * Receives trace lines ({@code "<tick> <happening>"}, see docs/SEMANTICS.md section 10) per agent.
 * Runtimes call it only when tracing is on; per agent, lines arrive in the order things happen.
 * The batched runtime delivers a tick's lines after the tick, sorted by agent id.
 */
@FunctionalInterface
public interface TraceSink {
    void line(int agentId, String line);
}
