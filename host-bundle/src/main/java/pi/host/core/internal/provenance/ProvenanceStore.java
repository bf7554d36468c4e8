package pi.host.core.internal.provenance;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.Provenance;

/**
 * The sessions' provenance, in memory: per session and canonical path, the full digest of the
 * content last shown and its displayed lines. Gone with the session, and with the host process:
 * after a restart every Edit needs a fresh Read (EDIT_TAG_MISMATCH says so), which fails safe.
 */
@Component(service = {Provenance.class, ProvenanceStore.class})
public final class ProvenanceStore implements Provenance, SessionListener {

    // registered with the session service on activation (a DS whiteboard of listeners would be a cycle)
    @Reference
    private SessionService sessionService;

    @Activate
    void activate() {
        sessionService.addListener(this);
    }

    @Deactivate
    void deactivate() {
        sessionService.removeListener(this);
    }


    private static final class Entry {
        final byte[] digest;
        final BitSet lines;

        Entry(byte[] digest, BitSet lines) {
            this.digest = digest;
            this.lines = lines;
        }
    }

    private final Map<String, Map<Path, Entry>> sessions = new ConcurrentHashMap<>();

    @Override
    public void displayed(String sessionId, Path file, byte[] digest, BitSet lines) {
        Map<Path, Entry> files = sessions.computeIfAbsent(sessionId, s -> new ConcurrentHashMap<>());
        files.compute(file.toAbsolutePath().normalize(), (p, old) -> {
            BitSet merged = (BitSet) lines.clone();
            if (old != null && Arrays.equals(old.digest, digest)) {
                merged.or(old.lines);
            }
            return new Entry(digest.clone(), merged);
        });
    }

    @Override
    public Optional<Seen> seen(String sessionId, Path file) {
        Map<Path, Entry> files = sessions.get(sessionId);
        Entry e = files == null ? null : files.get(file.toAbsolutePath().normalize());
        if (e == null) {
            return Optional.empty();
        }
        synchronized (e) {
            return Optional.of(new Seen(e.digest, e.lines));
        }
    }

    @Override
    public void forget(String sessionId, Path file) {
        Map<Path, Entry> files = sessions.get(sessionId);
        if (files != null) {
            files.remove(file.toAbsolutePath().normalize());
        }
    }

    @Override
    public void sessionDeleted(String sessionId) {
        sessions.remove(sessionId);
    }
}
