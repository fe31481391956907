#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <signal.h>
#include <poll.h>
#include <dirent.h>
#include <sys/epoll.h>
