"""Pig, a small dice game that lives only in the tests: the fourth game, registered from
tests/test_fourth_game.py by `simkit.games.register`, to show that a game touches no shared file.
Nothing in simkit/ names it."""
