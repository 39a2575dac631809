"""The symmetric game a field's payoff table defines, and its equilibria.

At n players each seat picks a strategy of the pool; a mix x (weights over the pool) is played
when every seat draws its strategy from x. A strategy s's value against the mix is its expected
objective when the n-1 others are drawn from x: the sum over the multisets m of opponents of
(the multinomial chance of m under x) x (s's mean in the profile m + s). A mix is a symmetric
equilibrium when no strategy does better against it than the mix itself does: its regret, the
most any strategy gains by leaving it, is (about) zero.

Found by replicator dynamics (each weight grows by how much better than the mix its strategy
does) from many starts, in the exponential form x_s <- x_s exp(h (F_s - F_mix)), which keeps
weights positive; each rest point (and each run's time average, where the dynamics circle) is
polished by Newton's method on its support (every strategy of the support equally good) and
kept only if its regret is at most epsilon x the spread of the table's payoffs."""

import functools
from dataclasses import dataclass, field

import numpy as np

from simkit.analyses.field import profiles

LEAST_WEIGHT = 1e-4   # a weight below this is outside the support
SAME = 1e-3           # two equilibria closer than this in every weight are one


@dataclass
class Payoffs:
    """u[s, m]: strategy s's mean (the objective per seat and deal) in the profile m + s, for
    every multiset m of n-1 opponents (opponents[m], counts over the pool); coef[m]: how many
    ordered draws give m. `lower`: lower is better."""

    n: int
    u: np.ndarray
    opponents: np.ndarray
    coef: np.ndarray
    lower: bool

    @classmethod
    def of(cls, means: np.ndarray, k: int, n: int, lower: bool, keep: list[int] | None = None) -> "Payoffs":
        """From the table's means (a row per profile and member, simkit.analyses.field.play.Rows of k, n),
        the game of the strategies `keep` (default: all) among themselves."""
        where, opponents, coef = _layout(k, n, tuple(range(k) if keep is None else keep))
        return cls(n, np.asarray(means, np.float64)[where], opponents, coef, lower)

    @property
    def k(self) -> int:
        return self.u.shape[0]

    @property
    def spread(self) -> float:
        """The range of the table's payoffs (what step sizes and tolerances are relative to)."""
        return float(self.u.max() - self.u.min()) if self.u.size else 0.0

    def values(self, x: np.ndarray) -> np.ndarray:
        """values[j, s]: strategy s's value against mix x[j] (rows of weights)."""
        x = np.atleast_2d(np.asarray(x, np.float64))
        chance = self.coef * np.exp(np.log(np.maximum(x, 1e-300)) @ self.opponents.T)
        return chance @ self.u.T

    def fitness(self, x: np.ndarray) -> np.ndarray:
        """The values oriented so that higher is better."""
        v = self.values(x)
        return -v if self.lower else v

    def regret(self, x: np.ndarray) -> float:
        """The most a strategy gains by leaving mix x (in the objective's units; 0 at an exact
        equilibrium)."""
        f = self.fitness(x)[0]
        return max(0.0, float(f.max() - np.dot(x, f)))

    def regrets(self, x: np.ndarray) -> np.ndarray:
        """Each strategy's regret against mix x: how much worse it does than the best response."""
        f = self.fitness(x)[0]
        return f.max() - f


@functools.lru_cache(maxsize=16)
def _layout(k: int, n: int, keep: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """where[s, m]: the table's row of strategy keep[s] in the profile m + s (m: a multiset of n-1
    opponents among `keep`), the opponents' counts and their multinomial coefficients."""
    from simkit.analyses.field.play import Rows

    rows = Rows.of(k, n)
    index = profiles.index_of(k, n)
    opponents = profiles.multisets(len(keep), n - 1)
    where = np.zeros((len(keep), len(opponents)), np.int64)
    full = np.zeros(k, np.int64)
    for m, q in enumerate(opponents):
        full[:] = 0
        full[list(keep)] = q
        for s, i in enumerate(keep):
            full[i] += 1
            p = index[tuple(int(x) for x in full)]
            where[s, m] = rows.first[p] + int(np.count_nonzero(full[:i]))  # a profile's rows: its members in order
            full[i] -= 1
    return where, opponents, profiles.coefficients(opponents)


@dataclass
class Equilibrium:
    weights: np.ndarray
    regret: float
    basin: int = 0                  # starts whose dynamics ended here
    value: float = 0.0              # the mix's value against itself
    extra: dict = field(default_factory=dict)

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(int(i) for i in np.flatnonzero(self.weights >= LEAST_WEIGHT))


def starts(k: int, count: int, seed: int) -> np.ndarray:
    """The uniform mix, then count-1 mixes drawn uniformly from the simplex."""
    rng = np.random.default_rng([seed, 0x5EED, k])
    return np.vstack([np.full((1, k), 1 / k), rng.dirichlet(np.ones(k), max(count - 1, 0))])[:max(count, 1)]


def replicate(game: Payoffs, x0: np.ndarray, steps: int, kept: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray,
                                                                                           list]:
    """Exponential replicator dynamics from each start (rows of x0): the end points, the time
    averages over the second half, and the path of each start through the steps `kept`."""
    ends, averages, paths = replicate_all([game], x0, steps, kept)
    return ends[0], averages[0], paths[0] if kept else []


def replicate_all(games: list[Payoffs], x0: np.ndarray, steps: int, kept: tuple[int, ...] = ()
                  ) -> tuple[np.ndarray, np.ndarray, list]:
    """`replicate` for several games of one shape (a table and its bootstrap replicates) at once,
    each from the same starts: the games x starts x strategies in each array operation, not a
    loop of small ones. Returns ends and averages (games x starts x strategies) and, per game,
    the paths through the steps `kept`."""
    first = games[0]
    u = np.stack([g.u for g in games])                                  # games x k x m
    h = np.array([0.5 / max(g.spread, 1e-12) for g in games])[:, None, None] * (-1 if first.lower else 1)
    log = np.log(np.maximum(np.broadcast_to(x0, (len(games), *x0.shape)), 1e-300))
    average = np.zeros_like(log)
    paths = [[[] for _ in range(len(x0))] for _ in games] if kept else []
    kept = set(kept)
    half = steps // 2
    for t in range(steps + 1):
        log = log - log.max(axis=2, keepdims=True)
        x = np.exp(log)
        x /= x.sum(axis=2, keepdims=True)
        if t in kept:
            for i in range(len(games)):
                for j in range(len(x0)):
                    paths[i][j].append(x[i, j].copy())
        if t > half:
            average += x
        if t == steps:
            break
        chance = first.coef * np.exp(np.log(np.maximum(x, 1e-300)) @ first.opponents.T)  # games x starts x m
        v = chance @ u.transpose(0, 2, 1)                                                  # games x starts x k
        log = np.maximum(log + h * (v - (x * v).sum(axis=2, keepdims=True)), -700.0)
    return x, average / max(steps - half, 1), paths


def polish(game: Payoffs, x: np.ndarray) -> np.ndarray:
    """Newton's method on x's support: every strategy of it equally good against the mix, the
    weights adding up to 1. The polished mix if it stays inside the support, else x."""
    support = np.flatnonzero(x >= LEAST_WEIGHT)
    y = np.zeros(game.k)
    if len(support) == 1:
        y[support] = 1.0
        return y
    head, last = support[:-1], support[-1]
    scale = max(game.spread, 1e-12)

    def mix(z: np.ndarray) -> np.ndarray:
        m = np.zeros(game.k)
        m[head], m[last] = z, 1 - z.sum()
        return m

    def residual(z: np.ndarray) -> np.ndarray:
        f = game.fitness(mix(z))[0]
        return (f[head] - f[last]) / scale

    z = x[head] / x[support].sum()
    for _ in range(50):
        r = residual(z)
        if np.abs(r).max() < 1e-13:
            break
        jac = np.empty((len(z), len(z)))
        for j in range(len(z)):
            dz = np.zeros_like(z)
            dz[j] = 1e-7
            jac[:, j] = (residual(z + dz) - r) / 1e-7
        step = np.linalg.lstsq(jac, -r, rcond=None)[0]
        t = 1.0
        while t > 1e-9 and (mix(z + t * step)[support] <= 0).any():
            t /= 2
        if t <= 1e-9:
            break
        z = z + t * step
    out = mix(z)
    if (out[support] <= 0).any() or not np.isfinite(out).all():
        return x
    return out if game.regret(out) <= game.regret(x) else x


def solve(game: Payoffs, x0: np.ndarray, steps: int, epsilon: float,
          run: tuple[np.ndarray, np.ndarray] | None = None) -> list[Equilibrium]:
    """The equilibria reached from the starts x0 (and the pure strategies that are equilibria),
    each polished and kept if its regret is at most epsilon x the payoffs' spread; the most
    reached first (then the lowest regret). `run`: the dynamics' ends and averages, if already
    run (replicate_all)."""
    tol = epsilon * max(game.spread, 1e-12)
    ends, averages = run if run is not None else replicate(game, x0, steps)[:2]
    found: list[Equilibrium] = []
    closest: list[tuple[float, np.ndarray]] = []

    def place(x: np.ndarray, basin: int) -> bool:
        x = settled(game, x, tol)
        eps = game.regret(x)
        if eps > tol:
            closest.append((eps, x))
            return False
        for e in found:
            if np.abs(e.weights - x).max() < SAME:
                e.basin += basin
                return True
        found.append(Equilibrium(x, eps, basin, float(np.dot(x, game.values(x)[0]))))
        return True

    for end, average in zip(ends, averages):
        if not place(end, 1):
            place(average, 1)
    for s in range(game.k):
        place(np.eye(game.k)[s], 0)
    if not found:  # none within the tolerance: the mix of least regret, marked as such
        eps, x = min(closest, key=lambda c: c[0])
        found.append(Equilibrium(x, eps, 0, float(np.dot(x, game.values(x)[0])), {"approximate": True}))
    found.sort(key=lambda e: (-e.basin, e.regret, tuple(-e.weights)))
    return found


def settled(game: Payoffs, x: np.ndarray, tol: float) -> np.ndarray:
    """x polished on its support, then without the strategies of the support that do worse than
    its best by more than `tol` (at an equilibrium every one of them does equally well: a weight
    the dynamics had not yet driven to zero), polished again, until none is left to drop."""
    x = np.asarray(x, np.float64).copy()
    for _ in range(game.k):
        x = polish(game, x)
        x = np.where(x >= LEAST_WEIGHT, x, 0.0)
        x /= x.sum()
        f = game.fitness(x)[0]
        support = np.flatnonzero(x > 0)
        worse = support[f[support] < f[support].max() - max(tol, 0.0)]
        if not len(worse):
            break
        x[worse] = 0.0
        x /= x.sum()
    return x


def same_play(table: np.ndarray, k: int, n: int) -> list[list[int]]:
    """The pool in classes of strategies that played alike: swapping two of them leaves every
    row of the table the same (its columns: a row's sum, sum of squares and bootstrap sums; on
    shared deals, strategies that make the same moves give the same whole numbers). The analysis
    keeps one of each class; the others are its copies."""
    from simkit.analyses.field.play import Rows

    rows = Rows.of(k, n)
    counts = profiles.multisets(k, n)
    index = profiles.index_of(k, n)
    present = (counts > 0).astype(np.int64)
    before = np.cumsum(present, axis=1) - present  # before[p, m]: members of profile p ahead of m
    classes: list[list[int]] = []
    for s in range(k):
        for c in classes:
            swap = np.arange(k)
            swap[s], swap[c[0]] = c[0], s
            moved = np.array([index[tuple(int(x) for x in row)] for row in counts[:, swap]])  # profile p, swapped
            p, m = moved[rows.profile], swap[rows.member]
            if (table == table[rows.first[p] + before[p, m]]).all():  # row (p, m) against row (p', swap m)
                c.append(s)
                break
        else:
            classes.append([s])
    return classes
