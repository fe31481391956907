#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <signal.h>
#include <poll.h>
#include <dirent.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <fcntl.h>

/* pipe2 and memfd_create hide behind _GNU_SOURCE in Glibc's module; the
   system calls themselves are always there. */
static inline int stylus_pipe_cloexec(int fds[2]) { return (int)syscall(SYS_pipe2, fds, O_CLOEXEC); }
static inline int stylus_memfd_cloexec(const char *name) { return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */); }
