"""The command line: a thin Click layer over the library.

Heavy modules (reportlab, pypdf, the layouts) are imported inside the commands
so that `sheetgen --help` starts fast.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from sheetgen import __version__


def default_lang() -> str:
    """French when the locale says so (LC_ALL, LC_MESSAGES, then LANG), else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


LANG_OPTION = click.option("--lang", type=click.Choice(["fr", "en"]), default=None,
                           help="Language of the labels (default: from the locale, else en).")


class LibraryErrors(click.ClickException):
    """A library error (sheetgen.errors) as Click shows it: `Error: ` and the first
    problem, then one line per further problem; exit 1 (2 for a usage error)."""

    def __init__(self, exc):
        super().__init__("\n".join(exc.lines))
        self.exit_code = exc.exit_code


class Group(click.Group):
    """The command group: library errors become Click errors here, and only here."""

    def invoke(self, ctx):
        from sheetgen.errors import SheetgenError

        try:
            return super().invoke(ctx)
        except SheetgenError as exc:
            raise LibraryErrors(exc) from None


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sheetgen")
def cli():
    """Print roll-and-write sheets and score pads, and score finished games."""


@cli.command("list")
def list_cmd():
    """List the built-in layouts, with their game and title."""
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids

    lang = default_lang()
    rows = []
    for lid in builtin_ids():
        layout = load_layout(lid)
        players = layout.players
        who = "" if players["max"] == 1 else f"{players['min']}-{players['max']} players"
        rows.append((lid, layout.game, layout.title[lang], who))
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        click.echo(f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]:<{width[2]}}  {r[3]}".rstrip())


@cli.command()
@click.argument("layout")
def validate(layout):
    """Check a layout file (or a built-in id): every problem, with file and line."""
    from sheetgen.games import load_layout

    lay = load_layout(layout)
    pages = ", ".join(p.id for p in lay.pages)
    click.echo(f"ok: {layout}: layout '{lay.id}' ({lay.game}), pages: {pages}")
    from sheetgen.games import game_for

    problems = game_for(lay).layout_problems(lay)
    if problems:
        click.echo(f"note: it prints, but `sheetgen score` cannot use it: {problems[0].message}"
                   + "".join(f"\n  and: {p.message}" for p in problems[1:]))
    if lay.unverified:
        click.echo(f"note: {len(lay.unverified)} values are house defaults not checked against a published "
                   f"sheet (verified: false): {', '.join(lay.unverified)}")
    if lay.house:
        click.echo(f"note: {len(lay.house)} texts are house rules the published rules leave open "
                   f"(house: true): {', '.join(lay.house)}")


@cli.command()
@click.argument("layout")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Where to write the PDF (default: output/LAYOUT.pdf).")
@LANG_OPTION
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size; the sheet is centred with printer-safe margins.")
@click.option("--copies", type=click.IntRange(1, 10000), default=1, show_default=True,
              help="How many copies (a pad).")
@click.option("--players", type=int, default=None, help="Player columns, for score pads.")
@click.option("--page", "pages", multiple=True, help="Only this page (repeatable), e.g. village.")
@click.option("--fillable", is_flag=True,
              help="Add form fields to fill on a screen; `sheetgen score` reads the filled PDF.")
def render(layout, output, lang, paper, copies, players, pages, fillable):
    """Render LAYOUT (a built-in id or a layout file) to a print-ready PDF."""
    from sheetgen.fileio import write_atomic
    from sheetgen.games import load_layout
    from sheetgen.render import render_pdf

    lay = load_layout(layout)
    lo, hi = lay.players["min"], lay.players["max"]
    if players is not None and not lo <= players <= hi:
        allowed = f"{lo}-{hi} players" if lo != hi else f"{lo} player{'s' if lo > 1 else ''}"
        raise click.BadParameter(f"{lay.id} is for {allowed}, got {players}", param_hint="'--players'")
    known = [p.id for p in lay.pages]
    pages = tuple(dict.fromkeys(pages))
    for p in pages:
        if p not in known:
            raise click.BadParameter(f"no page '{p}' in {lay.id}; pages: {', '.join(known)}",
                                     param_hint="'--page'")
    data = render_pdf(lay, lang=lang or default_lang(), paper=paper, copies=copies,
                      players=players, pages=list(pages) or None, fillable=fillable)
    path = Path(output) if output else Path("output") / f"{lay.id}.pdf"
    write_atomic(path, data)
    n = copies * (len(pages) or len(lay.pages))
    click.echo(f"wrote {path} ({n} page{'s' if n > 1 else ''}, {len(data) / 1024:.0f} KiB)")


@cli.command()
@click.argument("records", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True,
              help="table for people, json (the score contract), csv.")
@LANG_OPTION
@click.option("-i", "--interactive", is_flag=True,
              help="Ask for the marks player by player; the argument is then a LAYOUT.")
@click.option("--players", type=int, default=None, help="With --interactive: how many players.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="With --interactive: also save the record (YAML) to this file.")
def score(records, fmt, lang, interactive, players, save):
    """Score finished games from RECORDS (YAML or JSON game records, or PDFs
    filled on a screen from `sheetgen render --fillable`).

    \b
    sheetgen score game.yaml
    sheetgen score game.yaml --format json
    sheetgen score harvest-dice-normal --interactive --save game.yaml
    """
    from sheetgen.errors import RecordError, SheetgenError
    from sheetgen.scoring import output
    from sheetgen.scoring.record import score_data, score_file

    lang = lang or default_lang()
    if interactive:
        if len(records) != 1:
            raise click.UsageError("--interactive takes exactly one LAYOUT")
        scored = [_interactive(records[0], players, save, score_data)]
    else:
        if save or players is not None:
            raise click.UsageError("--save and --players go with --interactive")
        scored, problems = [], []
        for path in records:
            try:
                if path.lower().endswith(".pdf"):
                    from sheetgen.scoring.pdfread import record_from_pdfs

                    scored.append(score_data(record_from_pdfs([path]), path))
                else:
                    scored.append(score_file(path))
            except SheetgenError as exc:
                problems += exc.problems
        if problems:
            raise RecordError(problems)
    if fmt == "json":
        click.echo(output.as_json(scored))
    elif fmt == "csv":
        click.echo(output.as_csv(scored), nl=False)
    else:
        click.echo("\n\n".join(output.as_table(s, lang) for s in scored))


class TerminalPrompter:
    """sheetgen.scoring.interactive's questions, on the terminal (on stderr, so
    that standard output holds only the data)."""

    def prompt(self, text: str, default: str | None = None) -> str:
        return click.prompt(text, default=default, show_default=default is not None, err=True)

    def say(self, text: str) -> None:
        click.echo(text, err=True)


def _interactive(ref, players, save, score_data):
    from sheetgen.fileio import write_atomic
    from sheetgen.games import load_layout
    from sheetgen.scoring.interactive import ask_record

    layout = load_layout(ref)
    record = ask_record(TerminalPrompter(), layout, ref, _game_players(layout, players))
    scored = score_data(record, save or "<interactive>")
    if save:
        write_atomic(save, _record_yaml(record).encode("utf-8"))
        click.echo(f"saved {save}", err=True)
    return scored


@cli.command()
@click.argument("pdfs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--layout", "layout_ref", default=None,
              help="The layout the sheets were rendered from (default: the one the PDF names).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the record to this file instead of standard output.")
def read(pdfs, layout_ref, output):
    """Read filled fillable PDFs (`render --fillable`) into one game record (YAML).

    Every filled sheet is one player (a pad: every filled column). Check the
    record, then `sheetgen score` it.
    """
    from sheetgen.scoring.pdfread import record_from_pdfs

    _emit(_record_yaml(record_from_pdfs(list(pdfs), layout_ref)), output)


@cli.command()
@click.argument("layout")
@click.option("--players", type=int, default=None, help="How many players (default: the game's usual count).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
def template(layout, players, output):
    """Print a commented blank game record for LAYOUT, to fill in and score."""
    from sheetgen.games import game_for, load_layout
    from sheetgen.scoring.template import make_template

    lay = load_layout(layout)
    if players is None:
        lo, hi = game_for(lay).player_range(lay)
        players = max(lo, min(hi, 2))
    _emit(make_template(lay, _game_players(lay, players), layout), output)


def _game_players(lay, players: int | None) -> int | None:
    """`players` checked against the game's range (a usage error outside it)."""
    from sheetgen.games import game_for

    lo, hi = game_for(lay).player_range(lay)
    if players is not None and not lo <= players <= hi:
        raise click.BadParameter(f"expected {lo}-{hi}, got {players}", param_hint="'--players'")
    return players


def _record_yaml(record: dict) -> str:
    import yaml

    return yaml.safe_dump(record, allow_unicode=True, sort_keys=False, default_flow_style=None)


def _emit(text: str, output: str | None) -> None:
    """Write `text` atomically to `output`, or to standard output."""
    from sheetgen.fileio import write_atomic

    if output:
        write_atomic(output, text.encode("utf-8"))
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


def main():
    """The console script. A bug (not a bad input, which the commands report
    themselves) still ends in one `Error:` line; SHEETGEN_DEBUG=1 shows the traceback."""
    try:
        cli(prog_name="sheetgen", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        raise SystemExit(1) from None
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    except click.exceptions.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except Exception as exc:  # noqa: BLE001 - the last resort, see the docstring
        if os.environ.get("SHEETGEN_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(exc).__name__}: {exc}); "
                   "run again with SHEETGEN_DEBUG=1 for the details, and please report it", err=True)
        raise SystemExit(1) from None
