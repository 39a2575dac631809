"""The hand's history in the view, and what the search infers from it
(simkit.strategies.whos_the_ass.inference): the flows it replays give back the deal, the cards it
takes as known are held, its deals keep them, and on the true deal the true model explains every
move while another does not."""

import numpy as np
import pytest

from simkit.analyses.grading.grade import positions
from simkit.core.errors import IllegalMove
from simkit.core.rng import below
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, set_value
from simkit.games.whos_the_ass.hand import HAND_WIDTH, HELD
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import GAME, MAX_PLAYERS, N_CODES
from simkit.games.whos_the_ass.strategy import Seat, compile_decision, seats_for
from simkit.strategies import registry
from simkit.strategies.whos_the_ass import inference
from simkit.strategies.whos_the_ass.search import model_table, weighed

BAD = np.int64(4095)  # never legal: the auditor's way to fail the hand


def _history_auditor(hand, view, params, rng):
    """Random play, but an illegal move where the history disagrees with the trick on the table:
    every trick holds one action per seat, and this trick's entries are what PLAYED shows."""
    n, leader = view[V.PLAYERS], view[V.LEADER]
    acted = 0
    for s in range(n):
        acted += view[V.PLAYED + s] != V.NOT_ACTED
    length = view[V.HISTORY_LEN]
    if length != view[V.TRICK] * n + acted:
        return BAD
    for i in range(acted):
        seat = (leader + i) % n
        action = view[V.HISTORY + length - acted + i]
        shown = V.PASSED if action == PASS else set_value(action)
        if view[V.PLAYED + seat] != shown:
            return BAD
    if view[V.HISTORY + length] != 0:  # past the entries in use: nothing
        return BAD
    return nth_legal(hand, view, below(rng, nth_legal(hand, view, -1)))


HISTORY_AUDITOR = compile_decision(_history_auditor)


@pytest.mark.parametrize("n", [3, 5, 12])
def test_the_view_keeps_every_action_of_the_hand_in_order(n):
    seats = [Seat("auditor", HISTORY_AUDITOR, ())] * n
    res = batch.play(seats, 400, 21)  # raises IllegalMove at the first disagreement
    assert res.tricks.min() > 0


def _forgetful(hand, view, params, rng):
    """The auditor's check on a view whose history lost its last entry."""
    if view[V.HISTORY_LEN] == 0:
        return nth_legal(hand, view, 0)
    acted = 0
    for s in range(view[V.PLAYERS]):
        acted += view[V.PLAYED + s] != V.NOT_ACTED
    return BAD if view[V.HISTORY_LEN] - 1 != view[V.TRICK] * view[V.PLAYERS] + acted else nth_legal(hand, view, 0)


def test_the_auditors_check_can_fail():
    seats = [Seat("forgetful", compile_decision(_forgetful), ())] * 4
    with pytest.raises(IllegalMove):
        batch.play(seats, 3, 21)


def _records(names, n, hands, seed=9):
    return list(batch.traces(seats_for(names, n), hands, seed, {"ass_joker": "1or14"}))


@pytest.mark.parametrize("n, names", [(4, ["random"]), (6, ["grab", "lowest", "random"]), (3, ["greedy"])])
def test_the_flows_give_back_the_deal_and_the_known_cards_are_held(n, names):
    """At every move: the current hands less the flows replayed from the history are the deal,
    and every seat holds at least the cards the history says it must (ass tricks make some)."""
    delta = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    known = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    some_known = 0
    for record in _records((names * n)[:n], n, 40):
        dealt = np.zeros((n, N_CODES), np.int64)
        for s, cards in enumerate(record["deal"]):
            np.add.at(dealt[s], np.asarray(cards, np.int64), 1)
        for pos in positions(record):
            inference.flows(pos.view, delta, known)
            assert (pos.hands[:n, :N_CODES] - delta[:n] == dealt).all()
            assert (known[:n] <= pos.hands[:n, :N_CODES]).all() and (known[:n] >= 0).all()
            some_known += known[:n].sum() > 0
    assert some_known > 0  # the cards an ass trick's taker picked up and still holds


def test_the_reference_engine_keeps_the_same_history():
    """What the compiled engine writes into the view, the plain-Python one writes too (the
    differential tests compare the moves of a search that reads it)."""
    seen = []

    def watching(inner):
        def decide(seat, hand, view):
            seen.append(view[V.HISTORY:V.HISTORY + view[V.HISTORY_LEN]].tolist())
            return inner(seat, hand, view)
        return decide

    seats = seats_for(["random"], 4)
    record = next(iter(batch.traces(seats, 1, 13, {"ass_joker": "1or14"})))
    dealt, key = reference.deal(13, 0, 4)
    inner = reference.compiled_deciders(seats, key)
    reference.play_hand(dealt, [watching(d) for d in inner])
    from_positions = [pos.view[V.HISTORY:V.HISTORY + pos.view[V.HISTORY_LEN]].tolist() for pos in positions(record)]
    assert seen == from_positions and len(seen) > 8


def _judged(record, seat_filter, spec="cheat"):
    """(position, ll on the true deal) for the moves of the record's seats in `seat_filter`."""
    params = np.array(registry.resolve(GAME, spec)[1], np.float64)
    models = model_table(params)
    out = []
    for pos in positions(record):
        if pos.seat in seat_filter and pos.view[V.HISTORY_LEN] > 0:
            seen = pos.hands.reshape(-1).copy()
            _, ll = weighed(seen, pos.view, params, np.array([3], np.uint64), 1, 1)
            out.append((pos, ll[0], models))
    return out


def test_on_the_true_deal_the_true_model_explains_every_move_and_another_does_not():
    n = 4
    mismatched = 0
    for record in _records(["greedy"] * n, n, 6, seed=4):
        for pos, ll, models in _judged(record, {0}):
            greedy = inference.MODELS.index("greedy")
            for s in range(1, n):
                # no mismatch: every move of a greedy seat scores log(1 - eps + eps / choices) > log(1 - eps)
                assert ll[s, greedy] >= pos.view[V.HISTORY_LEN] * np.log(1 - inference.EPSILON) - 1e-9
                assert ll[s, greedy] == ll[s].max()
                mismatched += ll[s, inference.MODELS.index("lowest")] < ll[s, greedy] - 1
    assert mismatched > 20


def test_the_posterior_finds_the_field_and_a_tie_is_the_baseline():
    n = 4
    right = total = 0
    for field in ("lowest", "greedy", "highest", "random"):
        for record in _records([field] * n, n, 4, seed=6):
            for pos, ll, models in _judged(record, {0}):
                post = np.zeros((MAX_PLAYERS, models.shape[0]))
                inference.posterior(ll[None], n, 0, models[:, inference.RANDOM] != 0, post)
                assert np.allclose(post[1:n].sum(axis=1), 1) and (post[0] == 0).all()
                chosen = np.zeros(MAX_PLAYERS, np.int64)
                inference.likeliest(post, n, 0, 0, chosen)
                if pos.view[V.HISTORY_LEN] >= 3 * n:
                    total += n - 1
                    right += sum(inference.MODELS[chosen[s]] in _alike(field) for s in range(1, n))
    assert right >= 0.8 * total, (right, total)
    uniform = np.zeros((1, MAX_PLAYERS, 9))
    post = np.zeros((MAX_PLAYERS, 9))
    inference.posterior(uniform, 4, 0, np.arange(9) == 8, post)
    chosen = np.zeros(MAX_PLAYERS, np.int64)
    inference.likeliest(post, 4, 0, 0, chosen)
    assert [inference.MODELS[c] for c in chosen[1:4]] == ["lowest"] * 3  # before any move: the baseline


def _alike(field):
    """Models that play as `field` does in most hands: the lowest-style ones differ only at the
    jokers, the ass or a reserve, which many hands never test."""
    return {"lowest": {"lowest", "hoard", "keep_low", "delay", "grab", "spend"}}.get(field, {field})


def test_the_deals_hold_each_seats_known_cards_and_its_hand_size():
    params = np.array(registry.resolve(GAME, "pimc")[1], np.float64)
    delta = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    known = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    checked = 0
    for record in _records(["grab"] * 5, 5, 20, seed=2):
        for pos in positions(record):
            me = pos.seat
            inference.flows(pos.view, delta, known)
            candidates, _ = weighed(pos.hands[me].copy(), pos.view, params, np.array([1], np.uint64), 4, 2)
            for d in range(4):
                for s in range(5):
                    deal = candidates[d, s]
                    assert deal[:N_CODES].sum() == pos.view[V.HAND_SIZES + s]
                    assert (deal[0] == 1) == (pos.view[V.ASS_HOLDER] == s)
                    if s == me:
                        assert (deal[:HAND_WIDTH] == pos.hands[me]).all()
                    else:
                        assert (deal[1:N_CODES] >= known[s, 1:]).all()
                    assert deal[HELD] == sum(1 << c for c in range(N_CODES) if deal[c] > 0)
                checked += known[:5].sum() > 0
    assert checked > 0


def test_opponents_forces_one_model():
    forced = model_table(np.array(registry.resolve(GAME, "pimc(opponents=greedy)")[1], np.float64))
    assert forced.shape[0] == 1
    assert list(forced[0, :10]) == list(registry.resolve(GAME, "greedy")[1][:10])
    assert model_table(np.array(registry.resolve(GAME, "pimc")[1], np.float64)).shape[0] == len(inference.MODELS)


def test_models_taken_as_twins_at_a_phase_play_alike_there():
    """judge asks one of two models that read the same slots at a phase (inference.alike): on real
    positions of every phase, each model plays what its twin plays."""
    from simkit.strategies.whos_the_ass.inference import alike, decides

    models = model_table(np.array(registry.resolve(GAME, "pimc")[1], np.float64))
    twins = alike(models)
    assert (twins != np.arange(len(models))).sum() >= 6  # the lowest-like models share most phases
    compared = np.zeros(3, np.int64)
    for record in _records(["random", "grab", "hoard", "keep_low", "delay"], 5, 30, seed=12):
        for pos in positions(record):
            hand = pos.hands[pos.seat].copy()
            phase = pos.view[V.PHASE]
            for m in range(len(models)):
                twin = twins[phase, m]
                if twin != m:
                    rng = np.zeros(1, np.uint64)
                    assert decides(hand, pos.view, models[m], rng) == decides(hand, pos.view, models[twin], rng)
                    compared[phase] += 1
    assert (compared > 50).all()


def test_deals_weighed_by_the_true_model_lie_nearer_the_true_hands_but_on_few_deals():
    """Why weigh= is off by default (docs/strategies.md): the likelihood of the moves does point
    the deals towards the truth, but with a few dozen deals its weight falls on one or two."""
    n, deals = 4, 64
    params = np.array(registry.resolve(GAME, "pimc")[1], np.float64)
    rng = np.array([12345], np.uint64)
    lowest = inference.MODELS.index("lowest")
    uniform, weighted, effective = [], [], []
    for record in _records(["lowest"] * n, n, 40, seed=7):
        for pos in positions(record):
            if pos.trick < 4 or pos.seat != 0:
                continue
            candidates, ll = weighed(pos.hands[0].copy(), pos.view, params, rng, deals, deals)
            logw = ll[:, 1:n, lowest].sum(axis=1)
            w = np.exp(logw - logw.max())
            w /= w.sum()
            wrong = np.abs(candidates[:, 1:n, 1:N_CODES] - pos.hands[None, 1:n, 1:N_CODES]).sum(axis=(1, 2))
            uniform.append(wrong.mean())
            weighted.append((w * wrong).sum())
            effective.append(1 / (w ** 2).sum())
    assert len(uniform) > 100
    assert np.mean(weighted) < np.mean(uniform) - 1, (np.mean(weighted), np.mean(uniform))
    assert np.median(effective) < 4, np.median(effective)
