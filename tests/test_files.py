"""Atomic writes: a failure inside the block keeps the earlier file whole and leaves no part."""

import pytest

from simkit.core.files import atomic_path


def test_a_failed_write_keeps_the_earlier_file(tmp_path):
    target = tmp_path / "r.txt"
    target.write_text("earlier")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("killed")
    assert target.read_text() == "earlier" and [p.name for p in tmp_path.iterdir()] == ["r.txt"]
    with atomic_path(target) as tmp:
        tmp.write_text("new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["r.txt"]
