package dev.crowdtree.statetree.compiler;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiled.Vocabulary.Rules;
import dev.crowdtree.statetree.compiled.Vocabulary.TransitionScan;
import dev.crowdtree.statetree.compiler.Model.Param;
import dev.crowdtree.statetree.compiler.Model.StateNode;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TreeDef;
import dev.crowdtree.statetree.node.NodeRegistry;
import dev.crowdtree.statetree.nodes.BuiltinNodes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Compiles an authored {@link TreeDef} into a {@link CompiledStateTree}, or reports every error it
 * finds at once in a {@link StateTreeCompileException}. A tree that compiles carries the compiler's
 * authoring warnings ({@link CompiledStateTree#warnings}, ids W1-W4 in docs/SEMANTICS.md,
 * "Authoring warnings"): logic that cannot work as written, which does not stop the tree from running.
 *
 * <p>What it does, in order: checks parameters, evaluators and global tasks; expands the state hierarchy,
 * inlining a private copy of the subtree under every {@code linked} state (cycles of linked states
 * are errors); numbers states in depth-first pre-order; assigns per-agent slots (parameters,
 * evaluator and global task fields, subtree-copy parameters, then task fields as a union per depth, since only one
 * state per depth is active); builds tasks, conditions and transitions with their bindings resolved
 * under Unreal's scope rules (rule A16, docs/SEMANTICS.md section 13): enter conditions see parameters and evaluators;
 * transition conditions also see the tasks of their state and its ancestors; task inputs see
 * parameters, evaluators, earlier tasks of their state and the tasks of ancestor states; evaluator
 * inputs see parameters and earlier evaluators; the global tasks count as ancestors of the root (rule
 * G4), and a global task's inputs see parameters, evaluators and earlier global tasks.
 *
 * <p>Whatever the input, the only exception it throws is {@link StateTreeCompileException}.
 * THREADING: a compiler instance may be used from several threads; each call is independent.
 */
public final class StateTreeCompiler {
    /*
     * Each step is a pass of its own, run in this order over one Compilation: DeclarationPass,
     * GlobalTaskPass (the global tasks: after the evaluators, before every state), ExpansionPass,
     * SlotLayoutPass, StatePass (with TransitionPass, NodeFactory and Bindings), WarningPass (only
     * when no error was found), then the assembly below, which hands the result to CompiledTreeBuilder,
     * and RuntimeFactsPass, which derives from it what the runtimes need (CompiledStateTree computes nothing).
     */

    /** Deepest nesting of conditions inside conditions. */
    public static final int MAX_CONDITION_NESTING = 32;

    private final NodeRegistry registry;
    /** Event tags the host sends beside a tree's own {@code hostEvents} (warning W5). */
    private final java.util.Set<String> hostEvents;

    public StateTreeCompiler(NodeRegistry registry) {
        this(registry, java.util.Set.of());
    }

    private StateTreeCompiler(NodeRegistry registry, java.util.Set<String> hostEvents) {
        this.registry = registry.copy();
        this.hostEvents = hostEvents;
    }

    /**
     * This compiler, told that the host also sends the events {@code tags} (a scenario's, say) beside
     * those a tree lists in its {@code hostEvents}: warning W5 takes them as sent.
     */
    public StateTreeCompiler withHostEvents(java.util.Collection<String> tags) {
        java.util.Set<String> all = new java.util.LinkedHashSet<>(hostEvents);
        all.addAll(tags);
        return new StateTreeCompiler(registry, java.util.Set.copyOf(all));
    }

    /** A compiler that knows the built-in node types. */
    public static StateTreeCompiler withBuiltins() {
        return new StateTreeCompiler(BuiltinNodes.registry());
    }

    public NodeRegistry registry() {
        return registry.copy();
    }

    /**
     * Compiles {@code def}, or throws with every error found. Disabled elements
     * ({@code "enabled": false}) are checked like the others, then left out of the result (rules
     * N1-N5 of docs/SEMANTICS.md): a second pass compiles {@link EnabledFlags#prune the asset
     * without them}.
     */
    public CompiledStateTree compile(TreeDef def) throws StateTreeCompileException {
        Compilation c = new Compilation(def, registry);
        c.extraHostEvents = hostEvents;
        CompiledStateTree result = attempt(c);
        if (c.errorCount() == 0 && result != null && EnabledFlags.anyDisabled(def)) {
            Compilation kept = new Compilation(EnabledFlags.prune(def), registry);
            kept.extraHostEvents = hostEvents;
            kept.probe = true; // its subtrees that only disabled states link were checked above
            kept.pruned = true; // the tree that runs: its warnings are the ones to give
            result = attempt(kept);
            kept.errors.forEach(c::add); // none expected: every element was checked above
        }
        if (c.errorCount() > 0 || result == null) {
            if (c.errorCount() == 0) {
                c.error(null, null, "the tree could not be compiled");
            }
            throw c.exception();
        }
        return result;
    }

    /** {@link #run}, with every exception turned into an error of {@code c}. */
    private CompiledStateTree attempt(Compilation c) {
        try {
            return run(c);
        } catch (StackOverflowError | RuntimeException e) {
            // A safety net only: every known kind of bad input is reported as a specific error.
            c.error(null, null, "internal compiler error (" + e + "); please report this asset");
            return null;
        }
    }

    /** Runs the passes in order; null when the tree cannot be built (the errors say why). */
    private CompiledStateTree run(Compilation c) {
        TreeDef def = c.def;
        if (def == null) {
            c.error(null, null, "no tree given");
            return null;
        }
        if (def.name() == null || def.name().isBlank()) {
            c.error(null, "name", "the tree needs a non-empty 'name'");
        }
        scanOrder(c);
        ruleSet(c);
        Bindings bindings = new Bindings(c);
        NodeFactory nodes = new NodeFactory(c, bindings);
        TransitionPass.registerPayloadFields(c.out, def.root());
        for (StateDef subtree : def.subtrees()) {
            TransitionPass.registerPayloadFields(c.out, subtree);
        }
        DeclarationPass declarations = new DeclarationPass(c, bindings, nodes);
        declarations.run();
        new GlobalTaskPass(c, bindings, nodes).run();
        if (def.root() == null) {
            c.error(null, "root", "the tree needs a 'root' state");
            return null;
        }
        if (new ExpansionPass(c, declarations).run(def.root()) == null) {
            return null;
        }
        new SlotLayoutPass(c, nodes, declarations).run();
        TransitionPass transitions = new TransitionPass(c, bindings, nodes);
        nodes.resolveStatesWith(transitions);
        new StatePass(c, bindings, nodes, transitions).run();
        validateUnlinkedSubtrees(c);
        if (c.errorCount() > 0) {
            return null;
        }
        if (!c.probe || c.pruned) {
            new WarningPass(c).run();
        }
        return assemble(c);
    }

    /**
     * The tree's {@code rules} (rule U1): the seeds' unless {@code unreal-5.8}, which the compiler
     * refuses beside what Unreal 5.8 has no counterpart for here (composites, a root-first scan,
     * {@code "completion": "all"}: checked where those keys are read).
     */
    private static void ruleSet(Compilation c) {
        String declared = c.def.rules();
        Rules rules = declared == null ? Rules.SEED : Rules.parse(declared);
        if (rules == null) {
            c.error(null, "rules", "unknown rules " + Compilation.quote(declared) + "; valid values are "
                    + Rules.validNames() + c.didYouMean(declared, Rules.validNames()));
        } else if (rules == Rules.UNREAL_5_8) {
            c.unreal = true;
            c.out.setUnrealRules();
            if (c.rootFirst) {
                c.error(null, "rules", "\"rules\": \"unreal-5.8\" cannot be combined with \"transitionScan\": "
                        + "\"rootFirst\": Unreal 5.8 scans leaf to root; leave one of them out");
            }
        }
    }

    /** The tree's {@code transitionScan} (rule H1): leaf to root unless {@code rootFirst}. */
    private static void scanOrder(Compilation c) {
        String declared = c.def.transitionScan();
        TransitionScan scan = declared == null ? TransitionScan.LEAF_FIRST : TransitionScan.parse(declared);
        if (scan == null) {
            c.error(null, "transitionScan", "unknown transitionScan " + Compilation.quote(declared)
                    + "; valid values are " + TransitionScan.validNames());
        } else if (scan == TransitionScan.ROOT_FIRST) {
            c.rootFirst = true;
            c.out.setRootFirst();
        }
    }

    /**
     * The last passes: the tree's parameters and host data into the output, the facts the runtimes
     * derive from it ({@link RuntimeFactsPass}), then the frozen tree.
     */
    private static CompiledStateTree assemble(Compilation c) {
        if (!c.out.fitsIndices()) {
            c.error(null, null, StatePass.TOO_MANY_NODES);
            return null;
        }
        for (Param p : c.params.values()) {
            c.out.addParameter(p.name(), p.type(), p.defaultValue(), p.slot().index(), p.enumValues(), p.generationSlot());
        }
        c.hostColumns.values().forEach(col -> c.out.addHostColumn(col, c.hostColumnUser.get(col.name())));
        c.externals.values().forEach(e -> c.out.addExternal(e, c.externalUser.get(e.name())));
        c.nodeTypes.forEach(c.out::addNodeType);
        new RuntimeFactsPass(c.out).run();
        return c.out.build();
    }

    /**
     * Reports the errors of the subtrees no state links: one probe compilation links each of them
     * once under a stand-in root (one probe for all, so the cost stays linear in the asset) and its
     * errors inside those copies are reported as {@code subtree <path>}. When the copies together
     * exceed the state or index limits, the subtrees beyond are not checked (the probe's limit
     * errors are not the tree's and are dropped).
     */
    private void validateUnlinkedSubtrees(Compilation c) {
        if (c.probe || c.tooManyStates) {
            return;
        }
        Set<String> linked = new HashSet<>();
        for (StateNode n : c.order) {
            if (n.copy != null) {
                linked.add(n.copy.subtree);
            }
        }
        List<StateDef> links = new ArrayList<>();
        Set<String> linkNames = new HashSet<>();
        for (String name : c.subtrees.keySet()) {
            if (!linked.contains(name)) {
                links.add(new StateDef(name + "Link", "linked", null, name, null, null, null, null, null, null));
                linkNames.add(name + "Link");
            }
        }
        if (links.isEmpty()) {
            return;
        }
        Compilation check = new Compilation(new TreeDef(c.source, c.def.name(), c.def.parameters(), c.def.evaluators(),
                new StateDef(c.def.root().name(), "state", null, null, null, null, null, null, null, links),
                c.def.subtrees(), c.def.globalTasks(), c.def.transitionScan(), c.def.rules(), c.def.hostEvents()), registry);
        check.probe = true;
        run(check);
        for (CompileError err : check.errors) {
            if (err.statePath() == null) {
                if (!check.tooManyStates && !StatePass.TOO_MANY_NODES.equals(err.message())
                        && !err.message().startsWith(ExpansionPass.TOO_MANY_STATES)) {
                    c.add(err);
                }
                continue;
            }
            // Root/<subtree>Link/<path in the subtree>: names contain no '/'
            String[] parts = err.statePath().split("/", 3);
            if (parts.length == 3 && linkNames.contains(parts[1])) {
                c.add(new CompileError(err.source(), "subtree " + parts[2], err.field(), err.message()));
            }
        }
    }
}
