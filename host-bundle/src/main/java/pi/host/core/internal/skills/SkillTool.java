package pi.host.core.internal.skills;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;
import pi.host.spi.Builtin;
import pi.host.spi.OfferedTool;
import pi.host.spi.ToolKind;

/**
 * {@code Skill} (spec §2.1, D404): returns a skill's instructions and the list of its other files (and,
 * with {@code file}, one of those files: a user skill's folder is host state the file tools may not
 * read). Read-only and low risk; offered in every mode, with its schema in the first request, exactly
 * while the session's catalog has a skill ({@link OfferedTool}); its description then lists them.
 */
@Component(service = pi.host.api.ToolProvider.class)
@Builtin(kind = ToolKind.SKILL)
@Tool(name = "Skill", risk = Risk.LOW, timeoutMs = 10_000)
public final class SkillTool implements OfferedTool {

    /** A path inside a skill's folder: names joined with '/', no '.', '..' or empty names. */
    private static final Pattern FILE = Pattern.compile("(?!.*(^|/)\\.{1,2}(/|$))[^/\\x00]+(/[^/\\x00]+)*");
    /** The catalog text lists at most this much (the description is sent with every request). */
    static final int MAX_CATALOG_CHARS = 32 * 1024;

    private final SkillCatalog catalog;
    private final SessionService sessions;

    @Activate
    public SkillTool(@Reference SkillCatalog catalog, @Reference SessionService sessions) {
        this.catalog = catalog;
        this.sessions = sessions;
    }

    @Override
    public String description() {
        return "Load a skill: its instructions and the list of its other files. Call it when a task matches a skill"
                + " below, or when the user invokes /skill:<id>. With file, returns one of the skill's other files.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"skill\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":64,\"description\":\"The skill's id\"},"
                + "\"file\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":1024,"
                + "\"description\":\"One of the skill's other files, relative to its folder\"}},"
                + "\"required\":[\"skill\"],\"additionalProperties\":false}";
    }

    @Override
    public Offer offer(Session session) {
        SkillCatalog.Catalog skills = catalog.load(session.projectRoot());
        if (skills.isEmpty()) {
            return Offer.no("the session has no skills (<data_dir>/skills/<id>/SKILL.md or"
                    + " <project>/.pi/skills/<id>/SKILL.md)");
        }
        StringBuilder text = new StringBuilder("Skills:");
        for (Skill s : skills.skills()) {
            String line = "\n- " + s.id() + ": " + s.description();
            if (text.length() + line.length() > MAX_CATALOG_CHARS) {
                text.append("\n(").append(skills.skills().size()).append(" skills in all; see skills.list)");
                break;
            }
            text.append(line);
        }
        return Offer.yes(text.toString());
    }

    @Override
    public ToolResult execute(ToolCall call) throws StorageException {
        SessionRecord session = sessions.find(call.sessionId()).orElse(null);
        if (session == null) {
            return ToolResult.error(ErrorCode.SESSION_NOT_FOUND, "the session is gone");
        }
        Path project = session.temporary() ? null : Path.of(session.projectRoot());
        String id = (String) call.arguments().get("skill");
        String file = (String) call.arguments().get("file");
        SkillCatalog.Opened opened;
        try {
            opened = catalog.open(project, id).orElse(null);
        } catch (IOException e) {
            return ToolResult.error(ErrorCode.TOOL_FAILED, "the skill '" + id + "' cannot be read: " + e.getMessage());
        }
        if (opened == null) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "no skill '" + id + "' in this session; skills: "
                    + String.join(", ", catalog.load(project).skills().stream().map(Skill::id).toList()));
        }
        return file == null ? instructions(opened) : file(project, opened, file);
    }

    private static ToolResult instructions(SkillCatalog.Opened opened) {
        Skill s = opened.skill();
        StringBuilder text = new StringBuilder("# Skill ").append(s.id()).append(" (").append(s.source().wire())
                .append(", ").append(s.folder()).append(")\n\n").append(opened.instructions());
        if (!opened.files().isEmpty()) {
            text.append("\n\nOther files of this skill (Skill with file to read one):");
            opened.files().forEach(f -> text.append("\n- ").append(f));
        }
        return ToolResult.builder().text(text.toString()).detail("skill", view(s))
                .detail("instructions", opened.instructions()).detail("files", opened.files()).build();
    }

    private ToolResult file(Path project, SkillCatalog.Opened opened, String name) {
        if (!FILE.matcher(name).matches()) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "file must be a path inside the skill's folder"
                    + " (names joined with '/', no '.' or '..')");
        }
        SkillFolder.Read read = catalog.file(project, opened.skill(), name);
        if (read.problem() != null) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "the skill '" + opened.skill().id() + "': "
                    + read.problem());
        }
        return ToolResult.builder().text(read.text()).detail("skill", view(opened.skill())).detail("file", name).build();
    }

    static Map<String, Object> view(Skill s) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", s.id());
        v.put("description", s.description());
        v.put("source", s.source().wire());
        v.put("folder", s.folder());
        v.put("file", s.file());
        return v;
    }

    /** The catalog as {@code skills.list} shows it. */
    static List<Map<String, Object>> views(SkillCatalog.Catalog catalog) {
        return catalog.skills().stream().map(SkillTool::view).toList();
    }
}
