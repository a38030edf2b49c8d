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
 *   <li>the handshake: the driver sends each member a random challenge and accepts only members that
 *       answer with {@code HMAC-SHA256(key, challenge || member uuid)}; only those are given regions;</li>
 *   <li>task proofs: every task the driver sends carries an HMAC over its kind, run and tick, and a
 *       member refuses tasks without a valid one;</li>
 *   <li>sealing: every value written to the cluster's maps (exchange messages, checkpoints) is
 *       AES-256-CTR encrypted and HMAC-SHA256 authenticated (encrypt-then-MAC, two keys derived from
 *       the secret), the map key covered by the tag, so a partition or backup held by a member
 *       without the secret is ciphertext only, and a changed value, or one moved to another key, does
 *       not open.</li>
 * </ul>
 * Keys are derived as {@code HMAC-SHA256(secret, label)}. THREADING: immutable; each call makes its
 * own {@code Mac}/{@code Cipher}.
 */
public final class ClusterSecret {
    /** The environment variable a secret is read from when no option gives it. */
    public static final String ENV = "CROWDTREE_CLUSTER_SECRET";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] macKey;
    private final byte[] encryptionKey;
    private final byte[] authenticationKey;

    private ClusterSecret(byte[] secret) {
        this.macKey = hmac(secret, "crowdtree cluster proof".getBytes(StandardCharsets.UTF_8));
        this.encryptionKey = hmac(secret, "crowdtree cluster data encryption".getBytes(StandardCharsets.UTF_8));
        this.authenticationKey = hmac(secret, "crowdtree cluster data authentication".getBytes(StandardCharsets.UTF_8));
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
        return hmac(macKey, msg);
    }

    /** Whether {@code answer} is the right one, compared in constant time. */
    public boolean verify(byte[] challenge, String memberUuid, byte[] answer) {
        return answer != null && MessageDigest.isEqual(prove(challenge, memberUuid), answer);
    }

    /** The proof a task of {@code kind} for run {@code runId} at {@code tick} carries. */
    public byte[] taskProof(String kind, String runId, long tick) {
        return hmac(macKey, (kind + "|" + runId + "|" + tick).getBytes(StandardCharsets.UTF_8));
    }

    /** @throws SecurityException when {@code proof} is not the task's */
    public void checkTask(String kind, String runId, long tick, byte[] proof) {
        if (proof == null || !MessageDigest.isEqual(taskProof(kind, runId, tick), proof)) {
            throw new SecurityException("a " + kind + " task without a valid proof of the cluster secret was refused");
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
