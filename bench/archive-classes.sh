#!/usr/bin/env bash
# What bin/pi-host's start-up archives hold: the classes each archive keeps, counted by the jar they come from
# (pi-host's own bundles one by one, the other jars together), for the archive bin/pi-host maps for a workload
# (serve, mcp) on a java (its own choice, or $PI_HOST_JAVA). The JVM lists an archive's classes itself
# (-XX:+PrintSharedArchiveAndExit, Java 17's AppCDS archive and Java 25's AOT cache alike); a missing archive
# is made first, as bin/pi-host would (one training start). The check of a training that ends on a condition,
# not a time: an archive trained under load should hold the same bundles' classes as one trained quiet.
#
#   bench/archive-classes.sh [--root DIR] [--workload serve|mcp|both] [--list] [--archive FILE]
#     --root      the checkout (or a copy of its bin/ and bundles/target/) whose bin/pi-host is asked (default this one)
#     --workload  which training's archive (default both)
#     --list      also print the pi.host classes, one a line (to diff two archives)
#     --archive   count FILE instead of the one bin/pi-host would map (same java, options and workload)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
workloads=(serve mcp)
list=0
archive_override=""
while (($#)); do
  case "$1" in
    --workload)
      case "${2:-}" in serve | mcp) workloads=("$2") ;; both) workloads=(serve mcp) ;; *) echo "--workload serve|mcp|both" >&2; exit 2 ;; esac
      shift 2 ;;
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --list) list=1; shift ;;
    --archive) archive_override="$2"; shift 2 ;;
    -h | --help) sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (--help)" >&2; exit 2 ;;
  esac
done

"$root/bin/build-if-stale" >&2
dist="$root/bundles/target/pi-host"
launcher="$root/bundles/target/pi.host.launcher.jar"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# class name -> jar, from the jars' own listings (a class in no jar: the JDK's, or generated at run time)
for jar in "$launcher" "$dist"/lib/*.jar "$dist"/bundle/*.jar; do
  unzip -Z1 "$jar" '*.class' 2>/dev/null | sed -e 's/\.class$//' -e 's#/#.#g' -e "s#\$# $(basename "$jar" .jar)#"
done >"$tmp/jars"

for workload in "${workloads[@]}"; do
  args=(serve --stdio)
  [[ "$workload" == mcp ]] && args=(mcp)
  mapfile -t cmd < <(PI_HOST_PRINT_COMMAND=1 "$root/bin/pi-host" "${args[@]}")
  # the JVM and its options: everything before -jar
  jvm=()
  archive=""
  for a in "${cmd[@]}"; do
    [[ "$a" == -jar ]] && break
    case "$a" in
      -XX:SharedArchiveFile=* | -XX:AOTCache=*)
        [[ -n "$archive_override" ]] && a="${a%%=*}=$archive_override"
        archive="${a#*=}" ;;
    esac
    jvm+=("$a")
  done
  if [[ -z "$archive" ]]; then
    echo "$workload: ${jvm[0]}: no start-up archive (PI_HOST_ARCHIVE=none, or its training failed)"
    continue
  fi
  "${jvm[@]}" -XX:+PrintSharedArchiveAndExit -jar "$launcher" >"$tmp/print" 2>&1 || true
  grep -q '^archive is valid' "$tmp/print" || { echo "$workload: $archive: the JVM does not map it:"; tail -n 5 "$tmp/print"; continue; }
  # the dictionaries' lines "  N: class.Name loader" (Java 25 also lists training data, not counted)
  awk '/^Shared (Builtin|Unregistered|Lambda) Dictionary/ { on = 1; next }
       /^[A-Z]/ { on = 0 }
       on && $1 ~ /^[0-9]+:$/ && NF == 3 && $3 ~ /_loader$/ { print $2 }' "$tmp/print" | sort -u >"$tmp/classes"
  awk 'NR == FNR { jar[$1] = $2; next } { print $1, ($1 in jar ? jar[$1] : "-") }' "$tmp/jars" "$tmp/classes" >"$tmp/by-jar"
  total=$(wc -l <"$tmp/classes")
  own=$(awk '$2 ~ /^pi\.host\./' "$tmp/by-jar" | wc -l)
  launcher_n=$(awk '$2 == "pi.host.launcher"' "$tmp/by-jar" | wc -l)
  printf '%s: %s (%s MB, made %s)\n' "$workload" "$archive" "$(($(stat -c %s "$archive") / 1000000))" "$(date -u -r "$archive" '+%H:%M:%S UTC')"
  printf '  classes %d; from pi-host'"'"'s jars %d (bundles %d, launcher %d)\n' "$total" "$own" "$((own - launcher_n))" "$launcher_n"
  # (pi.host.X's jar is bundle X; its classes may be in other packages)
  awk '$2 ~ /^pi\.host\./ && $2 != "pi.host.launcher" { n[substr($2, 9)]++ } END { for (b in n) print b, n[b] }' "$tmp/by-jar" |
    sort | awk '{ s = s (s ? ", " : "") $1 " " $2 } END { print "  by bundle: " s }'
  printf '  other jars %d, JDK or generated %d\n' "$(awk '$2 != "-" && $2 !~ /^pi\.host\./' "$tmp/by-jar" | wc -l)" \
    "$(awk '$2 == "-"' "$tmp/by-jar" | wc -l)"
  if ((list)); then
    awk '$1 ~ /^pi\.host\./ { print "  " $1 }' "$tmp/by-jar"
  fi
done
