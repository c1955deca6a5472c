"""The ground floor of file handling: atomic writes, fsync and the folder lock.

Everything that writes a file kg publishes goes through :func:`atomic_write`
(a temporary file beside the destination, fsynced, checked, renamed over it);
:func:`fsync_folder` makes a rename durable; :func:`folder_lock` keeps two
writers of one folder apart. This package knows nothing of graphs or build
folders, so every layer above may use it.
"""

from kg.io.atomic import atomic_write, fsync_folder
from kg.io.lock import folder_lock

__all__ = ["atomic_write", "folder_lock", "fsync_folder"]
