# The JVM bin/pi-host starts the host with (sourced, not run): pi_host_jvm ASSEMBLY_DIR [COMMAND] sets
#   PI_HOST_JVM         the java command and its options, an array (the launcher's arguments follow it)
#   PI_HOST_JVM_CHOICE  one line saying what was chosen (the host reports it in host.info "runtime.choice")
# Which java: $PI_HOST_JAVA if set, else the newest of java on PATH, $JAVA_HOME and /usr/lib/jvm/* (17 or
# later). Its start-up archive (docs/performance-log.md, docs/security.md "The JVM's start-up archive"): an AOT
# cache on Java 25 and later, a dynamic AppCDS archive before; $PI_HOST_ARCHIVE=none turns it off. The
# archive lives beside the jars it describes (ASSEMBLY_DIR/jvm), so it has the same writer as the code: it
# is mapped only when it and its folders belong to the distribution's owner and nobody else may write them,
# and its name carries a key of everything it depends on (the java, the options, every jar), so a stale one
# is never asked for. A missing one is made once by a training start of the host on a throw-away data dir
# ($PI_HOST_TRAIN_READS: how many small Reads the Java 25 training makes, default 2000; part of the key).
# COMMAND (the launcher's first argument) picks the training: `mcp` has an archive of its own, trained
# through `pi-host mcp`, so its profiles and classes cover the MCP SDK's server, Reactor and the front;
# every other command shares the one trained through `serve --stdio`.

pi_host_jvm() {
  local assembly="$1" workload=serve
  [[ "${2:-}" == "mcp" ]] && workload=mcp
  local java feature home mode
  java="$(_pi_host_pick_java)" || return 1
  home="$(_pi_host_java_home "$java")"
  feature="$(_pi_host_feature "$home")"
  # the serial collector suits a single-client sidecar on a desktop: it starts faster and keeps less memory
  # resident (docs/performance-log.md)
  local opts=("@$assembly/jvm.options" -XX:+UseSerialGC)
  if ((feature >= 22)); then
    opts+=(--enable-native-access=ALL-UNNAMED) # JNA: without it Java 24+ warns on every start
  fi
  if ((feature >= 24)); then
    opts+=(--sun-misc-unsafe-memory-access=allow) # Felix 7 reads a field offset through sun.misc.Unsafe
  fi
  # a small initial heap: the serial collector sizes the young generation from it, and with the default
  # (1/64 of the RAM) the start touches ~100 MB of eden it never needs again (docs/performance-log.md, "Memory");
  # the heap still grows as a call needs it
  opts+=(-Xms16m)
  # the JIT compiles the calls' own code after fewer invocations: a user's session is a few hundred tool
  # calls, and with the default thresholds calls 1-2,000 ran mostly interpreted or in C1. Only the packages
  # a call runs through: halving the thresholds globally (as before) also queued the start's code (Felix,
  # XML, the JDK's class spinning) in front of the first calls and the first Grep and cost Java 25 idle
  # memory. A quarter on Java 17, whose AppCDS archive keeps no method profiles, half later (Java 25's AOT
  # cache brings the training's profiles). docs/performance-log.md, "branch j17cold". The value must be a
  # decimal: Java 25 rejects "1" there and does not start. quiet: else each command echoes on stdout, which
  # is the RPC stream.
  local factor=0.5 pattern
  ((feature == 17)) && factor=0.25
  opts+=(-XX:CompileCommand=quiet)
  # (the MCP SDK and Reactor: the calls through pi-host mcp and the bridge run on them)
  for pattern in 'pi.host.*' 'com.fasterxml.jackson.*' 'com.networknt.*' 'java.nio.*' 'sun.nio.*' 'org.sqlite.*' \
    'io.modelcontextprotocol.*' 'reactor.*'; do
    opts+=("-XX:CompileCommand=CompileThresholdScaling,$pattern::*,$factor")
  done
  # Reactor's subscribe and onSubscribe are not inlined: through them the MCP SDK assembles each request's chain of
  # operators, once per request, and C2 followed that chain 8-11 KB deep from each of several roots (InternalMonoOperator
  # and SinkOneMulticast subscribe, MonoInnerProducerBase complete: 0.15-0.25 s of C2 each on this machine, while the rest
  # of the call path waited in its queue). A real call there costs a few ns of a call's ~500 µs; each element's onNext is
  # left as it is. Not our own once-per-call methods: split out of the compilation that carried them, the AOT cache's
  # profiles (2,000 training calls) kept them in C1's code for 7,000-28,000 calls (docs/performance-log.md, "branch
  # `c2big12`").
  for pattern in 'reactor.core.publisher.*::subscribe' 'reactor.core.publisher.*::onSubscribe'; do
    opts+=("-XX:CompileCommand=dontinline,$pattern")
  done
  # pi-host mcp with its AOT cache (Java 25+): a method the training compiled with C2 starts at C1's level 2, and
  # JDK 25's policy sends it to C2 the next time its level-2 code asks, whatever its counts (compilationPolicy's
  # trained transition). That code asks every 2^Tier2InvokeNotifyFreqLog calls (11; 10 with the factor above)
  # and every 2^Tier2BackedgeNotifyFreqLog loop turns (14; 13): a call-path method with a short loop (the
  # pipeline's steps, Read's lines, Jackson's fields, Reactor's drain loop) turned 8,192 times before it was
  # called 1,024 times, so C2 compiled it twice, on-stack replacement first and then normally, large both,
  # and the rest at call 1,024: all of it over calls 1,000-3,000 (docs/performance-log.md, "branch `front9`"). Asked
  # after 256 calls and 32,768 loop turns, the trained call path gets its one normal C2 compilation before call
  # 1,000; a long loop in level-2 code still gets an OSR one, after 32,768 turns of compiled code.
  if ((feature >= 25)) && [[ "$workload" == "mcp" && "${PI_HOST_ARCHIVE:-auto}" != "none" ]]; then
    opts+=(-XX:Tier2InvokeNotifyFreqLog=9 -XX:Tier2BackedgeNotifyFreqLog=16)
  fi
  # give the C heap's freed memory back: the JIT's arenas peak near 40 MiB during the start; the JVM hands
  # them back to malloc within 5 s, and glibc keeps them resident until a trim (~15 MiB of idle RSS;
  # docs/performance-log.md, "Issue 19, third round"). Only where the option is known to exist: an unknown -XX
  # option stops the JVM.
  if _pi_host_has_native_trim "$home" "$feature"; then
    opts+=(-XX:TrimNativeHeapInterval=2000)
  fi
  # a ceiling on the JIT's memory for the start's code only: the compilations of the framework's manifest
  # parsing, SCR's XML and the JDK's lambda spinning take 10-30 MiB of arena each, the JVM pools what they
  # free for up to 5 s, so the idle host kept ~20 MiB of it (docs/performance-log.md, "branch idle-mem"). Above
  # the ceiling such a compilation stops and the method keeps its C1 code; the calls' own code (whose C2
  # compilations take up to 30 MiB too) has no ceiling. MemLimit exists from Java 22 on. Also the whole of
  # Felix's framework (its event dispatch and jar index compile to 4-6 MiB each while the bundles start), the
  # JDK's constant descriptors (lambda spinning, 5.5 MiB) and its locale table (9 MiB: the loop that lists
  # every locale for the first Calendar, Jackson's and SQLite's date formats): those finished after the
  # first answer, so what they pooled was still held at memory.sh's reading (docs/performance-log.md, idle4).
  # The pool is not emptied before its first cleaning at 5 s of uptime, and a quiet machine reads memory.sh's
  # idle at 4.5-5 s: what it holds then is the start's peak, one C2 and one C1 compilation at once, 8-9.6 MB
  # with a 4 MiB ceiling, 6-7 MB with 2.5. Felix's resolver and its copy of the OSGi filter are start code too
  # (the filter's match compiles to 3.3 MiB ~4 s after the first answer, as the last services register).
  # 2.5 MiB, not less: it stays above the largest C1 compilation of the start's code (Felix's filter parser,
  # 2.4 MiB), which would otherwise stay interpreted (docs/performance-log.md, idle12).
  if ((feature >= 22)); then
    for pattern in 'java.lang.invoke.*' 'jdk.internal.classfile.*' 'java.lang.classfile.*' 'jdk.internal.constant.*' \
      'org.apache.felix.framework.*' 'org.osgi.framework.*' 'org.apache.felix.resolver.*' 'org.apache.felix.scr.impl.xml.*' \
      'sun.util.locale.*'; do
      opts+=("-XX:CompileCommand=MemLimit,$pattern::*,2560k")
    done
  fi
  # shellcheck disable=SC2206 # word splitting of the user's options is intended
  opts+=(${PI_HOST_JAVA_OPTS:-})
  mode="none"
  if [[ "${PI_HOST_ARCHIVE:-auto}" != "none" ]]; then
    if ((feature >= 25)); then mode="aot"; else mode="cds"; fi
  fi
  PI_HOST_JVM_CHOICE="java $feature ($home)"
  if [[ "$mode" != "none" ]]; then
    local archive
    if archive="$(_pi_host_archive "$assembly" "$java" "$home" "$mode" "$workload" "${opts[@]}")"; then
      if [[ "$mode" == "aot" ]]; then opts+=("-XX:AOTCache=$archive"); else opts+=("-XX:SharedArchiveFile=$archive"); fi
      PI_HOST_JVM_CHOICE+=" with its $([[ $mode == aot ]] && echo "AOT cache" || echo "AppCDS archive") $archive"
    else
      PI_HOST_JVM_CHOICE+=" without a start-up archive"
    fi
  else
    PI_HOST_JVM_CHOICE+=" without a start-up archive"
  fi
  PI_HOST_JVM=("$java" "${opts[@]}" "-Dpi.host.jvm.choice=$PI_HOST_JVM_CHOICE")
}

_pi_host_java_home() {
  local real
  real="$(readlink -f "$1")"
  dirname "$(dirname "$real")"
}

# the feature release from the JDK's release file (no JVM started for it); 0 when unknown
_pi_host_feature() {
  local v
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1)"
  echo "${v:-0}"
}

# true when the JVM has -XX:TrimNativeHeapInterval as a product option: every release from 22 on, and the
# Java 17 updates from 17.0.15 (the one verified here; the backport came earlier, but not verified)
_pi_host_has_native_trim() {
  local home="$1" feature="$2" update
  ((feature >= 22)) && return 0
  ((feature == 17)) || return 1
  update="$(sed -n 's/^JAVA_VERSION="17\.0\.\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null | head -n 1)"
  [[ -n "$update" ]] && ((update >= 15))
}

_pi_host_pick_java() {
  if [[ -n "${PI_HOST_JAVA:-}" ]]; then
    command -v "$PI_HOST_JAVA" || { echo "pi-host: PI_HOST_JAVA=$PI_HOST_JAVA is no java" >&2; return 1; }
    return 0
  fi
  local best="" best_feature=0 candidate f
  local candidates=()
  candidate="$(command -v java 2>/dev/null || true)"
  [[ -n "$candidate" ]] && candidates+=("$candidate")
  [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && candidates+=("$JAVA_HOME/bin/java")
  for candidate in /usr/lib/jvm/*/bin/java; do
    [[ -x "$candidate" ]] && candidates+=("$candidate")
  done
  for candidate in "${candidates[@]}"; do
    f="$(_pi_host_feature "$(_pi_host_java_home "$candidate")")"
    if ((f > best_feature)); then
      best="$candidate"
      best_feature="$f"
    fi
  done
  if [[ -z "$best" ]]; then
    # a java without a release file (unusual): the one on PATH, whatever it is
    best="$(command -v java 2>/dev/null || true)"
  fi
  [[ -n "$best" ]] || { echo "pi-host: no java found (Java 17 or later)" >&2; return 1; }
  echo "$best"
}

# true when a file or folder belongs to uid $2 and neither group nor others may write it, and it is no link
_pi_host_owned() {
  [[ -e "$1" && ! -L "$1" ]] || return 1
  local uid mode
  read -r uid mode < <(stat -c '%u %a' "$1") || return 1
  [[ "$uid" == "$2" ]] && (((8#$mode & 8#022) == 0))
}

# Prints the archive to map (making it first when missing); fails when there is none to trust.
_pi_host_archive() {
  local assembly="$1" java="$2" home="$3" mode="$4" workload="$5"
  shift 5
  local opts=("$@")
  local launcher owner dir key file
  launcher="$(dirname "$assembly")/pi.host.launcher.jar"
  owner="$(stat -c '%u' "$launcher")" || return 1
  # the archive is the distribution's: only its owner makes one, and only its owner's is mapped
  _pi_host_owned "$assembly" "$owner" || return 1
  dir="$assembly/jvm"
  if [[ ! -d "$dir" ]]; then
    [[ "$(id -u)" == "$owner" ]] || return 1
    mkdir -m 0755 "$dir" 2>/dev/null || return 1
  fi
  _pi_host_owned "$dir" "$owner" || return 1
  # everything the archive depends on: the JVM, its options, every jar it may hold classes of, the training
  key="$( {
    echo "$mode $workload $java $home"
    cat "$home/release" 2>/dev/null
    stat -L -c '%n %s %Y' "$java" "$home/lib/modules" 2>/dev/null
    printf '%s\n' "${opts[@]}"
    cat "$assembly/jvm.options"
    stat -c '%n %s %Y' "$launcher" "$assembly"/lib/*.jar "$assembly"/bundle/*.jar "$assembly"/*.list
    # and what the training run calls (its profiles are in an AOT cache)
    declare -f _pi_host_train _pi_host_train_calls _pi_host_train_request _pi_host_train_serve _pi_host_train_mcp
    echo "${PI_HOST_TRAIN_READS:-}"
  } | sha256sum | cut -c1-16)"
  file="$dir/pi-host-$key.$mode"
  if [[ ! -e "$file" ]]; then
    # a training that failed for this key is not run again on every start (a minute each): its marker says so
    [[ -e "$file.failed" ]] && return 1
    [[ "$(id -u)" == "$owner" ]] || return 1
    _pi_host_train "$assembly" "$java" "$mode" "$workload" "$file" "${opts[@]}" || return 1
  fi
  _pi_host_owned "$file" "$owner" && [[ -f "$file" ]] || return 1
  echo "$file"
}

# One training start of the host on a throw-away data dir, whose classes (and on Java 25, whose linking
# and profiles) the archive keeps: the first answer, a session, and the first calls of the file tools.
# Written below a private temp folder inside the archive folder and moved into place, so no half-written
# archive is ever mapped and nothing else can write it while it is made; only the newest few are kept.
_pi_host_train() {
  local assembly="$1" java="$2" mode="$3" workload="$4" file="$5"
  shift 5
  local opts=("$@")
  local launcher tmp flag
  launcher="$(dirname "$assembly")/pi.host.launcher.jar"
  tmp="$(mktemp -d "$(dirname "$file")/.training.XXXXXX")" || return 1
  if [[ "$mode" == "aot" ]]; then flag="-XX:AOTCacheOutput=$tmp/archive"; else flag="-XX:ArchiveClassesAtExit=$tmp/archive"; fi
  # The training host's own options (one on Java 25, two with AppCDS); none is part of the key, nor checked when the
  # archive is mapped.
  # -XX:-ClassUnloading: the archive is written at the JVM's exit, after the framework has stopped its bundles, and a
  # class whose loader a collection has freed by then is not archived. Under load, a full collection (metadata
  # threshold) fell inside the stop: Java 17's serve archive lost every class of the bundles stopped first (mcp,
  # plugins, console, jev: 29), trained quiet it kept them (docs/performance-log.md, train17). With unloading
  # off the archive holds every class the training loaded, however busy the machine. Only for AppCDS: Java 25's
  # AOT cache kept those classes under load without it (432 of 432), and trained with it a fresh host's first Grep
  # was 15-18 ms slower in 5 of 5 quiet pairs (content and files mode; not examined further; docs/performance-log.md,
  # the fifteenth window).
  # pi.host.training: at its stop the host first lets its after-answer work finish (the warm-ups and quiet work
  # wait for the calls to pause, the login-PATH probe among them), bounded (HostLifecycle), so the archive holds
  # what that work loads too: the end is a condition, not a pause of fixed length.
  local training=(-Dpi.host.training=true)
  [[ "$mode" == "cds" ]] && training+=(-XX:-ClassUnloading)
  echo "pi-host: preparing the JVM's start-up archive (once for this java and build) ..." >&2
  mkdir -m 0700 "$tmp/data" "$tmp/work"
  printf 'line 1\nline 2 TODO\n' >"$tmp/work/a.txt"
  # a larger file too, for a Read of many lines and a Grep that shows lines in a long file. One line in
  # a hundred matches: Java 25 replays the training's profiles, and a Grep whose rg output ran to ~400 KB
  # over the training made Rg.run's read loop (and its record parser) C2-hot there, so a fresh host's
  # first Grep had C2 compile them at once, 50-270 ms of compiler time inside rg's window, for a call
  # whose own loop (61 KB of rg output on the JDK's sources) is over before the code is ready
  # (docs/performance-log.md, branch grep16). With ~9 KB over the training they tier up as untrained.
  seq -f 'line %g of a longer file' 1 3000 | awk '{ print $0 (NR % 100 == 0 ? "; TODO" : "") }' >"$tmp/work/long.txt"
  # Java 25's cache keeps the training's method profiles (JEP 515): enough small Reads that C2 compiles
  # the call path here, so a fresh host starts from mature profiles (with the training's calls running, the
  # first 200 Reads 0.73x the peer against 0.93-0.96x and calls 1-2,000 0.48x against 0.58x;
  # docs/performance-log.md, the thirteenth window). AppCDS keeps classes only.
  local small_reads=60
  if [[ "$mode" == "aot" ]]; then
    small_reads=${PI_HOST_TRAIN_READS:-2000}
    [[ "$small_reads" =~ ^[0-9]{1,6}$ ]] || small_reads=2000
  fi
  (
    if [[ "$workload" == "mcp" ]]; then
      coproc HOST { exec "$java" "${opts[@]}" "${training[@]}" "$flag" -jar "$launcher" mcp --workspace "$tmp/work" --permission-mode auto --data-dir "$tmp/data" 2>/dev/null; }
      _pi_host_train_mcp "$small_reads"
    else
      coproc HOST { exec "$java" "${opts[@]}" "${training[@]}" "$flag" -jar "$launcher" serve --stdio --data-dir "$tmp/data" 2>/dev/null; }
      _pi_host_train_serve "$small_reads" "$tmp/work"
    fi
    trained=$?
    # end of input: the host waits for its after-answer work (pi.host.training), stops, and the JVM writes the archive
    exec {HOST[1]}>&-
    wait "$HOST_PID"
    exit "$trained"
  ) </dev/null >/dev/null 2>&1
  local trained=$? made=1
  # the JVM writes an archive at its exit even when a call failed; one of a failed training is not kept
  if ((trained == 0)) && [[ -s "$tmp/archive" ]]; then
    chmod 0444 "$tmp/archive" && mv -f "$tmp/archive" "$file" && made=0
  fi
  rm -rf "$tmp"
  if ((made == 0)); then
    # keep the newest few (another java, other options, the other training), remove older ones
    ls -1t "$(dirname "$file")"/pi-host-* 2>/dev/null | tail -n +7 | while IFS= read -r old; do rm -f "$old"; done
  else
    : >"$file.failed"
    echo "pi-host: could not prepare the start-up archive; starting without it (not tried again for this java and build: $file.failed)" >&2
  fi
  return $made
}

# The calls every training makes (the JSON-RPC name and arguments of each): the small Read many times (the
# first few hundred calls of a session are mostly such reads), each of the others three times.
_pi_host_train_calls() {
  local small_reads="$1" call reps k
  for call in '"Read","arguments":{"path":"a.txt"}' '"Grep","arguments":{"pattern":"TODO"}' \
    '"Read","arguments":{"path":"long.txt"}' '"Grep","arguments":{"pattern":"TODO","path":"long.txt"}' \
    '"Grep","arguments":{"pattern":"TODO","outputMode":"files"}' \
    '"Glob","arguments":{"pattern":"*.txt"}' '"Write","arguments":{"path":"b.txt","content":"x\n"}'; do
    reps=3
    [[ "$call" == *'"a.txt"'* ]] && reps=$small_reads
    for ((k = 0; k < reps; k++)); do printf '%s\n' "$call"; done
  done
}

# Sends one request line to the training host and reads lines (skipping notifications) until its answer,
# which it leaves in _pi_host_answer (a variable, not output: a command substitution or a pipeline would run
# this in a subshell, and bash closes a coproc's descriptors there).
_pi_host_train_request() {
  local id="$1" line
  _pi_host_answer=
  printf '%s\n' "$2" >&"${HOST[1]}" || return 1
  while IFS= read -r -t 120 line <&"${HOST[0]}"; do
    if [[ "$line" == *'"id":'$id',"result"'* || "$line" == *'"id":'$id',"error"'* ||
      "$line" == *'"id":'$id',"jsonrpc"'* ]]; then
      _pi_host_answer="$line"
      return 0
    fi
  done
  return 1
}

# serve --stdio: the first answer, a session in auto mode, the calls as tools.execute. Every call must
# succeed: an archive trained on refusals holds none of the call path (until grep15 found it, piping the
# session's answer into sed left the id empty and all 2,000 Reads answered SESSION_NOT_FOUND;
# docs/performance-log.md), so a failed call fails the training and no archive is kept.
_pi_host_train_serve() {
  local small_reads="$1" work="$2" sid n=2 call
  _pi_host_train_request 1 '{"jsonrpc":"2.0","id":1,"method":"host.info"}' || return 1
  _pi_host_train_request 2 '{"jsonrpc":"2.0","id":2,"method":"session.create","params":{"projectRoot":"'"$work"'","permissionMode":"auto"}}' ||
    return 1
  [[ "$_pi_host_answer" == *'"sessionId":"'* ]] || return 1
  sid="${_pi_host_answer#*\"sessionId\":\"}"
  sid="${sid%%\"*}"
  [[ -n "$sid" ]] || return 1
  while IFS= read -r call; do
    n=$((n + 1))
    _pi_host_train_request $n '{"jsonrpc":"2.0","id":'$n',"method":"tools.execute","params":{"sessionId":"'"$sid"'","turnId":"t","toolCallId":"c'$n'","name":'"$call"'}}' ||
      return 1
    [[ "$_pi_host_answer" == *'"result":{"ok":true'* ]] || return 1
  done < <(_pi_host_train_calls "$small_reads")
}

# pi-host mcp (on its workspace, auto mode): a client's initialize and tools/list, the calls as tools/call.
_pi_host_train_mcp() {
  local small_reads="$1" n=2 call
  _pi_host_train_request 1 '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pi-host-training","version":"1"}}}' || return 1
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&"${HOST[1]}"
  _pi_host_train_request 2 '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' || return 1
  while IFS= read -r call; do
    n=$((n + 1))
    _pi_host_train_request $n '{"jsonrpc":"2.0","id":'$n',"method":"tools/call","params":{"name":'"$call"'}}' || return 1
    [[ "$_pi_host_answer" == *'"result":{'* && "$_pi_host_answer" != *'"isError":true'* ]] || return 1
  done < <(_pi_host_train_calls "$small_reads")
}
