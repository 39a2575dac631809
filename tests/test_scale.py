"""The runner's contract: the same spec gives the same results.parquet (the same rows, values, types
and row groups), whatever
the threads, the chunking, an interruption and resume, or a Dask cluster."""

import numba as nb
import pytest
from conftest import results

from experiments import runner
from experiments.spec import parse_spec_dict
from simkit.plugins import load_strategy_file

SPEC = {"name": "scale", "players": 4, "hands": 1800, "seed": 21, "lineup": ["greedy", "random", "lowest", "spend"]}
EXAMPLE = "strategies/examples/my_strategies.py"


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """The run everything else must reproduce: in process, all threads, chunks of 500."""
    folder = tmp_path_factory.mktemp("ref") / "run"
    runner.write_results(parse_spec_dict(SPEC), str(folder), chunk=500)
    return folder


def test_one_or_two_threads_give_the_same_results(reference_run, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "CHUNK", 500)
    before = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "one"))
    finally:
        nb.set_num_threads(before)
    assert results(tmp_path / "one") == results(reference_run)


def test_chunked_or_whole_give_the_same_results(reference_run, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "CHUNK", 10**9)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "whole"))
    monkeypatch.setattr(runner, "CHUNK", 333)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "small"))
    assert results(tmp_path / "whole") == results(reference_run) == results(tmp_path / "small")


def test_an_interrupted_run_keeps_its_chunks_and_resumes_to_the_same_results(reference_run, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "CHUNK", 500)
    folder = tmp_path / "cut"
    done = []

    def ctrl_c_after_five(n):
        done.append(n)
        if len(done) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.write_results(parse_spec_dict(SPEC), str(folder), progress=ctrl_c_after_five)
    kept = sorted(p.name for p in (folder / "chunks").iterdir())
    assert len(kept) == 5 and all(p.endswith(".arrow") for p in kept)  # every finished chunk, whole
    assert sorted(p.name for p in folder.iterdir()) == ["chunks", "run.json"]  # no results, no half file
    played = []
    runner.write_results(parse_spec_dict(SPEC), str(folder), resume=True,
                         progress=lambda n: played.append(n))
    assert results(folder) == results(reference_run)
    assert sum(played) == 1800 * 4 and len(played) == 16  # 5 chunks read back, 11 played


def test_a_dask_cluster_gives_the_same_results(reference_run, tmp_path, monkeypatch):
    """Two worker processes started for the run (--workers), then an existing cluster
    (--scheduler) running a user's strategy file that the workers load themselves."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "CHUNK", 500)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "local"), workers=2)
    assert results(tmp_path / "local") == results(reference_run)

    load_strategy_file(EXAMPLE)
    spec = parse_spec_dict({**SPEC, "lineup": ["pairs_first(min_raise=5)", "random", "lowest", "greedy"]})
    runner.write_results(spec, str(tmp_path / "here"), strategy_files=(EXAMPLE,))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster:
        runner.write_results(spec, str(tmp_path / "there"), scheduler=cluster.scheduler_address,
                             strategy_files=(EXAMPLE,))
    assert results(tmp_path / "there") == results(tmp_path / "here")


def test_a_failure_while_writing_keeps_every_played_chunk_and_no_half_file(tmp_path, monkeypatch):
    """If making the results table fails, every chunk already played is still kept on disk, the
    error reaches the caller, and no half results file is left."""
    from experiments import chunks
    from experiments import results as results_module

    calls = []
    real = chunks.rows

    def broken(task, measured, spec, labels):
        calls.append(task)
        if len(calls) == 3:
            raise OSError("disk full")
        return real(task, measured, spec, labels)

    played = []
    real_play = runner.play_chunk
    monkeypatch.setattr(runner, "rows", broken)
    monkeypatch.setattr(runner, "play_chunk", lambda *a: played.append(a[0]) or real_play(*a))
    folder = tmp_path / "broken"
    with pytest.raises(OSError, match="disk full"):
        runner.write_results(parse_spec_dict(SPEC), str(folder), chunk=500)
    kept = sorted((folder / "chunks").iterdir())
    assert len(played) >= 4 and len(kept) == len(played) - 1  # all played (less the compile warm-up) are kept
    assert all(results_module.read_chunk(path).num_rows for path in kept)  # whole
    assert sorted(p.name for p in folder.iterdir()) == ["chunks", "run.json"]
    monkeypatch.setattr(runner, "rows", real)
    runner.write_results(parse_spec_dict(SPEC), str(folder), resume=True, chunk=500)
    assert (folder / "results.parquet").is_file()
