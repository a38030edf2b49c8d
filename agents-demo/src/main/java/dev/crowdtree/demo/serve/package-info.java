/**
 * {@code serve}: the live view of the crowd in a browser. A Jetty HTTP server (loopback by default;
 * elsewhere only with a token) serves a canvas page; the simulation runs on its own thread in real
 * time and publishes immutable binary snapshots ({@link dev.crowdtree.demo.serve.FrameFormat}) that
 * the page fetches and draws. {@link dev.crowdtree.demo.serve.CrowdServer} says why Jetty and which
 * limits keep slow or numerous clients from stopping it for others.
 */
package dev.crowdtree.demo.serve;
