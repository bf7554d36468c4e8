package pi.host.core.internal.background;

import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import pi.host.api.ErrorCode;
import pi.host.spi.BackgroundHost;
import pi.host.spi.BackgroundTasks;
import pi.host.spi.TaskInfo;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.info.ShutdownParticipant;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.StorageException;

/**
 * {@code background.list/read/stop/remove} (PROTOCOL.md) served from whichever bundle implements
 * {@link BackgroundTasks} (the builtin tools), and the host side of that SPI: session existence,
 * {@code background.updated}, and telling the tasks about session deletes and shutdown.
 */
@Component(service = {BackgroundMethods.class, BackgroundHost.class, ShutdownParticipant.class})
public final class BackgroundMethods implements BackgroundHost, SessionListener, ShutdownParticipant {

    private final SessionService sessions;
    private final HostEvents events;

    private volatile BackgroundTasks tasks;

    @Activate
    public BackgroundMethods(@Reference SessionService sessions, @Reference HostEvents events) {
        this.sessions = sessions;
        this.events = events;
        sessions.addListener(this);
    }

    @org.osgi.service.component.annotations.Deactivate
    private void deactivate() {
        sessions.removeListener(this);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindTasks(BackgroundTasks t) {
        tasks = t;
    }

    void unbindTasks(BackgroundTasks t) {
        if (tasks == t) {
            tasks = null;
        }
    }

    public void register(MethodTable table) {
        table.put("background.list", (p, c) -> Map.of("tasks", tasks().list(p.optString("sessionId").orElse(null))));
        table.put("background.read", (p, c) -> tasks().read(taskId(p)).orElseThrow(() -> unknown(p)));
        table.put("background.stop", (p, c) -> Map.of("task", tasks().stop(taskId(p)).orElseThrow(() -> unknown(p))));
        table.put("background.remove", (p, c) -> {
            String id = taskId(p);
            switch (tasks().remove(id)) {
                case REMOVED:
                    return Map.of();
                case RUNNING:
                    throw RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "task " + id
                            + " is still running; stop it and wait for a terminal state before removing it");
                default:
                    throw unknown(p);
            }
        });
    }

    private BackgroundTasks tasks() throws RpcException {
        BackgroundTasks t = tasks;
        if (t == null) {
            throw new RpcException(RpcException.SERVER_BUSY, "background tasks are not available (the builtin"
                    + " tools are not running)", ErrorCode.TOOL_NOT_ACTIVE);
        }
        return t;
    }

    private static String taskId(Params p) throws RpcException {
        return p.requireString("taskId");
    }

    private static RpcException unknown(Params p) {
        return RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "no background task " + p.get("taskId"));
    }

    @Override
    public boolean sessionExists(String sessionId) {
        try {
            return sessions.find(sessionId).isPresent();
        } catch (StorageException e) {
            return false; // fail closed: no task in a session we cannot see
        }
    }

    @Override
    public void updated(TaskInfo task) {
        events.publish("background.updated", task);
    }

    /** Delete, not archive, stops the session's tasks (spec §5); this returns without waiting for them. */
    @Override
    public void sessionDeleted(String sessionId) {
        BackgroundTasks t = tasks;
        if (t != null) {
            t.sessionDeleted(sessionId);
        }
    }

    @Override
    public void hostStopping() {
        BackgroundTasks t = tasks;
        if (t != null) {
            t.stopAll();
        }
    }

    /** For tests and status: the tasks of every session. */
    List<TaskInfo> all() {
        BackgroundTasks t = tasks;
        return t == null ? List.of() : t.list(null);
    }
}
