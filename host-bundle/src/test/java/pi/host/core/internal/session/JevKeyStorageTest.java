package pi.host.core.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.audit.Redactor;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.secrets.JevSettingsComponent;
import pi.host.core.internal.secrets.SecretFiles;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.SettingsStore;

/** The Jev key: write-only, outside the SQLite file, in a file only its user may read, masked wherever it shows. */
class JevKeyStorageTest {

    private static final String KEY = "ts-live-0123456789abcdef";

    @TempDir
    Path tmp;

    private Path data;
    private Database db;
    private SecretFiles secrets;
    private SettingsService settings;

    @BeforeEach
    void open() throws Exception {
        data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        db = Database.open(data.resolve("pi-host.db"));
        secrets = SecretFiles.under(FilesComponent.load(data.resolve("atomic-writes")), data);
        settings = SettingsService.over(new SettingsStore(db), secrets);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static ObjectNode update(String json) throws Exception {
        return (ObjectNode) Json.mapper().readTree(json);
    }

    private byte[] databaseBytes() throws Exception {
        byte[] main = Files.readAllBytes(data.resolve("pi-host.db"));
        Path wal = data.resolve("pi-host.db-wal");
        byte[] log = Files.exists(wal) ? Files.readAllBytes(wal) : new byte[0];
        return (new String(main, java.nio.charset.StandardCharsets.ISO_8859_1)
                + new String(log, java.nio.charset.StandardCharsets.ISO_8859_1))
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Pins where the key lives: a 0600 file in a 0700 folder, never a row or a byte of the database. */
    @Test
    void theKeyIsAUserOnlyFileOutsideTheDatabaseAndNeverEchoed() throws Exception {
        Map<String, Object> view = settings.update(update("{\"jev.enabled\":true,\"jev.apiKey\":\"" + KEY + "\"}"));
        assertThat(view).containsEntry("jev.apiKeySaved", true).containsEntry("jev.enabled", true)
                .doesNotContainKey("jev.apiKey");
        assertThat(view.toString()).doesNotContain(KEY);
        Path file = data.resolve("secrets/jev.apiKey");
        assertThat(file).hasContent(KEY);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(new SettingsStore(db).all()).doesNotContainKey("jev.apiKey");
        assertThat(new String(databaseBytes(), java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(KEY);
        assertThat(settings.view().toString()).doesNotContain(KEY);
        JevSettingsComponent jev = new JevSettingsComponent(settings, secrets);
        assertThat(jev.keySaved()).isTrue();
        assertThat(jev.apiKey()).contains(KEY);

        settings.update(update("{\"jev.apiKey\":null}"));
        assertThat(file).doesNotExist();
        assertThat(jev.keySaved()).isFalse();
        assertThat(settings.view()).containsEntry("jev.apiKeySaved", false);
    }

    /** Pins that a refused update writes nothing, and that the refusal never echoes the key it refused. */
    @Test
    void aRefusedUpdateWritesNoKeyAndNeverEchoesIt() throws Exception {
        assertThatThrownBy(() -> settings.update(update("{\"jev.enabled\":\"yes\",\"jev.apiKey\":\"" + KEY + "\"}")))
                .isInstanceOf(RpcException.class).hasMessageNotContaining(KEY);
        assertThat(data.resolve("secrets/jev.apiKey")).doesNotExist();
        String withSpace = "ts-live 0123456789";
        assertThatThrownBy(() -> settings.update(update("{\"jev.apiKey\":\"" + withSpace + "\"}")))
                .isInstanceOf(RpcException.class).hasMessageNotContaining(withSpace)
                .hasMessageContaining("8 to 4096 printable ASCII characters");
        assertThatThrownBy(() -> settings.update(update("{\"jev.apiKey\":\"short\"}")))
                .isInstanceOf(RpcException.class);
        assertThat(settings.keySaved()).isFalse();
    }

    @Test
    void aKeyAnEarlierHostLeftInTheDatabaseMovesToItsFile() throws Exception {
        new SettingsStore(db).putAll(Map.of("jev.apiKey", KEY, "jev.enabled", "true"));
        settings.moveKeyOutOfTheDatabase();
        assertThat(data.resolve("secrets/jev.apiKey")).hasContent(KEY);
        assertThat(new SettingsStore(db).all()).doesNotContainKey("jev.apiKey").containsEntry("jev.enabled", "true");
        assertThat(settings.view()).containsEntry("jev.apiKeySaved", true);
    }

    /** Pins that the host never reads its key through a link planted in its secrets folder. */
    @Test
    void aLinkPlantedAsTheKeyFileIsNotTakenForTheKey() throws Exception {
        Files.createDirectories(data.resolve("secrets"));
        Path elsewhere = Files.writeString(tmp.resolve("elsewhere"), "attacker-chosen-key");
        Files.createSymbolicLink(data.resolve("secrets/jev.apiKey"), elsewhere);
        JevSettingsComponent jev = new JevSettingsComponent(settings, secrets);
        assertThat(jev.keySaved()).isFalse();
        assertThat(jev.apiKey()).isEmpty();
        settings.update(update("{\"jev.apiKey\":\"" + KEY + "\"}"));
        assertThat(elsewhere).as("the link was replaced, not written through").hasContent("attacker-chosen-key");
        assertThat(jev.apiKey()).contains(KEY);
    }

    /** Pins that a saved key is masked in audit previews even where it has no credential's shape. */
    @Test
    void aSavedKeyIsMaskedLiterallyWhereverItAppears() throws Exception {
        settings.update(update("{\"jev.apiKey\":\"" + KEY + "\"}"));
        assertThat(Redactor.redact("state mentions " + KEY + " inline")).isEqualTo("state mentions [REDACTED] inline");
        assertThat(Redactor.redact(Json.mapper().readTree("{\"note\":\"" + KEY + "\"}")).toString())
                .doesNotContain(KEY);
    }

    @Test
    void theEndpointIsHttpsOrALoopbackHttpUrl() throws Exception {
        assertThat(settings.view()).containsEntry("jev.endpoint", SettingsService.DEFAULT_JEV_ENDPOINT);
        settings.update(update("{\"jev.endpoint\":\"http://127.0.0.1:8080/v1/systemone\"}"));
        assertThat(settings.view()).containsEntry("jev.endpoint", "http://127.0.0.1:8080/v1/systemone");
        for (String bad : new String[] {"http://example.com/v1", "ftp://x/y", "https://user:pw@host/", "relative/path",
            "https://host/#frag"}) {
            assertThatThrownBy(() -> settings.update(update("{\"jev.endpoint\":\"" + bad + "\"}")))
                    .as(bad).isInstanceOf(RpcException.class);
        }
    }
}
