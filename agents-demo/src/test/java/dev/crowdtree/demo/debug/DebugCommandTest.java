package dev.crowdtree.demo.debug;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, item 6, {@code debug}'s options: {@code --tps NaN} (and any value outside 0..10000) is
 * refused with the valid range; {@code --bind} with an address that is not this machine's says so,
 * not that the port is in use, which is said only when it is. Each refusal is one line, exit 2.
 */
@Timeout(60)
class DebugCommandTest {
    private static final String SCENARIO = DebuggerTest.SCENARIO.toString();

    @Test
    void ticksPerSecondMustBeANumberInRange() {
        for (String tps : new String[]{"NaN", "Infinity", "-3", "10001"}) {
            DebugRecordingTest.Result r = DebugRecordingTest.run("debug", SCENARIO, "--port", "0", "--tps", tps);
            assertEquals(2, r.code(), tps + ": " + r.err());
            assertTrue(r.err().contains("--tps = " + Double.parseDouble(tps) + " is out of range; valid range is 0 (as fast "
                    + "as it goes) .. 10000, or leave it out for real time (1/dt)"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
    }

    @Test
    void anAddressNotOfThisMachineIsSaidSo() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine
        DebugRecordingTest.Result r = DebugRecordingTest.run("debug", SCENARIO, "--port", "0", "--bind", "192.0.2.1",
                "--token", "0123456789abcdef0123");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine"), r.err());
        assertFalse(r.err().contains("in use"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    }

    @Test
    void aPortInUseIsSaidSo() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            DebugRecordingTest.Result r = DebugRecordingTest.run("debug", SCENARIO, "--port", Integer.toString(port));
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("port " + port + " is already in use on 127.0.0.1; choose another with --port"),
                    r.err());
        }
    }
}
