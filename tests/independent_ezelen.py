"""Independent checker for Ezelen round traces (standard library only, imports nothing of simkit).

Written from two texts only, without reading simkit's source:

- docs/rules/ezelen.md   (rules Z1..Z7, simulation model M1..M8, the shipped strategies)
- docs/traces.md    (JSON Lines trace format, "Ezelen -- one round per line")

The draw order of the engine's generator is a simkit convention that the texts do not give, so the
random draws are not reproduced.  Everything that follows from the rules and the spec *given* the
recorded deal, passes, signals, notices, copies and tempo faults is checked.

Public API
----------
check_round(record, strategies=True)        -> None  (AssertionError at the first problem)
check_stream(records, from_start=True, ...) -> int   (check_round on each + Z7 letters across records)
check_file(path, ...)                       -> int   (check_stream on a .jsonl file)

Readings taken where the texts are open (the most literal one each time)
---------------------------------------------------------------------------
R1  Beats and turns.  Beat t is the state after the passes of turns[0..t-1] (beat 0 = the deal), at
    time t x beat.  The M6 events of beat t (signals, noticing, end test, stalled test, tempo faults,
    passes of turn t) happen in that order.  A round that ends at beat E records E turns, whatever the
    reason: E = len(turns) is "the end beat".
R2  Signals (M6 step 1, Z4, M3).  At every beat from the first signal on, *every* seat that holds a
    set and has not copied yet signals, and only such seats.  "Has not copied yet" at beat t means:
    no recorded copy with time <= t x beat other than the signal itself (a noticer whose reaction is
    still pending, i.e. copy time > t x beat or not recorded, has not copied).  Before the first
    signal nobody signals; the first beat at which any seat holds a set is the first signal beat and
    all holders signal then (several in the same beat is allowed, Z5).  A seat that has copied and
    later completes a set does not signal and is then free to pass anything (Z4 binds signallers).
R3  A late signaller copies at min(signal time, pending reaction).  Since it may only signal when its
    pending reaction lies after the signal time, its copy time always equals signal turn x beat; so
    every signaller's copy time is checked to be exactly its signal turn x beat.
R4  Noticing (M2).  Only from beat f+1 on (f = first signal beat), at most once per seat, never by a
    seat at or after its own signal beat (a signaller has copied); a seat that noticed and whose
    reaction is still pending may later signal (M3).  A noticer's copy time > notice beat x beat.
    The probability p = attention x (base_notice + cascade x copied_so_far), copied_so_far counting
    recorded copies with time <= t x beat (signals of beat t included, step 1 precedes step 2), has
    two checkable consequences: p >= 1 (with a 1e-9 margin) means the seat *must* notice at that beat;
    p <= 0 means it never does.  With reaction_sigma == 0 the reaction is exactly reaction_median (so a
    noticer's copy time is known, also when a tempo/stalled round cuts it off).
R5  End of round (M6 steps 3-5).  "last"/"tie": every seat has signalled or noticed at beat E and not
    at beat E-1.  "stalled": E == max_turns and not everyone has signalled or noticed at beat E.
    "tempo": some seat commits its second fault at beat E (step 5; step 3 and 4 did not end it).  No
    beat before E may have met any of these conditions.  A beat E == max_turns that meets step 3 is
    decided ("last"/"tie"), not stalled.
R6  Tempo faults (M4): at beat t only by seats that have neither signalled nor noticed at beat t
    (after steps 1-2 of that beat), at most one per seat and beat, only at beats where step 5 is
    reached (t < E, or t == E in a "tempo" round); a seat's second fault ends the round; with several
    second faults in that beat the loser is one of them.  tempo_fault == 0 means never; >= 1 always.
R7  Copies.  In a decided round ("last"/"tie") every seat appears exactly once, pending reactions
    after E x beat included (the spec's example has 9.71 > 3 x 3.0).  In a "tempo"/"stalled" round the
    copies are those that "happened before the round ended": every signaller (its copy is at its
    signal beat <= E) and only copies with time <= E x beat.  Sorted by time, equal times by seat.
R8  Z5 outcome of a decided round: T = latest copy time, H = the seats copying at T.  One seat alone at
    T loses ("last"), whether its copy was a reaction or a late signal.  Two or more seats at T that
    all signalled (then necessarily in the same turn) make a "tie" (with 2 players always so).  Two
    or more seats at T, not all signallers (two reactions equal to the bit, possible only with
    reaction_sigma 0, or a reaction landing exactly on a signal beat) is outside the texts: the Z5 tie
    clause covers same-turn signallers only, so the round is read as "last" and the loser must be in H
    (which one is not checked).
R9  Z4 passing: a seat that signalled at beat g passes, in every turn t >= g, exactly the value it
    receives in turn t (so a row of signallers passes the value arriving at its first member along);
    every other seat passes a value it holds before the turn (Z3: chosen before seeing the arriving
    card).  Hands stay at 4 cards; each value 0..n-1 stays 4 times in play.
R10 Z7 letters: within a match letters carry over, +1 for the loser of a "last" or "tempo" round; a
    match ends in the round where a seat reaches 4; the next record (if any) is round 0 of match + 1;
    a record after a round with nobody at 4 continues the same match with round + 1.  Letters 0..4.
    players and strategies are the same for all rounds of a match.
R11 The order of `signals`, `notices` and `tempo_faults` is not given by the spec; signals and tempo
    faults are read as chronological lists (turn non-decreasing), notices in any order.
R12 Format: extra keys are allowed (the spec says so); the optional `notices` is [{"seat","turn"}],
    the engine's claim of who noticed when.  Without it, the noticing checks fall back to the lower
    bounds that the copies and tempo faults imply.  max_turns is an integer >= 0, beat a number > 0.
R13 Strategies (M1, only if strategies=True): `greedy` (not a signaller) passes a card of a value it
    holds least often; `sticky` never passes, while not a signaller, some value that was among its
    most-held values at the deal (its target).  Other strategies are not checked.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

__all__ = ["check_round", "check_stream", "check_file", "TraceError", "MODEL_KEYS", "LOSS_REASONS"]

TraceError = AssertionError

MODEL_KEYS = ("base_notice", "cascade", "reaction_median", "reaction_sigma", "attention", "tempo_fault")
LOSS_REASONS = ("last", "tempo", "tie", "stalled")
REQUIRED = {
    "game": str, "format": int, "seed": int, "match": int, "round": int, "players": int,
    "strategies": list, "rules": dict, "model": dict, "deal": list, "turns": list, "signals": list,
    "copies": list, "tempo_faults": list, "loser": (int, type(None)), "loss_reason": str, "letters": list,
}
TOL = 1e-9
LETTERS_TO_LOSE = 4  # E-Z-E-L


def _check(cond, msg: str) -> None:
    if not cond:
        raise AssertionError(msg)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) and math.isfinite(x)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def _has_set(hand: Counter) -> bool:
    return any(k == 4 for k in hand.values())


def _events(rec: dict, key: str, n: int, field: str) -> list[tuple[int, object]]:
    """A list of {"seat", field} objects -> [(seat, value)] with type checks."""
    out = []
    for i, e in enumerate(rec[key]):
        _check(isinstance(e, dict) and "seat" in e and field in e,
               f"spec: {key}[{i}] must be an object with 'seat' and '{field}', got {e!r}")
        _check(_is_int(e["seat"]) and 0 <= e["seat"] < n, f"spec: {key}[{i}].seat must be a seat 0..{n - 1}: {e!r}")
        v = e[field]
        if field == "time":
            _check(_is_num(v) and v >= 0, f"spec: {key}[{i}].time must be a finite number >= 0: {e!r}")
        else:
            _check(_is_int(v) and v >= 0, f"spec: {key}[{i}].{field} must be an integer >= 0: {e!r}")
        out.append((e["seat"], v))
    return out


def _per_seat(model: dict, key: str, n: int) -> list[float]:
    v = model[key]
    if isinstance(v, list):
        _check(len(v) == n, f"M8/spec: model.{key} as a list needs one value per seat ({n}), got {len(v)}")
        _check(all(_is_num(x) for x in v), f"spec: model.{key} entries must be numbers: {v!r}")
        return [float(x) for x in v]
    _check(_is_num(v), f"spec: model.{key} must be a number or a list of {n} numbers, got {v!r}")
    return [float(v)] * n


# ---------------------------------------------------------------------------------------------
# one record
# ---------------------------------------------------------------------------------------------

def check_round(rec: dict, strategies: bool = True) -> None:
    """Check one Ezelen round record (one parsed JSON line).  AssertionError at the first problem."""
    _check(isinstance(rec, dict), f"spec: a record is a JSON object, got {type(rec).__name__}")
    where = f"match {rec.get('match')} round {rec.get('round')}"
    try:
        _check_round(rec, strategies)
    except AssertionError as exc:
        raise AssertionError(f"[{where}] {exc}") from None


def _check_round(rec: dict, strategies: bool) -> None:
    # --- format --------------------------------------------------------------------------------
    for key, typ in REQUIRED.items():
        _check(key in rec, f"spec: required key {key!r} missing")
        val = rec[key]
        if typ is int:
            _check(_is_int(val), f"spec: {key!r} must be an integer, got {val!r}")
        elif key == "loser":
            _check(val is None or _is_int(val), f"spec: 'loser' must be a seat or null, got {val!r}")
        else:
            _check(isinstance(val, typ), f"spec: {key!r} must be {typ.__name__}, got {type(val).__name__}")
    _check(rec["game"] == "ezelen", f"spec: game must be 'ezelen', got {rec['game']!r}")
    _check(rec["format"] == 1, f"spec: format must be 1, got {rec['format']!r}")
    _check(rec["seed"] >= 0, f"spec: seed must be >= 0, got {rec['seed']}")
    _check(rec["match"] >= 0 and rec["round"] >= 0, "spec: match and round count from 0")
    n = rec["players"]
    _check(2 <= n <= 13, f"Z1: players must be 2..13, got {n}")
    strats = rec["strategies"]
    _check(len(strats) == n and all(isinstance(x, str) and x for x in strats),
           f"spec: strategies must be {n} non-empty strings, got {strats!r}")

    rules = rec["rules"]
    for key in ("beat", "max_turns"):
        _check(key in rules, f"spec: rules must hold every parameter in force, {key!r} missing")
    beat = rules["beat"]
    _check(_is_num(beat) and beat > 0, f"spec: rules.beat must be a number > 0, got {beat!r}")
    max_turns = rules["max_turns"]
    _check(_is_int(max_turns) and max_turns >= 0, f"M5: rules.max_turns must be an integer >= 0, got {max_turns!r}")

    model = rec["model"]
    for key in MODEL_KEYS:
        _check(key in model, f"spec/M8: model must hold every parameter in force, {key!r} missing")
    attention = _per_seat(model, "attention", n)
    base_notice = _per_seat(model, "base_notice", n)
    cascade = _per_seat(model, "cascade", n)
    median = _per_seat(model, "reaction_median", n)
    sigma = _per_seat(model, "reaction_sigma", n)
    tempo_p = _per_seat(model, "tempo_fault", n)
    for name, vals in (("attention", attention), ("base_notice", base_notice), ("cascade", cascade),
                       ("reaction_sigma", sigma)):
        _check(all(x >= 0 for x in vals), f"M2/M3: model.{name} must be >= 0: {vals}")
    _check(all(x > 0 for x in median), f"M3: model.reaction_median must be > 0: {median}")
    _check(all(0 <= x <= 1 for x in tempo_p), f"M4: model.tempo_fault must be a probability: {tempo_p}")

    # --- deal (Z1, Z2) -------------------------------------------------------------------------
    deal = rec["deal"]
    _check(len(deal) == n, f"Z2: deal must have {n} hands, got {len(deal)}")
    for s, h in enumerate(deal):
        _check(isinstance(h, list) and len(h) == 4, f"Z2: deal[{s}] must be 4 cards, got {h!r}")
        _check(all(_is_int(c) and 0 <= c < n for c in h), f"Z1/spec: deal[{s}] values must be 0..{n - 1}: {h}")
        _check(h == sorted(h), f"spec: deal[{s}] must be sorted ascending: {h}")
    dealt = Counter(c for h in deal for c in h)
    _check(all(dealt[v] == 4 for v in range(n)), f"Z1: each value must be dealt exactly 4 times: {dict(dealt)}")

    turns = rec["turns"]
    E = len(turns)  # the end beat (R1)
    _check(E <= max_turns, f"M5: {E} turns recorded but max_turns is {max_turns}")
    for t, row in enumerate(turns):
        _check(isinstance(row, list) and len(row) == n and all(_is_int(c) and 0 <= c < n for c in row),
               f"spec: turns[{t}] must be {n} values 0..{n - 1}, got {row!r}")

    # --- events -------------------------------------------------------------------------------
    sig_list = _events(rec, "signals", n, "turn")
    copy_list = _events(rec, "copies", n, "time")
    fault_list = _events(rec, "tempo_faults", n, "turn")
    has_notices = "notices" in rec
    if has_notices:
        _check(isinstance(rec["notices"], list), "spec: 'notices' must be a list")
        notice_list = _events(rec, "notices", n, "turn")
    else:
        notice_list = []

    sig: dict[int, int] = {}
    for s, t in sig_list:
        _check(s not in sig, f"M3: seat {s} signals twice: {rec['signals']}")
        _check(t <= E, f"spec: seat {s} signals at turn {t}, after the round's end beat {E}")
        sig[s] = t
    _check([t for _, t in sig_list] == sorted(t for _, t in sig_list),
           f"R11: signals not in turn order: {rec['signals']}")
    ntc: dict[int, int] = {}
    for s, t in notice_list:
        _check(s not in ntc, f"M2: seat {s} notices twice: {rec['notices']}")
        _check(t <= E, f"M2: seat {s} notices at beat {t}, after the round's end beat {E}")
        ntc[s] = t
    cp: dict[int, float] = {}
    for s, x in copy_list:
        _check(s not in cp, f"Z5: seat {s} copies twice: {rec['copies']}")
        cp[s] = float(x)
    _check(copy_list == sorted(copy_list, key=lambda e: (e[1], e[0])),
           f"spec: copies must be sorted by time, then seat: {rec['copies']}")
    _check([t for _, t in fault_list] == sorted(t for _, t in fault_list),
           f"R11: tempo_faults not in turn order: {rec['tempo_faults']}")
    _check(len(set(fault_list)) == len(fault_list), f"M4: a tempo fault is listed twice: {rec['tempo_faults']}")
    faults_at: dict[int, list[int]] = {}
    for s, t in fault_list:
        _check(t <= E, f"M4: tempo fault of seat {s} at beat {t}, after the end beat {E}")
        faults_at.setdefault(t, []).append(s)

    reason = rec["loss_reason"]
    _check(reason in LOSS_REASONS, f"spec: loss_reason must be one of {LOSS_REASONS}, got {reason!r}")
    decided = reason in ("last", "tie")
    first = min(sig.values()) if sig else None

    # --- signallers' and noticers' copies (M3, R3, R4) ----------------------------------------------
    for s, g in sig.items():
        _check(s in cp, f"M3: signaller {s} (turn {g}) has no copy")
        _check(_close(cp[s], g * beat), f"M3: signaller {s} (turn {g}) must copy at {g * beat}, copies at {cp[s]}")
    for s, b in ntc.items():
        _check(first is not None and b >= first + 1,
               f"M2: seat {s} notices at beat {b}, not after the first signal's beat {first}")
        _check(s not in sig or sig[s] > b, f"R4: seat {s} signalled at {sig.get(s)} and notices at {b}")
        if s in cp and s not in sig:
            _check(cp[s] > b * beat, f"M3: seat {s} noticed at beat {b} but copies at {cp[s]} <= {b * beat}")
            if sigma[s] == 0:
                _check(_close(cp[s], b * beat + median[s]),
                       f"M3: reaction_sigma 0: seat {s} must copy at {b * beat + median[s]}, copies at {cp[s]}")
        if s not in sig and sigma[s] == 0 and not decided:
            _check((s in cp) == (b * beat + median[s] <= E * beat + TOL),
                   f"R7: reaction_sigma 0: seat {s} copies at {b * beat + median[s]}, the {reason} round ends at "
                   f"{E * beat}, but its copy is {'listed' if s in cp else 'missing'}")
        if s in sig and sigma[s] == 0:
            _check(b * beat + median[s] > sig[s] * beat - TOL,
                   f"M3: seat {s} reacted at {b * beat + median[s]} but signalled later at {sig[s] * beat}")
    for s, x in cp.items():
        if s in sig:
            continue
        _check(first is not None and x > (first + 1) * beat,
               f"M2/M3: seat {s} copies at {x} without signal, not after the first notice beat {first}+1")
        if has_notices:
            _check(s in ntc, f"M3: seat {s} copies at {x} but neither signalled nor noticed")
        if not decided:
            _check(x <= E * beat + TOL,
                   f"R7: {reason} round ended at {E * beat} but seat {s}'s copy at {x} is listed as happened")
    if decided:
        _check(sorted(cp) == list(range(n)),
               f"spec: in a round decided by the last copier every seat copies once: {rec['copies']}")

    def copied_by(s: int, t: int) -> bool:
        """Seat s has a copy other than a signal at beat t with time <= t x beat."""
        if s not in cp:
            return False
        if sig.get(s) == t:
            return False  # its recorded copy is this very signal; R2/R3: it had not copied before
        return cp[s] <= t * beat + TOL

    def done(s: int, t: int) -> bool:
        return (s in sig and sig[s] <= t) or (s in ntc and ntc[s] <= t)

    # --- replay the beats (M6) ------------------------------------------------------------------
    hands = [Counter(h) for h in deal]
    n_faults = [0] * n
    second_at_end: list[int] = []
    strat_ok = _StrategyChecker(strats, deal) if strategies else None
    for t in range(E + 1):
        # (1) signals
        holders = {s for s in range(n) if _has_set(hands[s])}
        now = {s for s, g in sig.items() if g == t}
        for s, g in sig.items():
            if g < t:
                _check(s in holders, f"Z4: signaller {s} (turn {g}) no longer holds a set at beat {t}: "
                                     f"{sorted(hands[s].elements())}")
        if first is None or t < first:
            _check(not holders, f"Z4/spec: seats {sorted(holders)} hold a set at beat {t} but nobody signals then "
                                f"(first signal: {first})")
        elif t == first:
            _check(now == holders, f"spec: first signals at beat {t} must be exactly the set holders "
                                   f"{sorted(holders)}, got {sorted(now)}")
        else:
            must = {s for s in holders if s not in sig or sig[s] >= t}
            must = {s for s in must if not copied_by(s, t)}
            _check(now == must, f"M3/M6: at beat {t} the seats that must signal (set, not copied) are "
                                f"{sorted(must)}, signals are {sorted(now)}")
        # (2) noticing
        if has_notices:
            noticing = {s for s, b in ntc.items() if b == t}
            if first is not None and t > first:
                k = sum(1 for x in cp.values() if x <= t * beat + TOL)
                for s in range(n):
                    if done(s, t - 1) or (s in sig and sig[s] <= t):
                        continue
                    p = attention[s] * (base_notice[s] + cascade[s] * k)
                    if p >= 1 + TOL:
                        _check(s in noticing, f"M2: at beat {t} seat {s} notices with p={p:.3f} >= 1 "
                                              f"({k} copied) but does not")
                    if p <= 0:
                        _check(s not in noticing, f"M2: seat {s} notices at beat {t} with p={p}")
        # (3) end when everybody has signalled or noticed
        if has_notices:
            all_done = all(done(s, t) for s in range(n))
            if all_done:
                _check(t == E, f"M6: everybody has signalled or noticed at beat {t}, but {E} turns are recorded")
                _check(decided, f"M6: the round ends at beat {t} by the last copy, loss_reason is {reason!r}")
                break
            _check(not (t == E and decided), f"M6: {reason!r} round ends at beat {E} but not everybody has "
                                             f"signalled or noticed then (signals {sig}, notices {ntc})")
        else:
            if all(s in sig and sig[s] <= t for s in range(n)):
                _check(t == E and decided, f"M6: everybody has signalled at beat {t}; the round must end there "
                                           f"as decided ({E} turns, {reason!r})")
            if t == E and decided:
                _check(any(g == E for g in sig.values()) or any(x > E * beat for s, x in cp.items() if s not in sig),
                       f"M6: nobody can have signalled or noticed at the end beat {E}")
                break
        # (4) stalled
        if t == max_turns:
            _check(t == E and reason == "stalled", f"M5: beat {t} = max_turns reached, loss_reason {reason!r}")
            break
        # (5) tempo faults
        for s in faults_at.get(t, []):
            if has_notices:
                _check(not done(s, t), f"M4: seat {s} commits a tempo fault at beat {t} after signal/notice")
            else:
                _check(not (s in sig and sig[s] <= t), f"M4: seat {s} commits a tempo fault after signalling")
                _check(s not in cp or s in sig or cp[s] > (t + 1) * beat,
                       f"M4: seat {s} faults at beat {t}, so it noticed later, but copies at {cp.get(s)}")
            n_faults[s] += 1
            if n_faults[s] == 2:
                second_at_end.append(s)
        if has_notices:
            for s in range(n):
                if done(s, t):
                    continue
                if tempo_p[s] >= 1:
                    _check(s in faults_at.get(t, []), f"M4: tempo_fault 1 but seat {s} does not fault at beat {t}")
        for s in range(n):
            if tempo_p[s] == 0:
                _check(s not in faults_at.get(t, []), f"M4: seat {s} has tempo_fault 0 but faults at beat {t}")
        if second_at_end:
            _check(t == E and reason == "tempo",
                   f"Z6/M4: seats {second_at_end} are out of tempo a second time at beat {t}; the round must end "
                   f"there as 'tempo' (turns recorded: {E}, reason {reason!r})")
            break
        _check(t < E, f"M6: the round stops at beat {E} without a reason (no set for all, not max_turns, "
                      f"no second tempo fault), loss_reason {reason!r}")
        # (6) passes of turn t (Z3, Z4)
        row = turns[t]
        for s in range(n):
            left = (s - 1) % n
            if s in sig and sig[s] <= t:
                _check(row[s] == row[left], f"Z4: signaller {s} must pass on the {row[left]} it receives from "
                                            f"seat {left} in turn {t}, passes {row[s]}")
            else:
                _check(hands[s][row[s]] > 0, f"Z3: seat {s} passes {row[s]} in turn {t} but holds "
                                             f"{sorted(hands[s].elements())}")
                if strat_ok is not None:
                    strat_ok.check(s, hands[s], row[s], t)
        new = []
        for s in range(n):
            h = hands[s].copy()
            h[row[(s - 1) % n]] += 1
            h[row[s]] -= 1
            _check(h[row[s]] >= 0, f"Z3: seat {s} passes a card it does not have in turn {t}")
            h = +h
            _check(sum(h.values()) == 4, f"Z3: seat {s} holds {sum(h.values())} cards after turn {t}")
            new.append(h)
        hands = new
        total = Counter()
        for h in hands:
            total.update(h)
        _check(all(total[v] == 4 for v in range(n)) and len(total) == n, f"Z1: cards not conserved after turn {t}")

    _check(sum(n_faults) == len(fault_list),
           f"M6: tempo faults at beat {E} are recorded, but the round ended there before step 5: {rec['tempo_faults']}")

    # --- outcome (Z5, Z6, M5) -----------------------------------------------------------------
    loser = rec["loser"]
    if reason == "tempo":
        _check(second_at_end, f"Z6: loss_reason 'tempo' but no seat has a second tempo fault: {rec['tempo_faults']}")
        _check(loser in second_at_end, f"M4: tempo loser must be a seat with its second fault at beat {E} "
                                       f"{second_at_end}, got {loser}")
    else:
        _check(not second_at_end, f"Z6: a second tempo fault {second_at_end} but loss_reason {reason!r}")
    if reason == "stalled":
        _check(E == max_turns, f"M5: 'stalled' but only {E} of max_turns={max_turns} turns")
        _check(loser is None, f"spec: stalled round has loser null, got {loser}")
    if decided:
        latest = max(cp.values())
        at_latest = [s for s, x in cp.items() if x == latest]
        non_sig = [s for s in at_latest if s not in sig]
        if n == 2:
            _check(not non_sig, f"Z5: with 2 players both sets complete together; latest copier {at_latest}")
        if len(at_latest) > 1 and not non_sig:
            _check(len({sig[s] for s in at_latest}) == 1, "Z5: equal latest copy times from different signal turns")
            _check(reason == "tie" and loser is None,
                   f"Z5: latest copy ({latest}) shared by same-turn signallers {at_latest}: must be a tie, got "
                   f"{reason!r} loser {loser}")
        else:
            _check(reason == "last" and loser in at_latest,
                   f"Z5: the last copier is seat {at_latest} (time {latest}), record says {reason!r} loser {loser}")
    if loser is not None:
        _check(0 <= loser < n, f"spec: loser must be a seat 0..{n - 1}, got {loser}")

    # --- letters of this record alone (Z7) -------------------------------------------------------
    letters = rec["letters"]
    _check(len(letters) == n and all(_is_int(x) and 0 <= x <= LETTERS_TO_LOSE for x in letters),
           f"Z7/spec: letters must be {n} counts 0..4, got {letters!r}")
    if rec["round"] == 0:
        want = [1 if s == loser else 0 for s in range(n)]
        _check(letters == want, f"Z7: round 0 starts from zero letters: expected {want}, got {letters}")
    if loser is not None:
        _check(letters[loser] >= 1, f"Z7: loser {loser} has no letter: {letters}")
    full = [s for s in range(n) if letters[s] == LETTERS_TO_LOSE]
    _check(not full or full == [loser], f"Z7: seats {full} hold E-Z-E-L, but only this round's loser may: {loser}")


class _StrategyChecker:
    """R13: what the digest fixes about `greedy` and `sticky` passing."""

    def __init__(self, strats: list[str], deal: list[list[int]]):
        self.strats = strats
        self.sticky_targets: dict[int, set[int]] = {}
        for s, name in enumerate(strats):
            if name == "sticky":
                c = Counter(deal[s])
                top = max(c.values())
                self.sticky_targets[s] = {v for v, k in c.items() if k == top}

    def check(self, s: int, hand: Counter, value: int, t: int) -> None:
        name = self.strats[s]
        if name == "greedy":
            least = min(hand.values())
            _check(hand[value] == least, f"M1 greedy: seat {s} passes {value} in turn {t} from "
                                         f"{sorted(hand.elements())}, not a least-held value")
        elif name == "sticky":
            targets = self.sticky_targets[s]
            if len(hand) > 1 or hand[value] < 4:
                targets.discard(value)
            _check(targets, f"M1 sticky: seat {s} has passed every value it could have targeted at the deal "
                            f"(last: {value} in turn {t} from {sorted(hand.elements())})")


# ---------------------------------------------------------------------------------------------
# a stream of records: Z7 across rounds
# ---------------------------------------------------------------------------------------------

def check_stream(records, from_start: bool = True, strategies: bool = True, round_cap: int | None = None) -> int:
    """check_round on every record, and the match/round/letters bookkeeping of Z7 across them.

    from_start: the first record must be match 0, round 0 (a whole run).  round_cap: a caller's cap on
    rounds per match (not in the texts; simkit's batch.match_traces(max_rounds=...)): a match may also
    stop, without E-Z-E-L, after that many rounds.  Returns the record count.
    """
    prev = None
    count = 0
    for i, rec in enumerate(records):
        check_round(rec, strategies=strategies)
        where = f"record {i} (match {rec['match']} round {rec['round']})"
        if prev is None:
            if from_start:
                _check(rec["match"] == 0 and rec["round"] == 0, f"Z7/spec: {where}: a run starts at match 0 round 0")
        else:
            ended = max(prev["letters"]) >= LETTERS_TO_LOSE
            if round_cap is not None and prev["round"] == round_cap - 1 and rec["round"] == 0:
                ended = True
            if round_cap is not None:
                _check(rec["round"] < round_cap, f"{where}: round beyond the cap {round_cap}")
            if ended:
                _check(rec["match"] == prev["match"] + 1 and rec["round"] == 0,
                       f"Z7: {where}: match {prev['match']} ended (letters {prev['letters']}), expected match "
                       f"{prev['match'] + 1} round 0")
            else:
                _check(rec["match"] == prev["match"] and rec["round"] == prev["round"] + 1,
                       f"Z7: {where}: match {prev['match']} round {prev['round']} did not end the match, expected "
                       f"round {prev['round'] + 1} of the same match")
                _check(rec["players"] == prev["players"] and rec["strategies"] == prev["strategies"],
                       f"Z7: {where}: players or strategies change within a match")
                want = list(prev["letters"])
                if rec["loser"] is not None:
                    want[rec["loser"]] += 1
                _check(rec["letters"] == want, f"Z7: {where}: letters {prev['letters']} + loser {rec['loser']} "
                                               f"must give {want}, got {rec['letters']}")
        prev = rec
        count += 1
    return count


def check_file(path, from_start: bool = True, strategies: bool = True, round_cap: int | None = None) -> int:
    """check_stream on a JSON Lines file."""
    with Path(path).open(encoding="utf-8") as f:
        return check_stream((json.loads(line) for line in f if line.strip()), from_start, strategies, round_cap)
