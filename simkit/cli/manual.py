"""The manual of the `simkit` command (docs/cli.md), written from the click definitions themselves,
so that it cannot drift from them: `python -m simkit.cli.manual > docs/cli.md` (`make docs`), and a
test keeps the committed page equal to what this writes."""

import inspect

import click

HEAD = """# The `simkit` command

Every command and every option, as `simkit COMMAND --help` gives them. This page is written from
the command's own definitions (`make docs` writes it again; a test keeps it equal to them), so it
is never out of date. Bad input of any kind is one line `simkit: error: …` and exit code 2; Ctrl-C
is exit code 130. Where the commands fit together: [the README](../README.md).
"""


def manual() -> str:
    """docs/cli.md: a section per command, in the order `simkit --help` lists them."""
    from simkit.cli import cli

    top = click.Context(cli, info_name="simkit", **cli.context_settings)  # -h beside --help, as the command has it
    out = [HEAD, "| command | what it does |", "|---|---|"]
    out += [f"| [`simkit {name}`](#simkit-{name}) | {_cell(command.get_short_help_str(limit=300))} |"
            for name, command in cli.commands.items()]
    for name, command in cli.commands.items():
        out += ["", _section(name, command, click.Context(command, info_name=name, parent=top,
                                                          **command.context_settings))]
    return "\n".join(out) + "\n"


def _section(name: str, command: click.Command, ctx: click.Context) -> str:
    usage = " ".join(command.collect_usage_pieces(ctx))
    rows = [f"| {_cell(_names(p, ctx))} | {_cell(_help(p, ctx))} |" for p in command.get_params(ctx)
            if not getattr(p, "hidden", False)]
    return "\n".join([f"## simkit {name}", "", "```", f"simkit {name} {usage}", "```", "",
                      inspect.cleandoc(command.help or ""), "", "| option | what it sets |", "|---|---|", *rows])


def _names(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param, click.Argument):
        return f"`{param.make_metavar(ctx) if _takes_ctx(param) else param.make_metavar()}` (argument)"
    names = ", ".join(f"`{o}`" for o in param.opts + param.secondary_opts)
    if param.is_flag or param.count:
        return names
    metavar = param.make_metavar(ctx) if _takes_ctx(param) else param.make_metavar()
    return f"{names} {metavar}"


def _help(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param, click.Argument):
        return "required" if param.required else "optional"
    text = param.help or ""
    if param.show_default and param.default is not None and not param.is_flag:
        text += f" [default: {param.default}]"
    if param.multiple and "repeatable" not in text:
        text += " (repeatable)"
    return text


def _takes_ctx(param: click.Parameter) -> bool:
    """click 8.2 passes the context to make_metavar; earlier versions take none."""
    return "ctx" in inspect.signature(param.make_metavar).parameters


def _cell(text: str) -> str:
    """Text for a cell of a Markdown table: one line, its bars escaped."""
    return " ".join(text.split()).replace("|", "\\|")


if __name__ == "__main__":
    print(manual(), end="")
