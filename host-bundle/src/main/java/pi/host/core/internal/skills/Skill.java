package pi.host.core.internal.skills;

/**
 * One skill of a session's catalog, as its SKILL.md front matter declares it (the body is read again
 * when the Skill tool runs, so an edited skill is what the model gets).
 *
 * @param id the folder's name, which is also the skill's {@code name} (the Agent Skills rule)
 * @param folder where the folder is, as shown: {@code .pi/skills/<id>} for a project skill, the absolute
 *     path for a user skill
 */
public record Skill(String id, String description, SkillSource source, String folder) {

    /** The SKILL.md file, as shown. */
    public String file() {
        return folder + "/" + SkillParser.FILE;
    }
}
