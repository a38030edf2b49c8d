package dev.crowdtree.demo.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetDisconnectedException;
import com.hazelcast.spi.exception.TargetNotMemberException;

import java.io.PrintStream;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The driver of a sweep ({@code agents-demo sweep}): many independent crowd runs ({@link SweepJob}s)
 * spread over the cluster's members, from a lite member that runs none of them.
 * <ol>
 *   <li>handshake ({@link Handshake}): only members that prove the secret are given jobs;</li>
 *   <li>jobs go out in order, to the member with the fewest in flight, at most two per member
 *       (so at most {@code 2 x members} in flight); each answer frees a place for the next;</li>
 *   <li>a job whose member left (its answer is a {@link MemberLeftException},
 *       {@link TargetNotMemberException}, {@link TargetDisconnectedException} or
 *       {@link HazelcastInstanceNotActiveException}, or the member is no longer in the cluster)
 *       is run again on a survivor, and that member is given no more jobs; a job that threw for
 *       another reason is a failed row;</li>
 *   <li>the rows are indexed by job, so the table is in job order whichever member ran what: a
 *       job's world hash is that of the same run on one machine.</li>
 * </ol>
 * With {@link Options#progress()} a progress bar goes to the error stream once a second.
 *
 * <p>THREADING: {@link #run()} on one thread (the caller's); the answers arrive on Hazelcast's
 * threads and are handed over through a queue.
 */
public final class Sweep {
    /**
     * One job: a run of the sweep's model with {@code agents} agents from {@code seed} for {@code ticks} ticks, named
     * {@code name} in the table.
     */
    public record Job(String name, int agents, long seed, int ticks) implements Serializable {
    }

    /**
     * How a sweep goes.
     *
     * @param killAtJob testing: after this many jobs completed, stop one member abruptly (0: never)
     * @param progress  whether to print the progress bar
     */
    public record Options(long killAtJob, boolean progress) {
    }

    /** What a sweep gave. */
    public static final class Result {
        /** One row per job, in job order. */
        public final SweepRow[] rows;
        /** Members that proved the secret at the start, and those that did not ({@code host:port}). */
        public int members;
        public List<String> refused = List.of();
        /** From the first job sent to the last answer. */
        public long wallNanos;
        /** Jobs run again because their member left. */
        public int reruns;
        /** Jobs re-run, by the {@code host:port} of the member they were lost with, in order of loss. */
        public final Map<String, Integer> lost = new LinkedHashMap<>();
        /** Jobs that threw (rows with an error). */
        public int failed;

        Result(int jobs) {
            this.rows = new SweepRow[jobs];
        }
    }

    /** A job's answer, as it arrives from Hazelcast. */
    private record Answer(int job, Member member, SweepRow row, Throwable failure) {
    }

    /** Jobs in flight per member at most. */
    private static final int PER_MEMBER = 2;
    private static final int BAR_WIDTH = 20;

    private final HazelcastInstance driver;
    private final ClusterSecret secret;
    private final List<Job> jobs;
    private final RunSpec model;
    private final Options options;
    private final ClusterRun.Killer killer;
    private final PrintStream err;
    private final IExecutorService executor;
    private final String sweepId = UUID.randomUUID().toString();
    private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private final Map<Member, Integer> inFlight = new HashMap<>();
    private final Result result;
    /** The members that are given jobs: those that proved the secret, less those that left. */
    private List<Member> members = new ArrayList<>();

    /**
     * @param jobs     the jobs, in table order
     * @param model    the model, its tree and dt (its agents, seed and regions are each job's)
     * @param killer   stops a member abruptly ({@link Options#killAtJob()})
     * @param err      where the progress bar and the notes on lost members go
     */
    public Sweep(HazelcastInstance driver, ClusterSecret secret, List<Job> jobs, RunSpec model, Options options,
                 ClusterRun.Killer killer, PrintStream err) {
        this.driver = driver;
        this.secret = secret;
        this.jobs = jobs;
        this.model = model;
        this.options = options;
        this.killer = killer;
        this.err = err;
        this.executor = driver.getExecutorService("crowdtree");
        this.result = new Result(jobs.size());
    }

    /**
     * The members that proved the secret; call before {@link #run()} to print them early.
     *
     * @throws IllegalStateException when no member proves it
     */
    public Handshake.Outcome handshake() throws InterruptedException {
        Handshake.Outcome h = Handshake.run(driver, executor, secret);
        Handshake.checkModel(executor, secret, h.accepted(), model);
        members = new ArrayList<>(h.accepted());
        result.members = members.size();
        result.refused = h.refused();
        return h;
    }

    /**
     * Runs every job.
     *
     * @throws IllegalStateException when every member is gone before the last job is done (in one line
     *                               that says so when the cluster was shut down: {@link ClusterShutdown})
     */
    public Result run() throws InterruptedException {
        try (ClusterShutdown.Watch watch = new ClusterShutdown.Watch(driver)) {
            try {
                return runJobs();
            } catch (RuntimeException e) {
                watch.blame(e, "the sweep");
                throw e;
            }
        }
    }

    private Result runJobs() throws InterruptedException {
        if (members.isEmpty()) {
            handshake();
        }
        int n = jobs.size();
        ArrayDeque<Integer> retry = new ArrayDeque<>();
        int next = 0;
        int completed = 0;
        boolean killed = false;
        long start = System.nanoTime();
        long lastReport = start;
        while (completed < n) {
            // fill every free place: jobs lost with a member first, then the next ones in order
            Member m;
            Member lastGiven = null;
            while ((!retry.isEmpty() || next < n) && (m = leastLoaded()) != null) {
                submit(retry.isEmpty() ? next++ : retry.poll(), m);
                lastGiven = m;
            }
            if (!killed && options.killAtJob() > 0 && completed >= options.killAtJob() && completed < n) {
                killed = true;
                kill(completed, lastGiven);
            }
            if (members.isEmpty()) {
                throw new IllegalStateException("every member is gone; " + (n - completed) + " of " + n
                        + " jobs were not run");
            }
            Answer a = answers.poll(200, TimeUnit.MILLISECONDS);
            if (a != null) {
                inFlight.merge(a.member(), -1, Integer::sum);
                if (a.failure() == null) {
                    result.rows[a.job()] = a.row();
                    completed++;
                } else if (lost(a.member(), a.failure())) {
                    memberLost(a.member());
                    result.lost.merge(Handshake.describe(a.member()), 1, Integer::sum);
                    result.reruns++;
                    retry.add(a.job());
                } else {
                    result.rows[a.job()] = SweepRow.failed(jobs.get(a.job()), Handshake.describe(a.member()),
                            message(a.failure()));
                    result.failed++;
                    completed++;
                }
            }
            long now = System.nanoTime();
            if (options.progress() && now - lastReport >= 1_000_000_000L) {
                progress(completed, now - start);
                lastReport = now;
            }
        }
        result.wallNanos = System.nanoTime() - start;
        if (options.progress()) {
            progress(completed, result.wallNanos);
        }
        return result;
    }

    /** The member given jobs with the fewest in flight, if it has a free place; else null. */
    private Member leastLoaded() {
        Member best = null;
        int least = PER_MEMBER;
        for (Member m : members) {
            int k = inFlight.getOrDefault(m, 0);
            if (k < least) {
                best = m;
                least = k;
            }
        }
        return best;
    }

    private void submit(int job, Member m) {
        inFlight.merge(m, 1, Integer::sum);
        SweepJob task = new SweepJob(secret, sweepId + "/" + job, jobs.get(job), model);
        try {
            executor.submitToMember(task, m, new ExecutionCallback<SweepRow>() {
                @Override
                public void onResponse(SweepRow row) {
                    answers.add(new Answer(job, m, row, null));
                }

                @Override
                public void onFailure(Throwable t) {
                    answers.add(new Answer(job, m, null, t));
                }
            });
        } catch (RuntimeException e) {
            // a member that is already gone may be refused at once instead of through the callback
            answers.add(new Answer(job, m, null, e));
        }
    }

    /** Whether {@code failure} of a job sent to {@code m} means that the member left. */
    private boolean lost(Member m, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MemberLeftException || t instanceof TargetNotMemberException
                    || t instanceof TargetDisconnectedException || t instanceof HazelcastInstanceNotActiveException) {
                return true;
            }
        }
        return !driver.getCluster().getMembers().contains(m);
    }

    private void memberLost(Member m) {
        if (members.remove(m)) {
            err.printf(Locale.ROOT, "member %s left: its jobs run again on the %d other%s%n", Handshake.describe(m),
                    members.size(), members.size() == 1 ? "" : "s");
        }
    }

    /**
     * {@code --kill-member-at-job}: stops {@code justGiven}, the member handed a job a moment ago, so that at
     * least that job is lost with it (a member whose jobs all finished before it was stopped would lose none);
     * when no job was handed out, the member with the most jobs in flight (the last such).
     */
    private void kill(int completed, Member justGiven) {
        if (members.size() < 2) {
            err.printf(Locale.ROOT, "not killing a member after %d jobs: only %d left (--kill-member-at-job)%n",
                    completed, members.size());
            return;
        }
        Member victim = justGiven;
        if (victim == null) {
            for (Member m : members) {
                if (victim == null || inFlight.getOrDefault(m, 0) >= inFlight.getOrDefault(victim, 0)) {
                    victim = m;
                }
            }
        }
        err.printf(Locale.ROOT, "killing member %s after %d jobs (--kill-member-at-job)%n", Handshake.describe(victim),
                completed);
        killer.kill(victim);
    }

    /** A failed job's reason in one line: the task's own exception's message, not Hazelcast's wrappers. */
    private static String message(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    private void progress(int completed, long nanos) {
        int n = jobs.size();
        int filled = n == 0 ? BAR_WIDTH : (int) ((long) completed * BAR_WIDTH / n);
        double rate = completed * 1e9 / Math.max(1, nanos);
        String eta = completed == n ? "0" : rate > 0 ? Long.toString((long) Math.ceil((n - completed) / rate)) : "?";
        err.printf(Locale.ROOT, "[%s%s] %5.1f%% %d/%d jobs | %d member%s | %.1f jobs/s | eta %s s%n",
                "#".repeat(filled), ".".repeat(BAR_WIDTH - filled), 100.0 * completed / Math.max(1, n), completed, n,
                members.size(), members.size() == 1 ? "" : "s", rate, eta);
    }
}
