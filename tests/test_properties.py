"""Property tests (hypothesis): card conservation, termination and acting order for random play,
checked from the compiled engine's traces by code that shares nothing with the engines."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.rules import ASS_JOKER_OPTIONS, check_rules
from simkit.games.whos_the_ass.strategy import seats_for

MAX_TRICKS = 2 * 110 + 2

hands_of_play = st.fixed_dictionaries({
    "seed": st.integers(0, 2**64 - 1),
    "first": st.integers(0, 2**40),
    "players": st.integers(3, 12),
    "option": st.sampled_from(ASS_JOKER_OPTIONS),
    "lineup": st.lists(st.sampled_from(["random", "lowest"]), min_size=12, max_size=12),
})


def _traces(case, count=5):
    n = case["players"]
    seats = seats_for(case["lineup"][:n], n)
    return list(batch.traces(seats, count, case["seed"], check_rules({"ass_joker": case["option"]}),
                             first=case["first"]))


@settings(max_examples=60, deadline=None)
@given(hands_of_play)
def test_cards_are_conserved_move_by_move(case):
    for rec in _traces(case):
        hands = [Counter(h) for h in rec["deal"]]
        dealt = sum(hands, Counter())
        discarded = Counter()
        for trick in rec["tricks"]:
            table = Counter()
            for p in trick["plays"]:
                cards = Counter(p.get("cards", []))
                assert not cards - hands[p["seat"]], "played a card not in hand"
                hands[p["seat"]] -= cards
                table += cards
                assert sum(hands, Counter()) + discarded + table == dealt
            if trick["kind"] == "ass":
                hands[trick["taker"]] += table
            else:
                discarded += table
            assert sum(hands, Counter()) + discarded == dealt
        assert [sorted(h.elements()) for h in hands] == rec["final_hands"]


@settings(max_examples=60, deadline=None)
@given(hands_of_play)
def test_every_hand_terminates_within_the_bound(case):
    for rec in _traces(case):
        assert 1 <= len(rec["tricks"]) <= MAX_TRICKS
        assert min(len(h) for h in rec["final_hands"]) == 0
        kinds = [t["kind"] for t in rec["tricks"]]
        assert all(not (a == b == "ass") for a, b in zip(kinds, kinds[1:]))  # W15


@settings(max_examples=60, deadline=None)
@given(hands_of_play)
def test_everybody_acts_once_per_trick_clockwise_from_the_leader(case):
    n = case["players"]
    for rec in _traces(case):
        leader = rec["tricks"][0]["leader"]
        for trick in rec["tricks"]:
            assert trick["leader"] == leader
            assert [p["seat"] for p in trick["plays"]] == [(leader + i) % n for i in range(n)]
            leader = trick["taker"] if trick["kind"] == "ass" else trick["winner"]
