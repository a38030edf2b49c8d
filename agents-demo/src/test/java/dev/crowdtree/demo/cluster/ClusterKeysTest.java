package dev.crowdtree.demo.cluster;

import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The maps' keys: the generation a key was written in, which the driver's clean-up after a recovery
 * and its count of late writes ("entries written by fenced members after their fence") go by; and
 * the exchange's entries, written by a member's step asynchronously, found and deleted by the
 * synchronous operations of a member's second read and of the driver's clean-up.
 */
class ClusterKeysTest {
    @Test
    void theGenerationOfEveryKindOfKey() {
        assertEquals(1, ClusterConfigs.generationOf(ClusterConfigs.exchangeKey(1, 70, 2, 5)));
        assertEquals(12, ClusterConfigs.generationOf(ClusterConfigs.exchangeKey(12, 71, 0, 3)));
        assertEquals(2, ClusterConfigs.generationOf(ClusterConfigs.checkpointKey(2, 50, 4)));
        assertEquals(31, ClusterConfigs.generationOf(ClusterConfigs.checkpointKey(31, 1000, 0)));
        // the run's generation entry is of no generation: never dropped as an older one
        assertEquals(-1, ClusterConfigs.generationOf(ClusterConfigs.generationKey("run-7")));
        assertEquals(-1, ClusterConfigs.generationOf("gx/p0"));
        assertEquals(-1, ClusterConfigs.generationOf("c5@r1"));
        assertEquals(-1, ClusterConfigs.generationOf(""));
    }

    /**
     * Issue 34's CI failure: with a partitioning strategy on the exchange, an entry written with
     * setAsync was invisible to get and delete (Hazelcast 5.6 places async operations by the whole
     * key), so the driver's clean-up left a generation's messages in the map and a step's second
     * read of a missing message never found it.
     */
    @Test
    void anExchangeEntryWrittenAsynchronouslyIsFoundAndDeletedSynchronously() throws Exception {
        try (LocalCluster c = LocalCluster.start(2, ClusterSecret.of("a test secret of some length"), "127.0.0.1")) {
            IMap<String, byte[]> written = c.members().get(0).getMap(ClusterConfigs.EXCHANGE);
            IMap<String, byte[]> other = c.members().get(1).getMap(ClusterConfigs.EXCHANGE);
            IMap<String, byte[]> driver = c.driver().getMap(ClusterConfigs.EXCHANGE);
            for (int r = 0; r < 8; r++) {
                String key = ClusterConfigs.exchangeKey(1, 70, r, (r + 1) % 8);
                written.setAsync(key, new byte[] {(byte) r}).toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertNotNull(other.get(key), key + ": a second read");
                assertNotNull(other.getAsync(key).toCompletableFuture().get(30, TimeUnit.SECONDS), key);
                assertTrue(driver.containsKey(key), key);
                driver.delete(key);
                assertTrue(written.getAsync(key).toCompletableFuture().get(30, TimeUnit.SECONDS) == null,
                        key + ": deleted by the driver");
            }
            assertTrue(driver.keySet().isEmpty(), driver.keySet().toString());
        }
    }
}
