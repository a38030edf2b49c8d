package dev.crowdtree.demo.sim;

import dev.crowdtree.core.storage.SnapshotException;
import dev.crowdtree.statetree.json.InputFiles;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which tree asset a snapshot is loaded with: the one the caller names, or the one the snapshot
 * recorded, read only when it is inside the snapshot file's directory (symbolic links resolved): a
 * snapshot does not make its reader read any file it names. Either way the runtime then checks that
 * the tree is the one it was saved with (its fingerprint).
 */
public final class SavedTree {
    private SavedTree() {
    }

    /**
     * The tree asset to compile: {@code override} when given; else {@code recorded} (null: the
     * model's own tree), checked to lie in {@code snapshotFile}'s directory and to exist (a snapshot in
     * memory, {@code snapshotFile} null, is trusted: it was made by this process or a recording).
     *
     * @throws SnapshotException naming the recorded tree and what to do
     */
    public static Path resolve(Path snapshotFile, Path recorded, Path override) throws SnapshotException {
        if (override != null || recorded == null || snapshotFile == null) {
            return override != null ? override : recorded;
        }
        Path dir = snapshotFile.toAbsolutePath().getParent();
        if (!InputFiles.inside(dir, recorded)) {
            throw new SnapshotException("it was saved with the tree asset " + recorded + ", which is outside the "
                    + "snapshot's directory and so is not read; name it with --tree FILE");
        }
        if (!Files.exists(recorded)) {
            throw new SnapshotException("it was saved with the tree asset " + recorded + ", which does not exist; "
                    + "name the tree with --tree FILE");
        }
        return recorded;
    }
}
