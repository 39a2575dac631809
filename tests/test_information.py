"""Information discipline: every view a strategy gets can be rebuilt from public facts alone
(how many cards each player was dealt, who holds the ass, the cards played face up), so it
carries nothing hidden: no other player's hand, no undealt card. The views are the reference
engine's; tests/test_view.py shows the compiled engine's views equal them slot for slot."""

import numpy as np
import pytest

from simkit.core.rng import GOLDEN, py_seat_state, seat_state
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.check import recorded_action
from simkit.games.whos_the_ass.deal import CARDS_BY_PLAYERS, STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import ass_joker_code
from simkit.games.whos_the_ass.strategy import Seat, compile_decision, seats_for


def public_view(sizes, holder, tricks, t, j, n, option):
    """The view before play j of trick t, from the public record only."""
    v = np.zeros(V.SIZE, dtype=np.int64)
    sizes = list(sizes)
    discarded = np.zeros(15, dtype=np.int64)
    after_ass = False
    for trick in tricks[:t]:  # earlier tricks
        for p in trick["plays"]:
            sizes[p["seat"]] -= len(p.get("cards", []))
        if trick["kind"] == "ass":
            sizes[trick["taker"]] += n
            holder = trick["taker"]
        else:
            for p in trick["plays"]:
                for c in p.get("cards", []):
                    discarded[c] += 1
        after_ass = trick["kind"] == "ass"
    trick = tricks[t]
    seat = trick["plays"][j]["seat"]
    v[V.PLAYERS], v[V.SEAT], v[V.LEADER], v[V.TRICK] = n, seat, trick["leader"], t
    v[V.ASS_JOKER] = ass_joker_code(option)
    v[V.PLAYED:V.PLAYED + n] = V.NOT_ACTED
    top, top_seat = -1, -1
    for p in trick["plays"][:j]:  # this trick so far
        cards = p.get("cards", [])
        sizes[p["seat"]] -= len(cards)
        for c in cards:
            v[V.TABLE + c] += 1
        if p.get("pass"):
            v[V.PLAYED + p["seat"]] = V.PASSED
            continue
        v[V.PLAYED + p["seat"]] = p["value"]
        if trick["kind"] == "normal" or p["value"] >= top:
            top, top_seat = p["value"], p["seat"]
    if j == 0:
        v[V.PHASE], v[V.TOP], v[V.TOP_SEAT] = V.LEAD, -1, -1
        v[V.MAY_LEAD_ASS] = int(holder == seat and not after_ass)
    elif trick["kind"] == "ass":
        v[V.PHASE], v[V.TOP], v[V.TOP_SEAT] = V.ASS_TRICK, top, top_seat
        holder = -1
    else:
        v[V.PHASE], v[V.TOP], v[V.TOP_SEAT] = V.FOLLOW, top, top_seat
        v[V.COUNT] = len(trick["plays"][0]["cards"])
    v[V.ASS_HOLDER] = holder
    v[V.FIRST_LEADER] = tricks[0]["leader"]
    history = [recorded_action(p) for trick in tricks[:t] for p in trick["plays"]]
    history += [recorded_action(p) for p in trick["plays"][:j]]  # the moves so far, as the trace has them
    v[V.HISTORY_LEN] = len(history)
    v[V.HISTORY:V.HISTORY + len(history)] = history
    v[V.HAND_SIZES:V.HAND_SIZES + n] = sizes
    v[V.DISCARDED:V.DISCARDED + 15] = discarded
    return v


@pytest.mark.parametrize("n, option", [(3, "1or14"), (4, "any"), (7, "1"), (12, "1or14")])
def test_every_view_is_a_function_of_public_facts(n, option):
    checked = 0
    seats = seats_for(["random", "greedy", "keep_low", "lowest"] * 3, 12)[:n]
    for i in range(25):
        deal, rng = reference.deal(8, i, n)
        inner = reference.compiled_deciders(seats, rng)
        seen = []

        def record(seat, hand, view, inner=inner, seen=seen):
            seen.append(view.copy())
            return inner[seat](seat, hand, view)

        result = reference.play_hand(deal, [record] * n, option)
        sizes = [len(h) for h in deal]  # public: how many cards each was dealt
        holder = next(s for s in range(n) if 0 in deal[s])  # public: rule W3
        k = 0
        for t, trick in enumerate(result["tricks"]):
            for j in range(n):
                expected = public_view(sizes, holder, result["tricks"], t, j, n, option)
                assert np.array_equal(seen[k], expected), (i, t, j, np.nonzero(seen[k] != expected))
                k += 1
        checked += k
    assert checked > 500


def test_the_rebuild_would_notice_a_hidden_fact():
    """Guard: a view that leaked, say, a neighbour's joker count would differ from the rebuild."""
    deal, rng = reference.deal(1, 0, 4)
    seats = seats_for(["lowest"], 4)
    views = []
    inner = reference.compiled_deciders(seats, rng)

    def record(seat, hand, view):
        leaked = view.copy()
        leaked[V.SCORES + 3] = sum(c == 14 for c in deal[(seat + 1) % 4])  # a hidden fact
        views.append(leaked)
        return inner[seat](seat, hand, view)

    result = reference.play_hand(deal, [record] * 4)
    sizes, holder = [len(h) for h in deal], next(s for s in range(4) if 0 in deal[s])
    rebuilt = [public_view(sizes, holder, result["tricks"], t, j, 4, "1or14")
               for t in range(len(result["tricks"])) for j in range(4)]
    assert any(not np.array_equal(a, b) for a, b in zip(views, rebuilt))


def _would_be_cheat(hand, view, params, rng):
    """Tries to rebuild the deal from its random state (stepping back as the deal would have
    advanced a shared counter); makes an illegal move if that worked."""
    n = view[V.PLAYERS]
    if view[V.PHASE] == V.LEAD and view[V.TRICK] == 0:
        steps = (n * CARDS_BY_PLAYERS[n] + 1) // 2
        for guess in (rng[0] - np.uint64(steps) * GOLDEN, rng[0]):
            state = np.empty(1, np.uint64)
            state[0] = guess
            hands = np.zeros((12, 15), np.int64)
            deal(hands, np.zeros(STACK_SIZE, STACK_DTYPE), n, state)
            if np.all(hands[view[V.SEAT]] == hand[:15]):
                return np.int64(4095)  # it saw the deal: fail the hand
    return nth_legal(hand, view, 0)


def test_a_strategy_cannot_rebuild_the_deal_from_its_random_state():
    cheat = Seat("cheat", compile_decision(_would_be_cheat))
    res = batch.play([cheat, cheat, cheat, cheat], 5000, 3)  # IllegalMove if any rebuild matched
    assert res.penalties.shape == (5000, 4)


def test_every_seat_draws_from_its_own_stream():
    states = {int(seat_state(np.uint64(key), s)) for key in range(200) for s in range(12)}
    assert len(states) == 2400
    assert all(int(seat_state(np.uint64(k), s)) == py_seat_state(k, s) for k in (0, 5, 2**63 + 7) for s in range(12))
