/*
 * The runner-like VM's initramfs, whole: this one static program as /init, and the modules
 * it loads (.ci/setup-vm.sh puts them beside it). It loads the modules listed in /modules (one
 * file name a line, in load order) from /lib/modules, waits for the root disk /dev/vda, mounts
 * it (ext4) and hands over to the guest's own /sbin/init (systemd).
 *
 * Debian's initramfs-tools does the same with a shell, udev, a coldplug and an fsck: under
 * QEMU's TCG (no KVM here) that took 15 s to over a minute of every boot. The guest that
 * systemd then boots is the same either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void say(const char *what, const char *detail) {
  fprintf(stderr, "vm-init: %s%s%s%s\n", what, detail ? " " : "", detail ? detail : "",
          errno ? strerror(errno) : "");
}

/* After a failure: the kernel panics when init exits, and QEMU (-no-reboot) stops. */
static int fail(const char *what, const char *detail) {
  say(what, detail);
  sync();
  return 1;
}

int main(int argc, char **argv) {
  (void)argc;
  if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) != 0) return fail("mount /dev:", NULL);
  if (freopen("/dev/console", "w", stderr) == NULL) return 1;

  FILE *list = fopen("/modules", "r");
  if (list == NULL) return fail("open /modules:", NULL);
  char name[256];
  while (fgets(name, sizeof name, list) != NULL) {
    name[strcspn(name, "\n")] = '\0';
    if (name[0] == '\0') continue;
    char file[300];
    snprintf(file, sizeof file, "/lib/modules/%s", name);
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("open module", file);
    errno = 0;
    if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
      return fail("load module", file);
    close(fd);
  }
  fclose(list);

  /* The disk appears once virtio_blk has probed it: seconds at most, even under TCG. */
  struct stat disk;
  for (int i = 0; stat("/dev/vda", &disk) != 0; i++) {
    if (i == 6000) return fail("no /dev/vda after 60 s", NULL);
    struct timespec wait = {0, 10 * 1000 * 1000};
    nanosleep(&wait, NULL);
  }
  errno = 0;
  mkdir("/root", 0755);
  if (mount("/dev/vda", "/root", "ext4", 0, NULL) != 0) return fail("mount /dev/vda:", NULL);
  if (mount("/dev", "/root/dev", NULL, MS_MOVE, NULL) != 0) return fail("move /dev:", NULL);
  if (chdir("/root") != 0) return fail("chdir /root:", NULL);
  if (mount(".", "/", NULL, MS_MOVE, NULL) != 0) return fail("move the root:", NULL);
  if (chroot(".") != 0 || chdir("/") != 0) return fail("chroot:", NULL);
  argv[0] = "/sbin/init";
  execv("/sbin/init", argv);
  return fail("exec /sbin/init:", NULL);
}
