package pi.host.tools.internal.process;

/** The fallback without JNA: no group signals and no subreaper; trees are killed pid by pid. */
final class JavaSignals implements NativeSignals {

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public boolean signalGroup(long pgid, int signal) {
        return false;
    }

    @Override
    public long processGroup(long pid) {
        return -1;
    }

    @Override
    public boolean becomeSubreaper() {
        return false;
    }

    @Override
    public boolean isSubreaper() {
        return false;
    }

    @Override
    public boolean reap(long pid) {
        return false;
    }
}
