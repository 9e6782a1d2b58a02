"""The pages: HTML around the sheets (sheetgen.render.svg draws them). Everything a user
typed (players' names) or a file holds (layout titles) is escaped here; the marks are
drawn by the script (static/app.js) with DOM calls, never as markup. The data a page needs
travels as JSON in `<script type="application/json">` blocks (data, not script: the
Content-Security-Policy allows no inline script)."""

from __future__ import annotations

import json
from html import escape

WORDS = {
    "en": {
        "start": "Start the game",
        "layout": "Game",
        "players": "Players (one a line, or comma separated)",
        "lang": "Language",
        "open": "Games in progress",
        "none": "None yet.",
        "join": "Scan to join from a phone",
        "me": "I am",
        "everyone": "Everyone",
        "board": "Scoreboard",
        "undo": "Undo",
        "redo": "Redo",
        "finish": "Finish",
        "total": "Total",
        "rank": "Rank",
        "winners": "Winners",
        "warnings": "Warnings",
        "sections": "Sections",
        "empty": "Empty",
        "ok": "OK",
        "cancel": "Cancel",
        "kept": "Kept in the history as game",
        "game": "Game",
        "new": "New game",
        "colon": ":",
        "history": "History",
        "stats": "Standings",
        "unreachable": "The server cannot be reached; the mark was not kept.",
        "photo_unreachable": "The server cannot be reached; the photo was not read.",
        "photo_take": "Take a photo",
        "photo_send": "Send a file",
        "photo_send_title": "A photo of the sheet, or a scanner's PDF or TIFF",
        "photo_name": "photo",
        "photo_of": "{name}'s sheet",
        "stage_sending": "Sending the photo: {pct}%",
        "stage_queued": "Waiting for the photo reader",
        "stage_decode": "Opening the photo",
        "stage_find": "Finding the sheet",
        "stage_read": "Reading the boxes",
        "stage_fill": "Filling in the sheet",
        "stage_done": "Filled in from the photo: {marked} marked, {doubts}.",
        "box_none": "no box",
        "box_one": "1 box",
        "box_many": "{n} boxes",
        "doubt_none": "no doubt",
        "doubt_one": "1 doubt",
        "doubt_many": "{n} doubts",
        "stage_page": "page {n} of {of}",
        "doubts": "Doubts",
        "doubts_left": "{n} doubts left from the photos: tap the orange boxes.",
        "doubt_left": "1 doubt left from the photos: tap the orange box.",
        "doubt_unsure": "Is this box marked on the paper?",
        "doubt_cell": "What is in this cell on the paper?",
        "doubt_number": "Type the number written here:",
        "doubt_read": "Read from the photo: is it the number written here?",
        "confirm_read": "Keep the {n} numbers read as they are",
        "confirm_read_one": "Keep the number read as it is",
        "doubt_show": "Show on the sheet",
        "marked": "Marked",
        "finish_doubts": "{n} doubts are left from the photos. Keep the game all the same?",
        "finish_again": "This game is already kept in the history. Keep it a second time?",
        "take_away": "Take it away",
        "record_yaml": "Record (YAML)",
        "score_json": "Score (JSON)",
        "score_csv": "Score (CSV)",
        "sheets_pdf": "Sheets as marked (PDF)",
        "awake_insecure": "The screen may go to sleep: the browser keeps it awake only over https or on this computer.",
        "awake_none": "The screen may go to sleep: this browser cannot keep it awake.",
        "history_title": "Games kept",
        "filter": "Show",
        "any_game": "All games",
        "since": "From",
        "until": "To",
        "alias": "Same player (OLD=NEW, comma separated)",
        "shown": "{n} of {total} games shown.",
        "show_all": "Show them all",
        "download": "Download",
        "removed": "Game {id} was removed from the history.",
        "kept_title": "Game {id}",
        "remove": "Remove from the history",
        "remove_confirm": "Remove game {id} from the history? It cannot be undone.",
        "no_sheets": "This game was kept from a record (sheetgen score --save), not played at the table: "
        "its record is below.",
        "record": "Record",
        "sheets": "Sheets as marked",
        "plot": "Scores over time",
        "more_players": "and {n} more players: choose a player to see theirs.",
        "refused_file": "This file cannot be read as a photo of a sheet",
        "refused_marks": "The sheet's four corner squares are not all in the photo: "
        "photograph the whole sheet, flat and lit.",
        "refused_sheets": "{count} sheets in one photo: photograph one sheet at a time.",
        "refused_layout": "Not a sheet of this game, or one printed from another version of its layout",
        "refused_other_layout": "This is a sheet of {layout}, not of {game}.",
        "refused_page_twice": "Two pictures of the page “{page}”: one picture a page.",
        "refused_players": "This sheet was printed for another number of players than this game's {n}.",
        "refused_blank_page": "A blank page: there is no sheet in it.",
        "refused_blank_sheet": "No box is marked on this sheet: is it the right photo?",
        "refused_no_scan_marks": "These sheets carry no scan marks: mark them on the screen.",
    },
    "fr": {
        "start": "Commencer la partie",
        "layout": "Jeu",
        "players": "Joueurs (un par ligne, ou séparés par des virgules)",
        "lang": "Langue",
        "open": "Parties en cours",
        "none": "Aucune pour l'instant.",
        "join": "Scannez pour rejoindre depuis un téléphone",
        "me": "Je suis",
        "everyone": "Tout le monde",
        "board": "Tableau des scores",
        "undo": "Annuler",
        "redo": "Rétablir",
        "finish": "Terminer",
        "total": "Total",
        "rank": "Rang",
        "winners": "Gagnants",
        "warnings": "Avertissements",
        "sections": "Parties de la feuille",
        "empty": "Vide",
        "ok": "OK",
        "cancel": "Annuler",
        "kept": "Gardée dans l'historique : partie",
        "game": "Partie",
        "new": "Nouvelle partie",
        "colon": " :",
        "history": "Historique",
        "stats": "Classements",
        "unreachable": "Le serveur est injoignable ; la case n'a pas été gardée.",
        "photo_unreachable": "Le serveur est injoignable ; la photo n'a pas été lue.",
        "photo_take": "Prendre une photo",
        "photo_send": "Envoyer un fichier",
        "photo_send_title": "Une photo de la feuille, ou le PDF ou le TIFF d'un scanner",
        "photo_name": "photo",
        "photo_of": "feuille de {name}",
        "stage_sending": "Envoi de la photo : {pct} %",
        "stage_queued": "En attente du lecteur de photos",
        "stage_decode": "Ouverture de la photo",
        "stage_find": "Recherche de la feuille",
        "stage_read": "Lecture des cases",
        "stage_fill": "Remplissage de la feuille",
        "stage_done": "Remplie d'après la photo : {marked}, {doubts}.",
        "box_none": "aucune case cochée",
        "box_one": "1 case cochée",
        "box_many": "{n} cases cochées",
        "doubt_none": "aucun doute",
        "doubt_one": "1 doute",
        "doubt_many": "{n} doutes",
        "stage_page": "page {n} sur {of}",
        "doubts": "Doutes",
        "doubts_left": "Il reste {n} doutes issus des photos : touchez les cases orange.",
        "doubt_left": "Il reste 1 doute issu des photos : touchez la case orange.",
        "doubt_unsure": "Cette case est-elle cochée sur la feuille ?",
        "doubt_cell": "Que contient cette case sur la feuille ?",
        "doubt_number": "Tapez le nombre écrit ici :",
        "doubt_read": "Lu sur la photo : est-ce le nombre écrit ici ?",
        "confirm_read": "Garder les {n} nombres lus tels quels",
        "confirm_read_one": "Garder le nombre lu tel quel",
        "doubt_show": "Voir sur la feuille",
        "marked": "Cochée",
        "finish_doubts": "Il reste {n} doutes issus des photos. Garder la partie quand même ?",
        "finish_again": "Cette partie est déjà gardée dans l'historique. La garder une seconde fois ?",
        "take_away": "À emporter",
        "record_yaml": "Fiche de partie (YAML)",
        "score_json": "Score (JSON)",
        "score_csv": "Score (CSV)",
        "sheets_pdf": "Feuilles remplies (PDF)",
        "awake_insecure": "L'écran peut se mettre en veille : le navigateur ne le garde allumé "
        "qu'en https ou sur cet ordinateur.",
        "awake_none": "L'écran peut se mettre en veille : ce navigateur ne sait pas le garder allumé.",
        "history_title": "Parties gardées",
        "filter": "Afficher",
        "any_game": "Tous les jeux",
        "since": "Du",
        "until": "Au",
        "alias": "Même joueur (ANCIEN=NOUVEAU, séparés par des virgules)",
        "shown": "{n} parties affichées sur {total}.",
        "show_all": "Les afficher toutes",
        "download": "Télécharger",
        "removed": "La partie {id} a été retirée de l'historique.",
        "kept_title": "Partie {id}",
        "remove": "Retirer de l'historique",
        "remove_confirm": "Retirer la partie {id} de l'historique ? C'est définitif.",
        "no_sheets": "Cette partie a été gardée depuis une fiche (sheetgen score --save), pas jouée à table : "
        "sa fiche est ci-dessous.",
        "record": "Fiche de partie",
        "sheets": "Feuilles remplies",
        "plot": "Scores au fil du temps",
        "more_players": "et {n} autres joueurs : choisissez un joueur pour voir les siens.",
        "refused_file": "Ce fichier ne se lit pas comme la photo d'une feuille",
        "refused_marks": "Les quatre carrés des coins de la feuille ne sont pas tous sur la photo : "
        "photographiez toute la feuille, à plat et bien éclairée.",
        "refused_sheets": "{count} feuilles sur une photo : photographiez une feuille à la fois.",
        "refused_layout": "Ce n'est pas une feuille de cette partie, "
        "ou elle a été imprimée d'une autre version de sa mise en page",
        "refused_other_layout": "C'est une feuille de {layout}, pas de {game}.",
        "refused_page_twice": "Deux images de la page « {page} » : une image par page.",
        "refused_players": "Cette feuille a été imprimée pour un autre nombre de joueurs que les {n} de cette partie.",
        "refused_blank_page": "Une page blanche : elle ne contient pas de feuille.",
        "refused_blank_sheet": "Aucune case n'est cochée sur cette feuille : est-ce la bonne photo ?",
        "refused_no_scan_marks": "Ces feuilles n'ont pas de marques de scan : cochez-les à l'écran.",
    },
}


def _data(value) -> str:
    """JSON for a `<script type="application/json">` block: `<`, `>` and `&` escaped, so
    that no text in it can close the block."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _page(title: str, lang: str, token: str, body: str, kind: str, attrs: str = "") -> str:
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/static/app.css">'
        f'<meta name="sheetgen-token" content="{escape(token)}">'
        '<script src="/static/app.js" defer></script>'
        f'</head><body class="{kind}"{attrs}>{body}</body></html>'
    )


def qr_svg(text: str) -> str:
    """A QR code of `text` as an SVG (the modules of the scan marks' QR code: render.pdf)."""
    from sheetgen.render.pdf import qr_modules

    rows = qr_modules(text)
    n = len(rows)
    d = "".join(f"M{c + 2} {r + 2}h1v1h-1z" for r, row in enumerate(rows) for c, dark in enumerate(row) if dark == "1")
    return (
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n + 4} {n + 4}" role="img" '
        f'aria-label="QR code"><rect width="{n + 4}" height="{n + 4}" fill="#fff"/><path d="{d}" fill="#000"/></svg>'
    )


def _join(config, next_path: str, lang: str) -> str:
    if not config.join_url:
        return ""
    url = config.join_url + (f"&next={next_path}" if next_path != "/" else "")
    return (
        f'<section class="join"><h2>{WORDS[lang]["join"]}</h2>{qr_svg(url)}'
        f'<p><a href="{escape(url)}">{escape(url)}</a></p></section>'
    )


def home(config, tables, games: list, lang: str) -> str:
    w = WORDS[lang]
    options = []
    for key in config.layouts:
        lay = tables.layout(key)
        players = lay.players
        who = f" ({players['min']}-{players['max']})" if players["max"] > 1 else ""
        options.append(f'<option value="{escape(key)}">{escape(lay.title[lang])}{escape(who)}</option>')
    listed = "".join(
        f'<li><a href="/game/{escape(g.id)}">{escape(_title(config, tables, g.layout, lang))}'
        f"</a>: {escape(', '.join(g.players))}</li>"
        for g in games
    )
    langs = "".join(
        f'<option value="{code}"{" selected" if lang == code else ""}>{name}</option>'
        for code, name in (("en", "English"), ("fr", "Français"))
    )
    games_list = f"<ul>{listed}</ul>" if listed else f"<p>{w['none']}</p>"
    body = (
        f"<header>{_nav(lang)}</header><main><h1>sheetgen</h1>"
        f'<form method="post" action="/games" class="new-game">'
        f'<input type="hidden" name="token" value="{escape(config.page_token)}">'
        f'<label>{w["layout"]}<select name="layout">{"".join(options)}</select></label>'
        f'<label>{w["players"]}<textarea name="players" rows="4" required maxlength="2000"></textarea></label>'
        f'<label>{w["lang"]}<select name="lang">{langs}</select></label>'
        f'<button type="submit">{w["start"]}</button></form>'
        f"<section><h2>{w['open']}</h2>{games_list}</section>"
        f"{_join(config, '/', lang)}</main>"
    )
    return _page("sheetgen", lang, config.page_token, body, "home")


def _title(config, tables, key: str, lang: str) -> str:
    """A game's layout title (its key when this server no longer offers it)."""
    return tables.layout(key).title[lang] if key in config.layouts else key


def _sections(layout, lang: str) -> list:
    """The frames of each page (a phone shows one at a time): [page, id, title, x, y, w, h]."""
    from sheetgen.layout.elements import TYPES

    return [
        [page.id, el["id"], (el.get("title") or {}).get(lang, ""), el["x"], el["y"], el["w"], el["h"]]
        for page in layout.pages
        for el in page.elements
        if TYPES[el["type"]].container
    ]


def refusal(kind: str, params: dict, message: str, lang: str) -> str:
    """Why a photo was refused, one line in `lang` (api.PhotoRefused's kind and params);
    the reader's own words follow where they say more (a file it cannot read, a sheet of
    no layout of the game's)."""
    w = WORDS[lang]
    shown = {k: (v.get(lang, "") if isinstance(v, dict) else v) for k, v in params.items()}
    text = w["refused_" + kind].format(**shown)
    return f"{text}{w['colon']} {message}" if kind in ("file", "layout") and message else text


def _nav(lang: str) -> str:
    """The site's links: a new game, the history, the standings."""
    w = WORDS[lang]
    return (
        f'<nav class="site"><a href="/?lang={lang}">{w["new"]}</a><a href="/history?lang={lang}">{w["history"]}</a>'
        f'<a href="/stats?lang={lang}">{w["stats"]}</a></nav>'
    )


def _photo_controls(n: int, lang: str) -> str:
    """A sheet's photo: taken with the phone's camera, or a file (a photo, a scanner's PDF
    or TIFF) sent; what becomes of it is said below them."""
    w = WORDS[lang]
    return (
        f'<div class="photo" data-player="{n}">'
        f'<label class="button camera">{w["photo_take"]}'
        f'<input type="file" accept="image/*" capture="environment" data-photo="{n}"></label>'
        f'<label class="button" title="{escape(w["photo_send_title"])}">{w["photo_send"]}'
        f'<input type="file" accept="image/*,application/pdf,.pdf,.tif,.tiff" data-photo="{n}"></label>'
        f'<progress hidden max="100"></progress><p class="photo-status" role="status" aria-live="polite"></p></div>'
    )


def _exports(gid: str, lang: str) -> str:
    """The game to take away: its record, its score, its sheets as marked."""
    w = WORDS[lang]
    links = [
        ("record?download", w["record_yaml"]),
        ("score.json?download", w["score_json"]),
        ("score.csv?download", w["score_csv"]),
        ("sheets.pdf?download", w["sheets_pdf"]),
    ]
    items = "".join(f'<li><a href="/game/{gid}/{href}" data-export>{label}</a></li>' for href, label in links)
    return f'<section class="exports"><h2>{w["take_away"]}</h2><ul>{items}</ul></section>'


def game(config, tables, game, state: dict) -> str:
    lang = game.lang
    w = WORDS[lang]
    tab = tables.table(game)
    layout = tab.layout
    drawn, defs_svg, choices = _drawn(tables, tab)
    sheets = []
    for n, svgs in drawn:
        head = escape(layout.title[lang] if tab.pad else game.players[n - 1])
        photo = _photo_controls(n, lang) if layout.scan_marks else ""
        sheets.append(
            f'<section class="sheet" data-sheet="{n}"><div class="sheet-head"><h2>{head}</h2>{photo}</div>'
            f'<div class="pages">{svgs}</div></section>'
        )
    who = "".join(
        f'<button type="button" class="who" data-who="{n}">{escape(name)}</button>'
        for n, name in enumerate(game.players, 1)
    )
    pages = [[pg.id, pg.title[lang], layout.width, layout.height] for pg in layout.pages]
    info = {"sections": _sections(layout, lang), "pages": pages, "choices": choices, "pad": tab.pad, "words": w}
    body = (
        f'<header><h1>{escape(layout.title[lang])}</h1><nav class="who-list"><span>{w["me"]}{w["colon"]}</span>{who}'
        f'<button type="button" class="who" data-who="0">{w["everyone"]}</button></nav>'
        f'<nav class="tools"><a href="/game/{game.id}/board">{w["board"]}</a>'
        f'<button type="button" data-act="undo">{w["undo"]}</button>'
        f'<button type="button" data-act="redo">{w["redo"]}</button>'
        f'<button type="button" data-act="finish">{w["finish"]}</button>'
        f'<a href="#doubts" class="doubts-link" hidden></a>'
        f'<a href="/">{w["new"]}</a><a href="/history?lang={lang}">{w["history"]}</a></nav>'
        f'<nav class="sections" aria-label="{w["sections"]}"></nav>'
        f'<p class="message" role="status" aria-live="polite"></p></header>'
        f'<main><div class="sheets">{"".join(sheets)}</div>'
        f'<aside class="side">{_scores(game, lang)}{_doubts(lang)}{_exports(game.id, lang)}</aside></main>'
        f"{_join(config, f'/game/{game.id}', lang)}"
        f'<p class="awake" hidden></p>'
        f'<div class="dialog" id="picker" hidden><img class="crop" alt="" hidden><div class="choices"></div>'
        f'<button type="button" data-close>{w["cancel"]}</button></div>'
        f'<div class="dialog" id="numpad" hidden><img class="crop" alt="" hidden><form><label><span></span>'
        f'<input name="value" inputmode="decimal" maxlength="40" autocomplete="off"></label>'
        f'<button type="submit">{w["ok"]}</button>'
        f'<button type="button" data-close>{w["cancel"]}</button></form></div>'
        f'<div class="dialog" id="doubt" hidden><img class="crop" alt=""><p>{w["doubt_unsure"]}</p>'
        f'<div class="answers"><button type="button" data-answer="true">{w["marked"]}</button>'
        f'<button type="button" data-answer="false">{w["empty"]}</button>'
        f'<button type="button" data-close>{w["cancel"]}</button></div></div>'
        f'<svg class="defs" width="0" height="0" aria-hidden="true">{defs_svg}</svg>'
        f'<script type="application/json" id="state">{_data(state)}</script>'
        f'<script type="application/json" id="info">{_data(info)}</script>'
    )
    return _page(f"{layout.title[lang]} — sheetgen", lang, config.page_token, body, "game", f' data-game="{game.id}"')


def _doubts(lang: str) -> str:
    """What the photos left in doubt, filled by the script: a picture of each box and how
    to settle it (a tap: marked or empty; a cell's vegetable; a number typed)."""
    w = WORDS[lang]
    return (
        f'<section class="doubts" id="doubts" hidden><h2>{w["doubts"]}</h2><p class="left"></p>'
        '<button type="button" data-act="confirm" hidden></button><ul></ul></section>'
    )


def _drawn(tables, tab) -> tuple[list, str, dict]:
    """The sheets of a table as SVG ([(sheet number, its pages' <svg>s)]: a pad is sheet 0),
    their icons' symbols, and the choices' symbols: what a game page of that layout, language
    and player count shows before any mark, drawn once (tables.drawn keeps it)."""
    key = (tab.layout.id, tab.layout.digest, tab.lang, len(tab.names))
    got = tables.drawn.get(key)
    if got is not None:
        return got
    from sheetgen.render.svg import Defs, page_svg  # (only a game page draws: the home page starts quicker)

    defs = Defs()
    doc = tab.sheets[0]
    data: dict = {}
    for (player, fname), box in tab.boxes.items():
        data.setdefault(player, {})[fname] = {"mode": box.mode, **({"player": player} if tab.pad else {})}
    drawn = []
    if tab.pad:
        merged = {f: d for p in data.values() for f, d in p.items()}
        drawn.append((0, "".join(page_svg(pg, defs, 1, None, merged, ' class="page"') for pg in doc.pages)))
    else:
        for n in range(1, len(tab.names) + 1):
            drawn.append((n, "".join(page_svg(pg, defs, n, None, data.get(n), ' class="page"') for pg in doc.pages)))
    choices = {}
    for box in tab.boxes.values():
        for letter, icon, names in box.choices:
            if letter not in choices:
                choices[letter] = {"symbol": defs.icon(icon, 36, None, 0.0), "name": names[tab.lang]}
    got = tables.drawn[key] = (drawn, defs.svg(), choices)
    return got


def _scores(game, lang: str) -> str:
    """The score table, filled by the script: a total per player (`data-total`)."""
    w = WORDS[lang]
    heads = "".join(f'<th scope="col">{escape(n)}</th>' for n in game.players)
    totals = "".join(f'<td data-total data-player="{n}"></td>' for n in range(1, len(game.players) + 1))
    ranks = "".join(f'<td data-rank data-player="{n}"></td>' for n in range(1, len(game.players) + 1))
    doubts = "".join(f'<td data-doubts data-player="{n}"></td>' for n in range(1, len(game.players) + 1))
    return (
        f'<section class="scores"><table><thead><tr><th></th>{heads}</tr></thead><tbody class="breakdown"></tbody>'
        f'<tfoot><tr class="total"><th scope="row">{w["total"]}</th>{totals}</tr>'
        f'<tr class="rank"><th scope="row">{w["rank"]}</th>{ranks}</tr>'
        f'<tr class="doubts-row" hidden><th scope="row">{w["doubts"]}</th>{doubts}</tr></tfoot></table>'
        f'<p class="doubts-left"></p>'
        f'<p class="winners"></p><p class="kept"></p><ul class="warnings" aria-label="{w["warnings"]}"></ul>'
        f'<ul class="errors"></ul></section>'
    )


def board(config, tables, game, state: dict) -> str:
    lang = game.lang
    layout = tables.layout(game.layout)
    body = (
        f"<header><h1>{escape(layout.title[lang])} — {WORDS[lang]['board']}</h1>"
        f'<nav class="tools"><a href="/game/{game.id}">{WORDS[lang]["game"]}</a></nav></header>'
        f"<main>{_scores(game, lang)}</main>"
        f'<script type="application/json" id="state">{_data(state)}</script>'
        f'<script type="application/json" id="info">{_data({"words": WORDS[lang]})}</script>'
    )
    return _page(f"{layout.title[lang]} — sheetgen", lang, config.page_token, body, "board", f' data-game="{game.id}"')


# --------------------------------------------------------------------------- the history

HISTORY_SHOWN = 100  # games listed on the history page, newest first, unless all are asked for


def _qs(query, lang: str, **more) -> str:
    """A history page's query string: its filters (as the form sends them), the language."""
    from urllib.parse import urlencode

    pairs = [(k, getattr(query, k)) for k in ("game", "player", "since", "until") if getattr(query, k)]
    if query.aliases:
        pairs.append(("alias", ", ".join(query.aliases)))
    pairs += [("lang", lang), *((k, v) for k, v in more.items() if v is not None)]
    return urlencode(pairs)


def _filters(config, tables, query, lang: str, action: str) -> str:
    """The form of `sheetgen history`'s filters: a game or layout, a player, two dates, aliases."""
    w, r = WORDS[lang], _report_words(lang)
    games = {}
    for key in config.layouts:
        lay = tables.layout(key)
        games.setdefault(lay.game, _game_title(lay, lang))
        games[lay.id] = lay.title[lang]
    if query.game and query.game not in games:
        games[query.game] = query.game
    options = [f'<option value="">{w["any_game"]}</option>'] + [
        f'<option value="{escape(k)}"{" selected" if k == query.game else ""}>{escape(t)}</option>'
        for k, t in games.items()
    ]

    def field(name: str, label: str, value, kind: str = "text") -> str:
        return (
            f'<label>{label}<input type="{kind}" name="{name}" value="{escape(value or "")}" maxlength="100"></label>'
        )

    return (
        f'<form class="filters" method="get" action="{action}"><input type="hidden" name="lang" value="{lang}">'
        f'<label>{r["game"]}<select name="game">{"".join(options)}</select></label>'
        + field("player", r["player"], query.player)
        + field("since", w["since"], query.since, "date")
        + field("until", w["until"], query.until, "date")
        + field("alias", w["alias"], ", ".join(query.aliases))
        + f'<button type="submit">{w["filter"]}</button></form>'
    )


def _report_words(lang: str) -> dict:
    from sheetgen.history.report import WORDS as REPORT

    return REPORT[lang]


def _game_title(layout, lang: str) -> str:
    """A game's name as its layouts' titles begin: "Harvest Dice" of "Harvest Dice — player sheet"."""
    return layout.title[lang].split(" — ")[0]


def _site(title: str, lang: str, token: str, body: str, kind: str) -> str:
    """A page of the site (history, standings, a kept game): the site's links above it."""
    head = f"<header>{_nav(lang)}<h1>{escape(title)}</h1></header>"
    return _page(f"{title} — sheetgen", lang, token, head + body, kind)


def _downloads(path: str, qs: str, lang: str) -> str:
    w = WORDS[lang]
    return (
        f'<p class="downloads">{w["download"]}{w["colon"]} <a href="{path}.csv?{escape(qs)}&amp;download" '
        f'data-export>CSV</a> · <a href="{path}.json?{escape(qs)}&amp;download" data-export>JSON</a></p>'
    )


def history(config, tables, found, query, lang: str, played: set, removed: str | None = None) -> str:
    """The kept games, newest first (`sheetgen history`'s table), each opening its page."""
    w, r = WORDS[lang], _report_words(lang)
    from sheetgen.history.report import shown_date

    titles: dict = {}
    rows = []
    for g in found.games:
        title = titles.get(g.layout)
        if title is None:
            title = titles[g.layout] = escape(_title(config, tables, g.layout, lang))
        names = [escape(found.names.show(p.name)) for p in g.players]
        won = ", ".join(n for n, p in zip(names, g.players) if p.winner)
        drawn = ' class="played"' if g.id in played else ""
        link = f'<a href="/history/{g.id}?lang={lang}">'
        rows.append(
            f'<tr{drawn}><td data-label="{r["id"]}">{link}{g.id}</a></td>'
            f'<td data-label="{r["date"]}">{link}{escape(shown_date(g.played_at))}</a></td>'
            f'<td data-label="{r["game"]}">{title}</td><td data-label="{r["players"]}">{", ".join(names)}</td>'
            f'<td data-label="{r["winners"]}">{won}</td>'
            f'<td data-label="{r["scores"]}">{", ".join(str(p.total) for p in g.players)}</td></tr>'
        )
    qs = _qs(query, lang)
    notes = []
    if removed:
        notes.append(f'<p class="notice">{w["removed"].format(id=escape(removed))}</p>')
    notes += [f'<p class="warning">{escape(line)}</p>' for line in found.damaged]
    if len(found.games) < found.total:
        notes.append(
            f'<p class="shown">{w["shown"].format(n=len(found.games), total=found.total)} '
            f'<a href="/history?{escape(_qs(query, lang, limit="0"))}">{w["show_all"]}</a></p>'
        )
    heads = "".join(f'<th scope="col">{r[k]}</th>' for k in ("id", "date", "game", "players", "winners", "scores"))
    listing = (
        f'<table class="listing history"><thead><tr>{heads}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        if rows
        else f"<p>{r['none']}</p>"
    )
    body = (
        f"<main>{_filters(config, tables, query, lang, '/history')}{''.join(notes)}{listing}"
        f"{_downloads('/history', qs, lang)}</main>"
    )
    return _site(w["history_title"], lang, config.page_token, body, "site history-page")


def stats(config, tables, found, query, rows: list, plots: dict, lang: str) -> str:
    """The standings per game and player (`sheetgen stats`), and each player's scores over
    time, a plot per game."""
    from sheetgen.history.report import shown_number
    from sheetgen.serve.charts import COLOURS, scores_over_time

    w, r = WORDS[lang], _report_words(lang)
    titles = {}
    for key in config.layouts:
        lay = tables.layout(key)
        titles.setdefault(lay.game, _game_title(lay, lang))
    pct = " %" if lang == "fr" else "%"
    heads = "".join(f'<th scope="col">{r[k]}</th>' for k in ("player", "plays", "wins", "rate", "average", "best"))
    sections = []
    for game in dict.fromkeys(s.game for s in rows):
        body = "".join(
            f'<tr><td data-label="{r["player"]}">{escape(s.player)}</td><td data-label="{r["plays"]}">{s.plays}</td>'
            f'<td data-label="{r["wins"]}">{s.wins}</td>'
            f'<td data-label="{r["rate"]}">{round(100 * s.win_rate)}{pct}</td>'
            f'<td data-label="{r["average"]}">{shown_number(s.average, lang)}</td>'
            f'<td data-label="{r["best"]}">{s.best}</td></tr>'
            for s in rows
            if s.game == game
        )
        title = titles.get(game, game)
        svg, legend = scores_over_time(plots.get(game, {}), f"{w['plot']}: {title}")
        keys = "".join(
            f'<li><svg viewBox="0 0 20 10" aria-hidden="true" class="{cls}"><line x1="1" y1="5" x2="19" y2="5"/>'
            f'<circle cx="10" cy="5" r="3"/></svg>{escape(name)}</li>'
            for cls, name in legend
        )
        more = len(plots.get(game, {})) - COLOURS
        extra = f'<p class="more">{w["more_players"].format(n=more)}</p>' if more > 0 else ""
        sections.append(
            f'<section class="standing" data-game="{escape(game)}"><h2>{escape(title)}</h2>'
            f'<table class="listing stats"><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>'
            f'<figure><figcaption>{w["plot"]}</figcaption>{svg}<ul class="legend">{keys}</ul>{extra}</figure></section>'
        )
    notes = "".join(f'<p class="warning">{escape(line)}</p>' for line in found.damaged)
    listing = "".join(sections) if sections else f"<p>{r['none']}</p>"
    body = (
        f"<main>{_filters(config, tables, query, lang, '/stats')}{notes}{listing}"
        f"{_downloads('/stats', _qs(query, lang), lang)}</main>"
    )
    return _site(w["stats"], lang, config.page_token, body, "site stats-page")


def _warnings(warnings: list, lang: str) -> str:
    """A kept game's warnings: listed, folded away when there are many."""
    if not warnings:
        return ""
    items = "".join(f"<li>{escape(str(x))}</li>" for x in warnings)
    head = f"{WORDS[lang]['warnings']} ({len(warnings)})"
    shown = " open" if len(warnings) <= 3 else ""
    return f'<details class="warnings"{shown}><summary>{head}</summary><ul>{items}</ul></details>'


def kept(config, tables, game, played, lang: str) -> str:
    """A kept game: its final table as kept; its sheets as they were marked, when it was
    played at the table (`played`: the game as it was, its marks); its record; remove it."""
    from sheetgen.history.report import shown_date

    w, r = WORDS[lang], _report_words(lang)
    layout = tables.layout(game.layout) if game.layout in config.layouts else None
    labels = {}
    if layout is not None:
        from sheetgen.games import game_for

        labels = {k: lab[lang] for k, lab in game_for(layout).categories(layout)}
    keys = list(dict.fromkeys([*labels, *(k for p in game.players for k in p.breakdown)]))
    keys = [k for k in keys if any(k in p.breakdown for p in game.players)]
    heads = "".join(f'<th scope="col">{escape(p.name)}</th>' for p in game.players)
    lines = "".join(
        f'<tr><th scope="row">{escape(labels.get(k, k))}</th>'
        + "".join(f"<td>{p.breakdown.get(k, '')}</td>" for p in game.players)
        + "</tr>"
        for k in keys
    )
    totals = "".join(f"<td>{p.total}</td>" for p in game.players)
    ranks = "".join(f"<td>{p.rank}{' ★' if p.winner else ''}</td>" for p in game.players)
    winners = ", ".join(escape(p.name) for p in game.players if p.winner)
    table = (
        f'<section class="scores final"><table><thead><tr><th></th>{heads}</tr></thead><tbody>{lines}</tbody>'
        f'<tfoot><tr class="total"><th scope="row">{w["total"]}</th>{totals}</tr>'
        f'<tr class="rank"><th scope="row">{w["rank"]}</th>{ranks}</tr></tfoot></table>'
        f'<p class="winners">{w["winners"]}{w["colon"]} {winners}</p>{_warnings(game.warnings, lang)}</section>'
    )
    title = f"{w['kept_title'].format(id=game.id)} — {layout.title[lang] if layout else game.layout}"
    when = f'<p class="when">{escape(shown_date(game.played_at))}</p>'
    sheets, data = "", ""
    if played is not None and played.layout in config.layouts:
        tab = tables.table(played)
        drawn, defs_svg, choices = _drawn(tables, tab)
        changed = f'<p class="warning">{r["layout_changed"]}</p>' if played.layout_hash != tab.layout.digest else ""
        heads_of = [tab.layout.title[played.lang]] if tab.pad else played.players
        sheets = (
            f'<section class="kept-sheets"><h2>{w["sheets"]}</h2>{changed}<div class="sheets">'
            + "".join(
                f'<section class="sheet" data-sheet="{n}"><h3>{escape(heads_of[0 if tab.pad else n - 1])}</h3>'
                f'<div class="pages">{svgs}</div></section>'
                for n, svgs in drawn
            )
            + f'</div></section><svg class="defs" width="0" height="0" aria-hidden="true">{defs_svg}</svg>'
        )
        state = tables.state(played)
        info = {"choices": choices, "pad": tab.pad, "words": WORDS[played.lang]}
        data = (
            f'<script type="application/json" id="state">{_data(state)}</script>'
            f'<script type="application/json" id="info">{_data(info)}</script>'
        )
    record_open = "" if sheets else " open"
    record = (
        f'<details class="record"{record_open}><summary>{w["record"]}</summary>'
        + ("" if sheets else f"<p>{w['no_sheets']}</p>")
        + f"<pre>{escape(game.record_text)}</pre>"
        f'<p><a href="/history/{game.id}/record?download" data-export>{w["download"]} (YAML)</a></p></details>'
    )
    remove = (
        f'<form method="post" action="/history/{game.id}/remove" class="remove" '
        f'data-confirm="{escape(w["remove_confirm"].format(id=game.id))}">'
        f'<input type="hidden" name="token" value="{escape(config.page_token)}">'
        f'<input type="hidden" name="lang" value="{lang}"><button type="submit">{w["remove"]}</button></form>'
    )
    body = f"<main>{when}{table}{sheets}{record}{remove}</main>{data}"
    return _site(title, lang, config.page_token, body, "site kept-page")
