package pi.host.plugins.check;

import java.util.List;
import java.util.jar.Attributes;

/**
 * The manifest half of the plugin contract: what a plugin bundle may declare. A plugin is data (its
 * descriptor) plus tool classes the runtime creates after the user's grant; so every header that
 * would make code run on its own (an activator, DS components, an extender's processing), let the
 * bundle wire to something other than {@code pi.host.api} and the JDK, or let anything wire to it
 * or attach to it is an error that names the header.
 */
final class ManifestRules {

    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    /** A header that makes code of the bundle run without the runtime asking: what runs, and the fix. */
    private record RunsCode(String header, String what, String fix) {
    }

    private static final List<RunsCode> RUNS_CODE = List.of(
            new RunsCode("Bundle-Activator", "names an activator, which the framework runs as soon as the bundle"
                    + " starts, before the user's grant", "remove Bundle-Activator: the runtime creates your"
                    + " PluginTool classes itself, after the grant"),
            new RunsCode("ExtensionBundle-Activator", "names a framework extension activator, which runs inside"
                    + " the framework itself", "remove ExtensionBundle-Activator"),
            new RunsCode("Service-Component", "declares Declarative Services components, which SCR creates on its"
                    + " own schedule, before the user's grant", "remove the DS components (and bnd's"
                    + " -dsannotations); declare each tool in the descriptor and implement pi.host.api.PluginTool"),
            new RunsCode("SPI-Provider", "asks the ServiceLoader mediator to create the bundle's service providers",
                    "remove SPI-Provider; embed what the tool needs and create it yourself"),
            new RunsCode("SPI-Consumer", "asks the ServiceLoader mediator to rewrite the bundle's classes",
                    "remove SPI-Consumer"));

    private ManifestRules() {
    }

    /** Adds an error for every header the contract refuses. */
    static void check(Attributes main, List<Problem> errors) {
        if (!"2".equals(strip(main.getValue("Bundle-ManifestVersion")))) {
            errors.add(error("Bundle-ManifestVersion", "the bundle does not declare Bundle-ManifestVersion: 2 (an"
                    + " older manifest version lets the framework read its headers by other rules)",
                    "build it with bnd-maven-plugin, or set Bundle-ManifestVersion: 2"));
        }
        for (RunsCode rule : RUNS_CODE) {
            if (present(main, rule.header())) {
                errors.add(error(rule.header(), "the bundle " + rule.what(), rule.fix()));
            }
        }
        if (present(main, "Fragment-Host")) {
            errors.add(error("Fragment-Host", "the bundle is a fragment: attached to its host it would change that"
                    + " bundle's class loader (a fragment of a host bundle would make the framework restart it)",
                    "remove Fragment-Host; a plugin is a bundle of its own"));
        }
        if (present(main, "Require-Bundle")) {
            errors.add(error("Require-Bundle", "the bundle requires other bundles, which wires it to every package"
                    + " they export; plugins may depend only on pi.host.api", "remove Require-Bundle and import"
                    + " pi.host.api (bnd does this)"));
        }
        if (present(main, "DynamicImport-Package")) {
            errors.add(error("DynamicImport-Package", "the bundle may wire to any exported package at run time,"
                    + " host internals included", "remove DynamicImport-Package; embed the libraries the plugin uses"));
        }
        if (present(main, "Export-Package")) {
            errors.add(error("Export-Package", "the bundle exports packages, so other bundles could wire to its"
                    + " classes", "remove Export-Package (in bnd: no Export-Package, -exportcontents or @Export)"));
        }
        if (present(main, "Provide-Capability")) {
            errors.add(error("Provide-Capability", "the bundle offers capabilities other bundles could wire to",
                    "remove Provide-Capability"));
        }
        checkRequirements(main.getValue("Require-Capability"), errors);
        checkImports(main.getValue("Import-Package"), errors);
    }

    /** Only the execution environment (osgi.ee, which bnd writes) may be required. */
    private static void checkRequirements(String header, List<Problem> errors) {
        for (ManifestClauses.Clause clause : ManifestClauses.parse(header)) {
            for (String namespace : clause.paths()) {
                if (!"osgi.ee".equals(namespace)) {
                    errors.add(error("Require-Capability", "the bundle requires the capability " + namespace
                            + "; a plugin may require only its Java version (osgi.ee)", "remove the requirement"
                            + (namespace.equals("osgi.extender") ? " (an extender would act on the bundle)" : "")));
                }
            }
        }
    }

    /** Only {@code pi.host.api} (in a range holding the host's version) and packages of the JDK, optional or not. */
    private static void checkImports(String header, List<Problem> errors) {
        int[] api = OsgiVersions.parse(PluginInspector.API_VERSION);
        for (ManifestClauses.Clause clause : ManifestClauses.parse(header)) {
            for (String pkg : clause.paths()) {
                if (PluginInspector.API_PACKAGE.equals(pkg)) {
                    String range = clause.attributes().getOrDefault("version", "0.0.0");
                    if (!OsgiVersions.includes(range, api)) {
                        errors.add(error("Import-Package", "the bundle imports pi.host.api in version range " + range
                                + ", which excludes the host's " + PluginInspector.API_VERSION, "build against"
                                + " pi.host.api " + PluginInspector.API_VERSION + " (bnd then imports [" + api[0] + "." + api[1] + ","
                                + (api[0] + 1) + "))"));
                    }
                } else if (!JdkPackages.contains(pkg)) {
                    boolean optional = "optional".equals(clause.directives().get("resolution"));
                    errors.add(error("Import-Package", "the bundle imports " + pkg + (optional ? " (optionally)" : "")
                            + "; plugins may import only pi.host.api and packages of the JDK", "embed the library"
                            + " that provides " + pkg + " in the plugin (bnd -includeresource / -conditionalpackage)"));
                }
            }
        }
    }

    private static Problem error(String header, String what, String fix) {
        return new Problem(MANIFEST + ": " + header, what, fix);
    }

    private static boolean present(Attributes main, String header) {
        String v = main.getValue(header);
        return v != null && !v.isBlank();
    }

    private static String strip(String s) {
        return s == null ? null : s.strip();
    }
}
