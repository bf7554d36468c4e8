package pi.host.core.internal.policy;

/** What the permission policy says about an admitted call (spec §7). */
public enum Verdict {
    /** Execute without a card. */
    ALLOW,
    /** Show a permission card and wait for allow-once, allow-session, deny or cancellation. */
    ASK,
    /** Do not execute; the result says the call was denied. */
    DENY;

    private final String wire = name().toLowerCase(java.util.Locale.ROOT);

    /** The lower-case word of audit rows' {@code decision}. */
    public String wire() {
        return wire;
    }
}
