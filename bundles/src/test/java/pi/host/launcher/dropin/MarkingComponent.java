package pi.host.launcher.dropin;

/** A drop-in's immediate DS component (declared in the jar's OSGI-INF XML): marks that SCR created it. */
public final class MarkingComponent {
    public MarkingComponent() {
        Marker.touch(MarkingComponent.class);
    }
}
