package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.Vocabulary;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.definition.StateDef;
import dev.crowdtree.statetree.definition.TreeDef;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Linked assets: a state {@code {"type": "linkedAsset", "asset": "flee.json"}} runs another asset
 * file as its subtree. The loader reads the file (its path is relative to the including file and
 * may not leave that file's directory; absolute paths and cycles are errors), turns its root into a
 * subtree named after the included tree (its top-level parameters become the subtree's, set with
 * {@code linkedParameters}; its own subtrees join the including tree's), and makes the state a
 * plain {@code linked} state pointing at it. So the compiler and both runtimes see nothing new: a
 * linked asset is a linked subtree that lives in a file of its own. An included asset may not
 * declare evaluators or global tasks (they would run for the whole tree): move them to the
 * including tree. Nor may it declare a {@code transitionScan} or {@code rules} other than the
 * including tree's (the scan order and the rule set are the whole tree's, rules H1 and U1); without
 * them it follows the including tree's.
 *
 * <p>One instance per top-level read: it remembers the assets already included (a file linked
 * twice becomes one subtree) and the chain of files being read, for cycles.
 */
final class LinkedAssets {
    static final String TYPE = "linkedAsset";
    static final String KEY = "asset";

    /** The host events of the included assets (W5 takes them as sent). */
    private final java.util.LinkedHashSet<String> hostEvents = new java.util.LinkedHashSet<>();

    /** The file being read, or null when the asset came as text. */
    private final Path file;
    /** The limit on the bytes of all the files of one top-level read ({@link InputFiles}). */
    private final long maxBytes;
    /** The bytes read so far by this top-level read (shared by the instances of one read). */
    private final long[] used;
    /** The files from the top-level asset to this one (for cycles). */
    private final List<Path> chain;
    /** Subtrees contributed by included assets, by name, in order of first inclusion. */
    private final Map<String, StateDef> subtrees;
    /** The file each subtree came from. */
    private final Map<String, Path> subtreeFiles;

    /** For an asset that came as text: it can link nothing. */
    LinkedAssets() {
        this(null, InputFiles.DEFAULT_MAX_BYTES, 0);
    }

    /**
     * For the asset read from {@code file} ({@code used} bytes), whose linked assets may bring the
     * total up to {@code maxBytes}.
     */
    LinkedAssets(Path file, long maxBytes, long used) {
        this(file, maxBytes, new long[] {used}, file == null ? List.of() : List.of(file.toAbsolutePath().normalize()),
                new LinkedHashMap<>(), new LinkedHashMap<>());
    }

    private LinkedAssets(Path file, long maxBytes, long[] used, List<Path> chain, Map<String, StateDef> subtrees,
                         Map<String, Path> subtreeFiles) {
        this.file = file;
        this.maxBytes = maxBytes;
        this.used = used;
        this.chain = chain;
        this.subtrees = subtrees;
        this.subtreeFiles = subtreeFiles;
    }

    /**
     * The {@code transitionScan} and {@code rules} of the tree being read, as declared (null: the
     * default), once known: the top-level asset's, which the assets it includes inherit. Rules H1, U1.
     */
    private String scan;
    private String rules;
    private boolean scanKnown;

    /**
     * The reader found the tree's {@code transitionScan} and {@code rules} (null when absent): for
     * the top-level asset they are the whole tree's; an included asset keeps the ones it inherited
     * (its own are checked against them when the inclusion ends).
     */
    void declareScan(String declaredScan, String declaredRules) {
        if (!scanKnown) {
            scan = declaredScan;
            rules = declaredRules;
            scanKnown = true;
        }
    }

    /** The subtrees the included assets contributed, to append to the including tree's. */
    List<StateDef> subtrees() {
        return new ArrayList<>(subtrees.values());
    }

    /** The {@code hostEvents} the included assets declared, in the order first seen. */
    List<String> hostEvents() {
        return new ArrayList<>(hostEvents);
    }

    /**
     * Includes {@code asset} for the linked-asset state at {@code path} and returns the name of the
     * subtree it became, or null after reporting why it cannot be included.
     */
    String include(AssetReader reader, String asset, String path, String field) {
        if (asset == null || asset.isBlank()) {
            reader.error(path, field, "a linkedAsset state needs \"asset\": the path of an asset file, relative to this file");
            return null;
        }
        if (file == null) {
            reader.error(path, field, "linked asset \"" + asset + "\": this asset was not read from a file, so a "
                    + "relative path has nothing to be relative to; load it with StateTreeJson.compile(Path, ...)");
            return null;
        }
        Path rel;
        try {
            rel = Path.of(asset);
        } catch (RuntimeException e) {
            reader.error(path, field, "linked asset \"" + asset + "\" is not a valid path");
            return null;
        }
        Path dir = chain.get(chain.size() - 1).getParent();
        Path target = dir.resolve(rel).normalize();
        if (rel.isAbsolute() || !target.startsWith(dir)) {
            reader.error(path, field, "linked asset \"" + asset + "\" must be a path inside the directory of "
                    + file.getFileName() + " (no absolute paths, no '..' out of it)");
            return null;
        }
        if (!InputFiles.inside(dir, target)) {
            reader.error(path, field, "linked asset \"" + asset + "\" is a symbolic link to a file outside the directory of "
                    + file.getFileName() + "; a linked asset must be inside it, links resolved");
            return null;
        }
        if (chain.contains(target)) {
            List<String> names = new ArrayList<>();
            for (Path p : chain.subList(chain.indexOf(target), chain.size())) {
                names.add(p.getFileName().toString());
            }
            names.add(target.getFileName().toString());
            reader.error(path, field, "cycle of linked assets: " + String.join(" -> ", names));
            return null;
        }
        for (Map.Entry<String, Path> e : subtreeFiles.entrySet()) {
            if (e.getValue().equals(target)) {
                return e.getKey(); // linked before: the same subtree
            }
        }
        String source = file.resolveSibling(rel).normalize().toString();
        TreeDef included;
        try {
            InputFiles.Text text = StateTreeJson.readFile(target, source, maxBytes, used[0]);
            used[0] += text.bytes();
            List<Path> longer = new ArrayList<>(chain);
            longer.add(target);
            LinkedAssets nested = new LinkedAssets(target, maxBytes, used, longer, subtrees, subtreeFiles);
            nested.declareScan(scan, rules); // an included asset follows the including tree
            included = StateTreeJson.readIncluded(source, text.text(), nested);
        } catch (StateTreeCompileException e) {
            for (CompileError ce : e.errors()) {
                reader.issue(ce);
            }
            reader.countDropped(e.errorCount() - e.errors().size());
            reader.error(path, field, "linked asset \"" + asset + "\" has errors (listed above)");
            return null;
        }
        if (!included.evaluators().isEmpty()) {
            reader.error(path, field, "linked asset \"" + asset + "\" declares evaluators; a linked asset cannot "
                    + "have its own (they would run for the whole tree): move them to the including tree");
            return null;
        }
        if (!included.globalTasks().isEmpty()) {
            reader.error(path, field, "linked asset \"" + asset + "\" declares globalTasks; a linked asset cannot "
                    + "have its own (they would run for the whole tree, from its start to its end): move them to "
                    + "the including tree, or make them tasks of the asset's root state");
            return null;
        }
        if (!sameAsIncluding(reader, path, field, asset, "transitionScan", included.transitionScan(), scan,
                Vocabulary.TransitionScan.LEAF_FIRST.assetName(), "the scan order")
                || !sameAsIncluding(reader, path, field, asset, "rules", included.rules(), rules,
                Vocabulary.Rules.SEED.assetName(), "the rule set")) {
            return null;
        }
        String name = included.name() == null || included.name().isBlank() ? target.getFileName().toString()
                : included.name();
        if (subtrees.containsKey(name)) {
            reader.error(path, field, "linked asset \"" + asset + "\" is named '" + name + "', like "
                    + subtreeFiles.get(name).getFileName() + "; linked assets need distinct tree names");
            return null;
        }
        for (StateDef s : included.subtrees()) {
            subtrees.putIfAbsent(s.name(), s);
        }
        hostEvents.addAll(included.hostEvents());
        StateDef root = included.root();
        boolean chained = Vocabulary.StateType.LINKED.assetName().equals(root.type());
        if (!root.parameters().isEmpty()) {
            reader.error(path, field, "the root state of linked asset \"" + asset + "\" declares parameters; a linked "
                    + "asset's parameters are its top-level 'parameters' (the linking state gives them values with "
                    + "linkedParameters): declare them there");
            return null;
        }
        // A root that is itself linked (a linkedAsset state, or a linked one) stays linked: the subtree's root
        // runs the next subtree below it, as Unreal chains the two frames
        subtrees.put(name, new StateDef(name, chained ? root.type() : Vocabulary.StateType.SUBTREE.assetName(),
                root.selection(), chained ? root.linkedSubtree() : null, chained ? root.linkedParameters() : null,
                included.parameters(), root.enterConditions(), root.tasks(), root.transitions(), root.children(),
                null, null, root.completion(), root.enabled(), root.composite()).withHistory(root.history())
                .withRequiredEvent(root.requiredEvent()).withTickPeriod(root.tickPeriod()));
        subtreeFiles.put(name, target);
        return name;
    }

    /**
     * Whether the included asset's tree-wide {@code key} ({@code declared}, null when absent) agrees
     * with the including tree's ({@code including}; absent on either side is {@code dflt}); reports
     * the difference when it does not.
     */
    private static boolean sameAsIncluding(AssetReader reader, String path, String field, String asset, String key,
                                           String declared, String including, String dflt, String what) {
        String theirs = including == null ? dflt : including;
        if (declared == null || declared.equals(theirs)) {
            return true;
        }
        reader.error(path, field, "linked asset \"" + asset + "\" declares \"" + key + "\": \"" + declared
                + "\" but the including tree's is \"" + theirs + "\"; " + what + " is the whole tree's: leave it out of "
                + "the linked asset or make them the same");
        return false;
    }
}
