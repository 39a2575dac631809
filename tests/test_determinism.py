"""Same seed, same results: whatever the threads, chunks or offsets (design.md's contract)."""

import numba as nb
import numpy as np
import pytest

from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.strategy import seats_for

SEATS = seats_for(["random", "lowest", "random", "lowest", "random"], 5)


def _arrays(res):
    return np.concatenate([res.penalties.ravel(), res.tricks, res.ass_end])


@pytest.fixture
def threads():
    before = nb.get_num_threads()
    yield nb.config.NUMBA_NUM_THREADS
    nb.set_num_threads(before)


def test_one_thread_and_all_threads_agree(threads):
    nb.set_num_threads(1)
    one = batch.play(SEATS, 20_000, 99)
    nb.set_num_threads(threads)
    many = batch.play(SEATS, 20_000, 99)
    assert np.array_equal(_arrays(one), _arrays(many))


def test_chunking_does_not_change_results():
    whole = batch.play(SEATS, 10_000, 5, chunks=1)
    chunked = batch.play(SEATS, 10_000, 5, chunks=37)
    assert np.array_equal(_arrays(whole), _arrays(chunked))


def test_a_hand_range_is_the_same_hands_as_in_the_whole_run():
    whole = batch.play(SEATS, 3_000, 5)
    part = batch.play(SEATS, 1_000, 5, first=1_500)
    assert np.array_equal(whole.penalties[1_500:2_500], part.penalties)


def test_traces_and_play_see_the_same_hands():
    res = batch.play(SEATS, 50, 11)
    recs = list(batch.traces(SEATS, 50, 11))
    assert [r["penalties"] for r in recs] == res.penalties.tolist()
    assert [len(r["tricks"]) for r in recs] == res.tricks.tolist()


def test_a_different_seed_gives_different_hands():
    assert not np.array_equal(batch.play(SEATS, 1000, 1).penalties, batch.play(SEATS, 1000, 2).penalties)


def test_matches_are_the_same_for_any_thread_count(threads):
    nb.set_num_threads(1)
    one = batch.matches(SEATS, 200, 4, threshold=200)
    nb.set_num_threads(threads)
    many = batch.matches(SEATS, 200, 4, threshold=200)
    assert np.array_equal(one.totals, many.totals) and np.array_equal(one.hands, many.hands)



def test_the_compile_cache_is_keyed_by_the_sources(tmp_path):
    """numba checks only a function's own file; a folder per source hash keeps callers fresh."""
    import os
    import subprocess
    import sys

    from simkit.core.cache import source_hash

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    show = [sys.executable, "-c", "import simkit; print(simkit.CACHE_DIR)"]
    out = subprocess.run(show, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert out == str(tmp_path / "simkit" / "numba" / source_hash())
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    out = subprocess.run(show, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert out == str(tmp_path / "mine")
