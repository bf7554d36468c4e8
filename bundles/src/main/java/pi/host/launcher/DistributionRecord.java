package pi.host.launcher;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The launcher's record of the distribution: the location of every bundle it installs from
 * {@code bundles.list}, handed to the framework as the property {@value #PROPERTY} before any bundle
 * is installed. The host trusts a bundle as one of its own only when its location is in this record
 * (never by its symbolic name or a service property). Framework properties are fixed when the
 * framework is created, Felix keeps one bundle per location, and a drop-in's location is its file in
 * {@code <data_dir>/plugins}: so nothing in a jar can put itself on the record.
 *
 * <p>Public for the in-container tests, which install the same bundle set without the launcher and
 * declare it with the same record.
 */
public final class DistributionRecord {

    /** The framework property holding the record (read by the host's {@code BundleOrigin}). */
    public static final String PROPERTY = "pi.host.distribution";

    private DistributionRecord() {
    }

    /** The location the launcher installs {@code jar} from. */
    public static String location(Path jar) {
        return jar.toUri().toString();
    }

    /** The record of these jars: their locations, separated by spaces (a file URI has none of its own). */
    public static String of(List<Path> jars) {
        return jars.stream().map(DistributionRecord::location).collect(Collectors.joining(" "));
    }
}
