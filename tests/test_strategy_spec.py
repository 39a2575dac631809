"""A strategy spec is parsed once into an immutable, picklable value; made canonical by the
registry, its text is its label, whatever way it was first written."""

import dataclasses
import pickle

import pytest

from simkit.core.errors import SimkitError
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec, split

GAME = "whos-the-ass"


@pytest.mark.parametrize("text, label", [
    ("lowest", "lowest"),
    (" hoard( release_at = 3.0 ) ", "hoard(release_at=3)"),
    ("grab(max_cost=12.5)", "grab(max_cost=12.5)"),
    ("compose(jokers=hoard(release_at=3), lead=greedy)", "compose(jokers=hoard(release_at=3), lead=greedy)"),
])
def test_canonical_text_is_the_label(text, label):
    spec = registry.canonical(GAME, text)
    assert str(spec) == label == registry.resolve(GAME, spec)[2]
    assert StrategySpec.parse(str(spec)) == spec  # the text reads back to the same value
    assert pickle.loads(pickle.dumps(spec)) == spec and hash(spec) == hash(registry.canonical(GAME, label))


def test_a_spec_cannot_be_changed_only_replaced():
    spec = StrategySpec.parse("hoard(release_at=3)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "spend"
    assert str(spec.with_values({"release_at": 5})) == "hoard(release_at=5)" and str(spec) == "hoard(release_at=3)"


def test_a_list_splits_outside_parentheses():
    assert list(map(str, split("lowest,grab(max_cost=12, ass_threshold=2),random"))) == [
        "lowest", "grab(max_cost=12, ass_threshold=2)", "random"]


@pytest.mark.parametrize("text, message", [
    ("hoard(3)", "parameters must be named"),
    ("hoard(release_at='x')", "needs a number"),
    ("9lives", "malformed strategy"),
    ("hoard(release_at=)", "malformed parameters"),
])
def test_a_malformed_spec_is_one_clear_error(text, message):
    with pytest.raises(SimkitError, match=message):
        StrategySpec.parse(text)


@pytest.mark.parametrize("text, message", [("a,,b", "empty strategy name"), ("a(b", "unbalanced")])
def test_a_malformed_list_is_one_clear_error(text, message):
    with pytest.raises(SimkitError, match=message):
        split(text)
