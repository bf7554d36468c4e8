package org.example.gitinfo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The environment and configuration this plugin runs git with: nothing a repository (or the host's
 * environment) configures gets to run a program, and git looks at no repository but the one at the
 * workspace root. Each setting was tried with git 2.39 against a repository that would run a
 * program without it (docs/decisions.md, "git-info's hardened git"; the tests show each).
 */
final class GitEnvironment {

    /** A configuration entry git gets from the command scope, above every file (repository, include, global). */
    record Setting(String key, String value) {
    }

    /** What every run sets, whatever the repository says. */
    static final List<Setting> FIXED = List.of(
            new Setting("core.hooksPath", "/dev/null"), // no hook runs: post-index-change, the commit hooks, ...
            new Setting("core.fsmonitor", "false"), // no fsmonitor program or hook
            new Setting("diff.ignoreSubmodules", "all"), // no git runs inside a submodule, under its own config
            new Setting("submodule.recurse", "false"),
            new Setting("status.submoduleSummary", "false"),
            new Setting("log.showSignature", "false"), // no gpg.program to check a signature
            new Setting("commit.gpgSign", "false"), // nor to make one
            new Setting("gpg.program", ""), // and none to run if something still asked: "cannot run"
            new Setting("gpg.openpgp.program", ""),
            new Setting("gpg.x509.program", ""),
            new Setting("gpg.ssh.program", ""),
            new Setting("gc.auto", "0"), // commit starts no git gc / git maintenance in the background
            new Setting("maintenance.auto", "false"),
            new Setting("safe.bareRepository", "explicit"), // a bare repository as the workspace is refused
            new Setting("color.ui", "false"),
            new Setting("core.quotePath", "false"));

    private GitEnvironment() {
    }

    /**
     * The variables git starts with: the host's, without any {@code GIT_*} variable (every one of
     * {@code git rev-parse --local-env-vars} moves the repository, its index, objects or config;
     * others name programs: {@code GIT_EXTERNAL_DIFF}, {@code GIT_PAGER}, {@code GIT_SSH_COMMAND},
     * {@code GIT_ASKPASS}, {@code GIT_EXEC_PATH}; {@code GIT_TRACE*} write files) and without
     * {@code PAGER}; then the plugin's own, and {@code settings} as {@code GIT_CONFIG_COUNT},
     * {@code GIT_CONFIG_KEY_n}, {@code GIT_CONFIG_VALUE_n} (no quoting: a key may hold any character).
     */
    static Map<String, String> of(Map<String, String> inherited, Path root, List<Setting> settings) {
        Map<String, String> env = new LinkedHashMap<>();
        inherited.forEach((k, v) -> {
            String name = k.toUpperCase(Locale.ROOT);
            if (!name.startsWith("GIT_") && !name.equals("PAGER")) {
                env.put(k, v);
            }
        });
        if (root.getParent() != null) {
            // the workspace itself must be the repository: git may not look for one in the folders above it
            env.put("GIT_CEILING_DIRECTORIES", root.getParent().toString());
        }
        env.put("GIT_TERMINAL_PROMPT", "0"); // never wait for a password
        env.put("GIT_EDITOR", ":"); // git runs no editor at all for ":"
        env.put("GIT_OPTIONAL_LOCKS", "0"); // a status must not take the index lock from the user's own git
        // no transport: a partial clone's lazy fetch would run ssh (core.sshCommand) or a remote helper,
        // and unlike protocol.allow=never this beats a repository's protocol.<name>.allow=always
        env.put("GIT_ALLOW_PROTOCOL", "none");
        env.put("GIT_CONFIG_COUNT", Integer.toString(settings.size()));
        for (int i = 0; i < settings.size(); i++) {
            env.put("GIT_CONFIG_KEY_" + i, settings.get(i).key());
            env.put("GIT_CONFIG_VALUE_" + i, settings.get(i).value());
        }
        return env;
    }

    /**
     * Settings that switch off every filter driver {@code git config --null --list} names (from the
     * repository, an included file, the user's or the system's config): an empty {@code clean},
     * {@code smudge} and {@code process} run nothing, and {@code required=false} keeps git from
     * failing without them. Attributes may name any driver, so each one configured is switched off.
     */
    static List<Setting> withoutFilters(String configList) {
        List<Setting> settings = new ArrayList<>();
        List<String> drivers = new ArrayList<>();
        for (String entry : configList.split("\0")) {
            String key = entry.split("\n", 2)[0];
            int last = key.lastIndexOf('.');
            // filter.<driver>.<name>, where the driver (a subsection) keeps its case and may hold dots
            if (key.regionMatches(true, 0, "filter.", 0, 7) && last > 7) {
                String driver = key.substring(7, last);
                if (!drivers.contains(driver)) {
                    drivers.add(driver);
                }
            }
        }
        for (String driver : drivers) {
            for (String name : List.of("clean", "smudge", "process")) {
                settings.add(new Setting("filter." + driver + "." + name, ""));
            }
            settings.add(new Setting("filter." + driver + ".required", "false"));
        }
        return settings;
    }
}
