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
 * The driver's handshake with the cluster's data members (docs/SCALE.md "Security"): each one is
 * sent a random challenge ({@link Tasks.Prove}) and is accepted only when it answers with the HMAC
 * of the shared secret; a member that answers wrongly, fails or takes more than 20 s is refused.
 * Used by {@link ClusterRun} and {@link Sweep}.
 *
 * <p>THREADING: one call on the caller's thread.
 */
public final class Handshake {
    /** How long a member may take to answer its challenge. */
    private static final long ANSWER_SECONDS = 20;

    /**
     * What the handshake found.
     *
     * @param accepted the members that proved the secret, ordered by uuid
     * @param refused  {@code host:port} of every other data member
     * @param everyone every data member at the handshake, accepted or not
     */
    public record Outcome(List<Member> accepted, List<String> refused, Set<Member> everyone) {
    }

    private Handshake() {
    }

    /**
     * Challenges every data (non-lite) member of {@code driver}'s cluster through {@code executor}.
     *
     * @throws IllegalStateException when no member proves {@code secret}
     */
    public static Outcome run(HazelcastInstance driver, IExecutorService executor, ClusterSecret secret)
            throws InterruptedException {
        Set<Member> everyone = dataMembers(driver);
        List<Member> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Member m : everyone) {
            byte[] challenge = ClusterSecret.challenge();
            boolean ok;
            try {
                byte[] answer = executor.submitToMember(new Tasks.Prove(challenge), m).get(ANSWER_SECONDS, TimeUnit.SECONDS);
                ok = secret.verify(challenge, m.getUuid().toString(), answer);
            } catch (ExecutionException | TimeoutException e) {
                ok = false;
            }
            if (ok) {
                accepted.add(m);
            } else {
                refused.add(describe(m));
            }
        }
        if (accepted.isEmpty()) {
            throw new IllegalStateException("no member of the cluster proved the secret (" + refused.size()
                    + " refused); check --secret / " + ClusterSecret.ENV + " and --cluster-name on every member");
        }
        accepted.sort(Comparator.comparing(m -> m.getUuid().toString()));
        return new Outcome(accepted, refused, everyone);
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
