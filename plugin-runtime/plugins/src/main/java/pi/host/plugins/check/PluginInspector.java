package pi.host.plugins.check;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import pi.host.api.PluginTool;

/**
 * The one validator of plugins, used by the runtime when a plugin bundle appears, by
 * {@code pi-host plugin check <jar>} and by the PluginCheck tool: it reads the manifest and the
 * descriptor and reports every problem with its fix. No OSGi classes: it runs in the launcher too.
 *
 * <p>{@link #inspect(Manifest, ResourceReader)} never loads a class of the plugin (the runtime loads
 * them only after the user's grant); {@link #inspect(Path)}, for a jar on disk, also loads each tool
 * class in a throw-away class loader that sees only the JDK and {@code pi.host.api}, without
 * initialising it, to check that it implements {@link PluginTool} with a public no-arg constructor.
 */
public final class PluginInspector {

    /** The manifest header that marks a bundle as a plugin; its value is the descriptor's path in the bundle. */
    public static final String HEADER = "Pi-Plugin";
    /** The descriptor path a plugin uses by convention. */
    public static final String DEFAULT_DESCRIPTOR = "META-INF/pi-plugin.json";
    /** The one package of ours a plugin may import. */
    public static final String API_PACKAGE = "pi.host.api";
    /** The version of {@code pi.host.api} this host exports (its package-info's {@code @Version}). */
    public static final String API_VERSION = "0.4.0";

    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    private PluginInspector() {
    }

    /** Inspects a plugin jar on disk, loading (not initialising) its tool classes. */
    public static PluginReport inspect(Path jar) {
        if (!Files.isRegularFile(jar)) {
            return failed(jar.toString(), "there is no file " + jar, "give the path of the built plugin jar"
                    + " (usually target/<artifactId>-<version>.jar)");
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null) {
                return failed(MANIFEST, "the jar has no manifest", "build the plugin as an OSGi bundle (bnd-maven-plugin)");
            }
            ResourceReader entries = path -> {
                ZipEntry e = file.getEntry(path);
                if (e == null || e.isDirectory()) {
                    return null;
                }
                try (InputStream in = file.getInputStream(e)) {
                    return in.readAllBytes();
                }
            };
            PluginReport report = inspect(manifest, entries);
            if (report.descriptor() == null) {
                return report;
            }
            List<Problem> errors = new ArrayList<>(report.errors());
            checkClasses(jar, manifest, report.descriptor(), errors);
            return new PluginReport(report.descriptor(), report.declaredId(), errors, report.warnings());
        } catch (IOException e) {
            return failed(jar.toString(), "the file is not a readable jar: " + e.getMessage(),
                    "rebuild the plugin (mvn verify) and check the path");
        }
    }

    /**
     * Inspects a plugin from its manifest and entries; loads none of its classes (each tool class must
     * only be present). A manifest without the {@link #HEADER} header is reported as not a plugin.
     */
    public static PluginReport inspect(Manifest manifest, ResourceReader entries) {
        List<Problem> errors = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        Attributes main = manifest.getMainAttributes();
        if (blank(main.getValue("Bundle-SymbolicName"))) {
            errors.add(new Problem(MANIFEST + ": Bundle-SymbolicName", "the jar is not an OSGi bundle (no"
                    + " Bundle-SymbolicName)", "build it with bnd-maven-plugin (or set Bundle-SymbolicName and"
                    + " Bundle-ManifestVersion: 2)"));
        }
        ManifestRules.check(main, errors);
        String descriptorPath = main.getValue(HEADER);
        if (blank(descriptorPath)) {
            errors.add(new Problem(MANIFEST + ": " + HEADER, "the bundle has no " + HEADER + " header, so it is not"
                    + " a plugin", "add the manifest header '" + HEADER + ": " + DEFAULT_DESCRIPTOR + "' (in bnd.bnd)"));
            return new PluginReport(null, null, errors, warnings);
        }
        String path = descriptorPath.strip().replaceFirst("^/", "");
        byte[] bytes;
        try {
            bytes = entries.read(path);
        } catch (IOException e) {
            errors.add(new Problem(MANIFEST + ": " + HEADER, "the descriptor " + path + " cannot be read: "
                    + e.getMessage(), "rebuild the jar with a descriptor of a sensible size"));
            return new PluginReport(null, null, errors, warnings);
        }
        if (bytes == null) {
            errors.add(new Problem(MANIFEST + ": " + HEADER, "the descriptor " + path + " named by " + HEADER
                    + " is not in the bundle", "put the descriptor at " + path + " (src/main/resources/" + path
                    + " in Maven) or correct the header"));
            return new PluginReport(null, null, errors, warnings);
        }
        DescriptorRules rules = new DescriptorRules(path, entries,
                new ClassPathEntries(main.getValue("Bundle-ClassPath")), errors, warnings);
        PluginDescriptor descriptor = rules.check(bytes, main.getValue("Bundle-Version"));
        return new PluginReport(descriptor, rules.declaredId(), errors, warnings);
    }

    /**
     * Why a loaded tool class cannot be used, or null when it can: it must be a public, concrete class
     * implementing {@link PluginTool} (this host's) with a public no-arg constructor.
     */
    public static String toolClassProblem(Class<?> type) {
        if (!PluginTool.class.isAssignableFrom(type)) {
            return "class " + type.getName() + " does not implement pi.host.api.PluginTool";
        }
        int modifiers = type.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isAbstract(modifiers) || type.isInterface()
                || (type.getEnclosingClass() != null && !Modifier.isStatic(modifiers))) {
            return "class " + type.getName() + " must be a public, concrete, top-level (or static nested) class";
        }
        try {
            Constructor<?> c = type.getConstructor();
            if (!Modifier.isPublic(c.getModifiers())) {
                return "class " + type.getName() + " has no public no-arg constructor";
            }
        } catch (NoSuchMethodException e) {
            return "class " + type.getName() + " has no public no-arg constructor";
        }
        return null;
    }

    /** The fix that goes with {@link #toolClassProblem}. */
    public static final String TOOL_CLASS_FIX = "make the class public, give it a public constructor without"
            + " parameters, and implement pi.host.api.PluginTool";

    /** Loads each tool class without initialising it, in a loader that sees only the JDK and pi.host.api. */
    private static void checkClasses(Path jar, Manifest manifest, PluginDescriptor descriptor, List<Problem> errors)
            throws IOException {
        List<Path> extracted = new ArrayList<>();
        try (URLClassLoader loader = new URLClassLoader(classPath(jar, manifest, extracted), new ApiOnly())) {
            for (int i = 0; i < descriptor.tools().size(); i++) {
                ToolSpec tool = descriptor.tools().get(i);
                String where = manifest.getMainAttributes().getValue(HEADER).strip().replaceFirst("^/", "")
                        + ": agentTools[" + i + "].class";
                String problem;
                try {
                    problem = toolClassProblem(Class.forName(tool.className(), false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    problem = "class " + tool.className() + " cannot be loaded: " + e;
                }
                if (problem != null) {
                    errors.add(new Problem(where, problem, TOOL_CLASS_FIX));
                }
            }
        } finally {
            for (Path p : extracted) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static URL[] classPath(Path jar, Manifest manifest, List<Path> extracted) throws IOException {
        List<URL> urls = new ArrayList<>();
        String base = "jar:" + jar.toUri() + "!/";
        try (JarFile file = new JarFile(jar.toFile())) {
            for (String entry : new ClassPathEntries(manifest.getMainAttributes().getValue("Bundle-ClassPath"))
                    .entries()) {
                String e = entry.replaceFirst("^/", "");
                if (".".equals(e) || e.isEmpty()) {
                    urls.add(jar.toUri().toURL());
                } else if (e.endsWith(".jar")) {
                    ZipEntry nested = file.getEntry(e);
                    if (nested != null) {
                        Path copy = Files.createTempFile("pi-plugin-check", ".jar");
                        extracted.add(copy);
                        try (InputStream in = file.getInputStream(nested)) {
                            Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                        }
                        urls.add(copy.toUri().toURL());
                    }
                } else {
                    urls.add(new URL(base + (e.endsWith("/") ? e : e + "/")));
                }
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The parent of the check's class loader: the JDK, plus pi.host.api as this host has it. */
    private static final class ApiOnly extends ClassLoader {
        ApiOnly() {
            super(ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(API_PACKAGE + ".") && name.indexOf('.', API_PACKAGE.length() + 1) < 0) {
                return PluginTool.class.getClassLoader().loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    private static PluginReport failed(String where, String what, String fix) {
        return new PluginReport(null, null, List.of(new Problem(where, what, fix)), List.of());
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
