package dev.crowdtree.statetree.definition;

import java.util.List;

/**
 * A whole tree asset as authored: name, parameters, evaluators, the root state and the subtrees
 * that {@code linked} states may point at. {@code source} names where it came from (a file name,
 * or a label for trees built in code) and prefixes every compile error.
 */
public record TreeDef(String source, String name, List<ParameterDef> parameters, List<NodeDef> evaluators,
                      StateDef root, List<StateDef> subtrees) {
    public TreeDef {
        parameters = parameters == null ? List.of() : List.copyOf(parameters);
        evaluators = evaluators == null ? List.of() : List.copyOf(evaluators);
        subtrees = subtrees == null ? List.of() : List.copyOf(subtrees);
    }
}
