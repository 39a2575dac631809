"""W11–W15: the ass and the ass trick, on hand-made deals, in both engines."""

import pytest
from conftest import ASS, J1, J14, P, S, illegal_both, play_both, script


def test_w11_only_the_leader_plays_the_ass_and_always_alone():
    deal = [[0, 2, 8], [3, 9], [4, 5], [6, 7]]
    # seat 3 wins trick 0, so seat 0 (holding the ass) follows in trick 1 and may not play it
    illegal_both(deal, [script(S(2), ASS), script(S(3), P), script(S(4), P), script(S(6), S(7))], seat=0,
                 trick=1)
    illegal_both(deal, [script(S(0, 2)), script(P), script(P), script(P)], seat=0)
    illegal_both(deal, [script(S(0, 1, 1)), script(P), script(P), script(P)], seat=0)
    t = play_both([[0, 5], [3], [9], [2]], [script(ASS), script(S(3)), script(S(9)), script(S(2))])
    assert t["tricks"][0]["kind"] == "ass"
    assert t["tricks"][0]["plays"][0] == {"seat": 0, "cards": [0], "value": 0}


def test_w12_nobody_passes_and_each_plays_exactly_one_card():
    illegal_both([[0, 5], [3], [9], [2]], [script(ASS), script(P), script(S(9)), script(S(2))], seat=1)
    illegal_both([[0, 5], [3, 3], [9], [2]], [script(ASS), script(S(3, 2)), script(S(9)), script(S(2))],
                 seat=1)
    t = play_both([[0, 5], [3], [9], [2]], [script(ASS), script(S(3)), script(S(9)), script(S(2))])
    assert [p["value"] for p in t["tricks"][0]["plays"]] == [0, 3, 9, 2]  # lower, higher, lower


@pytest.mark.parametrize("option, value, legal, taker", [
    ("1or14", 1, True, 2), ("1or14", 14, True, 1), ("1or14", 7, False, None),
    ("1", 1, True, 2), ("1", 14, False, None),
    ("any", 7, True, 2), ("any", 9, True, 2), ("any", 10, True, 1), ("any", 14, True, 1),
])
def test_w13_the_joker_in_an_ass_trick(option, value, legal, taker):
    deal = [[0, 5], [14], [9], [2]]
    seats = [script(ASS), script(S(value, 0, 1)), script(S(9)), script(S(2))]
    if not legal:
        illegal_both(deal, seats, option, seat=1)
        return
    t = play_both(deal, seats, option)
    assert t["tricks"][0]["plays"][1] == {"seat": 1, "cards": [14], "value": value}
    assert t["tricks"][0]["taker"] == taker


def test_w13_a_lone_joker_in_a_normal_trick_is_14_under_every_option():
    for option in ("1or14", "1", "any"):
        illegal_both([[0, 14, 2], [14, 5], [6, 7], [8, 9]],
                     [script(S(2)), script(S(9, 0, 1)), script(P), script(P)], option, seat=1)
        t = play_both([[0, 14], [13], [6], [8]], [script(J14, ASS), script(P, S(13)), script(P, S(6)),
                                                script(P, S(8))], option)
        assert t["tricks"][0]["plays"][0]["value"] == 14


def test_w14_the_highest_takes_everything_and_the_last_of_equals_takes():
    deal = [[0, 5], [2, 8], [1, 8], [2, 8, 9]]
    t = play_both(deal, [script(ASS, S(5)), script(S(2), P), script(S(1), P), script(S(2), S(1))])
    first = t["tricks"][0]
    assert first["taker"] == 3  # seats 1 and 3 both played 2: the later one takes
    assert t["tricks"][1]["leader"] == 3  # the taker leads next
    assert t["final_hands"][3] == [0, 2, 2, 8, 9]  # all four cards, the ass included, minus the 1 led


def test_w14_the_leader_of_an_ass_trick_never_takes_it():
    t = play_both([[0, 5], [14], [14], [14]], [script(ASS), script(J1), script(J1), script(J1)])
    assert t["tricks"][0]["taker"] == 3  # 0 is below every card; equal 1s: the last one takes


def test_w15_the_taker_may_not_lead_the_ass_in_the_very_next_trick():
    deal = [[0, 5], [2, 8, 8], [1, 8, 8], [2, 9]]
    illegal_both(deal, [script(ASS, P), script(S(2), P), script(S(1), P), script(S(2), ASS)], seat=3,
                 trick=1)


def test_w15_the_taker_may_lead_the_ass_again_from_the_trick_after():
    deal = [[0, 5], [2, 8, 8], [1, 8, 8], [2, 9]]
    t = play_both(deal, [script(ASS, P, S(5)), script(S(2), P, S(8)), script(S(1), P, S(8)),
                         script(S(2), S(1), ASS)])
    assert [tr["kind"] for tr in t["tricks"]] == ["ass", "normal", "ass"]
    assert [tr["leader"] for tr in t["tricks"]] == [0, 3, 3]
    assert t["tricks"][2]["taker"] == 2  # the ass changed hands twice


@pytest.mark.parametrize("option, value", [
    ("1or14", 0), ("1or14", 15), ("1", 0), ("1", 15), ("any", 0), ("any", 15),
])
def test_w13_a_joker_is_never_declared_outside_1_to_14(option, value):
    deal = [[0, 5], [14], [9], [2]]
    illegal_both(deal, [script(ASS), script(S(value, 0, 1)), script(S(9)), script(S(2))], option, seat=1)


# --- W18: each hand of a match is dealt afresh -----------------------------------------------
