package dev.crowdtree.demo.cluster;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The cluster's shared secret and what it protects (docs/SCALE.md "Security"). Open-source Hazelcast
 * lets any process that knows the cluster name join and hold partitions, so the secret never travels
 * and is used for:
 * <ul>
 *   <li>the handshake: the driver sends every other member of the cluster, lite or not, a random
 *       challenge and accepts only members that answer with
 *       {@code HMAC-SHA256(handshake key, challenge || member uuid)}; only those are given regions,
 *       and no run goes on beside one that does not;</li>
 *   <li>task proofs: every task the driver sends carries {@code HMAC-SHA256(task key, the task's
 *       canonical bytes)}: its class, kind, run, generation and tick and every field that says what it
 *       does (the run's spec, its regions, ...: {@link Tasks.MemberTask#canonical}); a member refuses a
 *       task without a valid one, so a proof taken from one task does not pass on a changed one;</li>
 *   <li>sealing: every value written to the cluster's maps (exchange messages, checkpoints) is
 *       AES-256-CTR encrypted and HMAC-SHA256 authenticated (encrypt-then-MAC, two keys derived from
 *       the secret), the map key covered by the tag, so a partition or backup held by a member
 *       without the secret is ciphertext only, and a changed value, or one moved to another key, does
 *       not open.</li>
 * </ul>
 * Each use has a key of its own, derived as {@code HMAC-SHA256(secret, label)} with the labels
 * {@value #HANDSHAKE_LABEL}, {@value #TASK_LABEL} and {@value #SEAL_LABEL} (the sealing key then split
 * into an encryption and an authentication key the same way): the handshake answers any member's
 * challenge, and since its key is not the task key, an answer is never a task proof or a seal.
 * THREADING: immutable; each call makes its
 * own {@code Mac}/{@code Cipher}.
 */
public final class ClusterSecret {
    /** The environment variable a secret is read from when no option gives it. */
    public static final String ENV = "CROWDTREE_CLUSTER_SECRET";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The label of the handshake's key. */
    static final String HANDSHAKE_LABEL = "crowdtree handshake v1";
    /** The label of the task proofs' key. */
    static final String TASK_LABEL = "crowdtree task v1";
    /** The label of the sealing key, from which the encryption and authentication keys are derived. */
    static final String SEAL_LABEL = "crowdtree seal v1";

    private final byte[] handshakeKey;
    private final byte[] taskKey;
    private final byte[] encryptionKey;
    private final byte[] authenticationKey;

    private ClusterSecret(byte[] secret) {
        this.handshakeKey = derive(secret, HANDSHAKE_LABEL);
        this.taskKey = derive(secret, TASK_LABEL);
        byte[] sealKey = derive(secret, SEAL_LABEL);
        this.encryptionKey = derive(sealKey, "encryption");
        this.authenticationKey = derive(sealKey, "authentication");
    }

    private static byte[] derive(byte[] key, String label) {
        return hmac(key, label.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A secret from text (at least 16 characters).
     *
     * @throws IllegalArgumentException when it is shorter
     */
    public static ClusterSecret of(String text) {
        if (text == null || text.length() < 16) {
            throw new IllegalArgumentException("the cluster secret must have at least 16 characters (it has "
                    + (text == null ? 0 : text.length()) + "); give it with --secret or the environment variable " + ENV);
        }
        return new ClusterSecret(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A fresh random secret, for a cluster that lives inside one process. */
    public static ClusterSecret random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return new ClusterSecret(b);
    }

    /** 32 random bytes, a challenge. */
    public static byte[] challenge() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return b;
    }

    /** The answer to {@code challenge} of the member with id {@code memberUuid}. */
    public byte[] prove(byte[] challenge, String memberUuid) {
        byte[] id = memberUuid.getBytes(StandardCharsets.UTF_8);
        byte[] msg = Arrays.copyOf(challenge, challenge.length + id.length);
        System.arraycopy(id, 0, msg, challenge.length, id.length);
        return hmac(handshakeKey, msg);
    }

    /** Whether {@code answer} is the right one, compared in constant time. */
    public boolean verify(byte[] challenge, String memberUuid, byte[] answer) {
        return answer != null && MessageDigest.isEqual(prove(challenge, memberUuid), answer);
    }

    /** The proof a task whose canonical bytes are {@code canonical} carries ({@link Tasks.MemberTask#canonical}). */
    public byte[] taskProof(byte[] canonical) {
        return hmac(taskKey, canonical);
    }

    /**
     * Checks a task's proof against its canonical bytes, in constant time.
     *
     * @throws SecurityException when {@code proof} is missing or is not that of these bytes (another
     *                           secret, a proof of another task, or a task changed after it was proved)
     */
    public void checkTask(String kind, byte[] canonical, byte[] proof) {
        if (proof == null || !MessageDigest.isEqual(taskProof(canonical), proof)) {
            throw new SecurityException("a " + kind + " task " + (proof == null ? "without a proof" : "whose proof is not "
                    + "that of its contents") + " was refused: a task must carry the HMAC of all of its fields under the "
                    + "cluster secret's task key (another secret, a proof copied from another task, or a task changed after "
                    + "the driver proved it)");
        }
    }

    /**
     * {@code plain} encrypted and authenticated, bound to {@code key} (encrypt-then-MAC): a random
     * 16-byte nonce, the AES-256-CTR ciphertext, then an HMAC-SHA256 tag over the map key's length and
     * bytes, the nonce and the ciphertext, under a key of its own. (AES-GCM did the same job at about
     * 100 MB/s here, its GHASH not compiled to the processor's carry-less multiply: a 30 MB region
     * checkpoint took 270 ms to seal; this takes 80.)
     */
    public byte[] seal(byte[] plain, String key) {
        try {
            byte[] out = new byte[NONCE + plain.length + TAG];
            byte[] nonce = new byte[NONCE];
            RANDOM.nextBytes(nonce);
            System.arraycopy(nonce, 0, out, 0, NONCE);
            Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(encryptionKey, "AES"), new IvParameterSpec(nonce));
            c.doFinal(plain, 0, plain.length, out, NONCE);
            System.arraycopy(tag(out, NONCE + plain.length, key), 0, out, NONCE + plain.length, TAG);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR is not available: " + e, e);
        }
    }

    /**
     * The plain bytes {@link #seal} sealed under {@code key}.
     *
     * @throws SecurityException when the value was not sealed with this secret for this key, or was changed
     */
    public byte[] open(byte[] sealed, String key) {
        if (sealed == null || sealed.length < NONCE + TAG) {
            throw new SecurityException("value of " + key + " is not sealed");
        }
        int end = sealed.length - TAG;
        if (!MessageDigest.isEqual(tag(sealed, end, key), Arrays.copyOfRange(sealed, end, sealed.length))) {
            throw new SecurityException("value of " + key + " does not open with this cluster secret (another secret, or changed)");
        }
        try {
            Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(encryptionKey, "AES"), new IvParameterSpec(sealed, 0, NONCE));
            return c.doFinal(sealed, NONCE, end - NONCE);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR is not available: " + e, e);
        }
    }

    private static final int NONCE = 16;
    private static final int TAG = 32;

    /** The tag of {@code sealed[0..end)} (nonce and ciphertext) bound to map key {@code key}. */
    private byte[] tag(byte[] sealed, int end, String key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(authenticationKey, "HmacSHA256"));
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            mac.update(ByteBuffer.allocate(4).putInt(k.length).array());
            mac.update(k);
            mac.update(sealed, 0, end);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available: " + e, e);
        }
    }

    private static byte[] hmac(byte[] key, byte[] msg) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m.doFinal(msg);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available: " + e, e);
        }
    }
}
