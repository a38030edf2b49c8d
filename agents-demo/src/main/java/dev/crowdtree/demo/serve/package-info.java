/**
 * {@code serve}: the live view of the crowd in a browser. A JDK HTTP server on loopback serves a
 * canvas page; the simulation runs on its own thread in real time and publishes immutable binary
 * snapshots ({@link dev.crowdtree.demo.serve.FrameFormat}) that the page fetches and draws.
 */
package dev.crowdtree.demo.serve;
