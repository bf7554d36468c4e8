package pi.host.core.internal.info;

/**
 * Told first when the host starts to stop, before any component is deactivated: waiting permission
 * cards end as denials, background work stops. Must return quickly.
 */
public interface ShutdownParticipant {
    void hostStopping();
}
