package pi.host.launcher;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options the host's boundary needs, which only the command that starts the JVM can set
 * ({@code bin/pi-host} passes {@code pi-host/jvm.options}). Each closes a way into the host that
 * undumpability leaves open to a process of the same user:
 * <ul>
 * <li>{@code -XX:+DisableAttachMechanism}: the attach listener would otherwise start when such a
 * process creates {@code /tmp/.attach_pid<pid>} and sends SIGQUIT, and then load any agent it names
 * into the host ({@code jcmd} works on an undumpable JVM).</li>
 * <li>{@code -XX:-UsePerfData} (or {@code -XX:+PerfDisableSharedMem}): no
 * {@code /tmp/hsperfdata_<user>/<pid>}, a file the JVM maps as shared memory, writable by that
 * user.</li>
 * <li>{@code -XX:+DisplayVMOutputToStderr}: the thread dump any such process can ask for with
 * SIGQUIT would otherwise be written to file descriptor 1, into the RPC stream.</li>
 * </ul>
 */
final class JvmOptions {

    /** The options, as a user would pass them (the message names them). */
    static final List<String> REQUIRED = List.of("-XX:+DisableAttachMechanism", "-XX:-UsePerfData",
            "-XX:+DisplayVMOutputToStderr");

    private JvmOptions() {
    }

    /** The required options this JVM runs without (empty when all are in effect). */
    static List<String> missing() {
        HotSpotDiagnosticMXBean vm;
        try {
            vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            vm = null;
        }
        if (vm == null) {
            return REQUIRED; // not HotSpot: nothing here says the attach mechanism is off
        }
        List<String> missing = new ArrayList<>();
        if (!is(vm, "DisableAttachMechanism", true)) {
            missing.add(REQUIRED.get(0));
        }
        if (is(vm, "UsePerfData", true) && !is(vm, "PerfDisableSharedMem", true)) {
            missing.add(REQUIRED.get(1));
        }
        if (!is(vm, "DisplayVMOutputToStderr", true)) {
            missing.add(REQUIRED.get(2));
        }
        return missing;
    }

    private static boolean is(HotSpotDiagnosticMXBean vm, String flag, boolean value) {
        try {
            return Boolean.parseBoolean(vm.getVMOption(flag).getValue()) == value;
        } catch (IllegalArgumentException e) {
            return false; // a JVM without the flag has no such switch either
        }
    }
}
