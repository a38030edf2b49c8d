package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The driver's handshake with the cluster's other members (docs/SCALE.md "Security"): every member
 * but the driver itself, data member or lite member (another driver, or any process that joined with
 * the cluster name), is sent a random challenge ({@link Tasks.Prove}) and is accepted only when it
 * answers with the HMAC of the shared secret under the handshake's key; a member that answers wrongly,
 * fails (a process without the secret has nothing to answer with) or takes more than 20 s is refused,
 * and then the run does not start (nor go on, when one joins later: {@link #checkNewcomers}). A lite
 * member that proves the secret is let be (a legitimate driver of another run or sweep: it holds no
 * partitions) but is given no region. Used by {@link ClusterRun} and {@link Sweep}.
 *
 * <p>THREADING: one call on the caller's thread.
 */
public final class Handshake {
    /** How long a member may take to answer its challenge. */
    private static final long ANSWER_SECONDS = 20;

    /**
     * What the handshake found.
     *
     * @param accepted the data members that proved the secret, ordered by uuid
     * @param refused  {@code host:port} of every other member (empty: {@link #run} throws otherwise)
     * @param everyone every member at the handshake but the driver, lite or not, accepted or not
     */
    public record Outcome(List<Member> accepted, List<String> refused, Set<Member> everyone) {
    }

    private Handshake() {
    }

    /**
     * Challenges every other member of {@code driver}'s cluster, lite or not, through {@code executor}.
     *
     * @throws IllegalStateException when no data member proves {@code secret}, or some member does not
     */
    public static Outcome run(HazelcastInstance driver, IExecutorService executor, ClusterSecret secret)
            throws InterruptedException {
        Set<Member> everyone = others(driver);
        List<Member> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Member m : everyone) {
            if (proves(executor, secret, m)) {
                if (!m.isLiteMember()) {
                    accepted.add(m);
                }
            } else if (others(driver).contains(m)) {
                refused.add(describeRole(m)); // (one that left meanwhile, a driver that ended, is gone)
            }
        }
        if (accepted.isEmpty()) {
            throw new IllegalStateException("no data member of the cluster proved the secret (" + refused.size()
                    + " refused" + (refused.isEmpty() ? "" : ": " + String.join(", ", refused)) + "); check --secret / "
                    + ClusterSecret.ENV + " and --cluster-name on every member");
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException(untrusted(refused));
        }
        accepted.sort(Comparator.comparing(m -> m.getUuid().toString()));
        return new Outcome(accepted, refused, everyone);
    }

    /**
     * Challenges the members, lite or not, that joined after the handshake ({@code known} holds
     * everyone it saw), adding those that prove the secret to {@code known}: a run goes on beside a
     * newcomer only if it has the secret (it is given no region either way).
     *
     * @throws IllegalStateException naming every newcomer that does not prove it
     */
    public static void checkNewcomers(HazelcastInstance driver, IExecutorService executor, ClusterSecret secret,
                                      Set<Member> known) throws InterruptedException {
        List<String> refused = new ArrayList<>();
        for (Member m : others(driver)) {
            if (known.contains(m)) {
                continue;
            }
            if (proves(executor, secret, m)) {
                known.add(m);
            } else if (others(driver).contains(m)) {
                refused.add(describeRole(m)); // (one that left meanwhile was not refused: it is gone)
            }
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException(untrusted(refused) + " (joined during the run)");
        }
    }

    /**
     * Every member of {@code members} must have loaded the model of {@code spec} from the same bytes
     * (its fingerprint): one that did not is refused, and the run does not start.
     *
     * @throws IllegalStateException one line naming each member that cannot run the model and why
     */
    public static void checkModel(IExecutorService executor, ClusterSecret secret, List<Member> members, RunSpec spec)
            throws InterruptedException {
        List<String> refused = new ArrayList<>();
        for (Member m : members) {
            String why;
            try {
                why = executor.submitToMember(new Tasks.CanRun(secret, spec.runId(), spec.model(), spec.fingerprint()), m)
                        .get(ANSWER_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                why = "it did not answer (" + e.getClass().getSimpleName() + ")";
            }
            if (!why.isEmpty()) {
                refused.add("member " + describe(m) + " cannot run model '" + spec.model() + "': " + why);
            }
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException(String.join("; ", refused) + "; the run did not start");
        }
    }

    private static boolean proves(IExecutorService executor, ClusterSecret secret, Member m) throws InterruptedException {
        byte[] challenge = ClusterSecret.challenge();
        try {
            byte[] answer = executor.submitToMember(new Tasks.Prove(challenge), m).get(ANSWER_SECONDS, TimeUnit.SECONDS);
            return secret.verify(challenge, m.getUuid().toString(), answer);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /**
     * Why a run does not go on beside members without the secret: in Hazelcast's open edition any
     * member of the cluster, lite or not, can read every map's keys, a data member holds partitions of
     * the run's maps, and any member may call {@code Cluster.shutdown()}, so the secret protects the
     * data's meaning but not the run's availability.
     */
    private static String untrusted(List<String> refused) {
        return refused.size() + (refused.size() == 1 ? " member" : " members") + " of the cluster did not prove the secret ("
                + String.join(", ", refused) + "); a run does not go on while a member without the secret is in the "
                + "cluster (it could read the run's map keys, hold partitions of its maps and stop the cluster): stop it, "
                + "or give it the same --secret / " + ClusterSecret.ENV + " as the others";
    }

    /** Every member of {@code driver}'s cluster but {@code driver} itself, lite or not. */
    static Set<Member> others(HazelcastInstance driver) {
        Set<Member> out = new HashSet<>(driver.getCluster().getMembers());
        out.remove(driver.getCluster().getLocalMember());
        return out;
    }

    /** {@code host:port} of a member, and "(a lite member)" after a lite member's. */
    static String describeRole(Member m) {
        return describe(m) + (m.isLiteMember() ? " (a lite member)" : "");
    }

    /** The cluster's members that hold data (not lite members such as drivers). */
    static Set<Member> dataMembers(HazelcastInstance driver) {
        Set<Member> out = new HashSet<>();
        for (Member m : driver.getCluster().getMembers()) {
            if (!m.isLiteMember()) {
                out.add(m);
            }
        }
        return out;
    }

    /** {@code host:port} of a member. */
    public static String describe(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }
}
