"""The command line's inputs, read from their text and checked, for every game alike: rule
options (--rule name=value and a game's shorthands such as --ass-joker), model values
(--model name=value), strategy files, player lists, and the table `simulate` and `trace` play."""

from dataclasses import dataclass

from simkit import games
from simkit.core.errors import SimkitError, check_count
from simkit.core.files import input_file
from simkit.games import Game


def name_value(option: str, text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise SimkitError(f"{option} needs name=value, got {text!r}")
    return name.strip(), value.strip()


def number(text: str) -> int | float | str:
    """A number if the text is one, else the text itself (the game's checks judge it)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def shorthands() -> dict[str, tuple[str, ...]]:
    """Every registered game's rule shorthands (--ass-joker): flag -> the games that have it."""
    found: dict[str, tuple[str, ...]] = {}
    for name in games.names():
        for option in games.get(name).rule_flags:
            found[option.flag] = found.get(option.flag, ()) + (name,)
    return found


def rules(game: Game, pairs: tuple[str, ...] = (), flags: dict | None = None) -> dict:
    """Rule options from --rule name=value (any number) and the game's shorthands (`flags`: the
    shorthands' values by rule name, None where not given), checked by the game."""
    chosen = {}
    for text in pairs:
        name, value = name_value("--rule", text)
        if name in chosen and chosen[name] != number(value):
            raise SimkitError(f"--rule {name}={chosen[name]} and --rule {text.strip()} set the same rule differently")
        chosen[name] = number(value)
    for rule, value in (flags or {}).items():
        if value is None:
            continue
        option = next((o for o in game.rule_flags if o.rule == rule), None)
        if option is None:
            flag = "--" + rule.replace("_", "-")
            owners = " and ".join(games.get(g).title for g in shorthands().get(flag, ()))
            raise SimkitError(f"{flag} is a rule option of {owners}; {game.title} has no such rule")
        if option.rule in chosen and str(chosen[option.rule]).lower() != str(value).lower():
            raise SimkitError(f"{option.flag} {value} and --rule {option.rule}={chosen[option.rule]} set the same "
                              "rule differently")
        chosen[option.rule] = value
    return game.check_rules(chosen)


def model(game: Game, pairs: tuple[str, ...], players: int) -> dict:
    """Model values (Ezelen's M8) from --model name=value: a number for every seat, or one per
    seat, comma-separated."""
    if not pairs:
        return {}
    if game.check_model is None:
        raise SimkitError(f"--model sets a game's model of the players; {game.title} has none")
    values = {}
    for text in pairs:
        name, given = name_value("--model", text)
        numbers = [number(x.strip()) for x in given.split(",")]
        if any(isinstance(x, str) for x in numbers):
            raise SimkitError(f"--model {name} needs a number, or one number per seat separated by commas, "
                              f"got {given!r}")
        values[name] = numbers if len(numbers) > 1 else numbers[0]
    return game.check_model(values, players, "--model")


# --- files read ---------------------------------------------------------------------------------------------------

TEXT_PROBE = 1 << 16  # bytes of a file looked at to tell text from binary


def trace_file(path: str) -> str:
    """A trace file to read (`show`, `check`): a readable regular file (input_file) of UTF-8
    text (no NUL bytes; judged from its first 64 KiB) that holds at least one record (a line that
    is not blank)."""
    input_file(path, "trace file", missing=f"no trace file {path}")
    with open(path, "rb") as f:
        head = f.read(TEXT_PROBE)
        why = _not_text(head, cut=len(head) == TEXT_PROBE)
        if why:
            raise SimkitError(f"{path} is not a text trace file ({why})")
        block = head
        while block and not block.strip():
            block = f.read(TEXT_PROBE)
        if not block.strip():
            raise SimkitError(f"{path} holds no records (an empty trace file)")
    return path


def _not_text(data: bytes, cut: bool) -> str:
    """Why `data` (the start of a file; `cut`: more follows) is not UTF-8 text, or ''."""
    if b"\0" in data:
        return f"a NUL byte at byte {data.index(bytes(1)):,}"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        if not (cut and e.start >= len(data) - 3 and e.reason == "unexpected end of data"):
            return f"not UTF-8 at byte {e.start:,}"
    return ""


def player_counts(option: str, text: str, game: Game) -> list[int]:
    """'4,8' -> [4, 8], each a player count the game allows."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise SimkitError(f"{option} must be a comma-separated list of numbers, got {text!r}") from None
    for n in counts:
        game.check_players(n)
    return counts


@dataclass(frozen=True)
class Play:
    """What `simulate` and `trace` were asked to play, checked."""

    game: Game
    seats: list
    rules: dict
    model: dict
    seed: int
    count: int  # hands, rounds or matches

    def title(self, unit: str) -> str:
        """The first line of a table: the game, what was played, every option in force."""
        from simkit.games.summary import format_value

        options = [f"{k}={v}" for k, v in self.rules.items()] + [f"{k}={format_value(v)}"
                                                                 for k, v in self.model.items()]
        return (f"{self.game.title} - {len(self.seats)} players, {self.count:,} {unit}, seed {self.seed}, "
                f"{', '.join(options)} (± = 95% interval, n = {self.count:,} {unit})")


def play(game: str, players: int, count: int, seed: str, strategies: str | None, rule_pairs: tuple[str, ...],
         model_pairs: tuple[str, ...], strategy_files: tuple[str, ...], flags: dict) -> Play:
    """The table, seed and options of `simulate` or `trace`, each checked once."""
    from simkit.core.rng import check_seed
    from simkit.strategies.plugins import load_strategy_files
    from simkit.strategies.spec import split

    described = games.get(game)
    load_strategy_files(strategy_files)
    described.check_players(players)
    seats = described.seats_for(split(strategies or described.default_strategy), players)
    return Play(described, seats, rules(described, rule_pairs, flags), model(described, model_pairs, players),
                check_seed(seed), check_count(count, "--hands"))
