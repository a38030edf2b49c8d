/** The subcommands of the command line: run, validate, dot, trace. */
package dev.crowdtree.demo.cli;
