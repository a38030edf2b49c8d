package dev.crowdtree.demo.debug;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test DevTools client on its own: a data: page with a button, driven as the debugger's test drives its page. */
class CdpTest {
    private static final String PAGE = "<!doctype html><html><body data-ready=\"0\">"
            + "<span id=\"out\">idle</span><button id=\"go\">go</button>"
            + "<script>document.getElementById('go').addEventListener('click', () => {"
            + "  setTimeout(() => { document.getElementById('out').textContent = 'clicked';"
            + "    document.body.dataset.ready = '1'; }, 300); });</script></body></html>";

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void drivesAPageWithAButton() throws Exception {
        Path chromium = Cdp.chromiumOrSkip();
        Path shot = Files.createTempFile("crowdtree-cdp-", ".png");
        Cdp cdp = Cdp.launch(chromium);
        Path profile = cdp.profile();
        try {
            cdp.navigate("data:text/html;charset=utf-8," + URLEncoder.encode(PAGE, StandardCharsets.UTF_8)
                    .replace("+", "%20"));
            assertEquals("idle", cdp.eval("document.getElementById('out').textContent"));
            assertEquals("2", cdp.eval("1 + 1"));
            assertEquals("{\"a\":[1,2]}", cdp.eval("({a: [1, 2]})"));
            assertNull(cdp.eval("undefined"));
            assertEquals("late", cdp.eval("new Promise(r => setTimeout(() => r('late'), 50))"), "awaits a promise");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cdp.eval("nothing.here"));
            assertTrue(e.getMessage().contains("nothing is not defined"), e.getMessage());

            cdp.eval("document.getElementById('go').click()");
            assertEquals("idle", cdp.eval("document.getElementById('out').textContent"), "the page answers later");
            cdp.waitFor("document.body.dataset.ready === '1'", Duration.ofSeconds(5));
            assertEquals("clicked", cdp.eval("document.getElementById('out').textContent"));
            AssertionError timeout = assertThrows(AssertionError.class,
                    () -> cdp.waitFor("document.body.dataset.ready === '2'", Duration.ofMillis(300)));
            assertTrue(timeout.getMessage().contains("ready === '2'"), timeout.getMessage());

            cdp.screenshot(shot);
            byte[] head = new byte[8];
            System.arraycopy(Files.readAllBytes(shot), 0, head, 0, 8);
            assertArrayEquals(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head);
            assertTrue(Files.size(shot) > 1000, "a 1400x900 screenshot");
            assertEquals("[1400,900]", cdp.eval("[innerWidth, innerHeight]"), "the viewport");
        } catch (Throwable t) {
            System.err.println("chromium log:\n" + cdp.logTail());
            throw t;
        } finally {
            cdp.close();
            Files.deleteIfExists(shot);
        }
        assertFalse(cdp.process().isAlive(), "chromium is killed");
        assertFalse(Files.exists(profile), "the profile is deleted");
    }
}
