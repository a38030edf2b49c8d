package dev.crowdtree.demo.cli;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code chaos} (issue 23, item 3): two small trials of member processes, one member stopped and one
 * killed at a random tick, both end with the undisturbed hash, with a progress line each and a row of
 * the table each; the trial list is the seed's; the options are checked.
 */
@Tag("cluster") // starts Hazelcast members: -DexcludedGroups=cluster leaves it out (the README), .ci/run runs it
class ChaosCliTest extends CliTestBase {
    private static List<ChaosTrial.Fault> draw(long seed, int n) {
        Random rnd = new Random(seed);
        List<ChaosTrial.Fault> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ChaosTrial.Fault.draw(rnd, List.of(ChaosTrial.Kind.KILL, ChaosTrial.Kind.STOP,
                    ChaosTrial.Kind.JOIN_LEAVE), 300, 3, 15));
        }
        return out;
    }

    @Test
    void theTrialListIsTheSeeds() {
        assertEquals(draw(7, 30), draw(7, 30));
        assertNotEquals(draw(7, 30), draw(8, 30));
        for (ChaosTrial.Fault f : draw(7, 200)) {
            assertTrue(f.tick() >= 5 && f.tick() < 300 - 20, f.toString());
            assertTrue(f.member() >= 0 && f.member() < 3, f.toString());
            assertTrue(f.kind() != ChaosTrial.Kind.STOP || f.millis() >= 1000 && f.millis() <= 15_000, f.toString());
        }
    }

    @Test
    void twoTrialsAMemberStoppedAndOneKilledEndWithTheUndisturbedHash() {
        // seed 1 draws: SIGSTOP of member 0 for 2.2 s at tick 18, then kill -9 of member 1 at tick 36
        int code = Main.execute("chaos", "--trials", "2", "--members", "2", "--agents", "5000", "--regions", "4",
                "--ticks", "100", "--seed", "1", "--faults", "kill,stop", "--max-stop", "4", "--checkpoint-every", "25",
                "--member-timeout", "2", "--trial-timeout", "120", "--member-heap", "512m");
        assertEquals(0, code, out() + err());
        assertTrue(err().contains("chaos: undisturbed world hash "), err());
        assertTrue(Pattern.compile("trial 1/2: SIGSTOP member 0 for 2\\.2 s at tick 18: same hash").matcher(err()).find(), err());
        assertTrue(Pattern.compile("trial 2/2: kill -9 member 1 at tick 36: same hash, 1 recovery").matcher(err()).find(), err());
        assertTrue(out().contains("| trial | fault | tick | duration s | outcome | hash match |"), out());
        Matcher rows = Pattern.compile("(?m)^\\| \\d \\| .* \\| yes \\|$").matcher(out());
        int n = 0;
        while (rows.find()) {
            n++;
        }
        assertEquals(2, n, out());
        assertTrue(out().contains("2 of 2 trials ended with the undisturbed hash"), out());
    }

    /**
     * The driver killed at a random tick: both members say they dropped the run, within the bound,
     * and the world run again on them with a new driver gives the undisturbed hash.
     */
    @Test
    void aKilledDriverLeavesMembersThatDropTheRunAndServeTheNext() {
        int code = Main.execute("chaos", "--trials", "1", "--members", "2", "--agents", "5000", "--regions", "4",
                "--ticks", "100", "--seed", "3", "--faults", "driver", "--checkpoint-every", "25",
                "--member-timeout", "2", "--trial-timeout", "120", "--member-heap", "512m");
        assertEquals(0, code, out() + err());
        assertTrue(Pattern.compile("trial 1/1: kill -9 the driver at tick \\d+: every member dropped the run \\d+\\.\\d s "
                + "after the kill; the next run: same hash, no recovery needed").matcher(err()).find(), err());
        assertTrue(out().contains("1 of 1 trials ended with the undisturbed hash"), out());
    }

    /**
     * Issue 34, item 5: a stranger (the cluster name, not the secret) joins as a lite member, and one
     * calls Cluster.shutdown(): each trial stops cleanly in one line as it should (the stranger named;
     * the shutdown said by the driver and every member). The faults come early in runs long enough
     * that the stranger (a Hazelcast start, some seconds) joins while the run goes on.
     */
    @Test
    void aLiteMemberWithoutTheSecretAndAStrangersShutdownStopTheRunCleanlyInOneLine() {
        long seed = 1;
        List<ChaosTrial.Kind> kinds = List.of(ChaosTrial.Kind.LITE_MEMBER, ChaosTrial.Kind.SHUTDOWN);
        while (true) { // the first seed whose two trials are one of each, in that order, before tick 60
            Random rnd = new Random(seed);
            ChaosTrial.Fault first = ChaosTrial.Fault.draw(rnd, kinds, 400, 2, 15);
            ChaosTrial.Fault second = ChaosTrial.Fault.draw(rnd, kinds, 400, 2, 15);
            if (first.kind() == ChaosTrial.Kind.LITE_MEMBER && second.kind() == ChaosTrial.Kind.SHUTDOWN
                    && first.tick() < 60 && second.tick() < 60) {
                break;
            }
            seed++;
        }
        int code = Main.execute("chaos", "--trials", "2", "--members", "2", "--agents", "20000", "--regions", "4",
                "--ticks", "400", "--seed", Long.toString(seed), "--faults", "lite-member,shutdown", "--checkpoint-every",
                "50", "--member-timeout", "2", "--trial-timeout", "120", "--member-heap", "512m");
        assertEquals(0, code, out() + err());
        assertTrue(Pattern.compile("trial 1/2: a lite member without the secret joins, leaves after \\d+\\.\\d s \\([^)]+\\) at "
                + "tick \\d+: stopped cleanly as it should: the cluster run failed: 1 member of the cluster "
                + "did not prove the secret \\(127\\.0\\.0\\.1:\\d+ \\(a lite member\\)\\)").matcher(err()).find(), err());
        assertTrue(Pattern.compile("trial 2/2: a lite member without the secret joins and calls Cluster.shutdown\\(\\) at "
                + "tick \\d+: stopped cleanly as it should: the cluster run failed: .*; 2 of 2 members said "
                + "the cluster was shut down").matcher(err()).find(), err());
        assertTrue(out().contains("0 of 2 trials ended with the undisturbed hash; 2 stopped cleanly in one line as their "
                + "fault requires; 0 failed cleanly otherwise; 0 otherwise"), out());
    }

    @Test
    void chaosOptionsAreChecked() {
        assertEquals(2, Main.execute("chaos", "--trials", "0"));
        assertTrue(err().contains("--trials = 0 is out of range"), err());
        err.reset();
        assertEquals(2, Main.execute("chaos", "--members", "1"));
        assertTrue(err().contains("--members = 1 is out of range"), err());
        err.reset();
        assertEquals(2, Main.execute("chaos", "--faults", "kill,flood"));
        assertTrue(err().contains("'flood' is not a fault kind; give kill, stop, join-leave, driver, setup-kill, lite-member and/or shutdown"), err());
    }
}
