"""How a player reads the table (H1): the response they mean. `right` reads it as the rules say;
the others each miss one rule, a misreading that no amount of speed or care mends."""

from simkit.core.rng import below
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.cards import majority, repeat_rule, right_of_view, right_word, word_of
from simkit.games.eigenwijs.rules import COUNT, MAX_COUNT, NIEMAND, PRECIES, SLAP
from simkit.games.eigenwijs.strategy import strategy


@strategy("right", "Means the right response every turn (E6-E14); its mistakes are the model's slips, "
          "hesitations and false slaps (H2-H5).")
def right(view, params, rng):
    return right_of_view(view)


@strategy("no_precies", "Reads the table right but forgets the Precies rule (E14): repeats the word called "
          "before instead of saying Precies.")
def no_precies(view, params, rng):
    return right_word(view[V.TOPS:], view[V.PILES], view[V.PILE])


@strategy("chick_blind", "Reads the table right but forgets the chicks (E12): calls the word of E7 where the "
          "count is due.")
def chick_blind(view, params, rng):
    tops = view[V.TOPS:]
    piles = view[V.PILES]
    colour, eggs, tied = majority(tops, piles)
    if tied:
        return SLAP
    return repeat_rule(word_of(tops, piles, view[V.PILE], colour, eggs), view[V.PRECIES] == 1, view[V.PREVIOUS])


@strategy("guesser", "Says a uniformly random response among those in use (the words of E7, a slap, and "
          "Precies and the counts where the variants allow): a yardstick of no skill.")
def guesser(view, params, rng):
    words = 5 if view[V.PILES] > 2 else 4  # E7, H2: with 2 players on own piles (2 piles) Jullie is not in use
    precies = 1 if view[V.PRECIES] == 1 else 0
    k = words + 1 + precies + (MAX_COUNT + 1 if view[V.CHICKS] == 1 else 0)
    r = below(rng, k)
    if r < words:
        return NIEMAND + r
    if r == words:
        return SLAP
    if precies == 1 and r == words + 1:
        return PRECIES
    return COUNT + r - words - 1 - precies
