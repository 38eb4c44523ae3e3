/**
 * The process launcher's program (src/process/launcher.ts runs it with `perl -e`). Perl because it
 * is on nearly every Unix (Debian's perl-base is essential) and starts in about a millisecond
 * without modules; the script uses only built-ins, so no module path is ever searched.
 *
 * Requests on stdin, a header line each:
 *   S id n           start a program; n bytes follow: file, cwd, descriptors, argc, arg…, env…
 *                    joined by NUL, which no argument or variable can hold. The program (argv[0] =
 *                    file) starts in `cwd`, leading a new process group, stdin /dev/null, with 2
 *                    or 3 output pipes.
 *   H id fd / G id fd                           stop / go on reading that pipe (flow control)
 * Reports, one header line each on stdout:
 *   P id pid       started (pid = process group)       F id errno   could not start
 *   D id fd n      n bytes of output follow            C id fd      that pipe reached its end
 *   X id code sig  ended, once all its pipes ended (code -1 when killed by signal sig)
 * At the end of stdin (agentwire has exited, however it exited) every process group it started that
 * still has members, every other process in its session and every descendant in another PID
 * namespace gets SIGTERM, then SIGKILL a second later, as the shell watcher does for its groups
 * (process-supervisor.ts).
 *
 * It names itself for ps and top ($0); the script would otherwise fill their command column.
 * Every module costs start-up time, so it loads none, not even strict (0.3 ms; a test compiles it
 * under strict instead). Measured from start to exit on an idle machine: 3.2 ms, against 6.2 ms
 * when it named EINTR `$!{EINTR}` (which loads Errno, Exporter and warnings) and used strict.
 * @ARGV starts with EINTR's number; then, when given, setsid's and prctl's system call numbers on
 * this platform and SIGCONT's number: the launcher then opens its session itself, after Node's
 * spawn has returned (see launcher.ts), and exits if that failed; and it asks for SIGCONT when
 * agentwire dies (PR_SET_PDEATHSIG): a command can stop its parent, the launcher (`kill -STOP
 * $PPID`), and a stopped launcher would never read the end of its input, so agentwire's death
 * wakes it. It also becomes its commands' subreaper (PR_SET_CHILD_SUBREAPER, 36): what they leave
 * behind when their parent ends (bwrap's namespace, should bwrap be killed while it starts)
 * becomes the launcher's child, not init's, and so stays a descendant it can find at the end. It
 * does all this in a BEGIN block, before Perl compiles the rest, so that compiling runs in the new
 * session.
 *
 * The child closes the launcher's own descriptors (all close-on-exec: Perl marks every descriptor
 * above $^F = 2 so), puts back the signals the launcher ignores, and reports a failed chdir or exec
 * through a close-on-exec pipe, as libuv does. Reports are written once per wake-up, together, and
 * a start is told with the command's first other report or 5 ms later, whichever comes first: a
 * quick command's start, output and end then reach agentwire in one write (on a busy machine each
 * of agentwire's wake-ups waits for a turn). Writes to agentwire block while its pipe is full
 * (libuv hands a child blocking descriptors), which holds every command's output until agentwire
 * reads on.
 */
export const LAUNCHER_SCRIPT = String.raw`
our $EINTR;
BEGIN { $EINTR = shift(@ARGV) + 0; if (@ARGV == 3) { syscall($ARGV[0] + 0); exit 1 unless getpgrp() == $$; syscall($ARGV[1] + 0, 1, $ARGV[2] + 0); syscall($ARGV[1] + 0, 36, 1); } }
$0 = 'agentwire process launcher';
$SIG{$_} = 'IGNORE' for qw(PIPE HUP INT TERM);
pipe(my $wake_r, my $wake_w) or exit 1;
$SIG{CHLD} = sub { syswrite($wake_w, 'c') };
my (%jobs, %by_pid, %readers, %held, %groups);
my ($in, $out, $started) = ('', '', '');
sub out { $out .= shift; }
sub flush {
  return unless length $out;
  $out = $started . $out;
  $started = '';
  while (length $out) {
    my $n = syswrite(STDOUT, $out);
    if (!defined $n) { next if $! == $EINTR; $out = ''; return; }
    substr($out, 0, $n, '');
  }
}
sub start {
  my ($id, $file, $cwd, $count, $argc, @rest) = @_;
  my @args = splice(@rest, 0, $argc);
  my (@r, @w);
  for (1 .. $count) {
    pipe(my $r, my $w) or return out("F $id " . ($! + 0) . "\n");
    push @r, $r; push @w, $w;
  }
  pipe(my $er, my $ew) or return out("F $id " . ($! + 0) . "\n");
  my $pid = fork;
  return out("F $id " . ($! + 0) . "\n") unless defined $pid;
  if ($pid == 0) {
    $SIG{$_} = 'DEFAULT' for qw(PIPE HUP INT TERM CHLD);
    close $wake_r; close $wake_w;
    setpgrp(0, 0);
    my $fail = sub { syswrite($ew, pack('N', $! + 0)); exit 127; };
    open(STDIN, '<', '/dev/null') or $fail->();
    open(STDOUT, '>&', $w[0]) or $fail->();
    open(STDERR, '>&', $w[1]) or $fail->();
    # Kept in scope up to the exec: a handle that goes out of scope closes its descriptor.
    my $three;
    if ($count > 2) {
      $^F = 3;
      open($three, '>&', $w[2]) or $fail->();
      if (fileno($three) != 3) { $! = 9; $fail->(); }
    }
    chdir($cwd) or $fail->();
    %ENV = map { split(/=/, $_, 2) } @rest;
    exec { $file } $file, @args;
    $fail->();
  }
  close $_ for @w, $ew;
  my $errno = '';
  my $got;
  do { $got = sysread($er, $errno, 4); } while (!defined $got && $! == $EINTR);
  close $er;
  if ($got) {
    waitpid($pid, 0);
    close $_ for @r;
    return out("F $id " . unpack('N', $errno) . "\n");
  }
  $groups{$pid} = 1;
  $by_pid{$pid} = $id;
  $jobs{$id} = { open => $count };
  $readers{fileno $r[$_]} = [$id, $_ + 1, $r[$_]] for 0 .. $#r;
  $started .= "P $id $pid\n";
}
sub finish {
  my $id = shift;
  my $job = $jobs{$id};
  return unless defined $job->{status} && $job->{open} == 0;
  out("X $id $job->{status}\n");
  delete $jobs{$id};
}
sub reap {
  my $reaped = 0;
  while ((my $pid = waitpid(-1, 1)) > 0) {
    $reaped = 1;
    my $status = $?;
    my $id = delete $by_pid{$pid};
    next unless defined $id;
    $jobs{$id}{status} = ($status & 127) ? '-1 ' . ($status & 127) : ($status >> 8) . ' 0';
    finish($id);
  }
  # A group is forgotten once empty, so its number, free for reuse, is never signalled. Its last
  # member is most often the launcher's child (orphans come here): its end is a wake-up here.
  delete @groups{grep { !kill(0, -$_) } keys %groups} if $reaped;
}
sub requests {
  while ((my $end = index($in, "\n")) >= 0) {
    my ($kind, $id, $arg) = split / /, substr($in, 0, $end);
    if ($kind eq 'S') {
      return if length($in) < $end + 1 + $arg;
      my $fields = substr($in, $end + 1, $arg);
      substr($in, 0, $end + 1 + $arg, '');
      start($id, split(/\0/, $fields, -1));
      next;
    }
    substr($in, 0, $end + 1, '');
    my $reader = (grep { $_->[0] eq $id && $_->[1] == $arg } values %readers)[0] or next;
    if ($kind eq 'H') { $held{fileno $reader->[2]} = 1; } else { delete $held{fileno $reader->[2]}; }
  }
}
while (1) {
  flush();
  my $rin = '';
  vec($rin, fileno($wake_r), 1) = 1;
  vec($rin, 0, 1) = 1;
  vec($rin, $_, 1) = 1 for grep { !$held{$_} } keys %readers;
  # A SIGCHLD that lands just before select sleeps is seen at the next wake-up only: while a
  # command has closed its pipes but not been reaped, look again every 50 ms.
  my $reaping = grep { $_->{open} == 0 && !defined $_->{status} } values %jobs;
  my $ready = select(my $rout = $rin, undef, undef, length $started ? 0.005 : $reaping ? 0.05 : undef);
  reap();
  if ($ready == 0) { ($out, $started) = ($started, ''); next; }
  next if $ready < 0;
  if (vec($rout, fileno($wake_r), 1)) { my $drain; sysread($wake_r, $drain, 512); }
  for my $fileno (keys %readers) {
    next unless vec($rout, $fileno, 1);
    my ($id, $fd, $handle) = @{$readers{$fileno}};
    my $data;
    my $got = sysread($handle, $data, 65536);
    next if !defined $got && $! == $EINTR;
    if ($got) { out("D $id $fd $got\n$data"); next; }
    close $handle;
    delete $readers{$fileno}; delete $held{$fileno};
    out("C $id $fd\n");
    $jobs{$id}{open}--;
    finish($id);
  }
  if (vec($rout, 0, 1)) {
    my $got = sysread(STDIN, $in, 65536, length $in);
    next if !defined $got && $! == $EINTR;
    last unless $got;
    requests();
  }
}
# The end: the groups the commands led, every other process still in this session (a command may
# have moved some to groups of their own, as GNU timeout and set -m do), and whatever runs in a PID
# namespace below the launcher (bwrap's, when bwrap was stopped in its first milliseconds, before
# its namespace asked to die with it: it then has a session of its own). Their groups are signalled
# too, so a process that forks and exits in a loop to change its pid is caught. A daemon a command
# started in a session of its own in this namespace (tmux's server, ssh's ControlPersist master) is
# left alone: others may be using it. CHLD back to default first: its handler would cut the sleep
# short; zombies are reaped by hand from here on.
$SIG{CHLD} = 'DEFAULT';
my $namespace = readlink('/proc/self/ns/pid') // '';
# pid => its process group, for every live process to stop.
sub members {
  1 while waitpid(-1, 1) > 0;
  opendir(my $proc, '/proc') or return ();
  my (%children, %members);
  for my $pid (grep { /^\d+$/ && $_ != $$ } readdir $proc) {
    open(my $stat, '<', "/proc/$pid/stat") or next;
    my $line = <$stat> // next;
    my ($state, $parent, $group, $session) = split / /, substr($line, rindex($line, ')') + 2);
    next if $state eq 'Z';
    push @{$children{$parent}}, [$pid, $group];
    $members{$pid} = $group if $session == $$;
  }
  my @parents = ($$);
  while (defined(my $parent = shift @parents)) {
    for (@{$children{$parent} || []}) {
      my ($pid, $group) = @$_;
      push @parents, $pid;
      my $its = readlink("/proc/$pid/ns/pid") // next;
      $members{$pid} = $group if $its ne $namespace;
    }
  }
  return %members;
}
sub stop_all {
  my ($signal, %members) = @_;
  my %targets = map { $_ => 1 } grep { kill(0, -$_) } keys %groups;
  $targets{$_} = 1 for grep { $_ != $$ } values %members;
  kill($signal, -$_) for keys %targets;
  kill($signal, keys %members);
  return keys(%targets) + keys(%members);
}
exit 0 unless stop_all('TERM', members());
sleep 1;
# Again until nothing is left: what the TERM phase could not see (a fork that came after it).
for (1 .. 20) {
  last unless stop_all('KILL', members());
  select(undef, undef, undef, 0.01);
}
`;
