package dev.crowdtree.demo;

import dev.crowdtree.demo.cli.DotCommand;
import dev.crowdtree.demo.cli.Problems;
import dev.crowdtree.demo.cli.MemberCommand;
import dev.crowdtree.demo.cli.RunCommand;
import dev.crowdtree.demo.cli.TraceCommand;
import dev.crowdtree.demo.cli.ValidateCommand;
import dev.crowdtree.demo.serve.ServeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Locale;

/**
 * The command line: {@code java -jar agents-demo.jar [run|validate|dot|trace|serve] ...}. Without a
 * subcommand it runs the crowd ({@code run}) with its defaults. Bad flags print usage and exit 2;
 * bad input (an option value, a file, a scenario, a tree) prints one line {@code error: ...} and
 * exits 2. Anything else that goes wrong is a bug: one line {@code error: unexpected failure: ...}
 * and exit 1, with the stack trace only when {@code -Dcrowdtree.stacktrace=true}; running out of
 * memory says so and exits 1.
 */
@Command(name = "agents-demo", mixinStandardHelpOptions = true, version = "crowdtree 0.1.0",
        description = "Batched StateTree crowds: run the simulation, or validate, draw and trace tree assets.",
        subcommands = {RunCommand.class, ValidateCommand.class, DotCommand.class, TraceCommand.class, ServeCommand.class, dev.crowdtree.demo.debug.DebugCommand.class, MemberCommand.class, dev.crowdtree.demo.cli.SweepCommand.class, dev.crowdtree.demo.cli.ChaosCommand.class, dev.crowdtree.demo.cli.StrangerCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (for tests). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            return 2;
        });
        if (args.length == 0 || args[0].startsWith("-") && !isHelpOrVersion(args[0])) {
            String[] withRun = new String[args.length + 1];
            withRun[0] = "run";
            System.arraycopy(args, 0, withRun, 1, args.length);
            args = withRun;
        }
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println(Problems.line("unexpected failure: " + describe(ex)
                    + "; please report it (-Dcrowdtree.stacktrace=true shows where)"));
            if (Boolean.getBoolean("crowdtree.stacktrace")) {
                ex.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println(Problems.line(String.format(Locale.ROOT, "out of memory (the JVM may use %,d MB); "
                    + "give Java more memory (-Xmx) or use smaller inputs", Runtime.getRuntime().maxMemory() >> 20)));
            return 1;
        }
    }

    /** What went wrong, without Java class names where the exception has a message. */
    private static String describe(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static boolean isHelpOrVersion(String a) {
        return a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version");
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
