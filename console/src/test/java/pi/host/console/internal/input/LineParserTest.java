package pi.host.console.internal.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.console.internal.input.Input.Argument;
import pi.host.console.internal.input.Input.Kind;

class LineParserTest {

    private static Input.ToolCall call(String line) throws InputError {
        return (Input.ToolCall) LineParser.parse(line);
    }

    @Test
    void keyValueWordsKeepHowEachValueWasWritten() throws InputError {
        Input.ToolCall c = call("  Grep pattern=TODO outputMode=files context=2 ");
        assertThat(c.tool()).isEqualTo("Grep");
        assertThat(c.isJson()).isFalse();
        assertThat(c.arguments()).containsExactly(new Argument("pattern", "TODO", Kind.BARE),
                new Argument("outputMode", "files", Kind.BARE), new Argument("context", "2", Kind.BARE));
    }

    @Test
    void doubleQuotesResolveTheirEscapesAndKeepEveryOtherBackslash() throws InputError {
        Input.ToolCall c = call("Write path=\"my file.txt\" content=\"a \\\"b\\\"\\n\\tc\\\\\" pattern=\"\\d+\\.x\"");
        assertThat(c.arguments()).containsExactly(new Argument("path", "my file.txt", Kind.QUOTED),
                new Argument("content", "a \"b\"\n\tc\\", Kind.QUOTED), new Argument("pattern", "\\d+\\.x", Kind.QUOTED));
    }

    @Test
    void singleQuotesAreLiteralAndPartsJoinAsInAShell() throws InputError {
        Input.ToolCall c = call("Bash command='echo \"$HOME\" \\n' path=a\" b\"'c'");
        assertThat(c.arguments()).containsExactly(new Argument("command", "echo \"$HOME\" \\n", Kind.QUOTED),
                new Argument("path", "a bc", Kind.QUOTED));
    }

    @Test
    void bareBackslashesAndBangsStayAsTyped() throws InputError {
        assertThat(call("Grep pattern=\\bfoo!").arguments()).containsExactly(new Argument("pattern", "\\bfoo!", Kind.BARE));
    }

    @Test
    void aJsonValueMayHoldSpacesAndBracketsInsideItsStrings() throws InputError {
        Input.ToolCall c = call("TodoWrite todos=[{\"content\": \"fix ] and }\", \"status\": \"pending\"}] x=1");
        assertThat(c.arguments()).containsExactly(
                new Argument("todos", "[{\"content\": \"fix ] and }\", \"status\": \"pending\"}]", Kind.JSON),
                new Argument("x", "1", Kind.BARE));
    }

    @Test
    void theArgumentsMayBeOneJsonObject() throws InputError {
        Input.ToolCall c = call("Read {\"path\": \"README.md\", \"limit\": 2}");
        assertThat(c.isJson()).isTrue();
        assertThat(c.json().path("limit").asInt()).isEqualTo(2);
        assertThat(call("Read{\"path\":\"a\"}").json().path("path").asText()).isEqualTo("a");
    }

    @Test
    void slashCommandsTakeWordsThatMayBeQuoted() throws InputError {
        assertThat(LineParser.parse("/audit 5")).isEqualTo(new Input.Command("audit", List.of("5")));
        assertThat(LineParser.parse("/plugins grant 'git info'")).isEqualTo(new Input.Command("plugins", List.of("grant", "git info")));
        assertThat(LineParser.parse("   ")).isEqualTo(new Input.Nothing());
    }

    @Test
    void anUnbalancedQuoteSaysWhereItOpenedAndHowToCloseIt() {
        assertThatThrownBy(() -> LineParser.parse("Bash command=\"ls -la")).isInstanceOf(InputError.class)
                .hasMessage("unbalanced \" in command= (opened at character 14): close the quote, e.g. command=\"ls -la\";"
                        + " a literal \" inside is written \\\"");
        assertThatThrownBy(() -> LineParser.parse("Grep pattern='a b")).hasMessageStartingWith("unbalanced ' in pattern=");
        assertThatThrownBy(() -> LineParser.parse("/plugins grant \"x")).hasMessageStartingWith("unbalanced \" in /plugins");
    }

    @Test
    void badJsonNamesTheProblemAndWhereItStopped() {
        assertThatThrownBy(() -> LineParser.parse("Read {\"path\": }"))
                .hasMessage("bad JSON after Read: Unexpected character ('}' (code 125)) (at character 10);"
                        + " write e.g. Read {\"path\": \"README.md\"}");
        assertThatThrownBy(() -> LineParser.parse("Read {\"path\": \"a\"} trailing"))
                .hasMessageStartingWith("bad JSON after Read: ");
        assertThatThrownBy(() -> LineParser.parse("Read [1]"))
                .hasMessage("the arguments of Read must be a JSON object, e.g. Read {\"path\": \"README.md\"}");
        assertThatThrownBy(() -> LineParser.parse("TodoWrite todos=[{\"a\": }]")).hasMessageStartingWith("bad JSON in todos=: ");
        assertThatThrownBy(() -> LineParser.parse("TodoWrite todos=[{\"a\": 1}"))
                .hasMessage("the JSON value of todos= is not closed (1 bracket open): a JSON value must end on the same line");
        assertThatThrownBy(() -> LineParser.parse("TodoWrite todos=[1]x"))
                .hasMessageStartingWith("unexpected text after the JSON value of todos=");
    }

    @Test
    void aWordThatIsNotKeyValueSaysHowToWriteOne() {
        assertThatThrownBy(() -> LineParser.parse("Read README.md"))
                .hasMessage("expected key=value but found 'README.md': write Read key=value ..., e.g. Read path=README.md"
                        + " or Bash command=\"ls -la\"");
        assertThatThrownBy(() -> LineParser.parse("Read =x")).hasMessageStartingWith("an argument has no name before '='");
        assertThatThrownBy(() -> LineParser.parse("Read p@th=x")).hasMessageStartingWith("'p@th' is not an argument name");
        assertThatThrownBy(() -> LineParser.parse("Read path=a path=b"))
                .hasMessage("argument 'path' is given twice: give each argument once");
    }

    @Test
    void aFirstWordThatCannotBeAToolNameIsRefused() {
        assertThatThrownBy(() -> LineParser.parse("Read(path) x=1")).hasMessageStartingWith("'Read(path)' is not a tool name");
        assertThatThrownBy(() -> LineParser.parse("\"Read\" path=a")).hasMessageStartingWith("'\"Read\"' is not a tool name");
    }
}
