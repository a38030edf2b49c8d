package dev.crowdtree.demo;

import dev.crowdtree.demo.cli.DotCommand;
import dev.crowdtree.demo.cli.RunCommand;
import dev.crowdtree.demo.cli.TraceCommand;
import dev.crowdtree.demo.cli.ValidateCommand;
import dev.crowdtree.demo.serve.ServeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line: {@code java -jar agents-demo.jar [run|validate|dot|trace|serve] ...}. Without a
 * subcommand it runs the crowd ({@code run}) with its defaults. Bad flags print usage and exit 2.
 */
@Command(name = "agents-demo", mixinStandardHelpOptions = true, version = "crowdtree 0.1.0",
        description = "Batched StateTree crowds: run the simulation, or validate, draw and trace tree assets.",
        subcommands = {RunCommand.class, ValidateCommand.class, DotCommand.class, TraceCommand.class, ServeCommand.class})
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
        return cl.execute(args);
    }

    private static boolean isHelpOrVersion(String a) {
        return a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version");
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
