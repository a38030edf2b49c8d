package dev.crowdtree.demo.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.crowdtree.core.util.Printable;
import dev.crowdtree.demo.cluster.Sweep;
import dev.crowdtree.statetree.json.InputFileException;
import dev.crowdtree.statetree.json.InputFiles;
import dev.crowdtree.statetree.json.JsonLimits;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The jobs of {@code sweep --scenarios DIR}: one per {@code *.json} regular file in DIR, in file
 * name order, each a JSON object with any of {@code agents} (1..16,000,000), {@code seed} (any
 * long) and {@code ticks} (0..2,147,483,647), whole numbers; a field left out takes the command's
 * {@code --agents}/{@code --ticks}, and seed 1. The job is named by its file. Strict JSON (no
 * duplicate keys, nothing after the object), read through {@link InputFiles} and parsed within
 * {@link JsonLimits}, as the statetree scenarios are.
 */
final class SweepScenarios {
    /** The fields a sweep scenario may have. */
    static final List<String> FIELDS = List.of("agents", "seed", "ticks");
    /** Most agents in one crowd ({@code CrowdConfig}). */
    static final int MAX_AGENTS = 16_000_000;
    private static final long DEFAULT_SEED = 1;
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(JsonLimits.MAX_NESTING)
                            .maxNumberLength(JsonLimits.MAX_NUMBER_LENGTH)
                            .maxStringLength(JsonLimits.MAX_STRING_LENGTH)
                            .maxNameLength(JsonLimits.MAX_STRING_LENGTH)
                            .maxTokenCount(JsonLimits.MAX_TOKENS)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private SweepScenarios() {
    }

    /**
     * The jobs of the scenario files in {@code dir}.
     *
     * @throws IllegalArgumentException naming the directory, or the file and the field, and what is wrong
     */
    static List<Sweep.Job> load(Path dir, int agents, int ticks, long maxBytes) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--scenarios " + dir + ": " + (Files.exists(dir) ? "not a directory"
                    : "no such directory"));
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--scenarios " + dir + ": cannot list the directory: " + e.getMessage(), e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("--scenarios " + dir + ": no scenario file (*.json) in the directory");
        }
        files.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        List<Sweep.Job> jobs = new ArrayList<>(files.size());
        for (Path f : files) {
            jobs.add(job(f, agents, ticks, maxBytes));
        }
        return jobs;
    }

    private static Sweep.Job job(Path file, int agents, int ticks, long maxBytes) {
        String text;
        try {
            text = InputFiles.read(file, maxBytes);
        } catch (InputFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        JsonNode root;
        try {
            root = JSON.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw new IllegalArgumentException(file + ": invalid JSON" + where + ": " + JsonLimits.clean(e.getOriginalMessage()), e);
        }
        if (root == null || root.isMissingNode()) {
            throw new IllegalArgumentException(file + ": the file is empty; expected a sweep scenario object such as "
                    + "{\"agents\": 20000, \"seed\": 5, \"ticks\": 300}");
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException(file + ": expected a sweep scenario object {...}, got " + describe(root));
        }
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            String name = field.getKey();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException(file + ": unknown field '" + Printable.clean(name, 100)
                        + "'; a sweep scenario has the fields " + String.join(", ", FIELDS));
            }
        }
        int a = (int) whole(file, root, "agents", agents, 1, MAX_AGENTS);
        long seed = whole(file, root, "seed", DEFAULT_SEED, Long.MIN_VALUE, Long.MAX_VALUE);
        int t = (int) whole(file, root, "ticks", ticks, 0, Integer.MAX_VALUE);
        return new Sweep.Job(file.getFileName().toString(), a, seed, t);
    }

    /** Field {@code name} of {@code root}, a whole number in {@code min..max}, or {@code fallback} when absent. */
    private static long whole(Path file, JsonNode root, String name, long fallback, long min, long max) {
        JsonNode v = root.get(name);
        if (v == null) {
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(file + ": field '" + name + "': expected a whole number in " + min + ".."
                    + max + ", got " + describe(v));
        }
        return v.asLong();
    }

    /** A JSON value in words, for messages: its type, and a short form of its value. */
    private static String describe(JsonNode v) {
        if (v.isTextual()) {
            return "the string \"" + Printable.clean(v.asText(), 60) + "\"";
        }
        if (v.isNumber()) {
            return "the number " + Printable.clean(v.asText(), 60);
        }
        if (v.isBoolean()) {
            return v.asText();
        }
        if (v.isNull()) {
            return "null";
        }
        return v.isArray() ? "a list" : "an object";
    }
}
