package pi.host.core.internal.info;

import java.util.concurrent.atomic.AtomicInteger;

/** Test access to {@link StartupGate} without a framework: a gate on a level the test moves. */
public final class StartupGates {

    private StartupGates() {
    }

    /** A gate that opens once {@code level} reaches {@code readyLevel} and {@link StartupGate#levelChanged} is told. */
    public static StartupGate at(AtomicInteger level, int readyLevel) {
        StartupGate gate = new StartupGate(null, level::get, readyLevel);
        gate.levelChanged();
        return gate;
    }

    /** The framework reached {@code level}'s current value (a STARTLEVEL_CHANGED event). */
    public static void levelChanged(StartupGate gate) {
        gate.levelChanged();
    }

    /** The host stops: the gate opens for waiting calls, which see {@link StartupGate#stopping()}. */
    public static void stop(StartupGate gate) {
        gate.deactivate();
    }
}
