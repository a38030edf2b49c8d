package dev.crowdtree.demo.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What a server does with raw client sockets: whether and which it closes (the connection caps' tests). */
public final class Sockets {
    private Sockets() {
    }

    /**
     * How many of {@code sockets} the server has closed once {@code enough} are, or {@code millis}
     * have passed: every socket polled in turn (which ones a cap closes depends on the order the
     * server saw them in, so one open socket must not use up the time of the others).
     */
    public static int closedAmong(List<Socket> sockets, int enough, long millis) throws IOException {
        boolean[] closed = new boolean[sockets.size()];
        int count = 0;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (count < enough && System.nanoTime() < deadline) {
            for (int i = 0; i < closed.length; i++) {
                if (!closed[i] && closedBy(sockets.get(i), Math.min(deadline, System.nanoTime() + 10_000_000L))) {
                    closed[i] = true;
                    count++;
                }
            }
        }
        return count;
    }

    /** Whether the server closes {@code s} (EOF or reset) before {@code deadlineNanos}; reads and drops what comes. */
    public static boolean closedBy(Socket s, long deadlineNanos) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[65536];
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (left <= 0) {
                return false;
            }
            s.setSoTimeout((int) left);
            try {
                if (in.read(buf) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (SocketException e) {
                return true; // reset
            }
        }
    }
}
