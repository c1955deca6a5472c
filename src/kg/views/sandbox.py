"""The process that evaluates a typed query: no internet sockets, bounded memory.

The offline guard (:mod:`kg.views.offline`) refuses a query that names
``SERVICE``; this module makes the engine itself unable to call out, so a query
the parser misread still reaches nothing. :func:`forbid_network` installs a
seccomp filter (through libseccomp, the ``pyseccomp`` package) under which
``socket()`` for IPv4 and IPv6 fails with ``EACCES`` in every thread of the
process, for the rest of its life; local (Unix) sockets and pipes, which worker
processes talk through, keep working. It is installed only in processes kg owns
for queries (``kg query``'s query process, ``kg serve``'s workers), never in a
library caller's process.

:func:`limit_memory` caps the process's address space, so a query that would
exhaust the machine fails with ``MemoryError`` inside it instead.

Limits: seccomp exists on Linux only, and needs libseccomp; elsewhere
:func:`forbid_network` returns ``False`` and the parsed guard stands alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import resource
import signal
import socket

__all__ = ["die_with_parent", "forbid_network", "limit_memory"]


def forbid_network() -> bool:
    """Make ``socket(AF_INET | AF_INET6, ...)`` fail in this process from now on; ``True`` if it holds."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError, RuntimeError, AttributeError):  # not Linux, or no libseccomp
        return False
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for family in (socket.AF_INET, socket.AF_INET6):
        rules.add_rule(seccomp.ERRNO(errno.EACCES), "socket", seccomp.Arg(0, seccomp.EQ, family))
    # Every thread of the process, not only the caller: the query may run in another thread.
    rules.set_attr(seccomp.Attr.CTL_TSYNC, 1)
    try:
        rules.load()
    except OSError:
        return False
    return True


def limit_memory(max_bytes: int | None) -> None:
    """Cap this process's address space at ``max_bytes`` (``None``: leave it as it is)."""
    if max_bytes:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = max_bytes if hard == resource.RLIM_INFINITY else min(max_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


_PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """Have the kernel kill this process when its parent dies (Linux ``prctl``); ``True`` if it holds.

    A query process forked by ``kg query`` must not outlive a parent that was
    killed without cleaning up. Elsewhere this does nothing and returns ``False``.
    """
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    # The parent may have died before the call: then nobody would send the signal.
    if os.getppid() == 1:
        os._exit(1)
    return True
