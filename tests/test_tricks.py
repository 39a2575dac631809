"""W7–W10: the normal trick, on hand-made deals, in both engines."""

from conftest import ASS, J14, P, S, illegal_both, play_both, script

# Seat 3 holds the ass but the scripts never lead it; seat 0 leads first only if it holds the ass,
# so most deals give the ass to the seat that should lead.


def test_w7_the_leader_cannot_pass():
    deal = [[0, 3, 5], [4, 6], [7, 8], [9, 10]]
    illegal_both(deal, [script(P), script(P), script(P), script(P)], seat=0)


def test_w7_a_lead_is_a_set_of_one_value_held_in_hand():
    deal = [[0, 3, 3, 5], [5, 5, 5, 3], [7, 8], [9, 10]]
    illegal_both(deal, [script(S(3, 3)), script(P), script(P), script(P)], seat=0)   # only two 3s
    illegal_both(deal, [script(S(3, 1, 1)), script(P), script(P), script(P)], seat=0)  # no joker
    illegal_both(deal, [script(S(0, 1, 1)), script(P), script(P), script(P)], seat=0)  # ass in a set
    deal = [[0, 3, 3, 5], [6, 6], [7, 8], [9, 10]]
    t = play_both(deal, [script(S(3, 2)), script(S(6, 2)), script(P), script(P)])
    assert t["tricks"][0]["plays"][0] == {"seat": 0, "cards": [3, 3], "value": 3}


def test_w8_a_joker_with_number_cards_takes_their_value():
    deal = [[0, 10, 14, 2], [11, 11], [12, 12, 6], [13, 7, 8]]
    t = play_both(deal, [script(S(10, 1, 1)), script(S(11, 2)), script(S(12, 2)), script(P)])
    assert t["tricks"][0]["plays"][0] == {"seat": 0, "cards": [10, 14], "value": 10}
    assert t["tricks"][0]["winner"] == 2


def test_w8_a_ten_and_a_joker_do_not_beat_two_tens():
    deal = [[0, 10, 10, 2], [10, 14, 5], [6, 7], [8, 9]]
    illegal_both(deal, [script(S(10, 2)), script(S(10, 1, 1)), script(P), script(P)], seat=1)


def test_w8_jokers_alone_count_14_and_nothing_beats_them():
    deal = [[0, 14], [13], [6], [8]]
    t = play_both(deal, [script(J14, ASS), script(P, S(13)), script(P, S(6)), script(P, S(8))])
    assert t["tricks"][0]["plays"][0] == {"seat": 0, "cards": [14], "value": 14}
    assert t["tricks"][0]["winner"] == 0
    deal = [[0, 14, 2], [14, 5], [6, 7], [8, 9]]
    illegal_both(deal, [script(J14), script(J14), script(P), script(P)], seat=1)
    illegal_both(deal, [script(S(2)), script(S(9, 0, 1)), script(P), script(P)], seat=1)  # alone = 14


def test_w9_raise_with_the_same_count_and_a_higher_value():
    deal = [[0, 4, 4, 2], [5, 5, 5, 3], [4, 4, 6], [7, 8, 9]]
    illegal_both(deal, [script(S(4, 2)), script(S(5, 3)), script(P), script(P)], seat=1)  # count
    illegal_both(deal, [script(S(4, 2)), script(S(5, 1)), script(P), script(P)], seat=1)  # count
    illegal_both(deal, [script(S(4, 2)), script(P), script(S(4, 2)), script(P)], seat=2)  # not higher
    deal = [[0, 4, 4, 2], [5, 5], [4, 4, 6], [7, 8, 9]]
    t = play_both(deal, [script(S(4, 2)), script(S(5, 2)), script(P), script(P)])
    assert [p.get("value") for p in t["tricks"][0]["plays"]] == [4, 5, None, None]


def test_w9_passing_is_always_allowed():
    deal = [[0, 2], [13, 13, 3], [12, 12, 3], [7, 7]]
    t = play_both(deal, [script(S(2), ASS), script(P, S(3)), script(P, S(3)), script(P, S(7))])
    assert t["tricks"][0]["plays"][1:] == [{"seat": s, "pass": True} for s in (1, 2, 3)]
    assert t["tricks"][0]["winner"] == 0


def test_w10_the_highest_set_leads_next_and_the_cards_are_discarded():
    deal = [[0, 2, 3], [5, 9], [6, 8], [7, 10, 11]]
    t = play_both(deal, [script(S(2), P, P), script(S(5), P, P), script(P, P, P),
                         script(S(7), S(10), S(11))])
    assert [tr["winner"] for tr in t["tricks"]] == [3, 3, 3]  # the last raiser; then the leader
    assert [tr["leader"] for tr in t["tricks"]] == [0, 3, 3]
    assert t["final_hands"] == [[0, 3], [9], [6, 8], []]


def test_w6_the_ass_holder_leads_a_hand_made_deal_from_any_seat():
    deal = [[3, 5], [4, 6], [0], [9, 10]]
    t = play_both(deal, [script(S(3)), script(S(4)), script(ASS), script(S(9))])
    assert t["tricks"][0]["leader"] == 2 and t["tricks"][0]["kind"] == "ass"
    assert t["tricks"][0]["taker"] == 3
    assert t["final_hands"] == [[5], [6], [], [0, 3, 4, 9, 10]]


# --- W13: a joker is never declared outside 1..14 --------------------------------------------


def test_w7_w11_the_ass_with_a_joker_is_not_a_set():
    deal = [[0, 14, 5], [3, 9], [4, 6], [7, 8]]
    illegal_both(deal, [script(S(0, 1, 1)), script(P), script(P), script(P)], seat=0)


def test_w2_no_number_card_is_worth_14():
    deal = [[0, 14, 5], [3, 9], [4, 6], [7, 8]]
    illegal_both(deal, [script(S(14, 1, 0)), script(P), script(P), script(P)], seat=0)
    illegal_both(deal, [script(S(5)), script(P), script(P), script(S(14, 1, 0))], seat=3)
