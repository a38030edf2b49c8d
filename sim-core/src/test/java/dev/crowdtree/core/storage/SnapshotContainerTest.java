package dev.crowdtree.core.storage;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The snapshot container's sections grow by blocks ({@link BlockOutput}), never by copies: sections
 * of many blocks (written a byte, an int and odd-sized arrays at a time, across block edges) come
 * back byte for byte, and {@link SnapshotWriter#toByteArray} and {@link SnapshotWriter#writeTo} give
 * the same bytes.
 */
class SnapshotContainerTest {
    @Test
    void sectionsOfManyBlocksComeBackByteForByte() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        byte[] big = new byte[5 * (1 << 20) + 12_345]; // past several 1 MB blocks
        rnd.nextBytes(big);
        SnapshotWriter w = new SnapshotWriter("test.blocks");
        DataOutputStream a = w.section("a", 100); // starts small: grows through every block size
        int at = 0;
        while (at < big.length) {
            int kind = rnd.nextInt(3);
            if (kind == 0) {
                a.write(big[at++]);
            } else {
                int n = Math.min(big.length - at, kind == 1 ? rnd.nextInt(7) : rnd.nextInt(300_000));
                a.write(big, at, n);
                at += n;
            }
        }
        DataOutputStream b = w.section("b");
        for (int i = 0; i < 400_000; i++) {
            b.writeInt(i * 31);
        }
        byte[] bytes = w.toByteArray();
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        assertEquals(bytes.length, w.writeTo(streamed));
        assertArrayEquals(bytes, streamed.toByteArray(), "toByteArray and writeTo agree");
        SnapshotReader r = SnapshotReader.parse(bytes);
        r.requireKind("test.blocks");
        DataInputStream in = r.section("a");
        byte[] back = new byte[big.length];
        in.readFully(back);
        assertArrayEquals(big, back);
        assertEquals(-1, in.read(), "nothing after the section's bytes");
        DataInputStream ints = r.section("b");
        for (int i = 0; i < 400_000; i++) {
            assertEquals(i * 31, ints.readInt());
        }
    }
}
