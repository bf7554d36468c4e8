package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Every component of the distribution that takes its references in its constructor has exactly one public
 * constructor of that arity: SCR takes the first of reflection's order, which is unspecified and changed
 * with a start-up archive (a second one-argument constructor of SettingsService was taken and the host's
 * settings component failed).
 */
class ComponentConstructorsIT {

    private static final Pattern INIT = Pattern.compile("<scr:component[^>]*\\binit=\"(\\d+)\"");
    private static final Pattern IMPLEMENTATION = Pattern.compile("<implementation class=\"([^\"]+)\"");

    /** Pins: no distribution component leaves SCR a choice between public constructors of its arity. */
    @Test
    void everyConstructorInjectedComponentHasOnePublicConstructorOfItsArity() throws Exception {
        Path bundles = HostProcess.launcherJar().resolveSibling("pi-host").resolve("bundle");
        List<String> ambiguous = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> jars = Files.list(bundles)) {
            for (Path jar : (Iterable<Path>) jars.filter(p -> p.getFileName().toString().startsWith("pi.host."))::iterator) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements();) {
                        JarEntry entry = e.nextElement();
                        if (!entry.getName().startsWith("OSGI-INF/") || !entry.getName().endsWith(".xml")) {
                            continue;
                        }
                        String xml;
                        try (InputStream in = file.getInputStream(entry)) {
                            xml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                        }
                        Matcher init = INIT.matcher(xml);
                        if (!init.find() || "0".equals(init.group(1))) {
                            continue; // bnd writes one component per descriptor
                        }
                        Matcher implementation = IMPLEMENTATION.matcher(xml);
                        assertThat(implementation.find()).as(entry.getName()).isTrue();
                        String impl = implementation.group(1);
                        int count = publicConstructors(file, impl, Integer.parseInt(init.group(1)));
                        checked++;
                        if (count != 1) {
                            ambiguous.add(jar.getFileName() + " " + impl + ": " + count + " public constructors of " + init.group(1));
                        }
                    }
                }
            }
        }
        assertThat(checked).as("constructor-injected components found").isGreaterThan(10);
        assertThat(ambiguous).isEmpty();
    }

    private static int publicConstructors(JarFile jar, String className, int arity) throws Exception {
        JarEntry entry = jar.getJarEntry(className.replace('.', '/') + ".class");
        assertThat(entry).as(className + " in " + jar.getName()).isNotNull();
        int[] count = {0};
        try (InputStream in = jar.getInputStream(entry)) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                        String[] exceptions) {
                    if ("<init>".equals(name) && (access & Opcodes.ACC_PUBLIC) != 0
                            && Type.getArgumentTypes(descriptor).length == arity) {
                        count[0]++;
                    }
                    return null;
                }
            }, ClassReader.SKIP_CODE);
        }
        return count[0];
    }
}
