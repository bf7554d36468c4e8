package pi.host.tools.internal.background;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.spi.BackgroundHost;
import pi.host.spi.BackgroundTasks;
import pi.host.spi.TaskInfo;
import pi.host.spi.TaskOutput;
import pi.host.tools.internal.process.ProcessSupervisor;
import pi.host.tools.internal.process.StreamPump;

/**
 * Runs Bash's {@code runInBackground} commands (spec §5): no timeout, not touched by an abort,
 * 256 K characters kept per stream, at most {@value #PER_SESSION} running per session and
 * {@value #HOST_LIMIT} in the whole host, output drained before a terminal state is published,
 * stopped on session delete and on host shutdown.
 */
@Component(service = {BackgroundTasks.class, BackgroundTaskManager.class})
public final class BackgroundTaskManager implements BackgroundTasks {

    static final int PER_SESSION = 10;
    static final int HOST_LIMIT = 64;
    static final int TAIL_CHARS = 256 * 1024;
    /** Terminal tasks kept for reading; the oldest go first. */
    static final int RETAINED = 256;
    /** After a kill, how long a stream may stay open (a holder that escaped every signal) before we settle anyway. */
    static final long DRAIN_AFTER_KILL_MS = 3_000;

    /** How long deactivation waits for stopped tasks to settle. */
    static final long SHUTDOWN_WAIT_MS = 5_000;

    private final ProcessSupervisor supervisor;
    private final BackgroundHost host;
    private final int perSession;
    private final int hostLimit;
    private final Map<String, BackgroundTask> tasks = new LinkedHashMap<>();
    private final Set<String> deletedSessions = new HashSet<>();
    private volatile boolean stopping;

    @Activate
    public BackgroundTaskManager(@Reference ProcessSupervisor supervisor, @Reference BackgroundHost host) {
        this(supervisor, host, PER_SESSION, HOST_LIMIT);
    }

    BackgroundTaskManager(ProcessSupervisor supervisor, BackgroundHost host, int perSession, int hostLimit) {
        this.supervisor = supervisor;
        this.host = host;
        this.perSession = perSession;
        this.hostLimit = hostLimit;
    }

    /** Stops everything and waits (bounded) for the trees to die, so none outlives the host. */
    @Deactivate
    private void deactivate() throws InterruptedException {
        stopAll();
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MS);
        while (System.nanoTime() < until && list(null).stream().anyMatch(t -> !t.state().terminal())) {
            Thread.sleep(20);
        }
    }

    /** Why a spawn was refused. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final ErrorCode code;

        Refused(ErrorCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public ErrorCode code() {
            return code;
        }
    }

    /** Starts a task; the caller prepared cwd, environment and stdin on {@code builder}. */
    public TaskInfo start(String sessionId, String command, String description, ProcessBuilder builder,
            List<String> argv) throws Refused, IOException {
        BackgroundTask task;
        synchronized (tasks) {
            if (stopping) {
                throw new Refused(ErrorCode.TOOL_FAILED, "the host is shutting down; no background task was started");
            }
            if (deletedSessions.contains(sessionId) || !host.sessionExists(sessionId)) {
                throw new Refused(ErrorCode.SESSION_NOT_FOUND, "session " + sessionId
                        + " no longer exists; no background task was started");
            }
            long mine = tasks.values().stream().filter(t -> t.running() && t.sessionId.equals(sessionId)).count();
            if (mine >= perSession) {
                throw new Refused(ErrorCode.BACKGROUND_LIMIT, "this session already runs " + mine
                        + " background tasks, the per-session limit of " + perSession
                        + "; stop one (background.stop) before starting another");
            }
            long all = tasks.values().stream().filter(BackgroundTask::running).count();
            if (all >= hostLimit) {
                throw new Refused(ErrorCode.BACKGROUND_HOST_LIMIT, "the host already runs " + all
                        + " background tasks across all sessions, its limit of " + hostLimit
                        + "; stop tasks in any session first");
            }
            String id = "bg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
            ProcessSupervisor.Started started = supervisor.startPumped(builder, argv);
            task = new BackgroundTask(id, sessionId, command, description, started, TAIL_CHARS);
            task.stdoutPump = new StreamPump(started.process().getInputStream(), task.stdout, null)
                    .start(supervisor.threads(), "pi-bg-out-" + id);
            task.stderrPump = new StreamPump(started.process().getErrorStream(), task.stderr, null)
                    .start(supervisor.threads(), "pi-bg-err-" + id);
            tasks.put(id, task);
            trim();
        }
        supervisor.threads().execute("pi-bg-" + task.id, () -> await(task));
        TaskInfo info = task.info();
        host.updated(info);
        return info;
    }

    /** Waits for the shell, drains both streams, then publishes the terminal state. */
    private void await(BackgroundTask task) {
        Integer exit = null;
        try {
            exit = task.started.process().waitFor();
            drain(task.stdoutPump, task);
            drain(task.stderrPump, task);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        task.settle(exit);
        host.updated(task.info());
    }

    private static void drain(StreamPump pump, BackgroundTask task) throws InterruptedException {
        while (!pump.await(100)) {
            long killed = task.killedAt();
            if (killed != 0 && System.nanoTime() - killed > TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_KILL_MS)) {
                return;
            }
        }
    }

    private void trim() {
        List<String> terminal = new ArrayList<>();
        tasks.forEach((id, t) -> {
            if (!t.running()) {
                terminal.add(id);
            }
        });
        for (int i = 0; i < terminal.size() - RETAINED; i++) {
            tasks.remove(terminal.get(i));
        }
    }

    private Optional<BackgroundTask> find(String taskId) {
        synchronized (tasks) {
            return Optional.ofNullable(tasks.get(taskId));
        }
    }

    @Override
    public List<TaskInfo> list(String sessionId) {
        List<TaskInfo> out = new ArrayList<>();
        synchronized (tasks) {
            for (BackgroundTask t : tasks.values()) {
                if (sessionId == null || t.sessionId.equals(sessionId)) {
                    out.add(t.info());
                }
            }
        }
        return out;
    }

    @Override
    public Optional<TaskOutput> read(String taskId) {
        return find(taskId).map(BackgroundTask::output);
    }

    @Override
    public Optional<TaskInfo> stop(String taskId) {
        Optional<BackgroundTask> task = find(taskId);
        task.ifPresent(this::stop);
        return task.map(BackgroundTask::info);
    }

    private void stop(BackgroundTask task) {
        if (!task.requestStop()) {
            return;
        }
        host.updated(task.info());
        supervisor.threads().execute("pi-bg-stop-" + task.id, () -> {
            supervisor.killTree(task.started);
            task.killed();
        });
    }

    @Override
    public Removal remove(String taskId) {
        synchronized (tasks) {
            BackgroundTask t = tasks.get(taskId);
            if (t == null) {
                return Removal.UNKNOWN;
            }
            if (t.running()) {
                return Removal.RUNNING;
            }
            tasks.remove(taskId);
            return Removal.REMOVED;
        }
    }

    @Override
    public void sessionDeleted(String sessionId) {
        List<BackgroundTask> doomed = new ArrayList<>();
        synchronized (tasks) {
            deletedSessions.add(sessionId);
            tasks.values().stream().filter(t -> t.sessionId.equals(sessionId)).forEach(doomed::add);
        }
        doomed.forEach(this::stop);
    }

    @Override
    public void stopAll() {
        stopping = true;
        List<BackgroundTask> all;
        synchronized (tasks) {
            all = new ArrayList<>(tasks.values());
        }
        all.forEach(this::stop);
    }
}
