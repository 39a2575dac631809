"""Independent checker and `lowest` replayer for Who's the Ass? hand traces.

Self-contained (standard library only).  Written from two documents only:

- docs/rules/whos-the-ass.md  (rules digest, rule ids W1..W18, baseline strategy `lowest`)
- docs/traces.md         (JSON Lines trace format, Who's the Ass? part)

It deliberately imports nothing from the engine under test, so that it can serve as a second,
independent implementation against which the engine's traces are verified.

Public API
----------
check_trace(record)               -> None   (AssertionError at the first problem)
replay_lowest(deal, ass_joker)    -> {"tricks": [...], "final_hands": [...], "penalties": [...]}

Card codes (W2): 0 = ass, 1..13 = number card of that value, 14 = joker.
"""

from __future__ import annotations

from collections import Counter

__all__ = ["check_trace", "replay_lowest", "check_lowest_seats", "TraceError"]

ASS = 0
JOKER = 14
NUMBER_VALUES = range(1, 14)

# W1: 110 cards = 8 of each value 1..13, 5 jokers, 1 ass.
DECK = Counter({ASS: 1, JOKER: 5, **{v: 8 for v in NUMBER_VALUES}})
assert sum(DECK.values()) == 110

ASS_JOKER_OPTIONS = ("1or14", "1", "any")

# W4: cards per player.
def cards_per_player(n: int) -> int:
    if 3 <= n <= 8:
        return 13
    table = {9: 12, 10: 11, 11: 10, 12: 9}
    if n in table:
        return table[n]
    raise ValueError(f"player count {n} outside 3..12 (W4)")


# W17: penalty value of one card.
def card_penalty(card: int) -> int:
    if card == ASS:
        return 20
    return card  # numbers: their value; joker (14): 14


TraceError = AssertionError  # what check_trace raises


def _fail(msg: str) -> None:
    raise AssertionError(msg)


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise AssertionError(msg)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_card_list(x) -> bool:
    return isinstance(x, list) and all(_is_int(c) and 0 <= c <= 14 for c in x)


def _sorted(x) -> bool:
    return all(x[i] <= x[i + 1] for i in range(len(x) - 1))


def _sub_multiset(small: Counter, big: Counter) -> bool:
    return all(big[c] >= k for c, k in small.items())


# ---------------------------------------------------------------------------------------------
# Set values (W7, W8)
# ---------------------------------------------------------------------------------------------

def normal_set_value(cards: list[int]) -> int | None:
    """Value of `cards` as a set in a normal trick, or None if they do not form a set.

    W7: k >= 1 cards of one number value, jokers may stand in; the ass is never part of a set.
    W8: jokers together with numbers take their value; jokers alone count 14.
    """
    if not cards:
        return None
    if ASS in cards:
        return None
    numbers = {c for c in cards if c != JOKER}
    if len(numbers) > 1:
        return None
    if not numbers:
        return JOKER  # jokers only: 14
    (v,) = numbers
    if not 1 <= v <= 13:
        return None
    return v


def ass_trick_allowed_values(card: int, ass_joker: str) -> set[int]:
    """Values a single card may count as in an ass trick (W12, W13)."""
    if 1 <= card <= 13:
        return {card}
    if card == JOKER:
        if ass_joker == "1or14":
            return {1, 14}
        if ass_joker == "1":
            return {1}
        if ass_joker == "any":
            return set(range(1, 15))
        raise ValueError(f"unknown ass_joker option {ass_joker!r}")
    return set()  # the ass can only be led, never followed with


# ---------------------------------------------------------------------------------------------
# check_trace
# ---------------------------------------------------------------------------------------------

REQUIRED_KEYS = {
    "game": str,
    "format": int,
    "seed": int,
    "hand": int,
    "players": int,
    "rules": dict,
    "strategies": list,
    "deal": list,
    "tricks": list,
    "final_hands": list,
    "penalties": list,
}


def check_trace(record: dict) -> None:
    """Validate one Who's the Ass? trace record (one parsed JSON line), move by move.

    Raises AssertionError with a message naming the rule (W..) or spec item at the first problem.
    """
    _check(isinstance(record, dict), f"record must be a JSON object, got {type(record).__name__}")

    # --- required keys and types (spec) ----------------------------------------------------
    for key, typ in REQUIRED_KEYS.items():
        _check(key in record, f"spec: required key {key!r} missing")
        val = record[key]
        if typ is int:
            _check(_is_int(val), f"spec: key {key!r} must be an integer, got {val!r}")
        else:
            _check(isinstance(val, typ), f"spec: key {key!r} must be {typ.__name__}, got {type(val).__name__}")
    _check(record["game"] == "whos-the-ass", f"spec: game must be 'whos-the-ass', got {record['game']!r}")
    _check(record["format"] == 1, f"spec: format must be 1, got {record['format']!r}")
    _check(record["hand"] >= 0, f"spec: hand index must be >= 0, got {record['hand']}")

    n = record["players"]
    _check(3 <= n <= 12, f"W4: players must be 3..12, got {n}")
    per = cards_per_player(n)

    rules = record["rules"]
    _check("ass_joker" in rules, "spec: rules must hold every option in force, 'ass_joker' missing")
    ass_joker = rules["ass_joker"]
    _check(ass_joker in ASS_JOKER_OPTIONS,
           f"W13: rules.ass_joker must be one of {ASS_JOKER_OPTIONS}, got {ass_joker!r}")

    strategies = record["strategies"]
    _check(len(strategies) == n, f"spec: strategies must have one entry per seat ({n}), got {len(strategies)}")
    _check(all(isinstance(s, str) for s in strategies), "spec: strategies must be strings")

    # --- deal (W1, W2, W4, W5) ---------------------------------------------------------------
    deal = record["deal"]
    _check(len(deal) == n, f"W4: deal must have {n} hands, got {len(deal)}")
    for s, h in enumerate(deal):
        _check(_is_card_list(h), f"W2: deal[{s}] must be a list of card codes 0..14, got {h!r}")
        _check(_sorted(h), f"spec: deal[{s}] must be sorted ascending: {h}")
        _check(len(h) == per, f"W4: {n} players get {per} cards each, deal[{s}] has {len(h)}")
    dealt = Counter(c for h in deal for c in h)
    _check(_sub_multiset(dealt, DECK),
           "W1: deal is not a sub-multiset of the 110-card deck: "
           + ", ".join(f"{c}x{dealt[c]} (deck {DECK[c]})" for c in sorted(dealt) if dealt[c] > DECK[c]))
    _check(dealt[ASS] == 1, f"W5: exactly one ass must be dealt, found {dealt[ASS]}")
    ass_holder = next(s for s, h in enumerate(deal) if ASS in h)

    # --- final_hands / penalties shape ---------------------------------------------------------
    final_hands = record["final_hands"]
    _check(len(final_hands) == n, f"spec: final_hands must have {n} hands, got {len(final_hands)}")
    for s, h in enumerate(final_hands):
        _check(_is_card_list(h), f"W2: final_hands[{s}] must be a list of card codes 0..14, got {h!r}")
        _check(_sorted(h), f"spec: final_hands[{s}] must be sorted ascending: {h}")
    penalties = record["penalties"]
    _check(len(penalties) == n, f"spec: penalties must have {n} entries, got {len(penalties)}")
    _check(all(_is_int(p) for p in penalties), f"spec: penalties must be integers: {penalties!r}")

    # --- replay the tricks -------------------------------------------------------------------------
    hands = [Counter(h) for h in deal]
    discarded: Counter = Counter()
    tricks = record["tricks"]
    _check(len(tricks) >= 1, "W16: a hand has at least one trick, 'tricks' is empty")

    leader = ass_holder  # W6
    ass_blocked_seat = None  # W15: seat that took the ass in the previous trick
    for t, trick in enumerate(tricks):
        where = f"trick {t}"
        _check(isinstance(trick, dict), f"spec: {where} must be an object")
        for key in ("kind", "leader", "plays"):
            _check(key in trick, f"spec: {where} lacks required key {key!r}")
        kind = trick["kind"]
        _check(kind in ("normal", "ass"), f"spec: {where} kind must be 'normal' or 'ass', got {kind!r}")
        _check(_is_int(trick["leader"]), f"spec: {where} leader must be an integer")
        if t == 0:
            _check(trick["leader"] == leader,
                   f"W6: the ass holder (seat {ass_holder}) leads the first trick, trace says {trick['leader']}")
        else:
            _check(trick["leader"] == leader,
                   f"W10/W14: {where} must be led by seat {leader} (previous winner/taker), "
                   f"trace says {trick['leader']}")
        plays = trick["plays"]
        _check(isinstance(plays, list), f"spec: {where} plays must be a list")
        _check(len(plays) == n, f"spec: {where} must have one play per player ({n}), got {len(plays)}")
        # every player's hand is non-empty at the start of every trick (else the hand had ended, W16)
        for s in range(n):
            _check(sum(hands[s].values()) > 0, f"W16: {where} starts while seat {s} has no cards")

        result_key = "winner" if kind == "normal" else "taker"
        other_key = "taker" if kind == "normal" else "winner"
        _check(result_key in trick, f"spec: {kind} {where} must end with {result_key!r}")
        _check(other_key not in trick, f"spec: {kind} {where} must not carry {other_key!r}")
        _check(_is_int(trick[result_key]), f"spec: {where} {result_key} must be an integer")

        table: Counter = Counter()
        # acting order clockwise from the leader, each player once
        for i, play in enumerate(plays):
            seat_expected = (leader + i) % n
            pw = f"{where} play {i}"
            _check(isinstance(play, dict), f"spec: {pw} must be an object")
            _check("seat" in play and _is_int(play["seat"]), f"spec: {pw} lacks an integer 'seat'")
            _check(play["seat"] == seat_expected,
                   f"acting order: {pw} must be seat {seat_expected} (clockwise from leader {leader}), "
                   f"got seat {play['seat']}")
            if "pass" in play:
                _check(play["pass"] is True, f"spec: {pw} 'pass' must be true, got {play['pass']!r}")
                _check("cards" not in play and "value" not in play,
                       f"spec: {pw} is a pass and must not carry cards/value")
            else:
                _check("cards" in play and "value" in play,
                       f"spec: {pw} must be a pass or have 'cards' and 'value'")
                _check(_is_card_list(play["cards"]), f"W2: {pw} cards must be card codes 0..14")
                _check(_sorted(play["cards"]), f"spec: {pw} cards must be sorted ascending: {play['cards']}")
                _check(_is_int(play["value"]), f"spec: {pw} value must be an integer")

        lead = plays[0]
        _check("pass" not in lead, f"W7: the leader of {where} cannot pass")
        lead_cards = lead["cards"]
        is_ass_lead = ASS in lead_cards

        if is_ass_lead:
            # ---------------- ass trick ----------------
            _check(lead_cards == [ASS], f"W11: the ass is led always alone, {where} lead is {lead_cards}")
            _check(kind == "ass", f"W11: leading the ass starts an ass trick, {where} kind is {kind!r}")
        else:
            _check(kind == "normal", f"W11: an ass trick starts with the ass led, {where} lead is {lead_cards}")

        if kind == "ass":
            _check(hands[leader][ASS] == 1, f"W11: seat {leader} leads the ass in {where} without holding it")
            _check(ass_blocked_seat != leader,
                   f"W15: seat {leader} took the ass in trick {t - 1} and may not lead it in the very "
                   f"next trick ({where})")
            _check(lead["value"] == 0, f"spec: the ass counts 0, {where} lead value is {lead['value']}")
            hands[leader][ASS] -= 1
            table[ASS] += 1
            best_value, best_seat = 0, leader
            for i in range(1, n):
                play = plays[i]
                s = play["seat"]
                pw = f"{where} play {i} (seat {s})"
                _check("pass" not in play, f"W12: nobody may pass in an ass trick ({pw} passed)")
                cards = play["cards"]
                _check(len(cards) == 1, f"W12: {pw} must play exactly one card in an ass trick, got {cards}")
                (c,) = cards
                _check(c != ASS, f"W11: only the leader may play the ass ({pw})")
                _check(hands[s][c] >= 1, f"{pw} plays {c} which the seat does not hold")
                allowed = ass_trick_allowed_values(c, ass_joker)
                _check(play["value"] in allowed,
                       f"W13 (ass_joker={ass_joker!r}): {pw} card {c} may count as "
                       f"{sorted(allowed)}, trace says value {play['value']}")
                hands[s][c] -= 1
                table[c] += 1
                if play["value"] >= best_value:  # W14 ties: the last of the equal highest takes
                    best_value, best_seat = play["value"], s
            _check(trick["taker"] == best_seat,
                   f"W14: taker of {where} must be seat {best_seat} (highest value {best_value}, "
                   f"ties to the last), trace says {trick['taker']}")
            # taker takes all cards into hand, the ass included
            hands[best_seat] += table
            table = Counter()
            leader = best_seat
            ass_blocked_seat = best_seat
        else:
            # ---------------- normal trick ----------------
            k = len(lead_cards)
            v = normal_set_value(lead_cards)
            _check(v is not None, f"W7: {where} lead {lead_cards} is not a set")
            _check(lead["value"] == v, f"W8: {where} lead {lead_cards} counts {v}, trace says {lead['value']}")
            _check(not (Counter(lead_cards) - hands[leader]),
                   f"{where}: leader seat {leader} leads {lead_cards} not all in hand")
            hands[leader] -= Counter(lead_cards)
            table += Counter(lead_cards)
            current, top_seat = v, leader
            for i in range(1, n):
                play = plays[i]
                s = play["seat"]
                pw = f"{where} play {i} (seat {s})"
                if "pass" in play:
                    continue  # W9: passing is always allowed
                cards = play["cards"]
                _check(len(cards) == k, f"W9: {pw} must raise with exactly {k} cards, got {cards}")
                pv = normal_set_value(cards)
                _check(pv is not None, f"W7/W9: {pw} cards {cards} are not a set")
                _check(play["value"] == pv, f"W8: {pw} cards {cards} count {pv}, trace says {play['value']}")
                _check(pv > current, f"W9: {pw} raise {cards} (value {pv}) must beat {current}")
                _check(not (Counter(cards) - hands[s]), f"{pw} plays {cards} not all in hand")
                hands[s] -= Counter(cards)
                table += Counter(cards)
                current, top_seat = pv, s
            _check(trick["winner"] == top_seat,
                   f"W10: winner of {where} must be seat {top_seat} (the last raiser, or the leader), "
                   f"trace says {trick['winner']}")
            discarded += table  # W10: discarded
            table = Counter()
            leader = top_seat
            ass_blocked_seat = None

        # card conservation: hands + discarded + table == dealt
        total = Counter()
        for h in hands:
            total += h
        total += discarded
        total += table
        _check(total == dealt, f"card conservation broken after {where}")
        _check(all(c >= 0 for h in hands for c in h.values()), f"negative card count after {where}")

        # W16: the hand ends after the first trick that leaves a player without cards
        someone_out = any(sum(h.values()) == 0 for h in hands)
        last = t == len(tricks) - 1
        if someone_out and not last:
            out = [s for s in range(n) if sum(hands[s].values()) == 0]
            _fail(f"W16: the hand must end after {where} (seats {out} hold no cards), "
                  f"but {len(tricks) - t - 1} more trick(s) follow")
        if last and not someone_out:
            _fail(f"W16: the trace ends after {where} while every player still holds cards")

    # --- final hands and penalties (W17) -------------------------------------------------------------
    expected_final = [sorted(h.elements()) for h in hands]
    for s in range(n):
        _check(final_hands[s] == expected_final[s],
               f"final_hands[{s}] must be {expected_final[s]} (replayed), trace says {final_hands[s]}")
    expected_pen = [sum(card_penalty(c) for c in h) for h in expected_final]
    for s in range(n):
        _check(penalties[s] == expected_pen[s],
               f"W17: penalties[{s}] must be {expected_pen[s]}, trace says {penalties[s]}")


# ---------------------------------------------------------------------------------------------
# replay_lowest: the baseline strategy `lowest` for every seat
# ---------------------------------------------------------------------------------------------

def _lowest_lead(hand: Counter, may_lead_ass: bool) -> list[int]:
    if hand[ASS] and may_lead_ass:
        return [ASS]
    for v in NUMBER_VALUES:
        if hand[v]:
            return [v] * hand[v]
    if hand[JOKER]:
        return [JOKER] * hand[JOKER]
    raise AssertionError("lowest: hand of only the ass that may not lead it (digest: cannot occur)")


def _lowest_follow(hand: Counter, k: int, c: int) -> list[int] | None:
    for v in range(c + 1, 14):
        if hand[v] >= k:
            return [v] * k
    for v in range(c + 1, 14):
        if hand[v] >= 1 and hand[v] + hand[JOKER] >= k:
            return [v] * hand[v] + [JOKER] * (k - hand[v])
    if c < 14 and hand[JOKER] >= k:
        return [JOKER] * k
    return None


def _lowest_ass_follow(hand: Counter) -> tuple[int, int]:
    for v in NUMBER_VALUES:
        if hand[v]:
            return v, v
    if hand[JOKER]:
        return JOKER, 1  # a joker declared as 1
    raise AssertionError("lowest: nothing to play in an ass trick")


def replay_lowest(deal: list[list[int]], ass_joker: str) -> dict:
    """Play a hand from `deal` with every seat using `lowest`; return tricks/final_hands/penalties."""
    if ass_joker not in ASS_JOKER_OPTIONS:
        raise ValueError(f"ass_joker must be one of {ASS_JOKER_OPTIONS}, got {ass_joker!r}")
    n = len(deal)
    cards_per_player(n)  # validates n (W4)
    hands = [Counter(h) for h in deal]
    holders = [s for s in range(n) if hands[s][ASS]]
    if len(holders) != 1:
        raise ValueError("deal must contain exactly one ass")
    leader = holders[0]  # W6
    blocked = None  # W15
    tricks = []
    limit = 4 * sum(len(h) for h in deal) + 10
    while True:
        if len(tricks) > limit:
            raise AssertionError("replay_lowest: hand does not end")
        hand = hands[leader]
        lead = _lowest_lead(hand, may_lead_ass=(blocked != leader))
        if lead == [ASS]:
            hand[ASS] -= 1
            table = Counter({ASS: 1})
            plays = [{"seat": leader, "cards": [ASS], "value": 0}]
            best_v, best_s = 0, leader
            for i in range(1, n):
                s = (leader + i) % n
                card, val = _lowest_ass_follow(hands[s])
                hands[s][card] -= 1
                table[card] += 1
                plays.append({"seat": s, "cards": [card], "value": val})
                if val >= best_v:
                    best_v, best_s = val, s
            hands[best_s] += table
            tricks.append({"kind": "ass", "leader": leader, "plays": plays, "taker": best_s})
            leader = best_s
            blocked = best_s
        else:
            hand.subtract(Counter(lead))
            k = len(lead)
            cur = normal_set_value(lead)
            plays = [{"seat": leader, "cards": sorted(lead), "value": cur}]
            top = leader
            for i in range(1, n):
                s = (leader + i) % n
                cards = _lowest_follow(hands[s], k, cur)
                if cards is None:
                    plays.append({"seat": s, "pass": True})
                    continue
                hands[s].subtract(Counter(cards))
                cur = normal_set_value(cards)
                plays.append({"seat": s, "cards": sorted(cards), "value": cur})
                top = s
            tricks.append({"kind": "normal", "leader": leader, "plays": plays, "winner": top})
            leader = top
            blocked = None
        if any(sum(h.values()) == 0 for h in hands):
            break
    final_hands = [sorted(h.elements()) for h in hands]
    penalties = [sum(card_penalty(c) for c in h) for h in final_hands]
    return {"tricks": tricks, "final_hands": final_hands, "penalties": penalties}


def check_lowest_seats(record: dict) -> None:
    """For a record that passes check_trace: every move of a seat whose strategy is "lowest" must be
    exactly the move the baseline strategy `lowest` prescribes in that position (any lineup)."""
    check_trace(record)
    n = record["players"]
    lowest = [st == "lowest" for st in record["strategies"]]
    hands = [Counter(h) for h in record["deal"]]
    blocked = None
    for t, trick in enumerate(record["tricks"]):
        plays = trick["plays"]
        leader = trick["leader"]
        if lowest[leader]:
            want = _lowest_lead(hands[leader], may_lead_ass=(blocked != leader))
            _check(plays[0]["cards"] == sorted(want),
                   f"lowest: trick {t} seat {leader} must lead {sorted(want)}, trace says {plays[0]['cards']}")
        table = Counter(plays[0]["cards"])
        hands[leader] -= Counter(plays[0]["cards"])
        k, cur = len(plays[0]["cards"]), plays[0]["value"]
        for i in range(1, n):
            p = plays[i]
            s = p["seat"]
            if trick["kind"] == "ass":
                if lowest[s]:
                    card, val = _lowest_ass_follow(hands[s])
                    _check(p["cards"] == [card] and p["value"] == val,
                           f"lowest: trick {t} seat {s} must play {[card]} as {val}, trace says {p}")
            else:
                if lowest[s]:
                    want = _lowest_follow(hands[s], k, cur)
                    got = None if "pass" in p else p["cards"]
                    _check(got == (None if want is None else sorted(want)),
                           f"lowest: trick {t} seat {s} must play {want} (None = pass), trace says {p}")
                if "pass" in p:
                    continue
                cur = p["value"]
            hands[s] -= Counter(p["cards"])
            table += Counter(p["cards"])
        if trick["kind"] == "ass":
            hands[trick["taker"]] += table
            blocked = trick["taker"]
        else:
            blocked = None
