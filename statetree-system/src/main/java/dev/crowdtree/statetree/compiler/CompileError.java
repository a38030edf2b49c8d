package dev.crowdtree.statetree.compiler;

/**
 * One problem in an asset: where (source file, state path, field) and what is wrong.
 *
 * @param source    the asset's source name (file name or label)
 * @param statePath the state path ({@code Root/Danger/Flee}), or null for tree-level problems
 * @param field     the field within the state or tree ({@code tasks[1].duration}), or null
 * @param message   what is wrong and, where possible, what would be valid
 */
public record CompileError(String source, String statePath, String field, String message) {

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(source == null ? "<tree>" : source).append(": ");
        if (statePath != null) {
            sb.append("state '").append(statePath).append("': ");
        }
        if (field != null && !field.isEmpty()) {
            sb.append(field).append(": ");
        }
        return sb.append(message).toString();
    }
}
