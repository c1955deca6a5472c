"""atomic_write: the old file survives every failure, and no temporary file is left."""

from __future__ import annotations

import os
import stat

import pytest

from kg.io import atomic_write


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir())


def test_writes_bytes_and_text(tmp_path):
    with atomic_write(tmp_path / "a.bin") as handle:
        handle.write(b"\x00\xff")
    with atomic_write(tmp_path / "b.txt", "w", encoding="utf-8", newline="") as handle:
        handle.write("é\r\n")
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\xff"
    assert (tmp_path / "b.txt").read_bytes() == "é\r\n".encode()
    assert leftovers(tmp_path) == ["a.bin", "b.txt"]


def test_exception_mid_write_keeps_old_content(tmp_path):
    target = tmp_path / "graph.nt"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_write(target) as handle:
            handle.write(b"new and half")
            handle.flush()
            raise RuntimeError("crash while writing")
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == ["graph.nt"]


def test_failed_check_keeps_old_content_and_sees_the_new(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    seen = []

    def refuse(path):
        seen.append((path.parent, path.read_text()))
        raise ValueError("bad")

    with pytest.raises(ValueError):
        with atomic_write(target, "w", check=refuse) as handle:
            handle.write("new")
    assert seen == [(tmp_path, "new")]  # the check ran on the finished file, in the same folder
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == ["out.txt"]


def test_passing_check_replaces(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with atomic_write(target, "w", check=lambda path: path.stat()) as handle:
        handle.write("new")
    assert target.read_text() == "new"


def test_keyboard_interrupt_also_cleans_up(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(target, "w") as handle:
            handle.write("x")
            raise KeyboardInterrupt
    assert leftovers(tmp_path) == []


def test_bad_encoding_leaves_nothing(tmp_path):
    with pytest.raises(LookupError):
        with atomic_write(tmp_path / "x.txt", "w", encoding="no-such-codec"):
            pass
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("mode, encoding", [("a", None), ("r", None), ("wb", "utf-8")])
def test_refuses_bad_arguments(tmp_path, mode, encoding):
    with pytest.raises(ValueError):
        with atomic_write(tmp_path / "x", mode, encoding=encoding):  # type: ignore[arg-type]
            pass
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="umask is POSIX")
def test_new_file_gets_normal_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "x") as handle:
            handle.write(b"1")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x").stat().st_mode) == 0o644


def test_not_durable_still_replaces_atomically(tmp_path):
    target = tmp_path / "cache.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_write(target, "w", durable=False) as handle:
            handle.write("half")
            raise RuntimeError
    assert target.read_text() == "old"
    with atomic_write(target, "w", durable=False) as handle:
        handle.write("new")
    assert target.read_text() == "new" and leftovers(tmp_path) == ["cache.json"]
