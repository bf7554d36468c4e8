package pi.host.plugins.kit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The folder of an installed host that holds {@code pi.host.api.jar}, the one jar a plugin compiles
 * against, and {@code pi.host.testkit.jar}, which its tests compile against
 * ({@code bundles/target/pi-host/bundle} in a built checkout). A plugin module refers to it
 * with the Maven property {@code pi.host.sdk}, so nothing of pi-host is ever put into a Maven
 * repository.
 */
public final class Sdk {

    /** The api jar's file name in that folder. */
    public static final String API_JAR = "pi.host.api.jar";
    /** The test kit's jar file name in that folder (a scaffolded module's tests use its FakeToolCall). */
    public static final String TESTKIT_JAR = "pi.host.testkit.jar";
    /** The Maven property a plugin module's pom reads the folder from. */
    public static final String PROPERTY = "pi.host.sdk";

    private Sdk() {
    }

    /** The folder, absolute, after checking that the api and test kit jars are in it. */
    public static Path require(Path folder) throws KitException {
        if (folder == null) {
            throw KitException.failed("the host does not know where its pi.host.api.jar is (no " + PROPERTY
                    + " framework property)", "", null);
        }
        Path absolute = folder.toAbsolutePath().normalize();
        for (String jar : new String[] {API_JAR, TESTKIT_JAR}) {
            if (!Files.isRegularFile(absolute.resolve(jar))) {
                throw KitException.failed("no " + jar + " in " + absolute + " (build pi-host first: mvn -B -DskipTests"
                        + " package)", "", null);
            }
        }
        return absolute;
    }
}
