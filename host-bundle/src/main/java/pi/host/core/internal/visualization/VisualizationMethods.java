package pi.host.core.internal.visualization;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionMethods;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.StorageException;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;

/**
 * {@code visualization.read {sessionId, file}} (spec §4b.1): the bytes of one fragment of the session's
 * visualization dir, for the desktop to serve into its sandboxed frame. The dir is pinned by its
 * descriptor from its real path ({@link PinnedFiles#pin}: a link anywhere on it is refused), the file
 * opened below it without following a link and without blocking (a FIFO), and only a regular file of
 * at most 2 MB is read, from the descriptor that was opened: a file swapped for a link is refused.
 */
@Component(service = VisualizationMethods.class)
public final class VisualizationMethods {

    /** The largest fragment served (spec §4b.1: 2 MB). */
    static final long MAX_BYTES = 2L * 1000 * 1000;

    private final SessionService sessions;
    private final Visualizations visualizations;
    private final PinnedFiles files;

    @Activate
    public VisualizationMethods(@Reference SessionService sessions, @Reference Visualizations visualizations,
            @Reference PinnedFiles files) {
        this.sessions = sessions;
        this.visualizations = visualizations;
        this.files = files;
    }

    public void register(MethodTable table) {
        table.put("visualization.read", (p, c) -> read(p.requireString("sessionId"), p.requireString("file")));
    }

    Map<String, Object> read(String sessionId, String file) throws RpcException {
        SessionMethods.require(sessions, sessionId);
        if (file.isEmpty() || file.contains("/") || file.contains("\\") || file.equals(".") || file.equals("..")
                || file.indexOf('\0') >= 0) {
            throw RpcException.invalidParams("file must be one file name of the session's visualization dir");
        }
        Path dir;
        try {
            dir = visualizations.dirFor(sessionId).orElseThrow(() -> RpcException.invalidParams(
                    ErrorCode.INVALID_ARGUMENT, "inline visualizations are off: there is no visualization dir"));
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
        try (PinnedDir pinned = files.pin(dir); PinnedFile f = pinned.open(file)) {
            if (f.info().size() > MAX_BYTES) {
                throw RpcException.invalidParams(ErrorCode.PAYLOAD_TOO_LARGE, file + " is " + f.info().size()
                        + " bytes; at most " + MAX_BYTES + " are served");
            }
            byte[] bytes = f.readAll(MAX_BYTES);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("sessionId", sessionId);
            out.put("file", file);
            out.put("size", bytes.length);
            out.put("base64", Base64.getEncoder().encodeToString(bytes));
            return out;
        } catch (NoSuchFileException e) {
            throw RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "no file " + file + " in the visualization dir");
        } catch (PathChangedException e) {
            throw RpcException.invalidParams(ErrorCode.TOOL_DENIED, file + " is not a regular file below a real"
                    + " visualization dir (a link, or a folder replaced by one): not served");
        } catch (IOException e) {
            throw RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "cannot read " + file + ": " + e.getMessage());
        }
    }
}
