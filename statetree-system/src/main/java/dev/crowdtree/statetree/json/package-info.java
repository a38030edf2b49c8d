/**
 * The JSON asset format: {@link dev.crowdtree.statetree.json.StateTreeJson} reads assets into the
 * authoring model (strict structure, every error at once, with source, state path and field), compiles
 * them, and writes the model back as JSON. The format is described in {@code docs/ASSET_FORMAT.md}.
 */
package dev.crowdtree.statetree.json;
