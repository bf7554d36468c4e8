package pi.host.launcher;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code pi-host plugin scaffold|check|pack}: the plugin author's kit (docs/plugin-guide.md).
 * Reports go to stdout, Maven's output and errors to stderr. Exit codes: 0 done, 1 problems or
 * failure, 2 usage.
 */
@Command(name = "plugin", mixinStandardHelpOptions = true,
        description = "Write, check and install plugins (see docs/plugin-guide.md).",
        subcommands = {PluginCommand.Scaffold.class, PluginCommand.Check.class, PluginCommand.Pack.class,
            CommandLine.HelpCommand.class})
final class PluginCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    static PluginKit kit() {
        return new PluginKit(BundleSet.assemblyDir());
    }

    @Command(name = "scaffold", mixinStandardHelpOptions = true,
            description = "Write a ready Maven module for a new plugin into DIR/<id>: pom (bnd-maven-plugin, the"
                    + " pi.host.api of this installation), bnd.bnd, descriptor, one tool, a unit test and an"
                    + " in-container test.")
    static final class Scaffold implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<id>", description = "Plugin id: [a-z][a-z0-9.-]*, e.g. git-stats.")
        String id;

        @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
                description = "Folder to create <id>/ in (default: the current folder).")
        Path dir;

        @Override
        public Integer call() throws Exception {
            return kit().scaffold(id, dir, out(spec), err(spec));
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Check a built plugin jar exactly as the host will load it; prints every problem with"
                    + " where it is, what is wrong and the fix. Exit 0: loads; 1: problems.")
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<jar>", description = "The plugin jar (target/<id>-<version>.jar).")
        Path jar;

        @Override
        public Integer call() throws Exception {
            return kit().check(jar, out(spec), err(spec));
        }
    }

    @Command(name = "pack", mixinStandardHelpOptions = true,
            description = "Build a plugin module (mvn -B -q package against this installation's api), check the"
                    + " jar, and place it in <data dir>/plugins/, where a running host picks it up.")
    static final class Pack implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @ParentCommand
        PluginCommand plugin;

        @Parameters(index = "0", paramLabel = "<dir>", description = "The plugin module's folder (with pom.xml).")
        Path module;

        @Override
        public Integer call() throws Exception {
            Path data = DataDir.resolve(plugin.main.dataDir, System.getenv());
            return kit().pack(module, data, out(spec), err(spec));
        }
    }

    private static PrintWriter out(CommandSpec spec) {
        return spec.commandLine().getOut();
    }

    private static PrintWriter err(CommandSpec spec) {
        return spec.commandLine().getErr();
    }
}
