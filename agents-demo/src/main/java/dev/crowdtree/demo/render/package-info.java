/** Headless Java2D frames of the crowd. */
package dev.crowdtree.demo.render;
