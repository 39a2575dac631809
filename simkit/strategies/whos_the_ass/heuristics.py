"""The heuristic families as one compiled decision function: each decision point (lead, raise,
leading the ass, the ass trick, joker use, reserve) reads its choice from the parameter vector,
so families are presets of it and `compose(...)` mixes them without compiling anything new."""

from simkit.core.errors import SimkitError
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS
from simkit.games.whos_the_ass.rules import GAME
from simkit.games.whos_the_ass.strategy import compile_decision
from simkit.strategies import registry
from simkit.strategies.registry import Param, StrategyInfo
from simkit.strategies.spec import StrategySpec
from simkit.strategies.whos_the_ass import slots as P
from simkit.strategies.whos_the_ass.ass_handling import ass_trick_card, leads_the_ass
from simkit.strategies.whos_the_ass.jokers import joker_budget
from simkit.strategies.whos_the_ass.reserve import reserved
from simkit.strategies.whos_the_ass.shedding import lead_set, raise_set


def _heuristic(hand, view, params, rng):
    phase = view[V.PHASE]
    if phase == V.ASS_TRICK:
        return ass_trick_card(hand, view, params)
    t, r = reserved(hand, view, params)
    if phase == V.LEAD:
        style = params[P.LEAD]
        if view[V.MAY_LEAD_ASS] == 1:
            if leads_the_ass(hand, params):
                return LEAD_ASS
            style = P.GREEDY  # delaying the ass: shed the largest set first
        return lead_set(style, hand, joker_budget(hand, params, True, 0, 0), t, r)
    count = view[V.COUNT]
    top = view[V.TOP]
    return raise_set(params[P.FOLLOW], hand, count, top, joker_budget(hand, params, False, count, top), t, r)


heuristic = compile_decision(_heuristic)

# name -> the decision point it sets, its code there, its parameters (slot, default, low, high)
CHOICES = {
    "lowest": ((P.LEAD, P.FOLLOW), P.LOWEST, ()),
    "greedy": ((P.LEAD, P.FOLLOW), P.GREEDY, ()),
    "highest": ((P.LEAD, P.FOLLOW), P.HIGHEST, ()),
    "dump": ((P.ASS_LEAD,), P.DUMP, ()),
    "delay": ((P.ASS_LEAD,), P.DELAY, (Param("delay_until", 6, 1, 13,
                                             "lead the ass once the hand has this many cards or fewer",
                                             P.DELAY_UNTIL, integer=True),)),
    "dodge": ((P.ASS,), P.DODGE, ()),
    "grab": ((P.ASS,), P.GRAB, (Param("max_cost", 35, 0, 300, "the most penalty points on the table worth taking",
                                      P.MAX_COST),)),
    "as_needed": ((P.JOKERS,), P.AS_NEEDED, ()),
    "spend": ((P.JOKERS,), P.SPEND, ()),
    "hoard": ((P.JOKERS,), P.HOARD, (Param("release_at", 3, 0, 13,
                                           "spend jokers once the hand has this many cards or fewer",
                                           P.RELEASE_AT, integer=True),)),
    "no_reserve": ((P.RESERVE,), P.NONE, ()),
    "keep_low": ((P.RESERVE,), P.KEEP_LOW, (Param("k", 2, 0, 13, "how many of the lowest cards to keep", P.KEEP,
                                                  integer=True),)),
}
SLOTS = {"lead": P.LEAD, "follow": P.FOLLOW, "ass_lead": P.ASS_LEAD, "ass": P.ASS, "jokers": P.JOKERS,
         "reserve": P.RESERVE}
DESCRIPTIONS = {
    "greedy": "Lead the largest set; raise with the cheapest set that beats, pass rather than break a larger set.",
    "highest": "Shed high cards first: lead the highest value, raise with the highest set that beats.",
    "spend": "Use jokers whenever they let you shed more cards or raise (leads too).",
    "hoard": "Keep jokers until they let you go out, or until the hand has <= release_at cards.",
    "dump": "Lead the ass as soon as allowed (the baseline's habit).",
    "delay": "While the hand has more than delay_until cards, shed the largest set before leading the ass.",
    "dodge": "In an ass trick play the lowest card (the baseline's habit).",
    "grab": "Take an ass trick as its last player when the table costs <= max_cost points, to lead next.",
    "keep_low": "Never spend the k lowest cards in normal tricks while another player holds the ass.",
}


def _defaults() -> list[float]:
    vector = [0.0] * P.SIZE
    for name in ("delay", "grab", "hoard", "keep_low"):
        for p in CHOICES[name][2]:
            vector[p.slot] = p.default
    return vector


def _apply(vector: list[float], name: str, values: dict, slots: tuple[int, ...]) -> str:
    """Write choice `name` with its parameter values into `vector` at `slots`; its label."""
    _, code, params = CHOICES[name]
    for slot in slots:
        vector[slot] = code
    info = StrategyInfo(GAME, name, "", heuristic, params, base=tuple(vector))
    _, filled, label = registry.resolve_values(info, values)
    vector[:] = filled
    return label


def _compose(values: dict) -> tuple[tuple[float, ...], str]:
    vector = _defaults()
    parts = []
    for slot_name, spec in values.items():
        if slot_name not in SLOTS:
            raise SimkitError(f"compose has no decision point {slot_name!r} (choose from {', '.join(SLOTS)})")
        if not isinstance(spec, StrategySpec):
            raise SimkitError(f"compose: {slot_name}= needs a strategy name, got {spec:g}")
        name, inner = spec.name, spec.as_dict()
        slot = SLOTS[slot_name]
        if name not in CHOICES or slot not in CHOICES[name][0]:
            fits = ", ".join(n for n, c in CHOICES.items() if slot in c[0])
            raise SimkitError(f"compose: {name!r} cannot decide {slot_name} (choose from {fits})")
        parts.append(f"{slot_name}={_apply(vector, name, inner, (slot,))}")
    return tuple(vector), "compose(" + ", ".join(parts) + ")"


def _register() -> None:
    for name, description in DESCRIPTIONS.items():
        slots, code, params = CHOICES[name]
        base = _defaults()
        for slot in slots:
            base[slot] = code
        registry.add(StrategyInfo(GAME, name, description, heuristic, params, base=tuple(base)))
    registry.add(StrategyInfo(
        GAME, "compose",
        "Mix decision points: compose(lead=greedy, ass=grab(max_cost=30), jokers=hoard(release_at=3)); each "
        "point and its choices: " + "; ".join(f"{point} {', '.join(n for n, c in CHOICES.items() if slot in c[0])}"
                                              for point, slot in SLOTS.items())
        + "; unset points play like lowest.", heuristic, composer=_compose,
        points=tuple((point, tuple((n, c[2]) for n, c in CHOICES.items() if slot in c[0]))
                     for point, slot in SLOTS.items())))


_register()
