#!/bin/bash
# The attacker of ControlChannelIT: a command the host runs (as the host's own user) that tries every
# way it knows into process $1, the way a hostile Bash command or background task would.
#   $1  the target's pid
#   $2  a file of JSON-RPC lines to write into the target's stdin (requests the client never sent)
#   $3  a file with one line to write onto the target's stdout (a notification the host never sent)
# Prints one line per vector: "<vector> reached [what]" or "<vector> refused <why>".
P=$1
INJECT=$2
FORGE=$3
BOUND=5

try() { # try <vector> <command...>: reached when the command succeeds within the bound
  local vector=$1; shift
  local out
  if out=$(timeout "$BOUND" "$@" 2>&1); then
    echo "$vector reached ${out:0:60}"
  else
    echo "$vector refused $(tr '\n' ' ' <<< "${out:0:120}")"
  fi
}

# the RPC channel through the /proc links of the target's descriptors
try write-stdin bash -c 'cat "$1" > "/proc/$2/fd/0"' _ "$INJECT" "$P"
try write-stdout bash -c 'cat "$1" > "/proc/$2/fd/1"' _ "$FORGE" "$P"
try read-stdin bash -c 'exec 3< "/proc/$1/fd/0" && echo opened' _ "$P"
try read-stdout bash -c 'exec 3< "/proc/$1/fd/1" && echo opened' _ "$P"
try thread-stdin bash -c 'exec 3< "/proc/$1/task/$1/fd/0" && echo opened' _ "$P"
try list-fds ls "/proc/$P/fd"
try cwd ls "/proc/$P/cwd/"
# the target's memory and what the kernel shows of it
try environ bash -o pipefail -c 'head -c 32 "/proc/$1/environ" | tr "\0" " "' _ "$P"
try maps head -c 32 "/proc/$P/maps"
try mem perl -e '
  my ($pid) = @ARGV;
  open(my $mem, "<", "/proc/$pid/mem") or die "open: $!\n";
  open(my $maps, "<", "/proc/$pid/maps") or die "maps: $!\n";
  my ($start) = (<$maps> =~ /^([0-9a-f]+)-/);
  sysseek($mem, hex($start), 0) or die "seek: $!\n";
  sysread($mem, my $bytes, 8) == 8 or die "read: $!\n";
  print "8 bytes at $start\n";' "$P"
# ptrace and a copy of the target's stdout descriptor (x86_64 and aarch64 numbers)
case "$(uname -m)" in aarch64) PTRACE=117 ;; *) PTRACE=101 ;; esac
try ptrace perl -e '
  my ($nr, $pid) = @ARGV;
  syscall($nr, 0x4206, $pid + 0, 0, 0) == 0 or die "PTRACE_SEIZE: $!\n";  # released when perl exits
  print "seized\n";' "$PTRACE" "$P"
try pidfd-getfd perl -e '
  my ($pid, $forge) = @ARGV;
  my $pidfd = syscall(434, $pid + 0, 0);           # pidfd_open
  $pidfd >= 0 or die "pidfd_open: $!\n";
  my $fd = syscall(438, $pidfd, 1, 0);              # pidfd_getfd: the target s fd 1
  $fd >= 0 or die "pidfd_getfd: $!\n";
  open(my $out, ">&=", $fd) or die "fdopen: $!\n";
  open(my $line, "<", $forge) or die "$forge: $!\n";
  my $text = <$line>; $text =~ s/permission.request/forged.viaPidfd/;
  syswrite($out, $text);
  print "copied fd 1\n";' "$P" "$FORGE"
# the JVM's attach listener: a trigger file and SIGQUIT start it, then it serves any process of the user
attach() {
  local pid=$1 socket=/tmp/.java_pid$1
  touch "/tmp/.attach_pid$pid"
  kill -QUIT "$pid" || return 1
  for _ in $(seq 1 40); do [ -S "$socket" ] && break; sleep 0.1; done
  rm -f "/tmp/.attach_pid$pid"
  [ -S "$socket" ] || { echo "no attach socket after SIGQUIT"; return 1; }
  perl -MIO::Socket::UNIX -e '
    my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\n";
    print $s "1\0properties\0\0\0\0";
    local $/; my $reply = <$s>;
    $reply =~ /^0\n.*java\.version=/s or die "reply: " . substr($reply, 0, 40) . "\n";
    print "properties read\n";' "$socket"
}
export -f attach
try attach bash -c 'attach "$1"' _ "$P"
# a thread dump on request: the JVM writes it where its VM output goes (the client sees what comes of it)
try sigquit kill -QUIT "$P"
