"""W16–W18 and W2: the end of a hand, penalties, matches, card codes."""

import numpy as np
import pytest
from conftest import ASS, P, S, play_both, script

from simkit.core.errors import SimkitError
from simkit.core.rng import match_seed
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import PENALTY, check_rules
from simkit.games.whos_the_ass.strategy import Seat, compile_decision, seats_for


def test_w16_playing_the_last_card_in_an_ass_trick_and_taking_it_is_not_out():
    deal = [[0, 2, 14], [9], [4, 5], [6, 7]]
    t = play_both(deal, [script(ASS, P), script(S(9), S(4)), script(S(4), S(5)), script(S(6), S(7))])
    assert t["tricks"][0]["taker"] == 1  # seat 1 played its last card but took the trick
    assert len(t["tricks"]) == 2  # so the hand went on
    assert t["final_hands"] == [[2, 14], [0, 6, 9], [], []]  # two players out at once


def test_w16_the_hand_ends_after_the_trick_not_during_it():
    deal = [[0], [3, 4], [5, 8], [6, 7]]
    t = play_both(deal, [script(ASS), script(S(3)), script(S(5)), script(S(6))])
    assert len(t["tricks"]) == 1 and len(t["tricks"][0]["plays"]) == 4  # all acted after seat 0 emptied
    assert t["final_hands"][0] == []


def test_w16_every_hand_ends_with_somebody_out_and_not_before(lowest4):
    for n in (3, 5, 9, 12):
        for rec in batch.traces(seats_for(["random"], n), 30, 8):
            sizes = [len(h) for h in rec["deal"]]
            for k, trick in enumerate(rec["tricks"]):
                for p in trick["plays"]:
                    sizes[p["seat"]] -= len(p.get("cards", []))
                if trick["kind"] == "ass":
                    sizes[trick["taker"]] += n
                last = k == len(rec["tricks"]) - 1
                assert (min(sizes) == 0) == last


def test_w17_penalties():
    assert list(PENALTY) == [20, *range(1, 14), 14]
    t = play_both([[0, 2, 14], [9], [4, 5], [6, 7]],
                  [script(ASS, P), script(S(9), S(4)), script(S(4), S(5)), script(S(6), S(7))])
    assert t["penalties"] == [2 + 14, 20 + 6 + 9, 0, 0]


def test_w2_card_codes_in_traces():
    t = play_both([[0, 10, 14, 2], [11, 11], [12, 12, 6], [13, 7, 8]],
                  [script(S(10, 1, 1)), script(S(11, 2)), script(S(12, 2)), script(P)])
    assert t["deal"][0] == [0, 2, 10, 14]  # 0 the ass, 14 a joker, sorted
    assert t["tricks"][0]["plays"][0]["cards"] == [10, 14]


def _score_aware(hand, view, params, rng):
    # a decision that depends on the match totals and the hand number, to see both engines pass them
    total = view[V.HAND_NO] + view[V.TRICK]
    for s in range(view[V.PLAYERS]):
        total += view[V.SCORES + s]
    if total % 2 == 0:
        return nth_legal(hand, view, 0)
    return nth_legal(hand, view, nth_legal(hand, view, -1) - 1)


SCORE_AWARE = Seat("score_aware", compile_decision(_score_aware))


@pytest.mark.parametrize("hands, threshold", [(5, 0), (0, 150)])
def test_w18_matches_agree_in_both_engines(hands, threshold):
    seats = [SCORE_AWARE] + seats_for(["random", "lowest"], 2)
    res = batch.matches(seats, 12, 21, hands=hands, threshold=threshold)
    for m in range(12):
        ref = reference.play_match(21, m, seats, check_rules({}), hands=hands, threshold=threshold)
        assert list(res.totals[m]) == ref["totals"] and res.hands[m] == ref["hands"]
        if threshold:
            assert max(ref["totals"]) >= threshold  # the match ran to the threshold
        else:
            assert ref["hands"] == hands


def test_w18_threshold_matches_stop_at_the_first_hand_reaching_it():
    seats = seats_for(["lowest"], 4)
    res = batch.matches(seats, 40, 3, threshold=100)
    for m in range(40):
        before = batch.matches(seats, 1, 3, hands=int(res.hands[m]) - 1, first=m) if res.hands[m] > 1 else None
        assert res.totals[m].max() >= 100
        if before is not None:
            assert before.totals[0].max() < 100


def test_w18_lowest_total_wins_and_equal_lowest_share():
    res = batch.MatchResults(np.array([[10, 20, 10], [5, 9, 7]]), np.array([3, 3]))
    assert res.win_shares().tolist() == [[0.5, 0.0, 0.5], [1.0, 0.0, 0.0]]


def test_w18_a_match_needs_hands_or_a_threshold():
    with pytest.raises(SimkitError):
        batch.matches(seats_for(["lowest"], 3), 2, 0)
    with pytest.raises(SimkitError):
        batch.matches(seats_for(["lowest"], 3), 2, 0, hands=3, threshold=100)


def test_w18_hand_j_of_a_match_is_deal_j_of_the_match_seed():
    seats = seats_for(["lowest"], 4)  # `lowest` ignores scores and hand numbers
    res = batch.matches(seats, 10, 3, hands=3)
    for m in range(10):
        recs = list(batch.traces(seats, 3, int(match_seed(np.uint64(3), m))))
        assert len({str(r["deal"]) for r in recs}) == 3  # three different deals
        assert list(res.totals[m]) == [sum(p) for p in zip(*(r["penalties"] for r in recs))]
        ref = reference.play_match(3, m, seats, check_rules({}), hands=3)
        assert ref["totals"] == list(res.totals[m])


# --- baseline `lowest`: hands without number cards (never drawn by the hypothesis test) -----
