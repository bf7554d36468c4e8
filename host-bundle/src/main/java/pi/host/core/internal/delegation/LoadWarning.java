package pi.host.core.internal.delegation;

/**
 * A problem with a definition file that is not attached to a loaded definition: the file was
 * skipped, or a definition of the same name took precedence. Never fatal to the other definitions.
 */
public record LoadWarning(SubagentSource source, String file, String message) {
}
