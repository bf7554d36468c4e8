package pi.host.plugins.check;

import java.lang.module.ModuleDescriptor;
import java.util.HashSet;
import java.util.Set;

/**
 * The packages of the JDK a plugin may import: every package a module of the running JDK exports to
 * everyone ({@code java.*}, {@code javax.*}, {@code org.w3c.dom}, {@code jdk.*}, ...). Read from the
 * JDK's own modules (those in the boot layer loaded by the boot or platform class loader), so the
 * launcher's {@code plugin check} and the host agree on the same JDK; nothing of OSGi or of the host's
 * libraries is in it.
 */
final class JdkPackages {

    private static final Set<String> PACKAGES = read();

    private JdkPackages() {
    }

    static boolean contains(String pkg) {
        return pkg.startsWith("java.") || PACKAGES.contains(pkg);
    }

    private static Set<String> read() {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        Set<String> out = new HashSet<>();
        for (Module m : ModuleLayer.boot().modules()) {
            ClassLoader loader = m.getClassLoader();
            if (loader != null && loader != platform) {
                continue; // a module of an application on the module path, not of the JDK
            }
            for (ModuleDescriptor.Exports e : m.getDescriptor().exports()) {
                if (!e.isQualified()) {
                    out.add(e.source());
                }
            }
        }
        return Set.copyOf(out);
    }
}
