"""A strategy as asked for: `name(param=value, …)`, parsed once where it is given (the command
line, a spec file, a notebook) into an immutable, picklable value that travels unchanged to the
engine. Its string form is its text; once the registry has made it canonical
(`simkit.strategies.registry.canonical`) that text is the strategy's label in every table."""

import ast
import re
from dataclasses import dataclass

from simkit.core.errors import SimkitError

_FORM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


def number(v: float) -> str:
    """A parameter value as written in a label or spec: whole numbers plain, others exactly (the
    shortest text that reads back to the same float)."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


@dataclass(frozen=True)
class StrategySpec:
    """A strategy's name and its named values, in order: a number, or (for a strategy that takes
    strategies, like `compose`) another StrategySpec."""

    name: str
    values: tuple[tuple[str, "float | StrategySpec"], ...] = ()

    def __str__(self) -> str:
        if not self.values:
            return self.name
        shown = ", ".join(f"{k}={v if isinstance(v, StrategySpec) else number(v)}" for k, v in self.values)
        return f"{self.name}({shown})"

    def as_dict(self) -> dict[str, "float | StrategySpec"]:
        return dict(self.values)

    def with_values(self, values: dict[str, float]) -> "StrategySpec":
        """The same strategy with `values` set (a sweep point's), the others kept in place."""
        if not values:
            return self
        merged = {**self.as_dict(), **{k: float(v) for k, v in values.items()}}
        return StrategySpec(self.name, tuple(merged.items()))

    @classmethod
    def parse(cls, text: "str | StrategySpec") -> "StrategySpec":
        """'hoard(release_at=3)' -> StrategySpec('hoard', (('release_at', 3.0),)); a value that is
        itself a strategy ('compose(lead=greedy, jokers=hoard(release_at=3))') is parsed too."""
        if isinstance(text, StrategySpec):
            return text
        if not isinstance(text, str):
            raise SimkitError(f"a strategy is a name or name(param=value, ...), got {text!r}")
        m = _FORM.match(text)
        if not m:
            raise SimkitError(f"malformed strategy {text!r} (expected name or name(param=value, ...))")
        name, args = m.group(1), m.group(2)
        values: list[tuple[str, float | StrategySpec]] = []
        if args and args.strip():
            try:
                call = ast.parse(f"f({args})", mode="eval").body
            except SyntaxError:
                raise SimkitError(f"malformed parameters in strategy {text!r}") from None
            if call.args or any(kw.arg is None for kw in call.keywords):
                raise SimkitError(f"strategy {text!r}: parameters must be named, as name(param=value)")
            for kw in call.keywords:
                values.append((kw.arg, _value(text, kw)))
        return cls(name, tuple(values))


def _value(text: str, kw: ast.keyword) -> "float | StrategySpec":
    node = kw.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        node = ast.Constant(-node.operand.value) if isinstance(node.operand.value, (int, float)) else node
    value = getattr(node, "value", None)
    if isinstance(node, ast.Constant) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(node, (ast.Name, ast.Call)):
        return StrategySpec.parse(ast.unparse(node))
    raise SimkitError(f"strategy {text!r}: parameter {kw.arg!r} needs a number")


def split(text: str) -> list[StrategySpec]:
    """'a,b(x=1, y=2),c' -> a spec each (split on the commas outside parentheses)."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            raise SimkitError(f"unbalanced parentheses in strategy list {text!r}")
        cur.append(ch)
    if depth != 0:
        raise SimkitError(f"unbalanced parentheses in strategy list {text!r}")
    parts.append("".join(cur).strip())
    if any(p == "" for p in parts):
        raise SimkitError(f"empty strategy name in strategy list {text!r}")
    return [StrategySpec.parse(p) for p in parts]
