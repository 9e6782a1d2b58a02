"""The command line: a thin Click layer over the library.

Heavy modules (reportlab, pypdf, the layouts) are imported inside the commands
so that `sheetgen --help` starts fast.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from pathlib import Path

import click

from sheetgen import __version__
from sheetgen.errors import printable


def default_lang() -> str:
    """French when the locale says so (LC_ALL, LC_MESSAGES, then LANG), else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(["fr", "en"]),
    default=None,
    help="Language of the labels (default: from the locale, else en).",
)


def _complete_layout(ctx, param, incomplete):
    """Shell completion of a LAYOUT: the built-in ids, then files."""
    from click.shell_completion import CompletionItem

    from sheetgen.layout.resolve import builtin_ids

    return [CompletionItem(i) for i in builtin_ids() if i.startswith(incomplete)] + [
        CompletionItem(incomplete, type="file")
    ]


class LibraryErrors(click.ClickException):
    """A library error (sheetgen.errors) as Click shows it: `Error: ` and the first
    problem, then one line per further problem; exit 1 (2 for a usage error)."""

    def __init__(self, exc):
        from sheetgen.errors import shown_problems

        super().__init__("\n".join(shown_problems(exc.lines)))
        self.exit_code = exc.exit_code


class Group(click.Group):
    """The command group: library errors become Click errors here, and only here."""

    def invoke(self, ctx):
        from sheetgen.api import OptionError
        from sheetgen.errors import SheetgenError

        try:
            return super().invoke(ctx)
        except OptionError as exc:
            raise _bad_parameter(exc) from None
        except SheetgenError as exc:
            raise LibraryErrors(exc) from None


def _bad_parameter(exc) -> click.BadParameter:
    """An option's bad value from the library (sheetgen.api.OptionError), as Click says its own."""
    return click.BadParameter(exc.problems[0].message, param_hint=exc.param)


@contextmanager
def _option_errors():
    """Within a command: the library's OptionError raised as Click's BadParameter, which
    Click then shows with the command's usage line, as for its own checks."""
    from sheetgen.api import OptionError

    try:
        yield
    except OptionError as exc:
        raise _bad_parameter(exc) from None


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
    from sheetgen.scoring.output import lines

    for line in lines(rows, left=(0, 1, 2, 3)):
        click.echo(line)


@cli.command()
@click.argument("layout", shell_complete=_complete_layout)
def validate(layout):
    """Check a layout file (or a built-in id; `-` reads it from standard input): every
    problem, with file and line."""
    from sheetgen.games import game_for, load_layout

    lay = load_layout(layout)
    pages = ", ".join(p.id for p in lay.pages)
    click.echo(f"ok: {printable(layout)}: layout '{lay.id}' ({lay.game}), pages: {pages}")
    game = game_for(lay)
    problems = game.layout_problems(lay)
    unread = [] if problems else game.unread_ticked(lay)
    if unread:
        click.echo(
            f"note: the {game.id} scorer does not read {', '.join(f'{eid} ({kind})' for eid, kind in unread)}: "
            "it prints, and a filled sheet or a photo reads its marks, but they count for nothing in the score"
        )
    if problems:
        click.echo(
            f"note: it prints, but `sheetgen score` cannot use it: {problems[0].message}"
            + "".join(f"\n  and: {p.message}" for p in problems[1:])
        )
    if lay.unverified:
        click.echo(
            f"note: {len(lay.unverified)} values are house defaults not checked against a published "
            f"sheet (verified: false): {', '.join(lay.unverified)}"
        )
    if lay.house:
        click.echo(
            f"note: {len(lay.house)} texts are house rules the published rules leave open "
            f"(house: true): {', '.join(lay.house)}"
        )


def _complete_page(ctx, param, incomplete):
    """Shell completion of --page: the page ids of the LAYOUT already typed."""
    from click.shell_completion import CompletionItem

    from sheetgen.errors import SheetgenError
    from sheetgen.layout.load import read_layout

    # while completing an option, Click may leave the arguments unparsed, in ctx.args
    ref = ctx.params.get("layout") or next((a for a in getattr(ctx, "args", []) if not a.startswith("-")), "")
    try:
        lay = read_layout(ref)
    except (SheetgenError, OSError):
        return []
    return [CompletionItem(p.id) for p in lay.pages if p.id.startswith(incomplete)]


def _output_option(help_text: str):
    # (readable=False: a file to write need not be readable, one opened write-only is fine)
    return click.option(
        "-o", "--output", type=click.Path(dir_okay=False, readable=False, allow_dash=True), default=None, help=help_text
    )


FORCE_OPTION = click.option("--force", is_flag=True, help="Overwrite an existing record or layout file (YAML/JSON).")
MAX_FILLABLE_COPIES = 100  # every copy of a fillable pad has its own form fields


def _layout_inputs(ref: str) -> list[str]:
    from sheetgen.api import layout_inputs

    return layout_inputs(ref)


@cli.command()
@click.argument("layout", shell_complete=_complete_layout)
@_output_option(
    "Where to write the PDF or PNG (default: output/LAYOUT.pdf or .png; - for standard output). "
    "PNGs of several pages are numbered: NAME-1.png, NAME-2.png..."
)
@LANG_OPTION
@click.option(
    "--paper",
    type=click.Choice(["a4", "letter", "a5", "legal"]),
    default="a4",
    show_default=True,
    help="Paper size; sheets keep 8 mm printer margins (on A5 a sheet prints scaled down, if it stays writable).",
)
@click.option(
    "--copies",
    type=click.IntRange(1, 10000),
    default=1,
    show_default=True,
    help=f"How many copies (a pad); at most {MAX_FILLABLE_COPIES} with --fillable.",
)
@click.option("--players", type=int, default=None, help="Player columns, for score pads.")
@click.option(
    "--page", "pages", multiple=True, shell_complete=_complete_page, help="Only this page (repeatable), e.g. village."
)
@click.option(
    "--fillable", is_flag=True, help="Add form fields to fill on a screen; `sheetgen score` reads the filled PDF."
)
@click.option(
    "--per-page",
    type=click.Choice(["1", "2", "4"]),
    default="1",
    show_default=True,
    help="Sheets a page: 2 = two halves of a landscape page, 4 = four quarters, scaled to fit, with cut marks. "
    "Refused when a box would be under 5 mm or text under 6 pt.",
)
@click.option("--no-marks", is_flag=True, help="With --per-page 2 or 4: no cut marks.")
@click.option(
    "--duplex",
    is_flag=True,
    help="Front and back: page 2 of each copy on the back of its page 1, for a printer that turns the "
    "paper over its long edge (the usual two-sided setting; see --flip). Ignored for one-page layouts.",
)
@click.option(
    "--flip",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="With --duplex: the edge your printer turns the paper over ('flip on long/short edge').",
)
@click.option(
    "--grey", is_flag=True, help="Toner saving: greys only (light tints, dark text and lines, no solid areas)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["pdf", "png", "svg"]),  # (sheetgen.render.formats.FORMATS: kept equal by a test)
    default="pdf",
    show_default=True,
    help="pdf to print; png, a picture of each printed page; svg, each page of one sheet as a drawing.",
)
@click.option("--dpi", type=click.IntRange(30, 600), default=150, show_default=True, help="With --format png.")
@click.option(
    "--watch",
    is_flag=True,
    help="Live preview: render again on every save of the layout file or a file it extends (Ctrl-C ends).",
)
@click.option(
    "--no-scan-marks",
    "no_scan_marks",
    is_flag=True,
    help="Leave out the corner marks and QR code that `sheetgen scan` reads photos by.",
)
def render(layout, **opts):
    """Render LAYOUT (a built-in id or a layout file) to a print-ready PDF, or PNGs, or SVGs."""
    from sheetgen.fileio import check_output

    output, copies, fillable, fmt, watch = (opts[k] for k in ("output", "copies", "fillable", "fmt", "watch"))
    if fillable and copies > MAX_FILLABLE_COPIES:
        raise click.BadParameter(
            f"at most {MAX_FILLABLE_COPIES} with --fillable (each copy has its own form fields), got {copies}",
            param_hint="'--copies'",
        )
    if fillable and fmt != "pdf":
        raise click.BadParameter(f"form fields are for a PDF, not with --format {fmt}", param_hint="'--fillable'")
    if watch and layout == "-":
        raise click.BadParameter("--watch needs a layout file to watch, not standard input", param_hint="'LAYOUT'")
    if watch and output == "-":
        raise click.BadParameter("--watch rewrites a file on each save: give a file, not -", param_hint="'-o'")
    inputs = _layout_inputs(layout)
    if output is not None:
        check_output(output, inputs=inputs)
    job = dict(opts, layout=layout, lang=opts["lang"] or default_lang(), per_page=int(opts["per_page"]))
    job["marks"] = not job.pop("no_marks")
    del job["watch"]
    if not watch:
        _render_once(job)
        return
    from sheetgen.errors import shown_problems
    from sheetgen.render.watch import watch as watch_layout

    def report(exc):
        click.echo("Error: " + "\n".join(shown_problems(exc.lines)), err=True)
        click.echo("waiting for the next change (the last good output is kept)...", err=True)

    click.echo(f"watching {printable(layout)} and the files it extends; Ctrl-C ends", err=True)
    try:
        watch_layout(layout, lambda: _render_watched(job), report)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)


def _render_watched(job: dict) -> None:
    """One render of --watch: a bad option value is reported like a bad layout."""
    from sheetgen.errors import UsageError

    try:
        _render_once(job, watching=True)
    except click.ClickException as exc:
        raise UsageError(exc.format_message()) from None


def _render_once(job: dict, watching: bool = False) -> None:
    """One render of the `render` command (`job`: its options), by sheetgen.api.render; say
    what was written."""
    from sheetgen import api
    from sheetgen.paper import paper_name

    with _option_errors():
        done = api.render(job, progress=_progress)
    for note in done.notes:
        click.echo(note, err=True)
    n, per_page = done.sides, job["per_page"]
    what = [f"{n} page{'s' if n > 1 else ''}"]
    if per_page > 1:
        what.append(f"{per_page} sheets a page on {paper_name(job['paper'])}")
        if done.empty:
            what.append(f"{done.empty} empty cell{'s' if done.empty > 1 else ''} on the last page")
    if done.duplex:
        what.append(f"front and back, {job['flip']}-edge flip")
    shown = done.paths
    where = printable(shown[0]) if len(shown) == 1 else f"{printable(shown[0])} ... {printable(shown[-1])}"
    stamp = f"{_now()} " if watching else ""
    click.echo(f"{stamp}wrote {where} ({', '.join(what)}, {done.size / 1024:.0f} KiB)", err=True)


def _now() -> str:
    import time

    return time.strftime("%H:%M:%S")


class _NoBar:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


class _Bar:
    """A progress bar on standard error (click's), fed with the count done so far."""

    def __init__(self, total: int, label: str = "rendering"):
        import sys

        self.bar = click.progressbar(length=total, label=label, file=sys.stderr)
        self.done = 0

    def __enter__(self):
        self.bar.__enter__()

        def update(done: int) -> None:
            self.bar.update(max(0, done - self.done))
            self.done = max(self.done, done)

        return update

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)


def _progress(total: int, slow: bool, label: str = "rendering"):
    """A progress bar for a job expected to take over a second, when standard error is a
    terminal; nothing otherwise (a pipe, a log file, a test)."""
    import sys

    return _Bar(total, label) if slow and sys.stderr.isatty() else _NoBar()


SLOW_SAVE = 2000  # games kept at once from which a save takes a second or two: a progress bar


DB_OPTION = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help="The history file (default: $SHEETGEN_DB, else history.sqlite in your data folder).",
)


@cli.command()
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "jsonl", "csv"]),
    default="table",
    show_default=True,
    help="table for people; json (the score contract: one object for one game, an array of "
    "them for several); jsonl (one object a line); csv (one header per game).",
)
@LANG_OPTION
@click.option(
    "--layout",
    "layout_ref",
    default=None,
    shell_complete=_complete_layout,
    help="For filled PDFs: the layout they were rendered from (needed for a variant).",
)
@click.option(
    "-i", "--interactive", is_flag=True, help="Ask for the marks player by player; the argument is then a LAYOUT."
)
@click.option("--players", type=int, default=None, help="With --interactive: how many players.")
@click.option(
    "--record",
    "record_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="With --interactive: also write the record (YAML) to this file.",
)
@click.option("--save", is_flag=True, help="Also keep the games in the history (see `sheetgen history`).")
@click.option("--again", is_flag=True, help="With --save: keep a game even if the same record is already kept.")
@DB_OPTION
@FORCE_OPTION
@click.option(
    "-q", "--quiet", is_flag=True, help="Print no warnings, nor what --save kept: only the scores and errors."
)
def score(records, fmt, lang, layout_ref, interactive, players, record_out, save, again, db, force, quiet):
    """Score finished games from RECORDS (YAML or JSON game records, or PDFs filled
    on a screen from `sheetgen render --fillable`; `-` reads either from standard input).

    Each record is one game; a file may hold several, each scored on its own: JSON
    lines (one game a line) or YAML documents separated by `---`. The filled PDFs given together are one game (one
    player per filled sheet), as `sheetgen read` makes of them. Scores go to
    standard output, warnings to standard error.

    \b
    sheetgen score game.yaml
    sheetgen score game.yaml --format json
    sheetgen score games.jsonl --format jsonl
    sheetgen score alice.pdf bob.pdf
    sheetgen score game.yaml --save
    sheetgen score harvest-dice-normal --interactive --record game.yaml
    """
    from sheetgen.api import record_json, score_pdfs
    from sheetgen.errors import RecordError, SheetgenError
    from sheetgen.fileio import read_text
    from sheetgen.scoring import output
    from sheetgen.scoring.record import Batch, score_data, score_documents

    lang = lang or default_lang()
    if again and not save:
        raise click.UsageError("--again goes with --save")
    texts = []  # each record as text, for --save
    if interactive:
        if len(records) != 1:
            raise click.UsageError("--interactive takes exactly one LAYOUT")
        scored, text = _interactive(records[0], players, record_out, force, score_data)
        scored, texts = [scored], [text]
    else:
        if record_out or players is not None:
            raise click.UsageError("--record and --players go with --interactive")
        pdfs = [r for r in records if r.lower().endswith(".pdf") or (r == "-" and _stdin_is_pdf())]
        if layout_ref is not None and not pdfs:
            raise click.UsageError("--layout goes with filled PDFs")
        scored, problems, batch = [], [], Batch()
        for path in records:
            try:
                if path in pdfs:
                    if path == pdfs[0]:
                        one, record = score_pdfs(pdfs, layout_ref)
                        scored.append(one)
                        texts.append(_record_yaml(record))
                else:
                    games = score_documents(path, batch)
                    scored += games
                    if len(games) == 1:
                        texts.append(read_text(path) if save else "")
                    else:  # one game of several in the file: kept as its own record
                        texts += [record_json(g.record["_node"]) if save else "" for g in games]
            except SheetgenError as exc:
                problems += exc.problems
        if problems:
            raise RecordError(problems)
    if not quiet:
        for line in output.warning_lines(scored):
            click.echo(line, err=True)
    if fmt == "json":
        click.echo(output.as_json(scored))
    elif fmt == "jsonl":
        click.echo(output.as_jsonl(scored), nl=False)
    elif fmt == "csv":
        click.echo(output.as_csv(scored), nl=False)
    else:
        click.echo("\n\n".join(output.as_table(s, lang) for s in scored))
    if save:
        from sheetgen.api import keep

        with _progress(len(scored), len(scored) >= SLOW_SAVE, "keeping") as progress:
            ids, where = keep(scored, texts, [s.source for s in scored], db, again, progress)
        if not quiet:
            click.echo(output.kept_line(ids, where), err=True)


def _stdin_is_pdf() -> bool:
    from sheetgen.fileio import MAX_PDF_INPUT, read_input

    return read_input("-", MAX_PDF_INPUT)[:1024].lstrip().startswith(b"%PDF-")


class TerminalPrompter:
    """sheetgen.scoring.interactive's questions, on the terminal (on stderr, so
    that standard output holds only the data)."""

    def prompt(self, text: str, default: str | None = None) -> str:
        import sys

        try:
            shown = None if default is None else printable(default)
            return click.prompt(printable(text), default=shown, show_default=default is not None, err=True)
        except click.exceptions.Abort:
            if sys.stdin.isatty():
                raise  # Ctrl-C at the terminal: Click's "Aborted!"
            click.echo("", err=True)
            raise click.ClickException("standard input ended before every question was answered") from None

    def say(self, text: str) -> None:
        click.echo(printable(text), err=True)


def _interactive(ref, players, record_out, force, score_data):
    """The record asked for, scored, and as YAML text."""
    from sheetgen.api import layout_ref_for
    from sheetgen.fileio import check_output, write_output
    from sheetgen.games import load_layout
    from sheetgen.scoring.interactive import ask_record

    if record_out is not None:  # before the questions, not after them
        check_output(record_out, inputs=_layout_inputs(ref), force=force, record=True)
    layout = load_layout(ref)
    record = ask_record(TerminalPrompter(), layout, layout_ref_for(ref, record_out), _game_players(layout, players))
    scored = score_data(record, record_out or "<interactive>")
    text = _record_yaml(record)
    if record_out:
        shown = write_output(record_out, text.encode("utf-8"), inputs=_layout_inputs(ref), force=force, record=True)
        click.echo(f"saved {printable(shown)}", err=True)
    return scored, text


class Text(click.ParamType):
    """Text typed on the command line: UTF-8 only (a shell hands bytes that are not, which
    no history, table or terminal can hold, escaped as lone surrogates)."""

    name = "text"

    def convert(self, value, param, ctx):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.fail(f"not UTF-8 text: {printable(value)!r}", param, ctx)
        return value


# an id or a count the history's SQLite integers can hold
SQLITE_INT = click.IntRange(0, 2**63 - 1)


def _history_filters(command):
    """--game, --player, --since, --until, --alias: shared by `history` and `stats`."""
    for option in reversed(
        [
            click.option(
                "--game", type=Text(), default=None, help="Only this game (bosk) or layout (harvest-dice-advanced)."
            ),
            click.option(
                "--player", type=Text(), default=None, help="Only games this player played (any case; aliases apply)."
            ),
            click.option(
                "--since", type=Text(), default=None, help="Only games played on or after this ISO date (2026-01-01)."
            ),
            click.option("--until", type=Text(), default=None, help="Only games played on or before this ISO date."),
            click.option(
                "--alias",
                "aliases",
                type=Text(),
                multiple=True,
                metavar="OLD=NEW",
                help='Count OLD as NEW, e.g. "Bob=Robert" (repeatable).',
            ),
            click.option(
                "--format",
                "fmt",
                type=click.Choice(["table", "json", "csv"]),
                default="table",
                show_default=True,
                help="table for people; json and csv for other tools.",
            ),
            LANG_OPTION,
            DB_OPTION,
        ]
    ):
        command = option(command)
    return command


def _find(game, player, since, until, aliases, db, limit=None):
    from sheetgen.history import report

    found = report.find(game, player, since, until, aliases, db, limit)
    _warn_damaged(found.damaged, db)
    return found.names, found.keys, found.games, found.total


def _warn_damaged(damaged: list, db) -> None:
    from sheetgen.history.store import db_path

    for line in damaged:
        click.echo(f"warning: {printable(str(db_path(db)))}: {printable(line)}", err=True)


@cli.command()
@_history_filters
@click.option(
    "--limit",
    type=SQLITE_INT,
    default=None,
    help="How many games, newest first (table: 20 by default; json, csv: all). 0: all.",
)
@click.option(
    "--remove", "remove_id", type=SQLITE_INT, default=None, metavar="ID", help="Remove game ID from the history."
)
@click.option(
    "--rescore", is_flag=True, help="Score the kept games again with today's layouts and report what would change."
)
@click.option("--id", "game_id", type=SQLITE_INT, default=None, metavar="ID", help="With --rescore: only game ID.")
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
        click.echo(
            f"removed game {gone.id} ({report.shown_date(gone.played_at)}, {gone.layout}: "
            f"{', '.join(p.name for p in gone.players)})"
        )
        return
    if rescore:
        damaged: list = []
        results = store.rescore_games(game_id, db, damaged)
        _warn_damaged(damaged, db)
        if results or not damaged:
            click.echo(report.rescore_report(results, lang) or report.WORDS[lang]["none"])
        if apply:
            n = store.apply_rescore(results, db)
            click.echo(f"updated {n} game{'s' if n != 1 else ''}", err=True)
        if damaged or any(r.now is None for r in results):
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
@click.argument("layout_files", nargs=-1, type=click.Path(dir_okay=False, exists=True))
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="The port to listen on.")
@click.option(
    "--lan",
    is_flag=True,
    help="Listen on this machine's local network address, for the players' phones: prints a join link "
    "and its QR code (it carries a token; another device without it is refused).",
)
@DB_OPTION
def serve(layout_files, port, lan, db):
    """Score at the table: a web page to start a game, mark every player's sheet (on a
    screen or on the players' phones) and score it live with the game's rules. Finished
    games go to the history (`sheetgen history`); games in progress go on after a restart.

    LAYOUT_FILES (variants) are offered beside the built-in layouts. Needs the serve
    extra: pip install 'rollwrite[serve]'.

    \b
    sheetgen serve
    sheetgen serve --lan my-variant.yaml
    """
    from sheetgen.errors import UsageError

    try:
        from sheetgen.serve.run import serve as run
    except ImportError as exc:
        raise UsageError(
            f"`sheetgen serve` needs the serve extra ({exc.name} is missing): pip install 'rollwrite[serve]'"
        ) from None
    run(port, lan, db, list(layout_files), lambda text: click.echo(text, err=True))


@cli.command()
@click.argument("pdfs", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--layout",
    "layout_ref",
    default=None,
    shell_complete=_complete_layout,
    help="The layout the sheets were rendered from (default: the built-in one the PDF names; a variant needs it).",
)
@_output_option("Write the record to this file instead of standard output.")
@FORCE_OPTION
def read(pdfs, layout_ref, output, force):
    """Read filled fillable PDFs (`render --fillable`; `-` for standard input) into one
    game record (YAML).

    Every filled sheet is one player (a pad: every filled column). Check the
    record, then `sheetgen score` it. A layout path is written relative to the record.
    """
    from sheetgen.api import layout_ref_for, numbers
    from sheetgen.fileio import check_output
    from sheetgen.scoring.pdfread import record_from_pdfs

    inputs = [*pdfs, *([layout_ref] if layout_ref else [])]
    if output not in (None, "-"):
        check_output(output, inputs=inputs, force=force, record=True)
    warnings: list = []
    record = numbers(record_from_pdfs(list(pdfs), layout_ref, warnings))
    for w in warnings:
        click.echo(f"warning: {printable(w)}", err=True)
    if layout_ref is not None:
        record["layout"] = layout_ref_for(layout_ref, output)
    _emit(_record_yaml(record), output, inputs, force)


@cli.command()
@click.argument("images", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--layout",
    "layout_ref",
    default=None,
    shell_complete=_complete_layout,
    help="The layout the sheets were printed from (default: the built-in one their QR code names; a variant needs it).",
)
@_output_option("Write the record to this file instead of standard output.")
@click.option("--score", "then_score", is_flag=True, help="Score the game at once instead of writing the record.")
@click.option(
    "--check",
    "check_png",
    type=click.Path(dir_okay=False, readable=False),
    default=None,
    help="Write the photo mapped onto the page, every box outlined by its reading (PNG; one file a photo).",
)
@LANG_OPTION
@FORCE_OPTION
@click.option("--save", is_flag=True, help="With --score: also keep the game in the history (`sheetgen history`).")
@click.option("--again", is_flag=True, help="With --save: keep it even if the same record is already kept.")
@DB_OPTION
def scan(images, layout_ref, output, then_score, check_png, lang, force, save, again, db):
    """Read photos or scans of played sheets (JPEG, PNG, WebP, TIFF, or a scanner's PDF) into
    one game record: one player per sheet, named from the file names.

    A two-page sheet's photos are paired by name: alice-empire.jpg with
    alice-village.jpg; a scanner's PDF pairs its pages in turn (a player's
    pages one after the other). A page printed two sheets a page gives two players,
    page-1 and page-2. Unsure boxes are listed and left empty; numbers written
    by hand are left for you to fill in.

    \b
    sheetgen scan alice.jpg bob.jpg -o game.yaml
    sheetgen scan scans.pdf --score
    sheetgen scan photo.jpg --layout my-variant.yaml --check check.png
    """
    from sheetgen.api import layout_ref_for, numbers
    from sheetgen.errors import RecordError
    from sheetgen.fileio import check_output, write_output
    from sheetgen.scan.check import check_png as draw_check
    from sheetgen.scan.photos import need_cv
    from sheetgen.scan.record import read_photos, record_from_reads, unsure_warnings
    from sheetgen.scoring.pdfread import has_form_fields

    need_cv()
    if (save or again) and not then_score:
        raise click.UsageError("--save and --again go with --score")
    if then_score and output is not None:
        raise click.UsageError("--score prints the scores; -o writes the record: give one of them")
    if layout_ref is not None:
        from sheetgen.games import load_layout

        lay = load_layout(layout_ref)
        if not lay.scan_marks:
            raise RecordError(
                f"{layout_ref}: layout '{lay.id}' carries no scan marks (`scan_marks: true`): its "
                "sheets hold handwritten numbers, which `sheetgen scan` does not read; type the record "
                "(sheetgen template) or fill the PDF (render --fillable, then sheetgen read)"
            )
    inputs = [*images, *([layout_ref] if layout_ref else [])]
    if output not in (None, "-"):
        check_output(output, inputs=inputs, force=force, record=True)
    if check_png is not None:  # before the photos are read, as -o
        check_output(check_png, inputs=inputs)
    warnings: list = []
    forms = [path for path in images if path.lower().endswith(".pdf") and has_form_fields(path)]
    if forms:  # PDFs filled on a screen: their fields' values, as `read` takes them
        if len(forms) != len(images):
            raise click.UsageError(
                f"{forms[0]} is a PDF filled on a screen (form fields), the others photos or scans: "
                "read the filled PDFs with `sheetgen read` or `sheetgen score`, the photos with `sheetgen scan`"
            )
        from sheetgen.scoring.pdfread import record_from_pdfs

        reads = []
        warnings.append(f"{forms[0]}: a PDF filled on a screen: read from its form fields, as `sheetgen read` does")
        record = numbers(record_from_pdfs(list(images), layout_ref, warnings))
    else:
        reads = read_photos(list(images), layout_ref, warnings)
        warnings += unsure_warnings(reads)
        record = numbers(record_from_reads(reads, layout_ref, warnings))
    if check_png is not None:
        for n, read in enumerate(reads, 1):
            path = check_png if n == 1 else str(Path(check_png).with_stem(f"{Path(check_png).stem}-{n}"))
            shown = write_output(path, draw_check(read), inputs=inputs)
            click.echo(f"wrote {printable(shown)} ({read.photo.name})", err=True)
    for w in warnings:
        click.echo(f"warning: {printable(w)}", err=True)
    if layout_ref is not None:
        record["layout"] = layout_ref_for(layout_ref, output)
    if then_score:
        from sheetgen.scoring import output as formats
        from sheetgen.scoring.record import score_data

        if layout_ref is not None and _layout_inputs(layout_ref):
            record["layout"] = os.path.abspath(layout_ref)
        scored = score_data(record, images[0])
        for w in scored.warnings:
            click.echo(f"warning: {printable(w)}", err=True)
        click.echo(formats.as_table(scored, lang or default_lang()))
        if save:
            from sheetgen.api import keep

            ids, where = keep([scored], [_record_yaml(record)], [images[0]], db, again)
            click.echo(f"kept as game {ids[0]} in {where}", err=True)
        return
    _emit(_record_yaml(record), output, inputs, force)


@cli.command()
@click.argument("layout", shell_complete=_complete_layout)
@click.option("--players", type=int, default=None, help="How many players (default: the game's usual count).")
@_output_option("Write to this file instead of standard output.")
@FORCE_OPTION
def template(layout, players, output, force):
    """Print a commented blank game record for LAYOUT, to fill in and score."""
    from sheetgen.api import layout_ref_for
    from sheetgen.fileio import check_output
    from sheetgen.games import game_for, load_layout
    from sheetgen.scoring.template import make_template

    inputs = _layout_inputs(layout)
    if output not in (None, "-"):
        check_output(output, inputs=inputs, force=force, record=True)
    lay = load_layout(layout)
    if players is None:
        lo, hi = game_for(lay).player_range(lay)
        players = max(lo, min(hi, lay.players["default"]))
    _emit(make_template(lay, _game_players(lay, players), layout_ref_for(layout, output)), output, inputs, force)


@cli.command()
@click.argument("layout", shell_complete=_complete_layout)
@click.option("--page", "page", default=None, shell_complete=_complete_page, help="Only this page.")
@click.option("--players", type=int, default=None, help="Show the boxes as printed for this many players.")
@click.option("--format", "fmt", type=click.Choice(["tree", "json", "yaml"]), default="tree", help="Output format.")
@click.option("--scorer", is_flag=True, help="Only what the game's scorer reads, with its current values.")
def show(layout, page, players, fmt, scorer):
    """Show LAYOUT after `extends`: every element's id, type, page, place and size in mm,
    each key with the file and line it comes from, the constants and the boxes."""
    import json

    from sheetgen.errors import UsageError
    from sheetgen.games import load_layout
    from sheetgen.games.reference import scorer_reads, scorer_text
    from sheetgen.layout.describe import describe_layout, tree_text

    lay = load_layout(layout)
    if page is not None and page not in [p.id for p in lay.pages]:
        raise UsageError(f"--page: no page '{page}' in '{lay.id}'; pages: {', '.join(p.id for p in lay.pages)}")
    if scorer:
        data, text = scorer_reads(lay), scorer_text
    else:
        data, text = describe_layout(lay, _game_players(lay, players), page), tree_text
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(_record_yaml(data), nl=False)
    else:
        click.echo(text(data), nl=False)


@cli.command("new")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--from", "parent", required=True, shell_complete=_complete_layout, help="The layout to start from.")
def new_cmd(file, parent):
    """Write FILE, a commented child layout of --from LAYOUT (never overwrites a file)."""
    from sheetgen.errors import UsageError
    from sheetgen.fileio import check_output, write_output
    from sheetgen.games import load_layout
    from sheetgen.games.variant import new_child_text

    if os.path.lexists(file):
        raise UsageError(f"{file}: the file exists; `sheetgen new` never overwrites a file: give another name")
    check_output(file, inputs=_layout_inputs(parent), record=True)
    lay = load_layout(parent)
    text = new_child_text(lay, parent, Path(file))
    shown = write_output(file, text.encode("utf-8"), inputs=_layout_inputs(parent), record=True)
    click.echo(f"wrote {printable(shown)}: edit it, then `sheetgen show {printable(shown)}` and `sheetgen validate`")


def _game_players(lay, players: int | None) -> int | None:
    from sheetgen.api import player_count

    with _option_errors():
        return player_count(lay, players)


def _record_yaml(record: dict) -> str:
    from sheetgen.api import record_yaml

    return record_yaml(record)


def _numbers(record: dict) -> dict:
    from sheetgen.api import numbers

    return numbers(record)


def _emit(text: str, output: str | None, inputs=(), force: bool = False) -> None:
    """Write a record's `text` to `output` (see fileio.write_output), or to standard output."""
    from sheetgen.fileio import write_output

    if output is not None and output != "-":
        shown = write_output(output, text.encode("utf-8"), inputs=inputs, force=force, record=True)
        click.echo(f"wrote {printable(shown)}", err=True)
    elif output == "-":
        write_output("-", text.encode("utf-8"))
    else:
        click.echo(text, nl=False)


def help_text() -> str:
    """What `sheetgen --help` prints, but its final newline (sheetgen.__main__ keeps it)."""
    ctx = cli.make_context("sheetgen", [], resilient_parsing=True)
    return ctx.get_help()


def _terminate(signum, frame):
    """SIGTERM ends the program like Ctrl-C: cleanup handlers run (no temporary file left)."""
    raise SystemExit(128 + signum)


def main():
    """The console script. A bug (not a bad input, which the commands report
    themselves) still ends in one `Error:` line; SHEETGEN_DEBUG=1 shows the traceback."""
    import contextlib
    import signal
    import sys

    signal.signal(signal.SIGTERM, _terminate)
    if sys.stdout is None:  # `sheetgen list >&-`: what is written there is an error, not lost
        sys.stdout = _Closed()
    try:
        # outside standalone mode Click returns the code of a ctx.exit(n) instead of exiting
        code = cli(prog_name="sheetgen", standalone_mode=False)
        if isinstance(code, int) and code:
            raise SystemExit(code)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        raise SystemExit(1) from None
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    except click.exceptions.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except BrokenPipeError:  # `sheetgen score ... | head`: the reader left; nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        raise SystemExit(1) from None
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRORS:
            _internal_error(exc)
        # standard output cannot take what we write (`> /dev/full`, a closed descriptor)
        click.echo(f"Error: cannot write the output: {exc.strerror}", err=True)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # so that the exit's own flush says nothing more
        raise SystemExit(1) from None
    except Exception as exc:  # noqa: BLE001 - the last resort, see the docstring
        _internal_error(exc)


_OUTPUT_ERRORS = (errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT)


class _Closed:
    """Standard output when its descriptor is closed: writing to it is an error."""

    def write(self, text):
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self):
        pass

    def isatty(self):
        return False


def _internal_error(exc: BaseException):
    if os.environ.get("SHEETGEN_DEBUG"):
        raise exc
    click.echo(
        f"Error: internal error ({type(exc).__name__}: {exc}); "
        "run again with SHEETGEN_DEBUG=1 for the details, and please report it",
        err=True,
    )
    raise SystemExit(1) from None
