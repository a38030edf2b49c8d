package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.CompiledTreeBuilder;
import dev.crowdtree.statetree.compiler.Model.EvalInfo;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.Slot;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.node.ValueType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one compilation, shared by its passes: the input, the errors found so far (in the
 * order found; every pass goes on after an error so that one run reports them all), the
 * intermediate {@link Model} the passes fill in turn, and the {@link CompiledTreeBuilder} that
 * receives the output. One instance per {@link StateTreeCompiler#compile} call.
 */
final class Compilation {
    final TreeDef def;
    final NodeRegistry registry;
    final String source;
    /** The first {@link StateTreeCompileException#MAX_KEPT} errors, without duplicates; see {@link #omitted}. */
    final Set<CompileError> errors = new LinkedHashSet<>();
    /** Errors found beyond those kept (a hostile asset can have millions). */
    int omitted;
    final CompiledTreeBuilder out;

    // ---- declarations (DeclarationPass) --------------------------------------------------------
    final Map<String, Param> params = new LinkedHashMap<>();
    final List<EvalInfo> evalInfos = new ArrayList<>();
    /** The global tasks that have a type, in declared order ({@link GlobalTaskPass}). */
    final List<Model.TaskInfo> globalTasks = new ArrayList<>();
    final Map<String, StateDef> subtrees = new LinkedHashMap<>();
    /** State name -> where it is authored ("tree" or "subtree X"), for target errors. */
    final Map<String, List<String>> authoredNames = new HashMap<>();
    /** The tree's transitions are scanned root to leaf ({@code "transitionScan": "rootFirst"}, rule H1). */
    boolean rootFirst;
    /** The tree follows Unreal 5.8's rules ({@code "rules": "unreal-5.8"}, rules U1-U8). */
    boolean unreal;

    // ---- the expanded tree (ExpansionPass) -----------------------------------------------------
    /** States in id order (DFS pre-order). */
    final List<StateNode> order = new ArrayList<>();
    /** States by name, in DFS order, for resolving targets without scanning every state per transition. */
    final Map<String, List<StateNode>> statesByName = new HashMap<>();
    final Map<String, StateNode> statesByPath = new HashMap<>();
    int expanded;
    boolean tooManyStates;

    // ---- host data the nodes declare (NodeFactory) --------------------------------------------
    /** Host columns by name, in order of first declaration (the handle is the position). */
    final Map<String, HostColumn> hostColumns = new LinkedHashMap<>();
    /** The node type that first declared each host column, for conflict errors. */
    final Map<String, String> hostColumnOwner = new HashMap<>();
    final Map<String, Integer> hostColumnHandle = new HashMap<>();
    final Map<String, External<?>> externals = new LinkedHashMap<>();
    final Map<String, String> externalOwner = new HashMap<>();
    /** The node that first declared each host column or external, in words ({@link NodeFactory#who}). */
    final Map<String, String> hostColumnUser = new HashMap<>();
    final Map<String, String> externalUser = new HashMap<>();
    /** The built-in sendEvent tasks, as compiled, for warning W3. */
    final List<Model.SentEvent> sentEvents = new ArrayList<>();
    /** Every event tag a node of the tree names (a property of kind TAG): events it may send, for W5. */
    final java.util.Set<String> nodeTags = new java.util.LinkedHashSet<>();
    /** Event tags the host sends beside the tree's {@code hostEvents} (a scenario's), for W5. */
    java.util.Set<String> extraHostEvents = java.util.Set.of();
    /** The node types the tree uses, in order of first use. */
    final java.util.Set<String> nodeTypes = new java.util.LinkedHashSet<>();

    /** A probe compilation checks one unlinked subtree and must not probe others in turn. */
    boolean probe;
    /** The second pass over an asset without its disabled elements: the tree that runs, warned about. */
    boolean pruned;
    /** Random stream id of the next node. */
    int stream = 1;
    /** "Did you mean" for unknown names, within a budget (a hostile asset has thousands of them). */
    final Suggestions suggestions = new Suggestions(Suggestions.DEFAULT_BUDGET);

    Compilation(TreeDef def, NodeRegistry registry) {
        this.def = def;
        this.registry = registry;
        this.source = def == null || def.source() == null ? "<tree>" : def.source();
        this.out = CompiledStateTree.builder(def == null ? null : def.name(), source);
    }

    void error(String statePath, String field, String message) {
        add(new CompileError(source, statePath, field, message));
    }

    /** Keeps {@code e} among the first errors, or counts it. */
    void add(CompileError e) {
        if (errors.size() < StateTreeCompileException.MAX_KEPT) {
            errors.add(e);
        } else {
            omitted++;
        }
    }

    /** Errors found so far: a pass compares counts to see whether a step found any. */
    int errorCount() {
        return errors.size() + omitted;
    }

    /** Every error found, as an exception. */
    StateTreeCompileException exception() {
        return new StateTreeCompileException(new ArrayList<>(errors), omitted);
    }

    /** {@code "; did you mean [...]?"} with the names of {@code valid} closest to {@code word}, or "". */
    String didYouMean(String word, java.util.Collection<String> valid) {
        return suggestions.suggest(word, valid);
    }

    /** As {@link #didYouMean(String, java.util.Collection)}, among the names of a list "a, b, c". */
    String didYouMean(String word, String validNames) {
        return didYouMean(word, java.util.List.of(validNames.split(", ")));
    }

    Slot newSlot(ValueType type, String name) {
        return new Slot(type, out.addSlot(type, name));
    }

    static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }

    static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }
}
