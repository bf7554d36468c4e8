package pi.host.tools.internal.process;

import java.io.File;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Starts command processes so that their whole tree can be found and killed later (spec §5: timeout
 * and abort terminate the complete tree). Each command leads its own process group and carries a
 * marker in its environment that every descendant inherits; killing signals the group, every
 * descendant, and every process carrying the marker, SIGTERM first, then SIGKILL until none is
 * left. As a Linux child subreaper the host adopts escaped descendants and reaps them.
 *
 * <p>A command gets a session of its own only when the host has a controlling terminal, to keep
 * the command from it (no TTY, spec §5); without one, a group in the host's session is as good.
 * A new session costs: Linux schedules each session as a group of its own (autogroup), and a new
 * group waits its turn behind the busy ones, which on a loaded machine doubled a short command's
 * median time (docs/performance-log.md). {@link NativeSpawn} does either with one exec; without it,
 * {@code setsid} through {@link ProcessBuilder} always makes a new session.
 */
@Component(service = ProcessSupervisor.class)
public final class ProcessSupervisor {

    /** The environment variable that marks a command's processes. */
    public static final String MARKER = "PI_HOST_PROCESS";

    private static final long TERM_GRACE_MS = 300;
    private static final String[] SETSID = {"/usr/bin/setsid", "/bin/setsid"};
    /** Set to true to start commands through ProcessBuilder and setsid even where posix_spawn works. */
    public static final String NO_SPAWN = "pi.host.process.nospawn";

    private final NativeSignals signals;
    private final boolean subreaper;
    private final String setsid;
    private final ScheduledExecutorService sweeper;
    private final CommandThreads threads = new CommandThreads();
    /** Null where posix_spawn is not available: then {@code setsid} through ProcessBuilder. */
    private final NativeSpawn spawner;
    /** Pipes of our own for {@link #startPumped} when ProcessBuilder starts it; null where JNA does not bind. */
    private final OwnPipes ownPipes;
    /** Whether NativeSpawn gives each command a new session rather than only a new process group. */
    private final boolean sessionPerCommand;
    private final Set<Long> zombiesSeen = new HashSet<>();

    @Activate
    public ProcessSupervisor() {
        this(NativeSignals.load());
    }

    public ProcessSupervisor(NativeSignals signals) {
        this(signals, Procs.hasControllingTerminal());
    }

    ProcessSupervisor(NativeSignals signals, boolean sessionPerCommand) {
        this.signals = signals;
        this.subreaper = signals.becomeSubreaper();
        this.setsid = findSetsid();
        this.spawner = signals.isNative() && !Boolean.getBoolean(NO_SPAWN) ? loadSpawner(threads) : null;
        this.ownPipes = signals.isNative() ? OwnPipes.load().orElse(null) : null;
        this.sessionPerCommand = sessionPerCommand;
        if (subreaper) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "pi-reaper");
                t.setDaemon(true);
                return t;
            });
            sweeper.scheduleWithFixedDelay(this::reapAdopted, 1, 1, TimeUnit.SECONDS);
        } else {
            sweeper = null;
        }
    }

    @Deactivate
    public void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        threads.close();
    }

    /** The threads that pump, wait for and kill the commands this supervisor started. */
    public CommandThreads threads() {
        return threads;
    }

    /** The native edge in use (tests assert that it is the JNA one where it should be). */
    public NativeSignals signals() {
        return signals;
    }

    /** True when this host adopts orphaned descendants. */
    public boolean isSubreaper() {
        return subreaper;
    }

    /** True when commands start through {@link NativeSpawn} (tests assert which path ran). */
    public boolean spawnsNatively() {
        return spawner != null;
    }

    /**
     * A started command: its process, the marker its tree carries, and whether it leads its own
     * process group (which a kill then signals as a whole).
     */
    public record Started(Process process, String marker, boolean ownGroup) {
    }

    /**
     * Starts {@code command} as the leader of a new process group (and session, see above) with the
     * marker set. The caller sets cwd, environment and redirects on {@code builder}.
     */
    public Started start(ProcessBuilder builder, List<String> command) throws IOException {
        return start(builder, command, false);
    }

    /**
     * As {@link #start}, for a caller that reads stdout and stderr to their end and closes them
     * (Bash, foreground and background): their end is then the last writer's close, never the
     * shell's exit, on the fallback as on posix_spawn (see {@link OwnPipes}).
     */
    public Started startPumped(ProcessBuilder builder, List<String> command) throws IOException {
        return start(builder, command, true);
    }

    private Started start(ProcessBuilder builder, List<String> command, boolean pumped) throws IOException {
        String marker = UUID.randomUUID().toString();
        builder.environment().put(MARKER, marker);
        if (spawner != null && NativeSpawn.supports(builder)) {
            return new Started(spawner.start(builder, command, sessionPerCommand), marker, true);
        }
        List<String> argv = new java.util.ArrayList<>();
        if (setsid != null) {
            argv.add(setsid); // not a group leader when Java forks it, so setsid execs without forking again
        }
        argv.addAll(command);
        builder.command(argv);
        Process process = pumped && ownPipes != null ? ownPipes.start(builder) : builder.start();
        return new Started(process, marker, setsid != null);
    }

    /**
     * Kills the command's whole tree: SIGTERM, a short grace, then SIGKILL rounds until nothing
     * that belongs to it is running. Returns within about a second; never throws.
     */
    public void killTree(Started started) {
        long root = started.process().pid();
        Set<Long> seen = new HashSet<>();
        seen.addAll(signalRound(started, false));
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TERM_GRACE_MS);
        while (System.nanoTime() < until && !members(root, started.marker()).isEmpty()) {
            sleep(20);
        }
        // at least one SIGKILL round: group members that left the tree without the marker are only
        // reachable through their group, and they may ignore SIGTERM
        for (int round = 0; round < 20; round++) {
            seen.addAll(signalRound(started, true));
            sleep(round < 5 ? 10 : 50);
            if (members(root, started.marker()).isEmpty()) {
                break;
            }
        }
        reapKilled(root, seen);
    }

    private Set<Long> signalRound(Started started, boolean force) {
        long root = started.process().pid();
        String marker = started.marker();
        int sig = force ? NativeSignals.SIGKILL : NativeSignals.SIGTERM;
        Set<Long> targets = targets(root, marker);
        if (signals.isNative()) {
            // the group reaches members that left the tree and cleared their environment
            for (long pid : targets) {
                if (signals.processGroup(pid) == pid) {
                    signals.signalGroup(pid, sig);
                }
            }
            if (started.ownGroup()) {
                signals.signalGroup(root, sig); // the shell leads its group even after it exited
            }
        }
        for (long pid : targets) {
            ProcessHandle.of(pid).ifPresent(h -> {
                if (force) {
                    h.destroyForcibly();
                } else {
                    h.destroy();
                }
            });
        }
        return targets;
    }

    /** The root, its descendants and everything that carries the marker. */
    private static Set<Long> targets(long root, String marker) {
        Set<Long> pids = new LinkedHashSet<>();
        ProcessHandle.of(root).ifPresent(h -> {
            pids.add(root);
            h.descendants().forEach(d -> pids.add(d.pid()));
        });
        pids.addAll(Procs.withEnvironment(MARKER, marker));
        pids.remove(ProcessHandle.current().pid());
        return pids;
    }

    private static Set<Long> members(long root, String marker) {
        return targets(root, marker).stream().filter(Procs::running).collect(Collectors.toSet());
    }

    /** Killed processes the host adopted are its children now; reap them rather than wait for the sweep. */
    private void reapKilled(long root, Set<Long> killed) {
        if (!subreaper) {
            return;
        }
        long self = ProcessHandle.current().pid();
        for (long pid : killed) {
            // the shell itself is Java's to reap; everything else killed here that is our child was adopted
            if (pid != root && Procs.zombie(pid) && Procs.parent(pid) == self) {
                signals.reap(pid);
            }
        }
    }

    /**
     * Reaps adopted children that exited. Java reaps the processes it started itself at once, so
     * a zombie child still there on two sweeps a second apart is an adopted orphan, not Java's.
     */
    void reapAdopted() {
        try {
            Set<Long> now = new HashSet<>();
            ProcessHandle.current().children().forEach(c -> {
                if (Procs.zombie(c.pid())) {
                    now.add(c.pid());
                }
            });
            synchronized (zombiesSeen) {
                for (long pid : now) {
                    // a command NativeSpawn started is reaped by its own waiter, which reads the exit code
                    if (zombiesSeen.contains(pid) && (spawner == null || !spawner.owns(pid))) {
                        signals.reap(pid);
                    }
                }
                zombiesSeen.retainAll(now);
                zombiesSeen.addAll(now);
                zombiesSeen.removeIf(pid -> !Procs.zombie(pid));
            }
        } catch (RuntimeException e) {
            // the sweep runs again in a second
        }
    }

    private static NativeSpawn loadSpawner(CommandThreads threads) {
        try {
            return NativeSpawn.load(threads).orElse(null);
        } catch (LinkageError | RuntimeException e) {
            System.getLogger(ProcessSupervisor.class.getName()).log(System.Logger.Level.INFO,
                    "posix_spawn unavailable, commands start through setsid: " + e);
            return null;
        }
    }

    private static String findSetsid() {
        for (String candidate : SETSID) {
            if (new File(candidate).canExecute()) {
                return candidate;
            }
        }
        return null;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
