package pi.host.core.internal.skills;

/** A skill (or a skills folder) that was skipped, and why; never fatal to the other skills. */
public record SkillWarning(SkillSource source, String file, String message) {
}
