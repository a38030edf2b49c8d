/** The crowd demo: command line entry point. */
package dev.crowdtree.demo;
