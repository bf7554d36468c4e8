package pi.host.launcher;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The author kit's code lives in the {@code pi.host.plugins} bundle, where the agent's PluginCheck,
 * PluginScaffold and PluginPack tools use it too. The launcher has only Felix and picocli on its
 * class path, so for a {@code pi-host plugin} command it loads the installed bundle set as plain
 * jars in a class loader of its own (above the JDK only) and calls {@code KitCli} there, with JDK
 * types across the boundary. Nothing of this happens for {@code serve}.
 */
final class PluginKit {

    private static final String ENTRY = "pi.host.plugins.kit.KitCli";

    private final Path assembly;

    PluginKit(Path assembly) {
        this.assembly = assembly;
    }

    /** The folder a plugin module compiles against: the installed bundle set, which holds pi.host.api.jar. */
    Path sdk() {
        return assembly.resolve("bundle");
    }

    int check(Path jar, PrintWriter out, PrintWriter err) throws IOException {
        return call("check", new Class<?>[] {Path.class, PrintWriter.class, PrintWriter.class},
                jar.toAbsolutePath(), out, err);
    }

    int scaffold(String id, Path dir, PrintWriter out, PrintWriter err) throws IOException {
        return call("scaffold", new Class<?>[] {String.class, Path.class, Path.class, PrintWriter.class,
            PrintWriter.class}, id, dir.toAbsolutePath(), sdk(), out, err);
    }

    int pack(Path module, Path dataDir, PrintWriter out, PrintWriter err) throws IOException {
        return call("pack", new Class<?>[] {Path.class, Path.class, Path.class, PrintWriter.class, PrintWriter.class},
                module.toAbsolutePath(), dataDir, sdk(), out, err);
    }

    private int call(String method, Class<?>[] types, Object... args) throws IOException {
        try (URLClassLoader loader = new URLClassLoader("pi-host-plugin-kit", urls(),
                ClassLoader.getPlatformClassLoader())) {
            Method m = loader.loadClass(ENTRY).getMethod(method, types);
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader); // libraries that look up services by the context loader find theirs
            try {
                return (Integer) m.invoke(null, args);
            } finally {
                thread.setContextClassLoader(previous);
            }
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(cause);
        } catch (ReflectiveOperationException e) {
            throw new IOException("the installed bundle set has no plugin kit (" + ENTRY + "): " + e
                    + "; rebuild pi-host (mvn -B -DskipTests package)", e);
        }
    }

    /** bundles.list's jars, then the launcher's class-path libraries it does not name (slf4j, which the validator logs through). */
    private URL[] urls() throws IOException {
        List<Path> jars = new ArrayList<>(BundleSet.read(assembly));
        for (Path library : ClassPathLibraries.jars()) {
            if (!jars.contains(library.normalize())) {
                jars.add(library.normalize());
            }
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IOException(e);
            }
        }
        return urls.toArray(URL[]::new);
    }
}
