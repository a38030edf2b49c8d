package dev.crowdtree.demo.render;

import dev.crowdtree.demo.sim.Simulation;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes frames as {@code frame-<tick>.png} into a directory. */
public final class FrameWriter {
    private final Simulation sim;
    private final Path dir;
    private final FrameRenderer renderer;
    private int count;

    public FrameWriter(Simulation sim, Path dir) {
        this.sim = sim;
        this.dir = dir;
        this.renderer = new FrameRenderer(sim);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the frame directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Records the occupancy for the frames' chart (call every few ticks). */
    public void sample() {
        renderer.sample();
    }

    /** Renders the current state and writes it; returns the file. */
    public Path write() {
        renderer.sample();
        Path file = dir.resolve(String.format("frame-%06d.png", sim.tickNumber()));
        try {
            ImageIO.write(renderer.render(), "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        count++;
        return file;
    }

    public int count() {
        return count;
    }
}
