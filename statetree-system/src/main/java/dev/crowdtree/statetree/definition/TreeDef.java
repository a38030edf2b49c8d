package dev.crowdtree.statetree.definition;

import java.util.List;

/**
 * A whole tree asset as authored: name, parameters, evaluators, the root state, the subtrees that
 * {@code linked} states may point at, and the global tasks (tasks of the whole tree, entered before
 * the root state is selected and exited when the tree finishes: docs/SEMANTICS.md, rules G1-G5).
 * {@code source} names where it came from (a file name, or a label for trees built in code) and
 * prefixes every compile error. {@code transitionScan} is {@code leafFirst} (null: the default) or
 * {@code rootFirst}, the order of the transition scan (docs/SEMANTICS.md, rules H1-H2). {@code rules}
 * is {@code seed} (null: the default) or {@code unreal-5.8}, the rule set the runtimes follow where
 * the two differ (docs/SEMANTICS.md section 20, rules U1-U8). {@code hostEvents} lists the event
 * tags the host program sends the agents (none: an empty list), which warning W5 takes as sent.
 */
public record TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                      StateDef root, List<StateDef> subtrees, List<NodeDef> globalTasks, String transitionScan,
                      String rules, List<String> hostEvents) {
    /** This tree with {@code newRoot} as its root (every other field kept). */
    public TreeDef withRoot(StateDef newRoot) {
        return new TreeDef(source, name, parameters, evaluators, newRoot, subtrees, globalTasks, transitionScan, rules,
                hostEvents);
    }

    /** A tree whose host sends no event that W5 must know of. */
    public TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                   StateDef root, List<StateDef> subtrees, List<NodeDef> globalTasks, String transitionScan,
                   String rules) {
        this(source, name, parameters, evaluators, root, subtrees, globalTasks, transitionScan, rules, null);
    }

    /** A tree under the default rules ({@code seed}). */
    public TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                   StateDef root, List<StateDef> subtrees, List<NodeDef> globalTasks, String transitionScan) {
        this(source, name, parameters, evaluators, root, subtrees, globalTasks, transitionScan, null);
    }

    public TreeDef {
        parameters = parameters == null ? List.of() : List.copyOf(parameters);
        evaluators = evaluators == null ? List.of() : List.copyOf(evaluators);
        subtrees = subtrees == null ? List.of() : List.copyOf(subtrees);
        globalTasks = globalTasks == null ? List.of() : List.copyOf(globalTasks);
        hostEvents = hostEvents == null ? List.of() : List.copyOf(hostEvents);
    }

    /** A tree scanned leaf first (the default). */
    public TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                   StateDef root, List<StateDef> subtrees, List<NodeDef> globalTasks) {
        this(source, name, parameters, evaluators, root, subtrees, globalTasks, null);
    }

    /** A tree without global tasks. */
    public TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                   StateDef root, List<StateDef> subtrees) {
        this(source, name, parameters, evaluators, root, subtrees, List.of());
    }
}
