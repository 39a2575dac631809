"""`simkit bench --vs-c FILE`: the compiled engine against a hand-written C engine of all-`lowest`
Who's the Ass? (one thread each, side by side in one run), the ratio the speed work aims at.

The C file is built here with the system's C compiler (`cc -O3 -march=native`); it prints its
own hands/s over its playing loop alone, so start-up is left out on both sides. The two engines
draw from different random generators, so their hands differ; their mean tricks per hand agree
within noise, which the table shows as a check that both play the same game.
"""

import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numba as nb
import pandas as pd

from simkit.core.errors import SimkitError
from simkit.games.speed import REPEATS, SEED
from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.alone import ALONE_FROM
from simkit.games.whos_the_ass.strategy import seats_for

C_FLAGS = ("-O3", "-march=native")
SPAN = 100_000  # hands per engine call (a few MB of per-hand results)


def compiler() -> str | None:
    """The system's C compiler, or None."""
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def build(source: str, into: Path) -> Path:
    """Compile the C engine; one clear error when the file or a compiler is missing, or it fails."""
    path = Path(source)
    if not path.is_file():
        raise SimkitError(f"--vs-c: no C file at {source} (give the path of whos_the_ass_lowest.c)")
    cc = compiler()
    if cc is None:
        raise SimkitError("--vs-c: no C compiler found (cc, gcc or clang); install one to build the C engine")
    binary = into / "whos_the_ass_c"
    done = subprocess.run([cc, *C_FLAGS, "-o", str(binary), str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        raise SimkitError(f"--vs-c: {Path(cc).name} could not build {source}: {first}")
    return binary


def _c_run(binary: Path, players: int, hands: int) -> tuple[float, float]:
    """(hands/s, mean tricks per hand) of one run of the C engine, as it prints them."""
    out = subprocess.run([str(binary), "bench", str(players), str(hands), "1"], capture_output=True, text=True)
    speed = re.search(r"hands/s ([0-9.]+)", out.stdout)
    tricks = re.search(r"mean tricks per hand: ([0-9.]+)", out.stdout)
    if out.returncode != 0 or not speed or not tricks:
        raise SimkitError(f"--vs-c: the C engine did not print its speed (exit {out.returncode}): "
                          f"{(out.stderr or out.stdout).strip()[:200]}")
    return float(speed.group(1)), float(tricks.group(1))


def _simkit_run(seats: list, hands: int, alone: bool) -> tuple[float, float]:
    """(hands/s, mean tricks per hand), played SPAN hands per engine call: the per-hand arrays a
    call returns stay the same size however many hands are timed. As a run of `hands` hands plays:
    `alone`: with `lowest` written into the loop, as from ALONE_FROM hands (simkit.games.whos_the_ass.alone)."""
    tricks = 0
    start = time.perf_counter()
    for first in range(0, hands, SPAN):
        tricks += int(batch.play(seats, min(SPAN, hands - first), SEED, first=first, alone=alone).tricks.sum())
    return hands / (time.perf_counter() - start), tricks / hands


def versus_c(source: str, players: list[int], hands: int, echo: Callable[[str], None] = print) -> pd.DataFrame:
    """Print and return the table: per player count, the median of REPEATS alternating runs of
    each engine on one thread, and simkit's share of the C engine's hands/s."""
    alone = hands >= ALONE_FROM  # as a run of `hands` hands plays (simkit.games.whos_the_ass.alone)
    with tempfile.TemporaryDirectory(prefix="simkit-vs-c-") as tmp:
        binary = build(source, Path(tmp))
        echo(f"built {source} with {' '.join(C_FLAGS)}")
        threads = nb.get_num_threads()
        nb.set_num_threads(1)
        try:
            batch.play(seats_for(["lowest"], players[0]), 1, SEED, alone=alone)  # compiled before timing
            rows = []
            for n in players:
                seats = seats_for(["lowest"], n)
                ours, theirs = [], []
                for _ in range(REPEATS):  # alternating, so a slow spell of the machine hits both
                    ours.append(_simkit_run(seats, hands, alone))
                    theirs.append(_c_run(binary, n, hands))
                fast, slow = statistics.median(s for s, _ in ours), statistics.median(s for s, _ in theirs)
                rows.append({"players": n, "simkit hands/s": round(fast), "C hands/s": round(slow),
                             "ratio": round(fast / slow, 2), "simkit tricks/hand": round(ours[-1][1], 3),
                             "C tricks/hand": round(theirs[-1][1], 3)})
        finally:
            nb.set_num_threads(threads)
    table = pd.DataFrame(rows).set_index("players")
    how = ("written into the play loop" if alone
           else "through the lineup: runs this short do not compile it into the loop")
    echo(f"all lowest ({how}), one thread each, the median of {REPEATS} alternating runs of {hands:,} hands "
         "(ratio = simkit / C; tricks per hand: the same game on different random deals)")
    echo(table.to_string())
    return table
