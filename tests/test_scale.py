"""The runner's contract: the same spec gives the same statistics (stats.parquet: every value), and
with --rows the same results.parquet (the same rows, values, types and row groups), whatever the
threads, the chunking, an interruption and resume, or a Dask cluster."""

import numba as nb
import pytest
from conftest import chunks_of, results

from simkit.experiments import runner
from simkit.experiments.spec import parse_spec_dict
from simkit.strategies.plugins import load_strategy_file

SPEC = {"name": "scale", "players": 4, "hands": 1800, "seed": 21, "lineup": ["greedy", "random", "lowest", "spend"]}
EXAMPLE = "strategies/examples/my_strategies.py"


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """The run everything else must reproduce: in process, all threads, chunks of 500."""
    folder = tmp_path_factory.mktemp("ref") / "run"
    runner.write_results(parse_spec_dict(SPEC), str(folder), chunk=500)
    rows = tmp_path_factory.mktemp("ref") / "rows"
    runner.write_results(parse_spec_dict(SPEC), str(rows), chunk=500, keep_rows=True)
    return folder, rows


def test_one_or_two_threads_give_the_same_results(reference_run, tmp_path, monkeypatch):
    chunks_of(monkeypatch, 500)
    before = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "one"))
        runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "rows"), keep_rows=True)
    finally:
        nb.set_num_threads(before)
    assert results(tmp_path / "one") == results(reference_run[0])
    assert results(tmp_path / "rows") == results(reference_run[1])


def test_chunked_or_whole_give_the_same_results(reference_run, tmp_path, monkeypatch):
    chunks_of(monkeypatch, 10**9)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "whole"))
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "whole-rows"), keep_rows=True)
    chunks_of(monkeypatch, 333)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "small"))
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "small-rows"), keep_rows=True)
    assert results(tmp_path / "whole") == results(reference_run[0]) == results(tmp_path / "small")
    assert results(tmp_path / "whole-rows") == results(reference_run[1]) == results(tmp_path / "small-rows")


@pytest.mark.parametrize("rows", [False, True])
def test_an_interrupted_run_keeps_its_chunks_and_resumes_to_the_same_results(reference_run, tmp_path, monkeypatch,
                                                                            rows):
    chunks_of(monkeypatch, 500)
    folder = tmp_path / "cut"
    done = []

    def ctrl_c_after_two(n):
        done.append(n)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.write_results(parse_spec_dict(SPEC), str(folder), progress=ctrl_c_after_two, keep_rows=rows)
    kept = sorted(p.name for p in (folder / "chunks").iterdir())
    assert len([p for p in kept if p.endswith(".npy")]) == 2  # every finished chunk, whole
    assert len(kept) == 2 * (1 + 4 * rows)  # with rows, a rows file per rotation beside each
    assert sorted(p.name for p in folder.iterdir()) == ["chunks", "run.json"]  # no results, no half file
    played = []
    runner.write_results(parse_spec_dict(SPEC), str(folder), resume=True, keep_rows=rows,
                         progress=lambda n: played.append(n))
    assert results(folder) == results(reference_run[rows])
    assert sum(played) == 1800 * 4 and len(played) == 4  # 2 chunks read back, 2 played
    assert not (folder / "chunks").exists()  # a complete run keeps no chunks


def test_a_dask_cluster_gives_the_same_results(reference_run, tmp_path, monkeypatch):
    """Two worker processes started for the run (--workers), then an existing cluster
    (--scheduler) running a user's strategy file that the workers load themselves."""
    distributed = pytest.importorskip("distributed")
    chunks_of(monkeypatch, 500)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "local"), workers=2)
    assert results(tmp_path / "local") == results(reference_run[0])

    load_strategy_file(EXAMPLE)
    spec = parse_spec_dict({**SPEC, "lineup": ["pairs_first(min_raise=5)", "random", "lowest", "greedy"]})
    runner.write_results(spec, str(tmp_path / "here"), strategy_files=(EXAMPLE,))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster:
        runner.write_results(spec, str(tmp_path / "there"), scheduler=cluster.scheduler_address,
                             strategy_files=(EXAMPLE,))
    assert results(tmp_path / "there") == results(tmp_path / "here")


def test_a_failure_while_writing_keeps_every_played_chunk_and_no_half_file(tmp_path, monkeypatch):
    """If making the rows fails, every chunk already finished is still kept on disk, the error
    reaches the caller, and no half results file is left; a resume finishes the run."""
    from simkit.experiments import chunks

    calls = []
    real = chunks.rows

    def broken(task, measured, spec, labels):
        calls.append(task)
        if len(calls) == 9:  # the third chunk's first rotation
            raise OSError("disk full")
        return real(task, measured, spec, labels)

    monkeypatch.setattr(runner, "rows", broken)
    folder = tmp_path / "broken"
    with pytest.raises(OSError, match="disk full"):
        runner.write_results(parse_spec_dict(SPEC), str(folder), chunk=500, keep_rows=True)
    kept = sorted(p.name for p in (folder / "chunks").iterdir() if p.suffix == ".npy")
    assert kept == ["deals-0-500.npy", "deals-500-1000.npy"]
    assert sorted(p.name for p in folder.iterdir()) == ["chunks", "run.json"]
    monkeypatch.setattr(runner, "rows", real)
    runner.write_results(parse_spec_dict(SPEC), str(folder), resume=True, chunk=500, keep_rows=True)
    assert (folder / "results.parquet").is_file() and (folder / "stats.parquet").is_file()
