"""`python -m simkit.cli`: the `simkit` command."""

from simkit.cli import main

main()
