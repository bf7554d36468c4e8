package pi.host.plugins.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.plugins.check.fixtures.GoodTool;
import pi.host.plugins.check.fixtures.NoDefaultConstructorTool;
import pi.host.plugins.check.fixtures.NotATool;

/** Every rule of the plugin contract: the valid plugin, then each bad input on its own. */
class PluginInspectorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DESCRIPTOR = PluginInspector.DEFAULT_DESCRIPTOR;

    @TempDir
    Path dir;

    /** The contract's example: one tool with plan-safe read actions and a mutating one. */
    private static ObjectNode descriptor() {
        ObjectNode d = JSON.createObjectNode().put("id", "git-info").put("name", "Git information")
                .put("version", "1.0.0");
        ObjectNode tool = d.putArray("agentTools").addObject().put("name", "git")
                .put("description", "Read-only git facts; commit records staged changes.")
                .put("class", GoodTool.class.getName()).put("risk", "low");
        tool.putArray("actions").add("status").add("log").add("diff").add("commit");
        tool.putArray("planSafeActions").add("status").add("log").add("diff");
        ObjectNode schema = tool.putObject("inputSchema").put("type", "object").put("additionalProperties", false);
        schema.putObject("properties").putObject("action").put("type", "string").putArray("enum")
                .add("status").add("log").add("diff").add("commit");
        schema.putArray("required").add("action");
        tool.put("timeoutMs", 30000).put("summary", "git status/log/diff/commit");
        return d;
    }

    private static ObjectNode tool(ObjectNode descriptor) {
        return (ObjectNode) descriptor.get("agentTools").get(0);
    }

    private static TestJar jar(ObjectNode descriptor) {
        return TestJar.plugin().descriptor(descriptor.toString()).withClass(GoodTool.class);
    }

    /** The runtime's path: manifest and entries, no class loading. */
    private static PluginReport check(ObjectNode descriptor) {
        return check(jar(descriptor));
    }

    private static PluginReport check(TestJar jar) {
        return PluginInspector.inspect(jar.manifest(), jar.reader());
    }

    /** The offline path: a jar file, with its tool classes loaded. */
    private PluginReport checkFile(TestJar jar) {
        return PluginInspector.inspect(jar.write(dir.resolve("plugin.jar")));
    }

    /** Exactly one error, at {@code where}, saying {@code what}; nothing registrable. */
    private static void assertOneError(PluginReport report, String where, String what) {
        assertThat(report.errors()).as(report.errors().toString()).hasSize(1);
        Problem p = report.errors().get(0);
        assertThat(p.where()).isEqualTo(where);
        assertThat(p.what()).contains(what);
        assertThat(p.fix()).isNotBlank();
        assertThat(report.valid()).isFalse();
        assertThat(report.descriptor()).isNull();
    }

    private static void assertOneWarning(PluginReport report, String where, String what) {
        assertThat(report.errors()).as(report.errors().toString()).isEmpty();
        assertThat(report.warnings()).as(report.warnings().toString()).hasSize(1);
        assertThat(report.warnings().get(0).where()).isEqualTo(where);
        assertThat(report.warnings().get(0).what()).contains(what);
        assertThat(report.warnings().get(0).fix()).isNotBlank();
    }

    private static String at(String pointer) {
        return DESCRIPTOR + ": " + pointer;
    }

    // --- the valid plugin

    @Test
    void theContractsExampleIsValidWithoutWarnings() {
        PluginReport report = check(descriptor());
        assertThat(report.errors()).isEmpty();
        assertThat(report.warnings()).isEmpty();
        PluginDescriptor d = report.descriptor();
        assertThat(d.id()).isEqualTo("git-info");
        assertThat(d.name()).isEqualTo("Git information");
        assertThat(d.version()).isEqualTo("1.0.0");
        ToolSpec git = d.tools().get(0);
        assertThat(git.name()).isEqualTo("git");
        assertThat(git.exposedName()).isEqualTo("plugin_git_info_git");
        assertThat(git.className()).isEqualTo(GoodTool.class.getName());
        assertThat(git.risk()).isEqualTo("low");
        assertThat(git.riskDeclared()).isTrue();
        assertThat(git.actions()).containsExactly("status", "log", "diff", "commit");
        assertThat(git.planSafeActions()).containsExactly("status", "log", "diff");
        assertThat(git.timeoutMs()).isEqualTo(30000);
        assertThat(git.summary()).isEqualTo("git status/log/diff/commit");
        assertThat(git.inputSchema()).contains("\"required\":[\"action\"]");
    }

    @Test
    void theValidJarIsValidOfflineToo() {
        PluginReport report = checkFile(jar(descriptor()));
        assertThat(report.errors()).isEmpty();
        assertThat(report.descriptor().tools()).hasSize(1);
    }

    @Test
    void optionalFieldsTakeTheHostsDefaults() {
        ObjectNode d = descriptor();
        tool(d).remove(List.of("actions", "planSafeActions", "timeoutMs", "summary"));
        ((ObjectNode) tool(d).get("inputSchema")).remove(List.of("required", "additionalProperties"));
        ToolSpec t = check(d).descriptor().tools().get(0);
        assertThat(t.actions()).isEmpty();
        assertThat(t.planSafeActions()).isEmpty();
        assertThat(t.timeoutMs()).isEqualTo(pi.host.api.Tool.DEFAULT_TIMEOUT_MS);
        assertThat(t.summary()).isEmpty();
    }

    @Test
    void aBundleVersionQualifierIsIgnored() {
        PluginReport report = check(jar(descriptor()).header("Bundle-Version", "1.0.0.202601011200"));
        assertThat(report.errors()).isEmpty();
    }

    @Test
    void aToolClassOnADirectoryOfTheBundleClassPathIsFound() {
        TestJar jar = TestJar.plugin().descriptor(descriptor().toString()).withClass(GoodTool.class, "classes/")
                .header("Bundle-ClassPath", "., classes/");
        assertThat(check(jar).errors()).isEmpty();
        assertThat(checkFile(jar).errors()).isEmpty();
    }

    @Test
    void aToolClassInAnEmbeddedJarIsFound() {
        byte[] lib = new TestJar().withClass(GoodTool.class).bytes();
        TestJar jar = TestJar.plugin().descriptor(descriptor().toString()).entry("lib/tools.jar", lib)
                .header("Bundle-ClassPath", ".,lib/tools.jar");
        assertThat(check(jar).errors()).isEmpty();
        assertThat(checkFile(jar).errors()).isEmpty();
    }

    @Test
    void theCheckNeverLoadsClassesWhenGivenOnlyManifestAndEntries() {
        // a class that does not implement PluginTool passes the entry check: only presence is checked
        ObjectNode d = descriptor();
        tool(d).put("class", NotATool.class.getName());
        PluginReport report = check(TestJar.plugin().descriptor(d.toString()).withClass(NotATool.class));
        assertThat(report.errors()).isEmpty();
    }

    @Test
    void theApiVersionIsTheOneTheApiPackageDeclares() throws IOException {
        String info = Files.readString(Path.of("../../api/src/main/java/pi/host/api/package-info.java"),
                StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("@org\\.osgi\\.annotation\\.versioning\\.Version\\(\"([^\"]+)\"\\)").matcher(info);
        assertThat(m.find()).isTrue();
        assertThat(PluginInspector.API_VERSION).isEqualTo(m.group(1));
    }

    // --- the jar and its manifest

    @Test
    void aMissingFileIsAnError() {
        PluginReport report = PluginInspector.inspect(dir.resolve("nope.jar"));
        assertThat(report.errors()).hasSize(1);
        assertThat(report.errors().get(0).what()).contains("there is no file");
    }

    @Test
    void aFileThatIsNotAJarIsAnError() throws IOException {
        Path file = Files.writeString(dir.resolve("plugin.jar"), "not a zip");
        PluginReport report = PluginInspector.inspect(file);
        assertThat(report.errors()).hasSize(1);
        assertThat(report.errors().get(0).what()).contains("not a readable jar");
    }

    @Test
    void aJarWithoutManifestIsAnError() throws IOException {
        Path file = dir.resolve("plugin.jar");
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(file))) {
            zip.putNextEntry(new java.util.zip.ZipEntry(DESCRIPTOR));
            zip.write(descriptor().toString().getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        PluginReport report = PluginInspector.inspect(file);
        assertOneError(report, "META-INF/MANIFEST.MF", "no manifest");
    }

    @Test
    void aJarThatIsNotABundleIsAnError() {
        assertOneError(check(jar(descriptor()).header("Bundle-SymbolicName", null)),
                "META-INF/MANIFEST.MF: Bundle-SymbolicName", "not an OSGi bundle");
    }

    @Test
    void aBundleWithoutThePiPluginHeaderIsNotAPlugin() {
        assertOneError(check(jar(descriptor()).header(PluginInspector.HEADER, null)),
                "META-INF/MANIFEST.MF: Pi-Plugin", "no Pi-Plugin header");
    }

    @Test
    void aDescriptorMissingFromTheBundleIsAnError() {
        assertOneError(check(jar(descriptor()).header(PluginInspector.HEADER, "META-INF/other.json")),
                "META-INF/MANIFEST.MF: Pi-Plugin", "META-INF/other.json named by Pi-Plugin is not in the bundle");
    }

    @Test
    void importingAnyOtherPackageIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package",
                "pi.host.api;version=\"[0.2,1)\",org.osgi.framework;version=\"[1.8,2)\"")),
                "META-INF/MANIFEST.MF: Import-Package", "imports org.osgi.framework; plugins may import only pi.host.api");
    }

    @Test
    void importingTheHostSpiIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package", "pi.host.api;version=\"[0.2,1)\",pi.host.spi")),
                "META-INF/MANIFEST.MF: Import-Package", "imports pi.host.spi");
    }

    @Test
    void anApiRangeThatExcludesTheHostsApiIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package", "pi.host.api;version=\"[0.1,0.2)\"")),
                "META-INF/MANIFEST.MF: Import-Package", "range [0.1,0.2), which excludes the host's " + PluginInspector.API_VERSION);
    }

    @Test
    void aFutureApiFloorIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package", "pi.host.api;version=\"1.0\"")),
                "META-INF/MANIFEST.MF: Import-Package", "excludes the host's " + PluginInspector.API_VERSION);
    }

    @Test
    void jdkAndUnversionedApiImportsAreAllowed() {
        PluginReport report = check(jar(descriptor()).header("Import-Package",
                "java.util.function, javax.xml.parsers, org.w3c.dom, pi.host.api"));
        assertThat(report.errors()).isEmpty();
    }

    /** Pins: an optional import of anything was allowed, so resolution:=optional wired a plugin to host internals. */
    @Test
    void anOptionalImportOfAPackageOutsideTheJdkIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package",
                "pi.host.api, pi.host.spi;pi.host.spi=builtin;resolution:=optional")),
                "META-INF/MANIFEST.MF: Import-Package", "imports pi.host.spi (optionally)");
    }

    @Test
    void importingTheOsgiFrameworkIsAnError() {
        assertOneError(check(jar(descriptor()).header("Import-Package", "pi.host.api, org.osgi.framework")),
                "META-INF/MANIFEST.MF: Import-Package", "imports org.osgi.framework");
    }

    // --- no code of the plugin runs before its grant (issue 12.3): each header that would run some is refused

    /** Pins: a Pi-Plugin bundle with an activator ran it as soon as it was dropped in, and plugin check passed it. */
    @Test
    void anActivatorIsAnError() {
        assertOneError(check(jar(descriptor()).header("Bundle-Activator", "org.example.Start")),
                "META-INF/MANIFEST.MF: Bundle-Activator", "before the user's grant");
    }

    /** Pins: a Pi-Plugin bundle with an immediate DS component was activated by SCR before its grant. */
    @Test
    void declarativeServicesComponentsAreAnError() {
        assertOneError(check(jar(descriptor()).header("Service-Component", "OSGI-INF/start.xml")),
                "META-INF/MANIFEST.MF: Service-Component", "SCR creates on its own schedule");
    }

    @Test
    void aFrameworkExtensionActivatorIsAnError() {
        PluginReport report = check(jar(descriptor()).header("ExtensionBundle-Activator", "org.example.Start"));
        assertThat(report.errors()).extracting(Problem::where)
                .containsExactly("META-INF/MANIFEST.MF: ExtensionBundle-Activator");
    }

    @Test
    void dynamicImportsAreAnError() {
        assertOneError(check(jar(descriptor()).header("DynamicImport-Package", "*")),
                "META-INF/MANIFEST.MF: DynamicImport-Package", "any exported package at run time");
    }

    @Test
    void theServiceLoaderMediatorsHeadersAreErrors() {
        PluginReport report = check(jar(descriptor()).header("SPI-Provider", "*").header("SPI-Consumer", "*"));
        assertThat(report.errors()).extracting(Problem::where).containsExactly(
                "META-INF/MANIFEST.MF: SPI-Provider", "META-INF/MANIFEST.MF: SPI-Consumer");
    }

    @Test
    void requiringAnExtenderIsAnError() {
        assertOneError(check(jar(descriptor()).header("Require-Capability",
                "osgi.ee;filter:=\"(&(osgi.ee=JavaSE)(version=17))\", osgi.extender;filter:=\"(osgi.extender=osgi.component)\"")),
                "META-INF/MANIFEST.MF: Require-Capability", "requires the capability osgi.extender");
    }

    @Test
    void requiringTheJavaVersionIsAllowed() {
        assertThat(check(jar(descriptor()).header("Require-Capability",
                "osgi.ee;filter:=\"(&(osgi.ee=JavaSE)(version=17))\"")).errors()).isEmpty();
    }

    @Test
    void exportingPackagesIsAnError() {
        assertOneError(check(jar(descriptor()).header("Export-Package", "pi.host.api;version=\"0.2.5\"")),
                "META-INF/MANIFEST.MF: Export-Package", "other bundles could wire to its classes");
    }

    @Test
    void providingCapabilitiesIsAnError() {
        assertOneError(check(jar(descriptor()).header("Provide-Capability", "osgi.extender;osgi.extender=osgi.component")),
                "META-INF/MANIFEST.MF: Provide-Capability", "offers capabilities");
    }

    @Test
    void aManifestOlderThanVersionTwoIsAnError() {
        assertOneError(check(jar(descriptor()).header("Bundle-ManifestVersion", null)),
                "META-INF/MANIFEST.MF: Bundle-ManifestVersion", "Bundle-ManifestVersion: 2");
    }

    @Test
    void everyRefusedHeaderIsReportedAtOnce() {
        PluginReport report = check(jar(descriptor()).header("Bundle-Activator", "a.B").header("Service-Component", "c.xml")
                .header("DynamicImport-Package", "*").header("Require-Bundle", "pi.host.core")
                .header("Fragment-Host", "pi.host.core"));
        assertThat(report.errors()).extracting(Problem::where).containsExactlyInAnyOrder(
                "META-INF/MANIFEST.MF: Bundle-Activator", "META-INF/MANIFEST.MF: Service-Component",
                "META-INF/MANIFEST.MF: DynamicImport-Package", "META-INF/MANIFEST.MF: Require-Bundle",
                "META-INF/MANIFEST.MF: Fragment-Host");
        assertThat(report.valid()).isFalse();
    }

    @Test
    void requireBundleIsAnError() {
        assertOneError(check(jar(descriptor()).header("Require-Bundle", "pi.host.core")),
                "META-INF/MANIFEST.MF: Require-Bundle", "requires other bundles");
    }

    @Test
    void aFragmentIsAnError() {
        assertOneError(check(jar(descriptor()).header("Fragment-Host", "pi.host.core")),
                "META-INF/MANIFEST.MF: Fragment-Host", "is a fragment");
    }

    // --- the descriptor as a whole

    @Test
    void aDescriptorThatIsNotJsonIsAnError() {
        assertOneError(check(TestJar.plugin().descriptor("{\"id\": \"x\",").withClass(GoodTool.class)),
                DESCRIPTOR, "not valid JSON");
    }

    @Test
    void aDescriptorThatIsNotAnObjectIsAnError() {
        assertOneError(check(TestJar.plugin().descriptor("[1]")), DESCRIPTOR, "must be a JSON object");
    }

    @Test
    void aDuplicateKeyIsAnError() {
        String json = descriptor().toString().replaceFirst("\\{", "{\"id\":\"other\",");
        assertOneError(check(TestJar.plugin().descriptor(json).withClass(GoodTool.class)), DESCRIPTOR,
                "Duplicate field 'id'");
    }

    @Test
    void anUnknownTopLevelKeyIsAWarning() {
        ObjectNode d = descriptor().put("author", "me");
        assertOneWarning(check(d), at("author"), "unknown key 'author'");
        assertThat(check(d).descriptor()).isNotNull();
    }

    // --- id, name, version

    @Test
    void aMissingIdIsAnError() {
        ObjectNode d = descriptor();
        d.remove("id");
        assertOneError(check(d), at("id"), "no \"id\" string");
    }

    @Test
    void anIdWithUpperCaseIsAnError() {
        PluginReport report = check(descriptor().put("id", "Git-Info"));
        assertOneError(report, at("id"), "id 'Git-Info' is not allowed");
        assertThat(report.declaredId()).isEqualTo("Git-Info");
    }

    @Test
    void anIdStartingWithADigitIsAnError() {
        assertOneError(check(descriptor().put("id", "1git")), at("id"), "is not allowed");
    }

    @Test
    void anIdOfFortyNineCharactersIsAnError() {
        assertOneError(check(descriptor().put("id", "a".repeat(49))), at("id"), "is not allowed");
    }

    @Test
    void anIdWithDotsAndDashesIsSafeInTheExposedName() {
        ToolSpec t = check(descriptor().put("id", "org.example.git-info")).descriptor().tools().get(0);
        assertThat(t.exposedName()).isEqualTo("plugin_org_example_git_info_git");
    }

    @Test
    void aMissingNameIsAnError() {
        ObjectNode d = descriptor();
        d.remove("name");
        assertOneError(check(d), at("name"), "\"name\" must be a non-empty string");
    }

    @Test
    void aBlankNameIsAnError() {
        assertOneError(check(descriptor().put("name", "  ")), at("name"), "\"name\" must be a non-empty string");
    }

    @Test
    void aMissingVersionIsAnError() {
        ObjectNode d = descriptor();
        d.remove("version");
        assertOneError(check(d), at("version"), "no \"version\" string");
    }

    @Test
    void aVersionThatIsNotAnOsgiVersionIsAnError() {
        assertOneError(check(descriptor().put("version", "1.0.0-SNAPSHOT")), at("version"), "is not an OSGi version");
    }

    @Test
    void aVersionDifferentFromTheBundlesIsAnError() {
        assertOneError(check(jar(descriptor()).header("Bundle-Version", "1.0.1")), at("version"),
                "differs from the bundle's Bundle-Version 1.0.1");
    }

    @Test
    void aBundleWithoutVersionCountsAsZero() {
        assertOneError(check(jar(descriptor()).header("Bundle-Version", null)), at("version"), "(none, i.e. 0.0.0)");
    }

    // --- agentTools

    @Test
    void missingAgentToolsIsAnError() {
        ObjectNode d = descriptor();
        d.remove("agentTools");
        assertOneError(check(d), at("agentTools"), "declares no tools");
    }

    @Test
    void emptyAgentToolsIsAnError() {
        ObjectNode d = descriptor();
        d.putArray("agentTools");
        assertOneError(check(d), at("agentTools"), "declares no tools");
    }

    @Test
    void aToolThatIsNotAnObjectIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) d.get("agentTools")).add("git");
        assertOneError(check(d), at("agentTools[1]"), "must be a JSON object");
    }

    @Test
    void aMissingToolNameIsAnError() {
        ObjectNode d = descriptor();
        tool(d).remove("name");
        assertOneError(check(d), at("agentTools[0].name"), "no \"name\" string");
    }

    @Test
    void aToolNameWithASpaceIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("name", "git status");
        assertOneError(check(d), at("agentTools[0].name"), "tool name 'git status' is not allowed");
    }

    @Test
    void aToolNameStartingWithAnUnderscoreIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("name", "_git");
        assertOneError(check(d), at("agentTools[0].name"), "is not allowed");
    }

    @Test
    void aToolNameUsedTwiceIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) d.get("agentTools")).add(tool(d).deepCopy());
        assertOneError(check(d), at("agentTools[1].name"), "'git' is used twice");
    }

    @Test
    void anExposedNameOverSixtyFourCharactersIsAnError() {
        ObjectNode d = descriptor().put("id", "a".repeat(40));
        tool(d).put("name", "t".repeat(20)); // plugin_ + 40 + _ + 20 = 68
        assertOneError(check(d), at("agentTools[0].name"), "has 68 characters");
    }

    @Test
    void anExposedNameOfExactlySixtyFourCharactersIsAllowed() {
        ObjectNode d = descriptor().put("id", "a".repeat(40));
        tool(d).put("name", "t".repeat(16));
        assertThat(check(d).errors()).isEmpty();
    }

    @Test
    void aMissingDescriptionIsAnError() {
        ObjectNode d = descriptor();
        tool(d).remove("description");
        assertOneError(check(d), at("agentTools[0].description"), "\"description\" must be a non-empty string");
    }

    @Test
    void anUnknownToolKeyIsAWarning() {
        ObjectNode d = descriptor();
        tool(d).put("Risk", "low");
        assertOneWarning(check(d), at("agentTools[0].Risk"), "unknown key 'Risk'");
    }

    // --- class

    @Test
    void aMissingClassIsAnError() {
        ObjectNode d = descriptor();
        tool(d).remove("class");
        assertOneError(check(d), at("agentTools[0].class"), "names no \"class\"");
    }

    @Test
    void aClassNameThatIsNotJavaIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("class", "org.example.Git Tool");
        assertOneError(check(d), at("agentTools[0].class"), "is not a Java class name");
    }

    @Test
    void aClassNotInTheBundleIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("class", "org.example.Missing");
        assertOneError(check(d), at("agentTools[0].class"), "class org.example.Missing is not in the bundle");
    }

    @Test
    void offlineAClassThatDoesNotImplementPluginToolIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("class", NotATool.class.getName());
        System.setProperty("pi.host.plugins.check.never", "true");
        try {
            PluginReport report = checkFile(TestJar.plugin().descriptor(d.toString()).withClass(NotATool.class));
            assertOneError(report, at("agentTools[0].class"), "does not implement pi.host.api.PluginTool");
        } finally {
            System.clearProperty("pi.host.plugins.check.never");
        }
    }

    @Test
    void offlineAClassWithoutANoArgConstructorIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("class", NoDefaultConstructorTool.class.getName());
        PluginReport report = checkFile(TestJar.plugin().descriptor(d.toString())
                .withClass(NoDefaultConstructorTool.class));
        assertOneError(report, at("agentTools[0].class"), "has no public no-arg constructor");
    }

    @Test
    void theClassRuleAcceptsAToolAndRefusesTheRest() {
        assertThat(PluginInspector.toolClassProblem(GoodTool.class)).isNull();
        assertThat(PluginInspector.toolClassProblem(NotATool.class)).contains("does not implement");
        assertThat(PluginInspector.toolClassProblem(NoDefaultConstructorTool.class)).contains("no-arg constructor");
        assertThat(PluginInspector.toolClassProblem(pi.host.api.PluginTool.class)).contains("concrete");
    }

    // --- inputSchema

    @Test
    void aMissingInputSchemaIsAnError() {
        ObjectNode d = descriptor();
        tool(d).remove("inputSchema");
        tool(d).remove("actions");
        tool(d).remove("planSafeActions");
        assertOneError(check(d), at("agentTools[0].inputSchema"), "no \"inputSchema\"");
    }

    @Test
    void anInputSchemaThatIsNotAnObjectIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("inputSchema", "object");
        assertOneError(check(d), at("agentTools[0].inputSchema"), "must be a JSON object");
    }

    @Test
    void anInputSchemaWhoseRootIsNotAnObjectTypeIsAnError() {
        ObjectNode d = descriptor();
        ((ObjectNode) tool(d).get("inputSchema")).put("type", "string").remove(List.of("properties", "required",
                "additionalProperties"));
        tool(d).remove(List.of("actions", "planSafeActions"));
        assertOneError(check(d), at("agentTools[0].inputSchema"), "\"type\": \"object\" at its root");
    }

    @Test
    void anInputSchemaThatBreaksTheMetaSchemaIsAnError() {
        ObjectNode d = descriptor();
        ((ObjectNode) tool(d).get("inputSchema")).put("required", "action");
        PluginReport report = check(d);
        assertThat(report.errors()).isNotEmpty();
        assertThat(report.errors()).allSatisfy(p -> {
            assertThat(p.where()).isEqualTo(at("agentTools[0].inputSchema"));
            assertThat(p.what()).contains("is not valid JSON Schema");
        });
        assertThat(report.descriptor()).isNull();
    }

    @Test
    void anInputSchemaWithAnUnknownTypeIsAnError() {
        ObjectNode d = descriptor();
        ((ObjectNode) ((ObjectNode) tool(d).get("inputSchema")).get("properties").get("action")).put("type", "text");
        PluginReport report = check(d);
        assertThat(report.errors()).isNotEmpty();
        assertThat(report.errors().get(0).what()).contains("is not valid JSON Schema");
    }

    @Test
    void anInputSchemaReferringOutsideItselfIsAnError() {
        ObjectNode d = descriptor();
        ((ObjectNode) ((ObjectNode) tool(d).get("inputSchema")).get("properties")).putObject("extra")
                .put("$ref", "https://example.org/schemas/extra.json");
        assertOneError(check(d), at("agentTools[0].inputSchema"), "cannot be compiled");
    }

    @Test
    void anInputSchemaOfAnotherDraftIsAnError() {
        ObjectNode d = descriptor();
        ((ObjectNode) tool(d).get("inputSchema")).put("$schema", "http://json-schema.org/draft-07/schema#");
        assertOneError(check(d), at("agentTools[0].inputSchema"), "plugin schemas are JSON Schema draft 2020-12");
    }

    @Test
    void anInputSchemaWithAnInternalRefIsValid() {
        ObjectNode d = descriptor();
        ObjectNode schema = (ObjectNode) tool(d).get("inputSchema");
        schema.putObject("$defs").putObject("path").put("type", "string");
        ((ObjectNode) schema.get("properties")).putObject("path").put("$ref", "#/$defs/path");
        schema.put("$schema", SchemaRules.DRAFT_2020_12);
        assertThat(check(d).errors()).isEmpty();
    }

    @Test
    void actionsWithoutAnActionPropertyIsAWarning() {
        ObjectNode d = descriptor();
        ObjectNode schema = (ObjectNode) tool(d).get("inputSchema");
        schema.remove(List.of("properties", "required", "additionalProperties"));
        assertOneWarning(check(d), at("agentTools[0].inputSchema"), "has no \"action\" property");
    }

    // --- risk

    @Test
    void aMissingRiskIsAWarningAndRunsAsMedium() {
        ObjectNode d = descriptor();
        tool(d).remove("risk");
        PluginReport report = check(d);
        assertOneWarning(report, at("agentTools[0].risk"), "runs as medium");
        assertThat(report.descriptor().tools().get(0).risk()).isEqualTo("medium");
        assertThat(report.descriptor().tools().get(0).riskDeclared()).isFalse();
    }

    @Test
    void anInvalidRiskIsAWarningAndRunsAsMedium() {
        ObjectNode d = descriptor();
        tool(d).put("risk", "LOW");
        PluginReport report = check(d);
        assertOneWarning(report, at("agentTools[0].risk"), "is not one of low, medium, high");
        assertThat(report.descriptor().tools().get(0).risk()).isEqualTo("medium");
    }

    // --- actions and planSafeActions

    @Test
    void actionsThatAreNotAnArrayIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("actions", "status");
        tool(d).remove("planSafeActions");
        assertOneError(check(d), at("agentTools[0].actions"), "must be an array");
    }

    @Test
    void anActionListedTwiceIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) tool(d).get("actions")).add("log");
        assertOneError(check(d), at("agentTools[0].actions[4]"), "'log' is listed twice");
    }

    @Test
    void anEmptyActionIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) tool(d).get("actions")).add("");
        assertOneError(check(d), at("agentTools[0].actions[4]"), "is not a non-empty string");
    }

    @Test
    void aPlanSafeActionOutsideTheActionsIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) tool(d).get("planSafeActions")).add("push");
        assertOneError(check(d), at("agentTools[0].planSafeActions"), "plan-safe action 'push' is not one of");
    }

    @Test
    void aPlanSafeActionDifferingOnlyInCaseIsAnError() {
        ObjectNode d = descriptor();
        ((ArrayNode) tool(d).get("planSafeActions")).removeAll().add("Status");
        assertOneError(check(d), at("agentTools[0].planSafeActions"), "'Status' is not one of");
    }

    @Test
    void planSafeActionsWithoutActionsIsAnError() {
        ObjectNode d = descriptor();
        tool(d).remove("actions");
        assertOneError(check(d), at("agentTools[0].planSafeActions"), "declares no \"actions\"");
    }

    @Test
    void anEmptyPlanSafeActionsIsAWarning() {
        ObjectNode d = descriptor();
        ((ArrayNode) tool(d).get("planSafeActions")).removeAll();
        PluginReport report = check(d);
        assertOneWarning(report, at("agentTools[0].planSafeActions"), "hides the tool in Plan and Goal");
        assertThat(report.descriptor().tools().get(0).planSafeActions()).isEmpty();
    }

    // --- timeoutMs and summary

    @Test
    void aZeroTimeoutIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("timeoutMs", 0);
        assertOneError(check(d), at("agentTools[0].timeoutMs"), "from 1 to 86400000");
    }

    @Test
    void aTimeoutOverADayIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("timeoutMs", 86_400_001L);
        assertOneError(check(d), at("agentTools[0].timeoutMs"), "from 1 to 86400000");
    }

    @Test
    void aFractionalTimeoutIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("timeoutMs", 1.5);
        assertOneError(check(d), at("agentTools[0].timeoutMs"), "not a whole number");
    }

    @Test
    void aTimeoutGivenAsTextIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("timeoutMs", "30000");
        assertOneError(check(d), at("agentTools[0].timeoutMs"), "not a whole number");
    }

    @Test
    void aDayIsTheLongestTimeout() {
        ObjectNode d = descriptor();
        tool(d).put("timeoutMs", 86_400_000L);
        assertThat(check(d).descriptor().tools().get(0).timeoutMs()).isEqualTo(86_400_000L);
    }

    @Test
    void aMultiLineSummaryIsAnError() {
        ObjectNode d = descriptor();
        tool(d).put("summary", "one\ntwo");
        assertOneError(check(d), at("agentTools[0].summary"), "one line");
    }

    // --- several problems at once

    @Test
    void everyProblemIsReportedNotOnlyTheFirst() {
        ObjectNode d = descriptor().put("id", "Bad Id");
        d.remove("name");
        tool(d).put("timeoutMs", -1);
        PluginReport report = check(jar(d).header("Import-Package", "org.osgi.framework"));
        assertThat(report.errors()).extracting(Problem::where).containsExactlyInAnyOrder(
                "META-INF/MANIFEST.MF: Import-Package", at("id"), at("name"), at("agentTools[0].timeoutMs"));
    }
}
