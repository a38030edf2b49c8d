/** Small shared helpers: argument checks with messages that name parameter, value and valid range. */
package dev.crowdtree.core.util;
