package dev.crowdtree.statetree.reference;

import dev.crowdtree.statetree.json.InputFiles;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The rule for a scenario's {@code tree}: a file name relative to the scenario's directory that
 * stays in it or below (no control characters, no absolute path, no {@code ..} out of it, no
 * symbolic link to a file outside it). A tree elsewhere is given explicitly ({@code trace --tree}).
 */
final class ScenarioTreePath {
    private ScenarioTreePath() {
    }

    /** Why {@code name} cannot name the tree file of a scenario in {@code baseDir} (null: not known), or null if it can. */
    static String problem(String name, Path baseDir) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                return "\"" + name + "\" is not a file name: it contains a control character";
            }
        }
        Path rel;
        try {
            rel = Path.of(name);
        } catch (InvalidPathException e) {
            return "\"" + name + "\" is not a valid file name";
        }
        if (rel.isAbsolute() || rel.getRoot() != null || rel.normalize().startsWith("..")) {
            return "\"" + name + "\" is outside the scenario's directory; a scenario's tree must be in its directory "
                    + "or below (no absolute paths, no '..' out of it); give another tree explicitly instead "
                    + "(the command line: trace --tree FILE)";
        }
        if (baseDir != null && !InputFiles.inside(baseDir, baseDir.resolve(rel).normalize())) {
            return "\"" + name + "\" is a symbolic link to a file outside the scenario's directory; a scenario's tree "
                    + "must be in its directory or below, links resolved; give another tree explicitly instead "
                    + "(the command line: trace --tree FILE)";
        }
        return null;
    }
}
