package pi.host.plugins.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.osgi.framework.Bundle;
import pi.host.plugins.check.ResourceReader;

/** A plugin bundle in the running framework; its entries are read without resolving or loading anything. */
final class BundlePluginSource implements PluginSource {

    private final Bundle bundle;
    private final String unresolved;
    private final String file;

    BundlePluginSource(Bundle bundle, String unresolved, String file) {
        this.bundle = bundle;
        this.unresolved = unresolved;
        this.file = file;
    }

    @Override
    public long bundleId() {
        return bundle.getBundleId();
    }

    @Override
    public String symbolicName() {
        String bsn = bundle.getSymbolicName();
        return bsn == null ? "bundle-" + bundle.getBundleId() : bsn;
    }

    @Override
    public Manifest manifest() {
        Manifest m = new Manifest();
        Attributes main = m.getMainAttributes();
        // raw (untranslated) headers: the same text plugin check reads from the jar
        Dictionary<String, String> headers = bundle.getHeaders("");
        for (Enumeration<String> keys = headers.keys(); keys.hasMoreElements();) {
            String key = keys.nextElement();
            try {
                main.putValue(key, headers.get(key));
            } catch (IllegalArgumentException e) {
                // a header name the jar format does not allow cannot be one the check looks at
            }
        }
        return m;
    }

    @Override
    public ResourceReader entries() {
        return path -> {
            try {
                // getEntry itself throws once the bundle is uninstalled, which a racing uninstall can do
                URL url = bundle.getEntry(path);
                if (url == null) {
                    return null;
                }
                try (InputStream in = url.openStream()) {
                    return Bounded.read(in, Bounded.MAX_ENTRY_BYTES, "the entry " + path);
                }
            } catch (IllegalStateException e) {
                throw new IOException("the bundle was uninstalled while it was read", e);
            }
        };
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        return bundle.loadClass(name);
    }

    @Override
    public String unresolved() {
        return unresolved;
    }

    @Override
    public String file() {
        return file;
    }
}
