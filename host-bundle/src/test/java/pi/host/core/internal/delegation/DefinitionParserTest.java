package pi.host.core.internal.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import pi.host.core.internal.policy.PermissionMode;

/** One definition file: front matter, body, what skips a file and what only warns. */
class DefinitionParserTest {

    private static DefinitionParser.Parsed parse(String text, SubagentSource source) {
        return DefinitionParser.parse(text, source, "x.md");
    }

    @Test
    void readsTheFrontMatterAndTakesTheBodyAsInstructions() {
        DefinitionParser.Parsed p = parse("---\nname: reviewer\ndescription: Reviews a change\ntools: [Read, Grep]\n"
                + "model: fast\n---\n\nRead the diff.\nReport problems.\n", SubagentSource.USER);
        SubagentDefinition d = p.definition();
        assertThat(d.name()).isEqualTo("reviewer");
        assertThat(d.source()).isEqualTo(SubagentSource.USER);
        assertThat(d.description()).isEqualTo("Reviews a change");
        assertThat(d.instructions()).isEqualTo("Read the diff.\nReport problems.");
        assertThat(d.tools().names()).containsExactly("Read", "Grep");
        assertThat(d.permission()).isNull();
        assertThat(d.permissionWire()).isEqualTo("inherit");
        assertThat(d.file()).isEqualTo("x.md");
        assertThat(d.warnings()).as("unknown keys such as model are ignored").isEmpty();
    }

    @Test
    void aByteOrderMarkAndCrlfLinesAreAccepted() {
        SubagentDefinition d = parse("\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nline one\r\nline two\r\n",
                SubagentSource.PROJECT).definition();
        assertThat(d.name()).isEqualTo("a");
        assertThat(d.instructions()).isEqualTo("line one\nline two");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        no front matter               | # just markdown\\nname: a                              | no YAML front matter
        an unclosed front matter      | ---\\nname: a\\ndescription: b\\n                      | not closed by a '---' line
        malformed YAML                | ---\\nname: [a\\ndescription: b\\n---\\n                | malformed YAML front matter
        a bare * in tools             | ---\\nname: a\\ndescription: b\\ntools: *\\n---\\n      | write tools: "*" with quotes
        a duplicate key               | ---\\nname: a\\nname: b\\ndescription: c\\n---\\n       | malformed YAML front matter
        a list, not a mapping         | ---\\n- a\\n- b\\n---\\n                                | not a mapping of keys
        an empty front matter         | ---\\n---\\nbody                                        | not a mapping of keys
        no name                       | ---\\ndescription: b\\n---\\n                           | 'name' must be
        a name with a space           | ---\\nname: my agent\\ndescription: b\\n---\\n          | 'name' must be
        a number as name              | ---\\nname: 42\\ndescription: b\\n---\\n               | 'name' must be
        no description                | ---\\nname: a\\n---\\n                                  | 'description' must be a non-empty string
        a blank description           | ---\\nname: a\\ndescription: '  '\\n---\\n              | 'description' must be a non-empty string
        """)
    void skipsWhatCannotBeADefinition(String rule, String text, String reason) {
        DefinitionParser.Parsed p = parse(text.replace("\\n", "\n"), SubagentSource.USER);
        assertThat(p.definition()).as(rule).isNull();
        assertThat(p.skipped()).as(rule).contains(reason);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', nullValues = "~", textBlock = """
        builtin | auto         | AUTO         | ~
        user    | accept-edits | ACCEPT_EDITS | ~
        user    | ask          | ASK          | ~
        user    | inherit      | ~            | ~
        user    | yolo         | ~            | 'yolo' is not inherit, ask, accept-edits or auto
        project | auto         | ~            | a project definition may not declare a permission scope; 'auto' dropped
        project | ask          | ~            | a project definition may not declare a permission scope; 'ask' dropped
        project | accept-edits | ~            | a project definition may not declare a permission scope
        project | inherit      | ~            | ~
        """)
    void permissionScopes(String source, String declared, String expected, String warning) {
        SubagentDefinition d = parse("---\nname: a\ndescription: b\npermission: " + declared + "\n---\n",
                SubagentSource.parse(source).orElseThrow()).definition();
        assertThat(d.permission()).isEqualTo(expected == null ? null : PermissionMode.valueOf(expected));
        if (warning == null) {
            assertThat(d.warnings()).isEmpty();
        } else {
            assertThat(d.warnings()).singleElement().asString().contains(warning);
        }
    }

    @Test
    void aLongDescriptionIsCutWithAWarning() {
        SubagentDefinition d = parse("---\nname: a\ndescription: " + "x".repeat(2000) + "\n---\n",
                SubagentSource.USER).definition();
        assertThat(d.description()).hasSize(DefinitionParser.MAX_DESCRIPTION);
        assertThat(d.warnings()).singleElement().asString().contains("cut to 1024 characters");
    }
}
