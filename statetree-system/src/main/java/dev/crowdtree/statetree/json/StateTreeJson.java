package dev.crowdtree.statetree.json;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.CompileError;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.definition.TreeDef;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Reads, compiles and writes StateTree JSON assets (format: {@code docs/ASSET_FORMAT.md}).
 *
 * <p>Reading is strict about structure: JSON syntax (reported with line and column), duplicate keys,
 * unknown keys at the top level and in states, transitions and parameter objects, the JSON types of
 * structural fields, and {@code null} anywhere. A top-level {@code "$schema"} string (through which
 * editors find {@code docs/statetree-asset.schema.json}) is accepted and ignored. Each problem is a
 * {@link CompileError} naming the source, the state path (state names from the root joined by '/',
 * as far as known) and the field ({@code transitions[1].to}, {@code children[2]},
 * {@code parameters.ammo.default}). Reading keeps going after an error and reports everything it
 * found at once. Node properties are not checked
 * here; they are converted to plain values ({@link String}, {@link Boolean}, {@link Long} for integer
 * literals that fit in a long, {@link Double} for every other number, {@link java.util.List},
 * {@link java.util.LinkedHashMap} in file order) for the compiler to check against the node schemas.
 *
 * <p>{@link #compile(String, String, StateTreeCompiler)} reads and compiles in one step. When the
 * document is an object (so that a partial {@link TreeDef} exists) the compiler runs even if reading
 * found errors, and the exception lists the reader's errors followed by the compiler's, without
 * duplicates and without compiler errors about places the reader already reported.
 *
 * <p>Files are read through {@link InputFiles}: regular files only, at most 16 MB for an asset and
 * its linked assets together unless a {@code maxBytes} argument says otherwise; parsing is bounded
 * by {@link JsonLimits}. A file that is not read is one error saying why.
 *
 * <p>Whatever the input text, the only exception these methods throw is
 * {@link StateTreeCompileException} (deep nesting, huge numbers and malformed text included).
 * THREADING: stateless; every method may be called from any thread.
 */
public final class StateTreeJson {
    private static final String UNNAMED = "<json>";

    private StateTreeJson() {
    }

    /**
     * Reads an asset from text.
     *
     * @param sourceName names the asset in errors (a file name or a label)
     * @param text       the JSON text (a leading byte-order mark is ignored)
     * @return the authored tree; not yet compiled
     * @throws StateTreeCompileException with every structural error found
     */
    public static TreeDef read(String sourceName, String text) throws StateTreeCompileException {
        Loaded l = load(sourceName, text, new LinkedAssets());
        if (!l.issues.isEmpty() || l.dropped > 0 || l.def == null) {
            throw new StateTreeCompileException(loaderErrors(l), l.dropped);
        }
        return l.def;
    }

    /**
     * Reads an asset file (UTF-8; a byte-order mark is ignored, as in text) of at most
     * {@link InputFiles#DEFAULT_MAX_BYTES}, linked assets included. Errors name the file as given
     * ({@code file.toString()}); a file that cannot be read is reported as such.
     */
    public static TreeDef read(Path file) throws StateTreeCompileException {
        return read(file, InputFiles.DEFAULT_MAX_BYTES);
    }

    /**
     * {@link #read(Path)} with another limit on the bytes read: the asset and its linked assets
     * together may have at most {@code maxBytes} (see {@link InputFiles}).
     *
     * @param maxBytes the limit, 1..{@link InputFiles#MAX_ARRAY}
     */
    public static TreeDef read(Path file, long maxBytes) throws StateTreeCompileException {
        String source = sourceOf(file);
        InputFiles.Text text = readFile(file, source, maxBytes, 0);
        Loaded l = load(source, text.text(), new LinkedAssets(file, maxBytes, text.bytes()));
        if (!l.issues.isEmpty() || l.dropped > 0 || l.def == null) {
            throw new StateTreeCompileException(loaderErrors(l), l.dropped);
        }
        return l.def;
    }

    /** An included asset (see {@link LinkedAssets}): its tree, or every error found in it. */
    static TreeDef readIncluded(String source, String text, LinkedAssets links) throws StateTreeCompileException {
        Loaded l = load(source, text, links);
        if (!l.issues.isEmpty() || l.dropped > 0 || l.def == null) {
            throw new StateTreeCompileException(loaderErrors(l), l.dropped);
        }
        return l.def;
    }

    /**
     * Reads and compiles an asset file of at most {@link InputFiles#DEFAULT_MAX_BYTES}, linked assets
     * included; see {@link #compile(String, String, StateTreeCompiler)}.
     */
    public static CompiledStateTree compile(Path file, StateTreeCompiler compiler) throws StateTreeCompileException {
        return compile(file, compiler, InputFiles.DEFAULT_MAX_BYTES);
    }

    /**
     * {@link #compile(Path, StateTreeCompiler)} with another limit on the bytes read: the asset and
     * its linked assets together may have at most {@code maxBytes} (see {@link InputFiles}).
     *
     * @param maxBytes the limit, 1..{@link InputFiles#MAX_ARRAY}
     */
    public static CompiledStateTree compile(Path file, StateTreeCompiler compiler, long maxBytes)
            throws StateTreeCompileException {
        Objects.requireNonNull(compiler, "compiler");
        String source = sourceOf(file);
        InputFiles.Text text = readFile(file, source, maxBytes, 0);
        return compile(load(source, text.text(), new LinkedAssets(file, maxBytes, text.bytes())), compiler);
    }

    /**
     * Reads and compiles an asset. If reading found errors but produced a partial tree, the compiler
     * still runs, and one exception reports the reader's errors followed by the compiler's.
     *
     * @param compiler a compiler knowing the node types the asset uses (not null)
     * @throws StateTreeCompileException with every error found
     */
    public static CompiledStateTree compile(String sourceName, String text, StateTreeCompiler compiler)
            throws StateTreeCompileException {
        Objects.requireNonNull(compiler, "compiler");
        return compile(load(sourceName, text, new LinkedAssets()), compiler);
    }

    private static CompiledStateTree compile(Loaded l, StateTreeCompiler compiler) throws StateTreeCompileException {
        List<CompileError> errors = loaderErrors(l);
        int omitted = l.dropped;
        if (l.def == null) {
            throw new StateTreeCompileException(errors, omitted);
        }
        try {
            CompiledStateTree tree = compiler.compile(l.def);
            if (errors.isEmpty() && omitted == 0) {
                return tree;
            }
        } catch (StateTreeCompileException e) {
            omitted += e.errorCount() - e.errors().size();
            Set<CompileError> merged = new LinkedHashSet<>(errors);
            for (CompileError ce : e.errors()) {
                if (!explained(ce, l.issues)) {
                    merged.add(ce);
                }
            }
            errors = new ArrayList<>(merged);
        } catch (RuntimeException | StackOverflowError e) {
            errors.add(new CompileError(l.source, null, null, "internal compiler error (" + e
                    + "); please report this asset"));
        }
        throw new StateTreeCompileException(errors, omitted);
    }

    /**
     * Writes {@code def} as pretty-printed JSON such that {@code read(write(def))} is equivalent to
     * {@code def}: the same fields and values, except that the source name is the one given to
     * {@code read}, absent and empty fields are left out, {@code null} property values (which mean
     * "absent") are dropped, infinite doubles are written as {@code ±1e999} and NaN as the string
     * {@code "NaN"}. Property values must be String, Boolean, a number, Binding, NodeDef, List or
     * Map; anything else is an {@link IllegalArgumentException}.
     */
    public static String write(TreeDef def) {
        return AssetWriter.write(Objects.requireNonNull(def, "def"));
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * What reading produced: the tree (null when the document was unusable), the problems kept and
     * how many more were only counted.
     */
    private record Loaded(String source, TreeDef def, List<AssetReader.Issue> issues, int dropped) {
        Loaded(String source, TreeDef def, AssetReader reader) {
            this(source, def, reader.issues(), reader.dropped());
        }
    }

    private static Loaded load(String sourceName, String text, LinkedAssets links) {
        String source = sourceName == null ? UNNAMED : sourceName;
        AssetReader reader = new AssetReader(source, links);
        if (text == null) {
            reader.error(null, null, "no JSON text given");
            return new Loaded(source, null, reader);
        }
        try {
            RawJson.Parsed parsed = RawJson.parse(text.startsWith("\uFEFF") ? text.substring(1) : text);
            if (parsed.failed()) {
                AssetReader.Place place = AssetReader.locate(parsed.document(), parsed.path());
                reader.error(place.statePath(), place.field(), parsed.error());
                return new Loaded(source, null, reader);
            }
            return new Loaded(source, reader.tree(parsed.document()), reader);
        } catch (RuntimeException | StackOverflowError e) {
            // A safety net only: every known kind of bad input is reported as a specific error.
            reader.error(null, null, "internal loader error (" + e + "); please report this asset");
            return new Loaded(source, null, reader);
        }
    }

    private static List<CompileError> loaderErrors(Loaded l) {
        Set<CompileError> out = new LinkedHashSet<>();
        for (AssetReader.Issue i : l.issues) {
            out.add(i.error());
        }
        return new ArrayList<>(out);
    }

    private static boolean explained(CompileError e, List<AssetReader.Issue> issues) {
        for (AssetReader.Issue i : issues) {
            if (i.covers(e)) {
                return true;
            }
        }
        return false;
    }

    private static String sourceOf(Path file) {
        return file == null ? UNNAMED : file.toString();
    }

    /**
     * The file's text (after {@code used} bytes of other files read for the same asset), or an
     * exception with one error saying why it is not read.
     */
    static InputFiles.Text readFile(Path file, String source, long maxBytes, long used)
            throws StateTreeCompileException {
        String why;
        if (file == null) {
            why = "no file given";
        } else {
            try {
                return InputFiles.read(file, maxBytes, used);
            } catch (InputFileException e) {
                why = e.problem();
            }
        }
        throw new StateTreeCompileException(List.of(new CompileError(source, null, null, why)));
    }
}
