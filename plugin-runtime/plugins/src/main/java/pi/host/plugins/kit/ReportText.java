package pi.host.plugins.kit;

import java.util.List;
import pi.host.plugins.check.PluginDescriptor;
import pi.host.plugins.check.PluginReport;
import pi.host.plugins.check.Problem;
import pi.host.plugins.check.ToolSpec;

/**
 * A {@link PluginReport} as text for the author, the same in {@code pi-host plugin check} and the
 * PluginCheck tool: a verdict line, then each error and warning with where, what and the fix.
 */
public final class ReportText {

    private ReportText() {
    }

    public static String render(String subject, PluginReport report) {
        StringBuilder out = new StringBuilder();
        if (report.valid()) {
            PluginDescriptor d = report.descriptor();
            out.append(subject).append(": OK, plugin ").append(d.id()).append(' ').append(d.version())
                    .append(" (").append(d.name()).append(")");
            if (!report.warnings().isEmpty()) {
                out.append(", ").append(count(report.warnings().size(), "warning"));
            }
            out.append('\n');
            for (ToolSpec t : d.tools()) {
                out.append("  tool ").append(t.exposedName()).append(": risk ").append(t.risk())
                        .append(t.riskDeclared() ? "" : " (none declared)");
                if (!t.actions().isEmpty()) {
                    out.append(", actions ").append(t.actions());
                }
                out.append(t.planSafeActions().isEmpty() ? ", hidden in Plan and Goal"
                        : ", plan-safe " + t.planSafeActions());
                out.append(", timeout ").append(t.timeoutMs()).append(" ms\n");
            }
        } else {
            out.append(subject).append(": ").append(count(report.errors().size(), "error"));
            if (!report.warnings().isEmpty()) {
                out.append(", ").append(count(report.warnings().size(), "warning"));
            }
            out.append(" (the host will not load it)\n");
        }
        problems(out, "error", report.errors());
        problems(out, "warning", report.warnings());
        return out.toString();
    }

    private static void problems(StringBuilder out, String kind, List<Problem> problems) {
        for (Problem p : problems) {
            out.append(kind).append(": ").append(p.where()).append('\n')
                    .append("  what: ").append(p.what()).append('\n')
                    .append("  fix:  ").append(p.fix()).append('\n');
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
