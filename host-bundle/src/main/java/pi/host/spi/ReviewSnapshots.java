package pi.host.spi;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/**
 * Review snapshots (spec §4c): the previous bytes of a workspace-root mutation kept under
 * {@code <data_dir>/snapshots/<sessionId>/}, and the ReviewChange records that go on the call's
 * result. The host puts the records into the result envelope's {@code review} array itself when
 * the call succeeds, so a provider cannot forge or drop them.
 */
@ProviderType
public interface ReviewSnapshots {

    /** Previous content at most this large is kept (a larger file's change is not reversible). */
    long MAX_SNAPSHOT_BYTES = 64L * 1024 * 1024;

    /**
     * One file change of a mutation, recorded before the file is changed: a failed change fails
     * the call, and the records of a failed call never reach its result.
     *
     * @param operation {@code write}, {@code edit} or {@code delete}
     * @param existed whether the file existed before
     * @param before its previous bytes; null when it did not exist or was larger than
     *     {@link #MAX_SNAPSHOT_BYTES}
     * @param after its new bytes; null when the change removed it
     * @param mode its previous POSIX mode ({@code rw-r--r--}), or null
     */
    record Change(ResolvedPath path, String operation, boolean existed, byte[] before, byte[] after, String mode) {
    }

    /**
     * Keeps the previous bytes of the changes of one call (one snapshot, rolled back together)
     * and attaches their ReviewChange records to the call's result. Changes outside the
     * workspace root get no record; with none left nothing is kept.
     *
     * @return the records, as they go on the wire
     */
    List<Map<String, Object>> record(ToolCall call, List<Change> changes) throws IOException;
}
