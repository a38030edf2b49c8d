/**
 * Small shared helpers: argument checks with messages that name parameter, value and valid range;
 * {@link dev.crowdtree.core.util.Printable}, which escapes control characters in text from outside.
 */
package dev.crowdtree.core.util;
