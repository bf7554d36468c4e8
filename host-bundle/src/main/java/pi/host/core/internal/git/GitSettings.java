package pi.host.core.internal.git;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The configuration every host-run git command gets in the command scope ({@code GIT_CONFIG_COUNT},
 * above the repository's config, its includes and the user's files), so that nothing a repository
 * configures runs a program (docs/decisions.md, "The host's hardened git": the vectors, each tried
 * with git 2.39). The fixed part is the same for every command; the drivers part is derived from the
 * repository's own configuration listing ({@link #drivers}).
 */
final class GitSettings {

    /** One {@code key=value} of the command scope (a key may hold any character, the value too). */
    record Setting(String key, String value) {
    }

    /** What every run sets, whatever the repository says. */
    static final List<Setting> FIXED = List.of(
            new Setting("core.hooksPath", "/dev/null"), // no hook: post-checkout, the commit and merge hooks, ...
            new Setting("core.fsmonitor", "false"), // no fsmonitor program or hook
            new Setting("submodule.recurse", "false"), // no git inside a submodule, under its own config
            new Setting("diff.ignoreSubmodules", "all"),
            new Setting("status.submoduleSummary", "false"),
            new Setting("log.showSignature", "false"), // no gpg.program to check a signature
            new Setting("merge.verifySignatures", "false"),
            new Setting("commit.gpgSign", "false"), // nor to make one
            new Setting("tag.gpgSign", "false"),
            new Setting("gpg.program", ""), // and none to run if something still asked: "cannot run"
            new Setting("gpg.openpgp.program", ""),
            new Setting("gpg.x509.program", ""),
            new Setting("gpg.ssh.program", ""),
            new Setting("core.sshCommand", ""),
            new Setting("core.askPass", ""),
            new Setting("credential.helper", ""), // an empty value resets the list of helpers
            new Setting("protocol.allow", "never"), // with GIT_ALLOW_PROTOCOL=none: no transport at all
            new Setting("gc.auto", "0"), // commit and merge start no git gc / maintenance in the background
            new Setting("maintenance.auto", "false"),
            new Setting("rerere.enabled", "false"), // a merge's result is git's, not a recorded one
            new Setting("merge.renormalize", "false"),
            new Setting("safe.bareRepository", "explicit"),
            new Setting("worktree.guessRemote", "false"),
            new Setting("color.ui", "false"),
            new Setting("core.quotePath", "false"),
            new Setting("advice.detachedHead", "false"));

    /** The scopes git reports for the repository's own files (and what they include). */
    private static final Set<String> REPOSITORY_SCOPES = Set.of("local", "worktree");

    private GitSettings() {
    }

    /** One entry of {@code git config --list --show-scope --null}. */
    record Entry(String scope, String key, String value) {
    }

    /** The entries of a listing: NUL-separated pairs of a scope and {@code key\nvalue}. */
    static List<Entry> entries(List<String> nulSeparated) {
        List<Entry> out = new ArrayList<>(nulSeparated.size() / 2);
        for (int i = 0; i + 1 < nulSeparated.size(); i += 2) {
            String kv = nulSeparated.get(i + 1);
            int nl = kv.indexOf('\n');
            out.add(new Entry(nulSeparated.get(i), nl < 0 ? kv : kv.substring(0, nl), nl < 0 ? "" : kv.substring(nl + 1)));
        }
        return out;
    }

    /**
     * Settings that make the drivers named in the repository's configuration listing harmless:
     * <ul>
     *   <li>a filter driver with any key set by the repository (its {@code .git/config}, a
     *       {@code config.worktree}, or a file they include) gets an empty {@code clean}, {@code smudge}
     *       and {@code process} and {@code required=false}: checkout, add and merge run no program and
     *       do not fail without one. A driver defined only in the user's or the system's configuration
     *       (git-lfs) stays: that is the user's own setup, not the repository's;</li>
     *   <li>every merge driver, wherever defined, becomes git's own three-way file merge
     *       ({@code git merge-file}, which reads no attributes or drivers): an empty driver would make
     *       the merge fail, and attributes cannot be overridden from the command scope in git 2.39.</li>
     * </ul>
     *
     * @param listing the entries of {@code git config --list --show-scope --null}
     * @param git the absolute git executable, for the merge drivers' command
     */
    static List<Setting> drivers(List<Entry> listing, String git) {
        Set<String> filters = new LinkedHashSet<>();
        Set<String> merges = new LinkedHashSet<>();
        for (Entry e : listing) {
            String driver = subsection(e.key(), "filter.");
            if (driver != null && REPOSITORY_SCOPES.contains(e.scope())) {
                filters.add(driver);
            }
            driver = subsection(e.key(), "merge.");
            if (driver != null) {
                merges.add(driver);
            }
        }
        List<Setting> out = new ArrayList<>();
        for (String d : filters) {
            for (String name : List.of("clean", "smudge", "process")) {
                out.add(new Setting("filter." + d + "." + name, ""));
            }
            out.add(new Setting("filter." + d + ".required", "false"));
        }
        String fileMerge = quote(git) + " merge-file -L ours -L base -L theirs %A %O %B";
        for (String d : merges) {
            out.add(new Setting("merge." + d + ".driver", fileMerge));
            out.add(new Setting("merge." + d + ".recursive", "binary"));
        }
        return out;
    }

    /** The value of {@code key} in the listing (the last one wins, as in git), or null. */
    static String value(List<Entry> listing, String key) {
        String found = null;
        for (Entry e : listing) {
            if (e.key().equalsIgnoreCase(key)) {
                found = e.value();
            }
        }
        return found;
    }

    /**
     * The subsection of {@code section.<sub>.<name>} (case kept, dots allowed), or null when the key
     * is not in {@code section} or has no subsection.
     */
    private static String subsection(String key, String section) {
        int last = key.lastIndexOf('.');
        if (!key.regionMatches(true, 0, section, 0, section.length()) || last <= section.length()) {
            return null;
        }
        String name = key.substring(last + 1).toLowerCase(Locale.ROOT);
        return name.isEmpty() ? null : key.substring(section.length(), last);
    }

    /** Single-quoted for the shell git runs a merge driver with. */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
