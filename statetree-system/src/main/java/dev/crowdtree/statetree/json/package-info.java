/**
 * The JSON asset format: {@link dev.crowdtree.statetree.json.StateTreeJson} reads assets into the
 * authoring model (strict structure, every error at once, with source, state path and field), compiles
 * them, and writes the model back as JSON. The format is described in {@code docs/ASSET_FORMAT.md}.
 * {@link dev.crowdtree.statetree.json.InputFiles} is the one door through which asset and scenario
 * files are read (regular files, 16 MB unless raised); {@link dev.crowdtree.statetree.json.JsonLimits}
 * bounds what parsing them may cost.
 */
package dev.crowdtree.statetree.json;
