package pi.host.console.internal;

import com.sun.jna.Function;
import com.sun.jna.NativeLong;
import java.util.Locale;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * In console mode, gives up the host process's controlling terminal ({@code ioctl(0, TIOCNOTTY)})
 * before any bundle can start a program, so that no program the host starts (the login-shell PATH
 * probe's interactive {@code bash -lic}, rg, git, an MCP server, a build) inherits the person's
 * terminal as its own: an interactive shell would otherwise make itself the terminal's foreground
 * job and leave the console unable to read (EIO), and a program asking for a password or a
 * confirmation on {@code /dev/tty} could read the keys meant for a permission card. The terminal stays
 * open on the console's file descriptors; Ctrl-C and resizes still reach the host, whose process
 * group stays the terminal's foreground group.
 *
 * <p>A component of its own, without references, so that SCR activates it as soon as this bundle
 * starts; {@code bundles.list} installs this bundle before the host's, so it starts before them.
 */
@Component(immediate = true, service = {})
public final class TerminalDetach {

    private static final System.Logger LOG = System.getLogger(TerminalDetach.class.getName());

    @Activate
    public TerminalDetach(BundleContext context) {
        if (!"true".equals(context.getProperty(ConsoleOptions.ENABLED))) {
            return;
        }
        long request = request(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        if (request == 0) {
            LOG.log(System.Logger.Level.WARNING, "no TIOCNOTTY for this system: programs the host starts keep the"
                    + " controlling terminal");
            return;
        }
        try {
            if (Function.getFunction("c", "isatty").invokeInt(new Object[] {0}) != 1) {
                return; // a script on stdin: there is no terminal to keep for the console
            }
            int session = Function.getFunction("c", "getsid").invokeInt(new Object[] {0});
            if (session == ProcessHandle.current().pid()) {
                // giving it up would hang the terminal up; the launcher runs a session leader's console in a
                // child process (TerminalSession), so this is only reached when that was bypassed
                LOG.log(System.Logger.Level.WARNING, "the host leads its session: it keeps the controlling terminal");
                return;
            }
            Function ioctl = Function.getFunction("c", "ioctl", Function.THROW_LAST_ERROR);
            ioctl.invokeInt(new Object[] {0, new NativeLong(request)});
        } catch (LinkageError | RuntimeException e) {
            // JNA missing or the call refused (LastErrorException): the console still works; the
            // residual risk is documented (docs/security.md)
            LOG.log(System.Logger.Level.WARNING, "could not give up the controlling terminal: " + e);
        }
    }

    /** TIOCNOTTY for the platform, or 0 where it is not known. */
    static long request(String os, String arch) {
        String o = os.toLowerCase(Locale.ROOT);
        if (o.contains("linux")) {
            // asm-generic value; alpha, mips, powerpc and sparc number their tty ioctls differently
            return arch.matches("amd64|x86_64|x86|i[3-6]86|aarch64|arm.*|riscv64|s390x|loongarch64") ? 0x5422 : 0;
        }
        if (o.contains("mac") || o.contains("darwin") || o.contains("bsd")) {
            return 0x20007471L; // _IO('t', 113)
        }
        return 0;
    }
}
