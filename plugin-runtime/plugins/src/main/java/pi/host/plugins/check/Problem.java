package pi.host.plugins.check;

import java.util.Objects;

/**
 * One thing wrong with a plugin: where it is, what is wrong, and what the author should do about it.
 *
 * @param where the file and the place in it, e.g. {@code META-INF/pi-plugin.json: agentTools[0].name}
 *     or {@code META-INF/MANIFEST.MF: Import-Package}
 * @param what what is wrong, in one sentence
 * @param fix what to change so that it is right
 */
public record Problem(String where, String what, String fix) {

    public Problem {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(fix, "fix");
    }

    /** One line: {@code where: what (fix: ...)}. */
    @Override
    public String toString() {
        return where + ": " + what + " (fix: " + fix + ")";
    }
}
