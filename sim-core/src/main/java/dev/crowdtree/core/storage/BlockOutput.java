package dev.crowdtree.core.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-memory output stream that grows by adding blocks, never by copying what it holds (a
 * {@code ByteArrayOutputStream} doubles and copies: a 30 MB section is copied about twice over on
 * the way). Blocks start at the expected size and double up to {@value #MAX_BLOCK} bytes.
 * {@link #writeTo} writes the blocks in order. THREADING: one writer.
 */
final class BlockOutput extends OutputStream {
    private static final int MAX_BLOCK = 1 << 20;

    private final List<byte[]> full = new ArrayList<>();
    private byte[] block;
    private int at;
    private long size;

    BlockOutput(int expectedBytes) {
        block = new byte[Math.max(32, Math.min(expectedBytes, MAX_BLOCK))];
    }

    @Override
    public void write(int b) {
        if (at == block.length) {
            next();
        }
        block[at++] = (byte) b;
        size++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        size += len;
        while (len > 0) {
            if (at == block.length) {
                next();
            }
            int n = Math.min(len, block.length - at);
            System.arraycopy(b, off, block, at, n);
            at += n;
            off += n;
            len -= n;
        }
    }

    private void next() {
        full.add(block);
        block = new byte[Math.min(MAX_BLOCK, block.length * 2)];
        at = 0;
    }

    /** Bytes written so far. */
    long size() {
        return size;
    }

    /** Writes every byte held, in order, to {@code out}. */
    void writeTo(OutputStream out) throws IOException {
        for (byte[] b : full) {
            out.write(b);
        }
        out.write(block, 0, at);
    }
}
