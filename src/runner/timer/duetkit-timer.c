/*
 * duetkit-timer: times a benchmark where it runs, on the side's own CPU.
 *
 *   duetkit-timer serve -- ARGV...        the command driver: one timer per side, whole run
 *   duetkit-timer relay FLAG -- ARGV...   the persistent driver: relays the line protocol
 *
 * The harness starts it inside the side's CPU set and talks to it on fd 3, one line each way.
 * Its clock is CLOCK_MONOTONIC, the clock of the harness's hrtime, so its stamps are
 * comparable with the harness's own. Why a separate program: the harness shares the CPUs it
 * measures and sleeps while an iteration runs, so its own view of when an iteration ended is
 * late by its wake-up latency and blurs differences below it; and every time it wakes during
 * an iteration it takes the CPU from one side. So the timer does the whole of a step without
 * the harness: start, stamps, keeping the CPU busy, and the end, and only then reports.
 *
 * serve: for each step the harness sends one line (fields separated by tabs)
 *
 *   go FLAG SYNC TARGET KEEP_BUSY OUT ERR SAVE_FROM SAVE_TO TIMEOUT_MS DELAY_NS [ARGV...]
 *
 * ARGV, when the line has it, is the command of this step (and of its fillers); without it,
 * the ARGV serve was started with. One timer can so run any command in its CPU set: the
 * harness keeps one per side and CPU set for a whole suite instead of moving one between
 * sets (a move into another cgroup waits for an RCU grace period: ~11 ms a step here, both
 * sides busy).
 * The timer answers "ready" and spins until the barrier's FLAG file exists (so all sides start
 * together, without waking an idle CPU), and then DELAY_NS more (a staggered duet: on VMs two
 * processes that exit at the same moment on two CPUs hold each other up, so the harness makes
 * sure they never end together). It reads the clock, spawns ARGV in a process group of
 * its own (stdin /dev/null, stdout to OUT, stderr to ERR), waits for it with wait4() and reads
 * the clock again: start and end are stamped on this CPU at spawn and at exit. What the command
 * left running in its group is killed. SAVE_FROM (a file the command writes, or "-") is renamed
 * to SAVE_TO, so that the extra runs below cannot overwrite it.
 *
 * In a step of several sides at once (TARGET > 0), each timer then adds 1 to the counter at
 * the start of the SYNC file (shared memory: a uint32 counter, then a uint32 abort word) and
 * keeps its CPU busy until the counter reaches TARGET, that is until every side has finished:
 * KEEP_BUSY "repeat" runs the command again and again (output discarded; Bulej et al.: the
 * interference of the other side stays the same for the whole of every pair), "spin" spins on
 * the counter, "off" sleeps (polling it every 50 us). Nothing wakes the harness meanwhile. A
 * filler is a process group of its own, killed and reaped before the timer reports. A nonzero
 * abort word (the harness gave up on the step) ends the wait too. Then it reports
 *
 *   done START_NS END_NS STATUS USER_US SYSTEM_US MAXRSS_KB TIMED_OUT
 *
 * with STATUS as wait4 returns it and the CPU time from its rusage (the command and its
 * waited-for descendants), or "fail ERRNO" when the command could not be spawned. A command
 * still running after TIMEOUT_MS (0: no limit) is killed and reported with TIMED_OUT 1.
 *
 * The timer ends on "exit", when fd 3 closes, on SIGTERM, or when the harness dies (it asks
 * the kernel for SIGTERM then); it kills whatever it started first.
 *
 * relay: after the gate (a line on fd 3 primes it; it answers and spins until FLAG exists), it
 * starts ARGV once with pipes of its own, says "pid PID", and relays lines both ways between
 * its stdin/stdout and the program: when a "go" line goes to the program it reads the clock,
 * and when the program's answer (a line starting with "{") comes back it reads it again and
 * says "time GO_NS ANSWER_NS" before passing the answer on. It waits for the answer on the
 * program's CPU, so the round trip is stamped where it runs. It exits with the program.
 * Before a step of several sides at once the harness may send on fd 3
 *
 *   step SYNC TARGET KEEP_BUSY DELAY_NS
 *
 * and the relay then holds the next "go" DELAY_NS (a staggered duet), and after the answer
 * joins the end line as serve does (KEEP_BUSY "spin" or "off"; "repeat" spins, there being
 * nothing to repeat) before it says "time" and passes the answer on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CONTROL 3
#define LINE_MAX_BYTES (1 << 16)
/* Most arguments a go line's own command may have. */
#define MAX_STEP_ARGS 4096

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Process groups this timer started and has not reaped yet; killed on every way out. */
static volatile pid_t measured_group = 0, filler_group = 0;

static void kill_started(void) {
  if (measured_group > 0) kill(-measured_group, SIGKILL);
  if (filler_group > 0) kill(-filler_group, SIGKILL);
}

static void on_term(int sig) {
  (void)sig;
  kill_started();
  _exit(143);
}

/* Writes all of buf to fd, retrying on EINTR; returns 0 on success. */
static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* One line to the harness; a harness that is gone ends the timer. */
static void say(const char *line) {
  if (write_all(CONTROL, line, strlen(line)) != 0) {
    kill_started();
    _exit(70);
  }
}

/* A line buffer for one input. */
struct lines {
  char buf[LINE_MAX_BYTES];
  size_t len;
};

/* Appends what fd has to read; returns bytes read, 0 at EOF, -1 on error. */
static ssize_t fill(struct lines *l, int fd) {
  if (l->len == sizeof l->buf) l->len = 0; /* an overlong line: drop what was kept of it */
  ssize_t n = read(fd, l->buf + l->len, sizeof l->buf - l->len);
  if (n > 0) l->len += (size_t)n;
  return n;
}

/* Takes the first complete line (with its newline, NUL-terminated) into out; its length or 0. */
static size_t take_line(struct lines *l, char *out) {
  char *nl = memchr(l->buf, '\n', l->len);
  if (nl == NULL) return 0;
  size_t len = (size_t)(nl - l->buf) + 1;
  memcpy(out, l->buf, len);
  out[len] = '\0';
  memmove(l->buf, l->buf + len, l->len - len);
  l->len -= len;
  return len;
}

static struct lines control_in;

/* The harness's next line into out: 1, or -1 at EOF. */
static int next_command(char *out) {
  for (;;) {
    if (take_line(&control_in, out) > 0) return 1;
    ssize_t n = fill(&control_in, CONTROL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
  }
}

/* Splits a line's tab-separated fields in place; returns how many there are. */
static int split_tabs(char *line, char **fields, int max) {
  int n = 0;
  line[strcspn(line, "\n")] = '\0';
  for (char *field = line; n < max; n++) {
    fields[n] = field;
    char *tab = strchr(field, '\t');
    if (tab == NULL) return n + 1;
    *tab = '\0';
    field = tab + 1;
  }
  return n;
}

/* The shared end line of a step: a counter of sides done, and an abort word. */
struct sync_words {
  uint32_t done;
  uint32_t abort;
};

static struct sync_words *sync_map = NULL;
static char sync_path[4096] = "";

/* Maps SYNC (once per file); NULL when it cannot. */
static struct sync_words *map_sync(const char *file) {
  if (sync_map != NULL && strcmp(file, sync_path) == 0) return sync_map;
  if (sync_map != NULL) munmap(sync_map, sizeof *sync_map);
  sync_map = NULL;
  int fd = open(file, O_RDWR);
  if (fd < 0) return NULL;
  void *p = mmap(NULL, sizeof *sync_map, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return NULL;
  snprintf(sync_path, sizeof sync_path, "%s", file);
  sync_map = p;
  return sync_map;
}

static int all_done(struct sync_words *s, uint32_t target) {
  return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) >= target ||
         __atomic_load_n(&s->abort, __ATOMIC_ACQUIRE) != 0;
}

/* Spawns argv in a new process group; stdin /dev/null, stdout and stderr to the given files. */
static int spawn_in_group(pid_t *pid, char **argv, const char *out, const char *err) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t none;
  sigemptyset(&none);
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addclose(&actions, CONTROL);
  posix_spawnattr_init(&attr);
  /* The command gets the signal mask and dispositions the timer was started with. */
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  int failed = posix_spawnp(pid, argv[0], &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return failed;
}

/*
 * Waits for pid with wait4, at most timeout_ms (0: no limit; SIGCHLD is blocked, so
 * sigtimedwait wakes on the child's exit as promptly as wait4 would). Returns 1 when it timed
 * out (the group is then killed and reaped).
 */
static int wait_for(pid_t pid, int *status, struct rusage *ru, long long timeout_ms) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  if (timeout_ms <= 0) {
    while (wait4(pid, status, 0, ru) < 0 && errno == EINTR) {}
    return 0;
  }
  long long deadline = now_ns() + timeout_ms * 1000000LL;
  for (;;) {
    pid_t got = wait4(pid, status, WNOHANG, ru);
    if (got == pid) return 0;
    if (got < 0 && errno != EINTR) return 0;
    long long left = deadline - now_ns();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      while (wait4(pid, status, 0, ru) < 0 && errno == EINTR) {}
      return 1;
    }
    struct timespec ts = {.tv_sec = left / 1000000000LL, .tv_nsec = left % 1000000000LL};
    sigtimedwait(&chld, NULL, &ts);
  }
}

/* Sleeps about 50 us (a blocked SIGCHLD cuts it short, harmlessly). */
static void nap(void) {
  struct timespec ts = {.tv_sec = 0, .tv_nsec = 50000};
  nanosleep(&ts, NULL);
}

/*
 * Keeps this CPU busy until every side of the step is done (see the header): the command
 * again and again, output discarded (`repeat`), a spin on the counter (`spin`), or naps
 * (`off`). A filler is killed and reaped before this returns.
 */
static void keep_busy(const char *how, char **argv, struct sync_words *s, uint32_t target) {
  int repeat = strcmp(how, "repeat") == 0, spin = strcmp(how, "spin") == 0;
  while (!all_done(s, target)) {
    if (spin) continue;
    if (!repeat) {
      nap();
      continue;
    }
    pid_t pid;
    if (spawn_in_group(&pid, argv, "/dev/null", "/dev/null") != 0) {
      spin = 1; /* it would fail again at once: spin instead */
      continue;
    }
    filler_group = pid;
    int status;
    /* Checks the counter every 50 us while the filler runs. */
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (all_done(s, target)) {
        kill(-pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        break;
      }
      nap();
    }
    kill(-pid, SIGKILL); /* what the filler left in its group */
    filler_group = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) spin = 1;
  }
}

/* One measured run of the command, as a `go` line describes it. */
static void iteration(char **serve_argv, char *go_line) {
  static char *f[11 + MAX_STEP_ARGS + 2];
  char text[256];
  int n = split_tabs(go_line, f, 11 + MAX_STEP_ARGS + 1);
  if (n < 11) {
    say("error a go line needs at least 11 tab-separated fields\n");
    return;
  }
  if (n > 11 + MAX_STEP_ARGS) {
    say("error a go line has more arguments than the timer takes\n");
    return;
  }
  /* ARGV... after the fixed fields: this step's command; none: the one serve started with */
  char **command = serve_argv;
  if (n > 11) {
    f[n] = NULL;
    command = f + 11;
  }
  const char *flag = f[1], *sync = f[2], *busy = f[4], *out = f[5], *err = f[6];
  const char *save_from = f[7], *save_to = f[8];
  uint32_t target = (uint32_t)strtoul(f[3], NULL, 10);
  long long timeout_ms = strtoll(f[9], NULL, 10);
  long long delay_ns = strtoll(f[10], NULL, 10);
  struct sync_words *s = target > 0 ? map_sync(sync) : NULL;
  if (target > 0 && s == NULL) {
    snprintf(text, sizeof text, "error cannot map the sync file (%s)\n", strerror(errno));
    say(text);
    return;
  }
  say("ready\n");
  struct stat st;
  while (stat(flag, &st) != 0) {}
  if (delay_ns > 0) {
    long long until = now_ns() + delay_ns;
    while (now_ns() < until) {}
  }

  long long start = now_ns();
  pid_t pid;
  int failed = spawn_in_group(&pid, command, out, err);
  int status = 0, timed_out = 0;
  long long end = start;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  if (failed == 0) {
    measured_group = pid;
    timed_out = wait_for(pid, &status, &ru, timeout_ms);
    end = now_ns();
    kill(-pid, SIGKILL); /* whatever the command left behind in its group */
    measured_group = 0;
    if (strcmp(save_from, "-") != 0) rename(save_from, save_to);
  }
  if (s != NULL) {
    __atomic_add_fetch(&s->done, 1, __ATOMIC_ACQ_REL);
    if (failed == 0) keep_busy(busy, command, s, target);
  }
  if (failed != 0) {
    snprintf(text, sizeof text, "fail %d\n", failed);
  } else {
    snprintf(text, sizeof text, "done %lld %lld %d %lld %lld %ld %d\n", start, end, status,
             (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
             (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec, ru.ru_maxrss,
             timed_out);
  }
  say(text);
}

static int serve(char **command) {
  char line[LINE_MAX_BYTES + 1];
  int devnull = open("/dev/null", O_RDWR);
  dup2(devnull, 0);
  close(devnull);
  /* SIGCHLD is waited for with sigtimedwait; it must stay pending, not be delivered. */
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);
  signal(SIGTERM, on_term);
  signal(SIGINT, on_term);
  signal(SIGHUP, on_term);
  /* The harness died: end too (and kill what was started). */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  /* Naps of 50 us, not the default 50 us of slack on top. */
  prctl(PR_SET_TIMERSLACK, 1UL);
  if (getppid() == 1) return 0;
  for (;;) {
    if (next_command(line) <= 0) return 0;
    if (strncmp(line, "go\t", 3) == 0) {
      iteration(command, line);
    } else if (strcmp(line, "exit\n") == 0) {
      return 0;
    }
  }
}

static int relay(const char *flag, char **command) {
  char line[LINE_MAX_BYTES + 1];
  if (next_command(line) <= 0) return 65; /* primed */
  say("\n");
  struct stat st;
  while (stat(flag, &st) != 0) {}
  int to_program[2], from_program[2];
  if (pipe(to_program) != 0 || pipe(from_program) != 0) return 71;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_program[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_program[1], 1);
  posix_spawn_file_actions_addclose(&actions, to_program[1]);
  posix_spawn_file_actions_addclose(&actions, from_program[0]);
  posix_spawn_file_actions_addclose(&actions, CONTROL);
  pid_t pid;
  int err = posix_spawnp(&pid, command[0], &actions, NULL, command, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    snprintf(line, sizeof line, "fail %d\n", err);
    say(line);
    return 0;
  }
  close(to_program[0]);
  close(from_program[1]);
  snprintf(line, sizeof line, "pid %d\n", (int)pid);
  say(line);

  static struct lines in, out;
  long long go_at = 0;
  int harness_open = 1, control_open = 1;
  /* The current step, from a `step` line: its end line, and how late its `go` starts. */
  struct sync_words *s = NULL;
  uint32_t target = 0;
  long long delay_ns = 0;
  char busy[16] = "off";
  for (;;) {
    struct pollfd p[3] = {{.fd = harness_open ? 0 : -1, .events = POLLIN},
                          {.fd = from_program[0], .events = POLLIN},
                          {.fd = control_open ? CONTROL : -1, .events = POLLIN}};
    if (poll(p, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (control_open && p[2].revents != 0) {
      ssize_t n = fill(&control_in, CONTROL);
      if (n <= 0) control_open = 0;
      char *f[5];
      while (take_line(&control_in, line) > 0) {
        if (split_tabs(line, f, 5) != 5 || strcmp(f[0], "step") != 0) continue;
        target = (uint32_t)strtoul(f[2], NULL, 10);
        s = target > 0 ? map_sync(f[1]) : NULL;
        if (s == NULL) target = 0;
        snprintf(busy, sizeof busy, "%s", strcmp(f[3], "off") == 0 ? "off" : "spin");
        delay_ns = strtoll(f[4], NULL, 10);
      }
    }
    if (p[1].revents != 0) {
      ssize_t n = fill(&out, from_program[0]);
      long long at = now_ns();
      if (n <= 0) break;
      size_t len;
      while ((len = take_line(&out, line)) > 0) {
        if (line[0] == '{' && go_at != 0) {
          if (target > 0) {
            __atomic_add_fetch(&s->done, 1, __ATOMIC_ACQ_REL);
            keep_busy(busy, NULL, s, target);
            target = 0;
          }
          char stamp[96];
          snprintf(stamp, sizeof stamp, "time %lld %lld\n", go_at, at);
          say(stamp);
          go_at = 0;
        }
        if (write_all(1, line, len) != 0) break;
      }
    }
    if (harness_open && p[0].revents != 0) {
      ssize_t n = fill(&in, 0);
      if (n <= 0) {
        harness_open = 0;
        close(to_program[1]);
        continue;
      }
      size_t len;
      while ((len = take_line(&in, line)) > 0) {
        if (len == 3 && memcmp(line, "go\n", 3) == 0) {
          if (delay_ns > 0) {
            long long until = now_ns() + delay_ns;
            while (now_ns() < until) {}
            delay_ns = 0;
          }
          go_at = now_ns();
        }
        if (write_all(to_program[1], line, len) != 0) break;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  kill(getpid(), WTERMSIG(status));
  return 128 + WTERMSIG(status);
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "serve") == 0 && strcmp(argv[2], "--") == 0) {
    return serve(argv + 3);
  }
  if (argc >= 5 && strcmp(argv[1], "relay") == 0 && strcmp(argv[3], "--") == 0) {
    return relay(argv[2], argv + 4);
  }
  fprintf(stderr, "usage: duetkit-timer serve -- ARGV... | duetkit-timer relay FLAG -- ARGV...\n");
  return 64;
}
