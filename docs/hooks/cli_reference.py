"""MkDocs hook: the CLI reference is the click commands' own help, generated at build time.

``{{ cli_reference }}`` on a page becomes a section per command of the ``toolex`` group, in the
order of ``toolex --help``, sub-commands of a group nested under it, each with exactly the text
``toolex <command> --help`` prints (at 100 columns). The group loads its commands lazily, so
this walks it the way click does (``list_commands`` then ``get_command``): a command added to
toolex.cli.COMMANDS appears here with no edit to the docs.
"""

from __future__ import annotations

from typing import Any

import click

MARKER = "{{ cli_reference }}"
WIDTH = 100


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from toolex.cli import cli

    root = click.Context(cli, info_name="toolex", terminal_width=WIDTH, max_content_width=WIDTH)
    sections = [section(cli, root, level=2, title="toolex")]
    sections += walk(cli, root, level=2)
    return markdown.replace(MARKER, "\n\n".join(sections))


def walk(group: click.Group, ctx: click.Context, level: int) -> list[str]:
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        sub = click.Context(command, info_name=name, parent=ctx, terminal_width=WIDTH,
                            max_content_width=WIDTH)  # fmt: skip
        out.append(section(command, sub, level, title=sub.command_path))
        if isinstance(command, click.Group):
            out += walk(command, sub, level + 1)
    return out


def section(command: click.Command, ctx: click.Context, level: int, title: str) -> str:
    anchor = title.replace(" ", "-")
    text = command.get_help(ctx).replace("```", "'''")
    return f"{'#' * level} `{title}`" + " {#" + anchor + "}\n\n```text\n" + text + "\n```"
