"""The words a report uses that a reader must otherwise guess, each said once, here: every kind of
run ends its report with the ones it uses (`section`), and docs/reports.md lists them all (a test
keeps the two the same)."""

from simkit.games import Words
from simkit.reports.page import Section

TERMS = {
    # every experiment
    "table": "one player count, lineup and sweep point of a spec (a cell); every strategy at a table plays "
             "the same deals",
    "deal": "what is dealt for one {deal} (its {dealt}); a table replays each deal in every seating",
    "seating": "the lineup moved on by one seat, and again, until every strategy has played every seat of "
               "every deal (seating = \"rotate\"); each move is a rotation",
    "seat rows": "one row per seat of each {deal} (or match) played; n counts deals, not rows",
    "n": "the number of deals an estimate is taken over (a deal's seats and seatings share its {dealt}, so they "
         "count once)",
    "95% interval (±)": "the range that holds the true value in 95 of 100 repetitions of the run; ± is its "
                        "longer side",
    "baseline": "the strategy the others are compared with on the same deals (the spec's `baseline`)",
    "paired difference": "a strategy's mean minus another's on the same deals and seats, with the interval of "
                         "the deals' differences: the deals' luck cancels",
    "decisive": "the 95% interval excludes 0 (or, beside a fair share, the fair share)",
    "fair share": "what a share is when no player is better than another: 1/n at n players where exactly one "
                  "seat of each deal counts (one winner, say)",
    "sweep": "a spec's list of values for a strategy's parameter (or a model value, or a rule option); each "
             "value is a table of its own, on the same deals",
    "rule variant": "a table whose rules differ in the options a spec sweeps (`\"rules.chicks\" = [false, true]`); "
                    "compared with the reference rules' table on the same deals",
    "reference rules": "the first listed value of every swept rule option: what each rule variant is compared with",
    # the field analysis
    "profile": "one strategy per seat, as a multiset of the pool; every profile is played on the same deals",
    "stable mix": "a symmetric equilibrium: a mix of strategies no player gains by leaving when the others "
                  "play it",
    "regret ε": "how much the best reply to a mix gains over the mix itself; 0 for a stable mix, in the "
                "payoff's unit",
    "support": "the strategies a mix gives weight to",
    "support reappeared": "the share of bootstrap resamples of the deals on which a stable mix with the same "
                          "support was found again",
    "replicator dynamics": "a mix moving towards the strategies that do better than it, step by step; where it "
                           "settles is a stable mix",
    "value": "a strategy's payoff with the other seats drawn from the stable mix",
    # the tuning
    "candidate": "one setting of the tuned strategy's parameters",
    "leader": "the candidate with the best mean so far in a round of the race",
    "dropped": "a candidate decisively worse than some other candidate by their paired difference, the test's "
               "level divided among every pair of candidates",
    "confirmation": "the winner played again on fresh deals (another seed) beside the runner-up, the family's "
                    "default (or every built-in at its defaults) and the field's strategy",
    # the grading
    "decision point": "where a move with a choice is made: lead, ass lead, follow, ass trick, joker",
    "cost": "the penalty points a move loses against the search's best action on the same samples of the "
            "hidden cards",
    "negative cost": "the graded move did better than the search's pick on the half of the samples the cost is "
                     "weighed on (the pick is made on the other half): chance, or the search's rollouts "
                     "misjudging the position",
    "points lost per hand": "the costs of a hand's moves summed, averaged over the hands",
}

EXPERIMENT = ("table", "deal", "seating", "seat rows", "n", "95% interval (±)", "baseline", "paired difference",
              "decisive", "fair share", "sweep")
VARIANTS = ("rule variant", "reference rules")  # an experiment that sweeps rule options adds these
FIELD = ("profile", "deal", "stable mix", "regret ε", "support", "support reappeared", "replicator dynamics",
         "value", "95% interval (±)")
TUNING = ("candidate", "deal", "leader", "paired difference", "dropped", "confirmation", "95% interval (±)")
GRADING = ("decision point", "cost", "negative cost", "points lost per hand", "deal", "95% interval (±)")


def section(terms: tuple[str, ...], said: Words | None = None) -> Section:
    """The report's last section: each of `terms` with what it means here, in the game's words
    (`said`: its unit of play and what a deal shares) where the report has a game."""
    deal, dealt = (said.deal, said.dealt) if said else ("hand, round or game", "cards")
    return Section("Words used here", "\n".join(f"- {term}: {TERMS[term].format(deal=deal, dealt=dealt)}"
                                                for term in terms))
