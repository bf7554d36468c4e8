package pi.host.core.internal.skills;

import java.util.Locale;

/** Where a skill comes from: the user's own folder under the data dir, or the session's project. */
public enum SkillSource {
    /** {@code <data_dir>/skills/<id>/SKILL.md}: wins over a project skill of the same id or name. */
    USER,
    /** {@code <project>/.pi/skills/<id>/SKILL.md}: arrives with a repository, never shadows a user skill. */
    PROJECT;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
