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


DB_OPTION = click.option("--db", type=click.Path(dir_okay=False), default=None,
                         help="The history file (default: $SHEETGEN_DB, else history.sqlite in your data folder).")


@cli.command()
@click.argument("records", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True,
              help="table for people, json (the score contract), csv.")
@LANG_OPTION
@click.option("-i", "--interactive", is_flag=True,
              help="Ask for the marks player by player; the argument is then a LAYOUT.")
@click.option("--players", type=int, default=None, help="With --interactive: how many players.")
@click.option("--record", "record_out", type=click.Path(dir_okay=False), default=None,
              help="With --interactive: also write the record (YAML) to this file.")
@click.option("--save", is_flag=True, help="Also keep the games in the history (see `sheetgen history`).")
@click.option("--again", is_flag=True, help="With --save: keep a game even if the same record is already kept.")
@DB_OPTION
def score(records, fmt, lang, interactive, players, record_out, save, again, db):
    """Score finished games from RECORDS (YAML or JSON game records, or PDFs
    filled on a screen from `sheetgen render --fillable`).

    \b
    sheetgen score game.yaml
    sheetgen score game.yaml --format json
    sheetgen score game.yaml --save
    sheetgen score harvest-dice-normal --interactive --record game.yaml
    """
    from sheetgen.errors import RecordError, SheetgenError
    from sheetgen.scoring import output
    from sheetgen.scoring.record import score_data, score_file

    lang = lang or default_lang()
    if again and not save:
        raise click.UsageError("--again goes with --save")
    texts = []   # each record as text, for --save
    if interactive:
        if len(records) != 1:
            raise click.UsageError("--interactive takes exactly one LAYOUT")
        scored, text = _interactive(records[0], players, record_out, score_data)
        scored, texts = [scored], [text]
    else:
        if record_out or players is not None:
            raise click.UsageError("--record and --players go with --interactive")
        scored, problems = [], []
        for path in records:
            try:
                if path.lower().endswith(".pdf"):
                    from sheetgen.scoring.pdfread import record_from_pdfs

                    record = record_from_pdfs([path])
                    scored.append(score_data(record, path))
                    texts.append(_record_yaml(record))
                else:
                    scored.append(score_file(path))
                    texts.append(Path(path).read_text(encoding="utf-8") if save else "")
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
    if save:
        from sheetgen.history.store import db_path, save_games, to_keep

        ids = save_games([to_keep(s, t, s.source) for s, t in zip(scored, texts)], db, again)
        click.echo(f"kept as game{'s' if len(ids) > 1 else ''} {', '.join(map(str, ids))} in {db_path(db)}",
                   err=True)


class TerminalPrompter:
    """sheetgen.scoring.interactive's questions, on the terminal (on stderr, so
    that standard output holds only the data)."""

    def prompt(self, text: str, default: str | None = None) -> str:
        return click.prompt(text, default=default, show_default=default is not None, err=True)

    def say(self, text: str) -> None:
        click.echo(text, err=True)


def _interactive(ref, players, record_out, score_data):
    """The record asked for, scored, and as YAML text."""
    from sheetgen.fileio import write_atomic
    from sheetgen.games import load_layout
    from sheetgen.scoring.interactive import ask_record

    layout = load_layout(ref)
    record = ask_record(TerminalPrompter(), layout, ref, _game_players(layout, players))
    scored = score_data(record, record_out or "<interactive>")
    text = _record_yaml(record)
    if record_out:
        write_atomic(record_out, text.encode("utf-8"))
        click.echo(f"saved {record_out}", err=True)
    return scored, text


def _history_filters(command):
    """--game, --player, --since, --until, --alias: shared by `history` and `stats`."""
    for option in reversed([
        click.option("--game", default=None, help="Only this game (bosk) or layout (harvest-dice-advanced)."),
        click.option("--player", default=None, help="Only games this player played (any case; aliases apply)."),
        click.option("--since", default=None, help="Only games played on or after this ISO date (2026-01-01)."),
        click.option("--until", default=None, help="Only games played on or before this ISO date."),
        click.option("--alias", "aliases", multiple=True, metavar="OLD=NEW",
                     help='Count OLD as NEW, e.g. "Bob=Robert" (repeatable).'),
        click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
                     show_default=True, help="table for people; json and csv for other tools."),
        LANG_OPTION,
        DB_OPTION,
    ]):
        command = option(command)
    return command


def _find(game, player, since, until, aliases, db, limit=None):
    from sheetgen.history import report, store

    names = report.Names(aliases)
    keys = names.keys_for(player) if player is not None else None
    f = store.Filter(game=game, keys=keys, since=report.iso_bound(since, "--since"),
                     until=report.iso_bound(until, "--until"))
    games, total = store.find_games(f, db, limit)
    return names.learn(games), keys, games, total


@cli.command()
@_history_filters
@click.option("--limit", type=click.IntRange(0), default=None,
              help="How many games, newest first (table: 20 by default; json, csv: all). 0: all.")
@click.option("--remove", "remove_id", type=int, default=None, metavar="ID", help="Remove game ID from the history.")
@click.option("--rescore", is_flag=True,
              help="Score the kept games again with today's layouts and report what would change.")
@click.option("--id", "game_id", type=int, default=None, metavar="ID", help="With --rescore: only game ID.")
@click.option("--apply", is_flag=True, help="With --rescore: replace the kept scores by the new ones.")
def history(game, player, since, until, aliases, fmt, lang, db, limit, remove_id, rescore, game_id, apply):
    """The games kept by `sheetgen score --save`, newest first: id, date, game,
    players, winners, scores (json, csv: one row per player per game).

    \b
    sheetgen history --game bosk --player Alice
    sheetgen history --format csv > games.csv
    sheetgen history --remove 12
    sheetgen history --rescore
    """
    from sheetgen.history import report, store

    lang = lang or default_lang()
    if (game_id is not None or apply) and not rescore:
        raise click.UsageError("--id and --apply go with --rescore")
    if remove_id is not None:
        gone = store.remove_game(remove_id, db)
        click.echo(f"removed game {gone.id} ({report.shown_date(gone.played_at)}, {gone.layout}: "
                   f"{', '.join(p.name for p in gone.players)})")
        return
    if rescore:
        results = store.rescore_games(game_id, db)
        click.echo(report.rescore_report(results, lang) or report.WORDS[lang]["none"])
        if apply:
            n = store.apply_rescore(results, db)
            click.echo(f"updated {n} game{'s' if n != 1 else ''}", err=True)
        if any(r.now is None for r in results):
            click.get_current_context().exit(1)
        return
    if limit is None:
        limit = 20 if fmt == "table" else 0
    names, _, games, total = _find(game, player, since, until, aliases, db, limit)
    if fmt == "json":
        click.echo(report.history_json(games, names), nl=False)
    elif fmt == "csv":
        click.echo(report.history_csv(games, names), nl=False)
    else:
        click.echo(report.history_table(games, names, lang))
        if len(games) < total:
            click.echo(report.WORDS[lang]["shown"].format(n=len(games), total=total), err=True)


@cli.command()
@_history_filters
def stats(game, player, since, until, aliases, fmt, lang, db):
    """Standings from the kept games, per game and player: plays, wins, win rate,
    average and best score."""
    from sheetgen.history import report

    names, keys, games, _ = _find(game, player, since, until, aliases, db)
    rows = report.standings(games, names, keys)
    if fmt == "json":
        click.echo(report.stats_json(rows), nl=False)
    elif fmt == "csv":
        click.echo(report.stats_csv(rows), nl=False)
    else:
        click.echo(report.stats_table(rows, lang or default_lang()))


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
