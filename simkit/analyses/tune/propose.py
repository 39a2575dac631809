"""The `tpe` sampler: Optuna's Tree-structured Parzen Estimator proposes settings, and the race
judges them, in iterations (iterated racing, as irace does): each iteration races the settings
TPE proposes beside the best survivors of the one before, on deals of its own, and tells TPE
each new setting's mean.

Why TPE: the spaces are templates whose choices hold names of their own (a conditional space of
choices, whole numbers and reals), which TPE models as they are; CMA-ES wants one unconditional
real vector. Why Optuna: its ask/tell interface lets the race decide how many deals a setting
gets, and a seeded TPESampler proposes the same settings for the same history.

A tuning's every ask and tell is kept in its record, in order. A resumed tuning replays them
into a new study (the same seed), which then stands where the first one stood, so the answer is
the same bit for bit, provided Optuna's version is the same: a replay that proposes otherwise
is an error that says so."""

import warnings

from simkit.analyses.tune.space import Candidate
from simkit.analyses.tune.spec import Tuning
from simkit.core.errors import SimkitError

TRIES = 20  # asks per setting wanted before an iteration makes do with fewer (a small space runs out)


def _optuna():
    try:
        import optuna
    except ImportError:
        raise SimkitError("race.sampler = \"tpe\" needs Optuna (pip install optuna)") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def version() -> str:
    return _optuna().__version__


class Proposer:
    """TPE's study, replayed from `log` (the record's list of events, which it extends):
    {"ask": label} and {"tell": trial number, "value": the figure told}."""

    def __init__(self, t: Tuning, log: list[dict]) -> None:
        optuna = _optuna()
        with warnings.catch_warnings():  # multivariate and group are flagged experimental
            warnings.simplefilter("ignore")
            sampler = optuna.samplers.TPESampler(seed=t.table.seed % 2 ** 32, n_startup_trials=t.batch,
                                                 multivariate=True, group=True, constant_liar=True)
        lower = t.game.objective(t.table.match["mode"]).lower
        self.study = optuna.create_study(direction="minimize" if lower else "maximize", sampler=sampler)
        for setting in t.starts:  # asked first, before TPE's own (and again on a resume: the same asks)
            self.study.enqueue_trial(dict(setting))
        self.space = t.space
        self.log = log
        self.pending: dict[int, str] = {}  # trial number -> label, asked and not yet told
        self.found: dict[str, Candidate] = {}  # every label asked, in order
        for event in list(log):
            if "ask" in event:
                label = self._ask()
                if label != event["ask"]:
                    raise SimkitError(f"cannot resume this tuning: Optuna {optuna.__version__} proposes {label} "
                                      f"where the tuning had {event['ask']} (another Optuna version?)")
            else:
                self._tell(event["tell"], event["value"])

    def _ask(self) -> str:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trial = self.study.ask()
            c = self.space.suggest(trial)
        self.pending[trial.number] = c.label
        self.found.setdefault(c.label, c)
        return c.label

    def _tell(self, number: int, value: float) -> None:
        self.study.tell(number, value)
        self.pending.pop(number)

    def propose(self, count: int, told: dict[str, float]) -> list[Candidate]:
        """Up to `count` settings not proposed before. A proposal of a setting already told is told
        its value at once; one proposed twice in an iteration is told with it, when it ends."""
        fresh: list[Candidate] = []
        for _ in range(TRIES * count):
            if len(fresh) == count:
                break
            before = set(self.found)
            label = self._ask()
            self.log.append({"ask": label})
            if label in told:
                number = max(self.pending)
                self._tell(number, told[label])
                self.log.append({"tell": number, "value": told[label]})
            elif label not in before:
                fresh.append(self.found[label])
        return fresh

    def tell(self, values: dict[str, float]) -> None:
        """The iteration is over: every trial still pending is told its setting's mean."""
        for number, label in sorted(self.pending.items()):
            self._tell(number, values[label])
            self.log.append({"tell": number, "value": values[label]})
