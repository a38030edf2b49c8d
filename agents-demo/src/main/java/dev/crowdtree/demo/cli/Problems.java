package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.nodes.DemoNodes;

import dev.crowdtree.core.util.Printable;
import dev.crowdtree.statetree.compiled.CompileWarning;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompileException;

import java.io.PrintStream;
import java.util.List;

/**
 * How the commands report bad input: one line {@code error: ...} with control characters escaped
 * (file names, option values and names from assets are the user's), exit code 2; and a tree's
 * compile errors, at most {@link StateTreeCompileException#MAX_LISTED} of them and a count; and its
 * authoring warnings ({@code warning: ...}, one line each, as many at most).
 */
public final class Problems {
    /** The exit code of bad input: a wrong option, file, scenario or tree. */
    public static final int USAGE = 2;
    /** The longest message printed whole. */
    private static final int MAX_MESSAGE = 2000;

    private Problems() {
    }

    /** Prints {@code error: message} (escaped, one line) on {@code err} and returns {@link #USAGE}. */
    public static int usage(PrintStream err, String message) {
        err.println(line(message));
        return USAGE;
    }

    /** {@code error: message}, escaped and shortened to one printable line. */
    public static String line(String message) {
        return "error: " + Printable.clean(message, MAX_MESSAGE);
    }

    /**
     * Prints {@code error: the tree X does not compile:} and the listed errors, indented, on
     * {@code err}.
     */
    public static void compileErrors(PrintStream err, Object tree, StateTreeCompileException e) {
        err.println(line("the tree " + tree + " does not compile:"));
        for (String l : e.listing()) {
            err.println("  " + l);
        }
        String hint = nodesHint(e);
        if (hint != null) {
            err.println(hint);
        }
    }

    /**
     * Prints the authoring warnings of {@code tree} on {@code out}, one line each,
     * {@code warning: <file>: state '<path>': <field>: [W1] ...} (docs/SEMANTICS.md, "Authoring
     * warnings"): the first {@link StateTreeCompileException#MAX_LISTED}, then
     * {@code ... and N more warnings}. Returns how many the tree has.
     */
    public static int warnings(PrintStream out, CompiledStateTree tree) {
        List<CompileWarning> ws = tree.warnings;
        for (int i = 0; i < Math.min(ws.size(), StateTreeCompileException.MAX_LISTED); i++) {
            out.println("warning: " + ws.get(i));
        }
        int more = ws.size() - StateTreeCompileException.MAX_LISTED;
        if (more > 0) {
            out.println("... and " + more + (more == 1 ? " more warning" : " more warnings"));
        }
        return ws.size();
    }

    /**
     * A hint when {@code e} lists a node type the registry does not know: it may be the user's own,
     * whose jar {@code --nodes} or {@code --model} loads, or the crowd's, which only the crowd model
     * registers; null otherwise.
     */
    public static String nodesHint(StateTreeCompileException e) {
        java.util.regex.Pattern unknown = java.util.regex.Pattern.compile(".*unknown (task|condition|evaluator) type \"([^\"]*)\".*");
        String hint = null;
        for (String l : e.listing()) {
            java.util.regex.Matcher m = unknown.matcher(l);
            if (m.matches()) {
                if (DemoNodes.typeNames().contains(m.group(2))) {
                    return "hint: '" + m.group(2) + "' is a node type of the crowd model, which registers its node "
                            + "types only when it runs: without --model and --nodes, or with --model crowd";
                }
                hint = "hint: node types of your own are loaded from their jar with --nodes PATH, or with the model "
                        + "that brings them, --model PATH (docs/guides/your-simulation.md: \"Your node types in the command line\")";
            }
        }
        return hint;
    }
}
