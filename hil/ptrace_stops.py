# SPDX-License-Identifier: MIT
"""Stopping the real daemon from outside, with ptrace: moments no build of
stylusd can stage by itself (a hung loop; a kill -9 between two writes).
x86-64 Linux only, like the guest the tests run in. The caller needs
CAP_SYS_PTRACE or to be the daemon's parent (the tests run as root)."""
import ctypes
import os
import signal

PTRACE_SYSCALL, PTRACE_DETACH = 24, 17
PTRACE_SEIZE, PTRACE_INTERRUPT, PTRACE_GET_SYSCALL_INFO = 0x4206, 0x4207, 0x420e
PTRACE_O_TRACESYSGOOD = 1
PTRACE_EVENT_STOP = 128
PTRACE_SYSCALL_INFO_ENTRY, PTRACE_SYSCALL_INFO_EXIT = 1, 2
WALL = 0x40000000   # __WALL: waitpid sees a thread that is not the caller's child
SYS_WRITE = 1       # x86-64

_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
_libc.ptrace.restype = ctypes.c_long


def _ptrace(request, tid, addr=None, data=None):
    result = _libc.ptrace(request, tid, addr, data)
    if result == -1:
        raise OSError(ctypes.get_errno(), f"ptrace request {request:#x} on thread {tid}")
    return result


def _seize_and_stop(tid, options=0):
    _ptrace(PTRACE_SEIZE, tid, None, options)
    _ptrace(PTRACE_INTERRUPT, tid)
    os.waitpid(tid, WALL)


class StoppedThread:
    """Stops one thread of a process (ptrace), the others running on: a hang
    of stylusd's loop that no build of stylusd can cause itself."""

    def __init__(self, tid):
        self.tid = tid
        _seize_and_stop(tid)

    def resume(self):
        if self.tid is not None:
            _ptrace(PTRACE_DETACH, self.tid)
        self.tid = None


class _SyscallInfo(ctypes.Structure):
    """struct ptrace_syscall_info (linux/ptrace.h), the entry and exit members of its union overlaid."""
    _fields_ = [("op", ctypes.c_uint8), ("pad", ctypes.c_uint8 * 3), ("arch", ctypes.c_uint32),
                ("instruction_pointer", ctypes.c_uint64), ("stack_pointer", ctypes.c_uint64),
                ("nr_or_rval", ctypes.c_uint64), ("args", ctypes.c_uint64 * 6), ("ret_data", ctypes.c_uint32)]


class SyscallStop:
    """One thread stopped at a system call's entry (`entry`, `nr`, `args`) or exit (`rval`)."""

    def __init__(self, info):
        self.entry = info.op == PTRACE_SYSCALL_INFO_ENTRY
        self.nr = info.nr_or_rval if self.entry else None
        self.args = tuple(info.args) if self.entry else None
        self.rval = ctypes.c_int64(info.nr_or_rval).value if not self.entry else None


class SyscallStepper:
    """Runs one thread of a process from system call to system call
    (PTRACE_SYSCALL), stopped at each entry and exit; the process's other
    threads run freely. Signals the thread receives meanwhile are delivered.
    The thread's memory is readable while it is stopped."""

    def __init__(self, tid):
        self.tid = tid
        _seize_and_stop(tid, PTRACE_O_TRACESYSGOOD)
        self.memory = os.open(f"/proc/{tid}/mem", os.O_RDONLY | os.O_CLOEXEC)
        self._signal = 0
        self.stops = 0   # system call entries and exits stepped through so far

    def next(self):
        """Resumes the thread up to its next system call entry or exit; None once it is gone."""
        while True:
            _ptrace(PTRACE_SYSCALL, self.tid, None, self._signal)
            self._signal = 0
            _, status = os.waitpid(self.tid, WALL)
            if not os.WIFSTOPPED(status):
                self.tid = None
                return None
            stop = os.WSTOPSIG(status)
            if stop == signal.SIGTRAP | 0x80:
                info = _SyscallInfo()
                _ptrace(PTRACE_GET_SYSCALL_INFO, self.tid, ctypes.sizeof(info), ctypes.byref(info))
                if info.op in (PTRACE_SYSCALL_INFO_ENTRY, PTRACE_SYSCALL_INFO_EXIT):
                    self.stops += 1
                    return SyscallStop(info)
            elif status >> 16 != PTRACE_EVENT_STOP:
                self._signal = stop   # a signal for the thread: passed on at the next resume

    def read(self, address, length):
        return os.pread(self.memory, length, address)

    def fd_target(self, fd):
        """What descriptor `fd` of the process is open on, e.g. /dev/uinput; None if it is closed."""
        try:
            return os.readlink(f"/proc/{self.tid}/fd/{fd}")
        except OSError:
            return None

    def detach(self):
        """Lets the thread run on untraced (nothing if it is gone)."""
        os.close(self.memory)
        if self.tid is not None:
            try:
                _ptrace(PTRACE_DETACH, self.tid, None, self._signal)
            except ProcessLookupError:
                pass
        self.tid = None
