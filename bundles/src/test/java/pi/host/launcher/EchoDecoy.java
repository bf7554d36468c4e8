package pi.host.launcher;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The control of ControlChannelIT: a JVM with the host's stdio (JSON lines in, JSON lines out) but
 * none of its hardening, so the same attacks must reach it. It prints its pid, then echoes every
 * line it reads. Under Yama's ptrace scope 1 it lets any process trace it, as a process is by
 * default where Yama is off, so the control shows the same thing on either kind of system.
 */
public final class EchoDecoy {

    private static final int PR_SET_PTRACER = 0x59616d61;

    private EchoDecoy() {
    }

    public static void main(String[] args) throws Exception {
        Path yama = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        if (Files.exists(yama) && "1".equals(Files.readString(yama).strip())) {
            NativeLibrary.getProcess().getFunction("prctl")
                    .invokeInt(new Object[] {PR_SET_PTRACER, -1L /* PR_SET_PTRACER_ANY */, 0L, 0L, 0L});
        }
        System.out.println("{\"pid\":" + ProcessHandle.current().pid() + "}");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            System.out.println("{\"echo\":\"" + line.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        }
    }
}
