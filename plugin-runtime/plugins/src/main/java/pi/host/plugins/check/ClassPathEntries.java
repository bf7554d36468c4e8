package pi.host.plugins.check;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Where a bundle's classes live: its {@code Bundle-ClassPath} ({@code .} by default), each entry the
 * bundle root, a folder inside it, or a jar embedded in it.
 */
final class ClassPathEntries {

    private final List<String> entries = new ArrayList<>();

    ClassPathEntries(String bundleClassPath) {
        for (ManifestClauses.Clause clause : ManifestClauses.parse(bundleClassPath)) {
            entries.addAll(clause.paths());
        }
        if (entries.isEmpty()) {
            entries.add(".");
        }
    }

    List<String> entries() {
        return entries;
    }

    /** True when {@code path} (e.g. {@code org/example/Tool.class}) is on the bundle's class path. */
    boolean contains(ResourceReader bundle, String path) throws IOException {
        for (String entry : entries) {
            if (".".equals(entry) || "/".equals(entry)) {
                if (bundle.read(path) != null) {
                    return true;
                }
            } else if (entry.endsWith(".jar")) {
                byte[] jar = bundle.read(strip(entry));
                if (jar != null && jarHas(jar, path)) {
                    return true;
                }
            } else if (bundle.read(strip(entry) + "/" + path) != null) {
                return true;
            }
        }
        return false;
    }

    private static String strip(String entry) {
        String e = entry.startsWith("/") ? entry.substring(1) : entry;
        return e.endsWith("/") ? e.substring(0, e.length() - 1) : e;
    }

    private static boolean jarHas(byte[] jar, String path) throws IOException {
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                if (e.getName().equals(path)) {
                    return true;
                }
            }
        }
        return false;
    }
}
