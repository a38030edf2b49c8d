package dev.crowdtree.demo.http;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code serve} and {@code debug} take their access token from (a picocli mixin): the
 * command line ({@code --token}, visible to every user of the machine in {@code ps}), a file
 * ({@code --token-file}, its first line), or the environment variable {@value #ENV}. At most one of
 * the two options; either one overrides the variable.
 */
public final class TokenOptions {
    /** The environment variable a token is read from when no option gives one. */
    public static final String ENV = "CROWDTREE_TOKEN";
    /** The largest token file read: a token is at most 256 characters. */
    private static final int MAX_FILE_BYTES = 4096;

    @Option(names = "--token", paramLabel = "TOKEN", description = "Shared secret every request must carry, as "
            + "'Authorization: Bearer TOKEN' or ?token=TOKEN (open the page as http://HOST:PORT/?token=TOKEN); "
            + "16-256 characters from A-Z a-z 0-9 . _ ~ - (e.g. from: openssl rand -hex 16). Visible in the process "
            + "list: prefer --token-file or $" + ENV + ". Required with a --bind address other than loopback; the "
            + "connection is plain HTTP, so use it on networks you trust.")
    String token;

    @Option(names = "--token-file", paramLabel = "FILE", description = "Read the token from the first line of FILE "
            + "(a regular file of at most 4 KB) instead of --token.")
    Path tokenFile;

    /**
     * The token given, or null when none is: {@code --token}, else {@code --token-file}, else
     * {@value #ENV} from {@code env}.
     *
     * @throws IllegalArgumentException (one line) when both options are given, the file cannot be
     *                                  read, or the token is not valid
     */
    public AccessToken resolve(Map<String, String> env) {
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException("give --token or --token-file, not both");
        }
        if (token != null) {
            return AccessToken.of(token);
        }
        if (tokenFile != null) {
            return of(read(tokenFile), "--token-file " + tokenFile + ": the token");
        }
        String v = env.get(ENV);
        return v == null || v.isEmpty() ? null : of(v.strip(), "$" + ENV);
    }

    /** {@link #resolve} from this process's environment. */
    public AccessToken resolve() {
        return resolve(System.getenv());
    }

    private static AccessToken of(String value, String what) {
        try {
            return AccessToken.of(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not valid: " + e.getMessage().replaceFirst("^--token ", "it "));
        }
    }

    private static String read(Path file) {
        String name = "--token-file " + file;
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(name + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new IllegalArgumentException(name + ": cannot read it: " + e.getMessage());
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(name + ": more than " + MAX_FILE_BYTES + " bytes; a token file holds the token on its first line");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int eol = text.indexOf('\n');
        return (eol < 0 ? text : text.substring(0, eol)).strip();
    }
}
