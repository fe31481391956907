// SPDX-License-Identifier: MIT
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <signal.h>
#include <poll.h>
#include <dirent.h>
#include <sys/epoll.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <malloc.h>

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module
// does not define. Same declarations as glibc's (closefrom_np needs 2.34;
// Debian 12 has 2.36).
int memfd_create(const char *name, unsigned int flags);
int pipe2(int pipefd[2], int flags);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#define CLINUX_MFD_CLOEXEC 1U

// pidfd_open(2) (Linux 5.3): a descriptor that polls readable once the
// process has ended, so a child is reaped from the poll set. glibc has no
// wrapper before 2.36, and syscall(2) is variadic, which Swift cannot call.
static inline int clinux_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

// gettid(2): the calling thread's id, for what Linux keeps per thread (its
// niceness). glibc declares gettid only under _GNU_SOURCE.
static inline pid_t clinux_gettid(void) { return (pid_t)syscall(SYS_gettid); }

// What malloc has handed out and not had back, in bytes (mallinfo2, glibc
// 2.33; summed over every arena): how much a long-lived helper has kept.
static inline size_t clinux_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
