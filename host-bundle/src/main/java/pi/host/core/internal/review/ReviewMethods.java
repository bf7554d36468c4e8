package pi.host.core.internal.review;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.execute.AdmissionQueue;
import pi.host.core.internal.execute.PathMutex;
import pi.host.core.internal.provenance.ProvenanceStore;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;

/**
 * {@code review.rollback {sessionId, snapshotId}} → {@code {status: "rolledBack", paths}}. A
 * failed guard is the JSON-RPC error -32602 with {@code data.errorCode: ROLLBACK_CONFLICT}, like
 * every other method's parameter problem; nothing was touched then. Runs under the session's
 * mutation permit and the path locks of its files, so it never interleaves with a Write or Edit of
 * the session, nor with a read or write of those files by another session.
 */
@Component(service = ReviewMethods.class)
public final class ReviewMethods {

    private final SessionService sessions;
    private final ReviewStore store;
    private final AdmissionQueue admission;
    private final ProvenanceStore provenance;

    @Activate
    public ReviewMethods(@Reference SessionService sessions, @Reference ReviewStore store,
            @Reference AdmissionQueue admission, @Reference ProvenanceStore provenance) {
        this.sessions = sessions;
        this.store = store;
        this.admission = admission;
        this.provenance = provenance;
    }

    public void register(MethodTable table) {
        table.put("review.rollback", (p, c) -> rollback(p.requireString("sessionId"), p.requireString("snapshotId")));
    }

    Map<String, Object> rollback(String sessionId, String snapshotId) throws RpcException, InterruptedException {
        SessionRecord session;
        try {
            session = sessions.find(sessionId).orElse(null);
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
        if (session == null) {
            throw RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "no session " + sessionId);
        }
        if (!ReviewStore.SNAPSHOT_ID.matcher(snapshotId).matches()) {
            throw RpcException.invalidParams("malformed snapshotId '" + snapshotId + "'");
        }
        List<AdmissionQueue.Ticket> held = new ArrayList<>();
        try {
            // the session's mutation permit, then every path's lock (taken in one sorted order, so two
            // rollbacks, or a rollback and an Edit's MV, cannot deadlock)
            List<Path> files = entryPaths(sessionId, snapshotId);
            held.add(admission.admit(sessionId, true, files.stream().map(f -> new PathMutex.Lock(f, true)).toList()));
            List<String> paths = Rollback.run(store, provenance, sessionId, snapshotId,
                    Path.of(session.workspaceRoot()), sessions.scratchDir(sessionId));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("status", "rolledBack");
            out.put("snapshotId", snapshotId);
            out.put("paths", paths);
            return out;
        } catch (Rollback.Conflict e) {
            throw RpcException.invalidParams(ErrorCode.ROLLBACK_CONFLICT, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw RpcException.invalidParams(e.getMessage());
        } catch (IOException e) {
            throw new RpcException(RpcException.INTERNAL_ERROR, "rollback failed: " + e.getMessage());
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).close();
            }
        }
    }

    private List<Path> entryPaths(String sessionId, String snapshotId) throws IOException {
        ObjectNode meta = store.meta(sessionId, snapshotId);
        List<Path> files = new ArrayList<>();
        if (meta != null) {
            meta.path("entries").forEach(e -> files.add(Path.of(e.path("path").asText())));
        }
        Collections.sort(files);
        return files;
    }
}
