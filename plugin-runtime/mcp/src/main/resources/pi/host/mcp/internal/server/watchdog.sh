# pi-host MCP server watchdog (POSIX sh). Started as: sh -c THIS pi-mcp:<marker> HOST_PID SETSID CMD ARGS...
# by "setpriv --pdeathsig URG" where util-linux has it. It runs the server as the leader of a process group
# of its own and ends that whole group when
#   - it gets TERM/INT/HUP (the host removes or stops the server): TERM to the group, 2 s grace, then KILL;
#   - it gets URG and its parent is no longer the host (the host died, even by kill -9: the parent-death
#     signal). URG also comes when only the host thread that started it ended; then the parent is still
#     the host and nothing happens. URG does nothing by default, so one that comes before the trap below is
#     set cannot end the watchdog; the parent is looked at once after the trap, so a host that died before
#     it is not missed either;
#   - the server exits: what it left running in its group is killed, and the exit status is told to the
#     host as an MCP log notification on stdout whose logger is the marker ($0).
marker=$0
host=$1
setsid=$2
shift 2
sig=
trap 'sig=TERM' TERM INT HUP
trap 'sig=PARENT' URG
# whether the host is gone: our parent is no longer it (the parent-death signal only comes with /proc)
host_gone() {
  [ -r /proc/$$/stat ] || return 1
  read -r _ _ _ ppid _ < /proc/$$/stat
  [ "$ppid" != "$host" ]
}
if host_gone; then
  exit 137
fi
# an asynchronous command's stdin is /dev/null before its own redirections (POSIX, without job control):
# the server gets the pipe through fd 3, which it does not keep
exec 3<&0
if [ -n "$setsid" ]; then
  "$setsid" "$@" <&3 3<&- &
else
  "$@" <&3 3<&- &
fi
pid=$!
exec 3<&-
group() {
  kill "-$1" "-$pid" 2>/dev/null || kill "-$1" "$pid" 2>/dev/null
}
while :; do
  case $sig in
    TERM)
      group TERM
      i=0
      while [ "$i" -lt 20 ] && kill -0 "-$pid" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
      done
      group KILL
      exit 143
      ;;
    PARENT)
      sig=
      if host_gone; then
        group KILL
        exit 137
      fi
      ;;
  esac
  wait "$pid"
  status=$?
  if kill -0 "$pid" 2>/dev/null; then
    continue
  fi
  if [ -n "$sig" ]; then
    continue
  fi
  group KILL
  printf '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"%s","data":"%s"}}\n' \
    "$marker" "$status"
  # stay (at most 10 s) until the host closes the connection: the pipes end only after it has read this
  # and the server's last stderr lines (the SDK stops reading one stream when the other ends)
  sleep 10 &
  linger=$!
  trap 'kill "$linger" 2>/dev/null' TERM INT HUP URG
  wait "$linger"
  exit "$status"
done
