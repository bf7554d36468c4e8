package pi.host.plugins.kit;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;

/**
 * The author kit as the launcher's {@code pi-host plugin ...} commands call it. The launcher loads
 * this jar (with its libraries) in a class loader of its own, so these entry points take and return
 * JDK types only. Exit codes: 0 done, 1 problems or failure, 2 unusable input.
 */
public final class KitCli {

    /** A command-line pack may take as long as the author's build does. */
    private static final Duration PACK_TIMEOUT = Duration.ofHours(1);

    private KitCli() {
    }

    /** {@code pi-host plugin check <jar>}: the report on {@code out}. */
    public static int check(Path jar, PrintWriter out, PrintWriter err) {
        PluginReport report = PluginInspector.inspect(jar);
        out.print(ReportText.render(jar.toString(), report));
        out.flush();
        return report.valid() ? 0 : 1;
    }

    /** {@code pi-host plugin scaffold <id> [--dir D]}: the files written and the next steps on {@code out}. */
    public static int scaffold(String id, Path parent, Path sdk, PrintWriter out, PrintWriter err) {
        Scaffold.Result r;
        try {
            r = Scaffold.write(id, parent, sdk);
        } catch (KitException e) {
            return fail(e, err);
        }
        out.println("Wrote plugin module " + id + " in " + r.module() + ":");
        r.files().forEach(f -> out.println("  " + f));
        out.println("Next:");
        out.println("  cd " + r.module() + " && mvn -B verify");
        out.println("  pi-host plugin check " + r.module().resolve("target/" + id + "-" + Template.VERSION + ".jar"));
        out.println("  pi-host plugin pack " + r.module());
        out.flush();
        return 0;
    }

    /** {@code pi-host plugin pack <dir> [--data-dir D]}: Maven's output on {@code err}, the report and the result on {@code out}. */
    public static int pack(Path module, Path dataDir, Path sdk, PrintWriter out, PrintWriter err) {
        Pack.Result r;
        try {
            r = new Pack().pack(module, dataDir, sdk, line -> {
                err.println(line);
                err.flush();
            }, PACK_TIMEOUT, action -> { });
        } catch (KitException e) {
            return fail(e, err);
        }
        out.print(ReportText.render(r.jar().toString(), r.report()));
        if (r.installed() == null) {
            out.println("Not installed: fix the errors above and pack again.");
            out.flush();
            return 1;
        }
        out.println("Installed " + r.installed() + " (the host picks it up within seconds).");
        for (Path other : r.sameIdElsewhere()) {
            out.println("warning: " + other + " declares the same plugin id; remove it, or the host sees the plugin"
                    + " twice");
        }
        out.println("Grant it: plugins.grant {\"pluginId\": \"" + r.report().descriptor().id()
                + "\", \"capability\": \"agent.tool.register\"}");
        out.flush();
        return 0;
    }

    private static int fail(KitException e, PrintWriter err) {
        err.println("pi-host plugin: " + e.getMessage());
        err.flush();
        return e.kind() == KitException.Kind.USAGE ? 2 : 1;
    }
}
