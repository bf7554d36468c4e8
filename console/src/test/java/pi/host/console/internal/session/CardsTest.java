package pi.host.console.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CardsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anAnswerIsSkippedChosenByNumberOrTyped() throws Exception {
        JsonNode single = JSON.readTree("{\"question\":\"q\",\"options\":[\"red\",{\"label\":\"blue\"}]}");
        assertThat(Cards.answer(single, "").isNull()).isTrue();
        assertThat(Cards.answer(single, "2").asText()).isEqualTo("blue");
        assertThat(Cards.answer(single, "green").asText()).isEqualTo("green");
        assertThat(Cards.answer(single, "9").asText()).as("no such option: the text itself").isEqualTo("9");
        JsonNode multi = JSON.readTree("{\"question\":\"q\",\"multiSelect\":true,\"options\":[\"a\",\"b\",\"c\"]}");
        assertThat(Cards.answer(multi, "1, 3").toString()).isEqualTo("[\"a\",\"c\"]");
        assertThat(Cards.answer(JSON.readTree("{\"question\":\"q\"}"), "12").asText()).isEqualTo("12");
    }

    @TempDir
    Path workspace;

    @Test
    void pathsCompleteFromTheWorkspaceAndNeverBeyondIt() throws Exception {
        Files.createDirectories(workspace.resolve("src/main"));
        Files.writeString(workspace.resolve("src/a.txt"), "");
        List<Candidate> out = new ArrayList<>();
        ConsoleCompleter.paths(workspace, "path=", "src/", out);
        assertThat(out).extracting(Candidate::value).containsExactlyInAnyOrder("path=src/main/", "path=src/a.txt");
        assertThat(out).filteredOn(c -> c.value().endsWith("/")).allSatisfy(c -> assertThat(c.complete()).isFalse());
        out.clear();
        ConsoleCompleter.paths(workspace, "path=", "../", out);
        ConsoleCompleter.paths(workspace, "path=", "/etc/", out);
        ConsoleCompleter.paths(workspace, "path=", "src/../../", out);
        assertThat(out).isEmpty();
    }

    @Test
    void aDescriptionsFirstSentenceIsItsSummary() {
        assertThat(Catalog.firstSentence("Read a file. Then more.\nSecond line")).isEqualTo("Read a file.");
        assertThat(Catalog.firstSentence("one line")).isEqualTo("one line");
    }
}
