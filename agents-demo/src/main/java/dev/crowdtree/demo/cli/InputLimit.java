package dev.crowdtree.demo.cli;

import dev.crowdtree.statetree.json.InputFiles;
import picocli.CommandLine.Option;

/**
 * The option that raises (or lowers) the size limit on the files a command reads: the tree asset
 * with its linked assets, the scenario, a snapshot ({@code run --load}), a recording
 * ({@code debug --replay}) and each snapshot in it once decompressed. A picocli mixin of {@code run},
 * {@code validate}, {@code dot}, {@code trace} and {@code debug}.
 */
public final class InputLimit {
    /** The largest value of {@code --max-input-mb}: what fits in one Java array. */
    static final int MAX_MB = (int) (InputFiles.MAX_ARRAY >> 20);

    @Option(names = "--max-input-mb", paramLabel = "MB", defaultValue = "16",
            description = "Largest input file in MB (a tree with its linked assets, a scenario, a snapshot to --load, "
                    + "a recording to --replay and each snapshot in it decompressed; 1..2047, default: ${DEFAULT-VALUE}). "
                    + "Directories, devices and pipes are always refused.")
    int mb;

    /**
     * The limit in bytes.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid range
     */
    public long bytes() {
        if (mb < 1 || mb > MAX_MB) {
            throw new IllegalArgumentException("--max-input-mb = " + mb + " is out of range; valid range is 1.." + MAX_MB);
        }
        return (long) mb << 20;
    }
}
