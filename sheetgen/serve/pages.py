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
        f"<main><h1>sheetgen</h1>"
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
    return [
        [page.id, el["id"], (el.get("title") or {}).get(lang, ""), el["x"], el["y"], el["w"], el["h"]]
        for page in layout.pages
        for el in page.elements
        if el["type"] == "frame"
    ]


def game(config, tables, game, state: dict) -> str:
    lang = game.lang
    w = WORDS[lang]
    tab = tables.table(game)
    layout = tab.layout
    drawn, defs_svg, choices = _drawn(tables, tab)
    sheets = []
    for n, svgs in drawn:
        head = escape(layout.title[lang] if tab.pad else game.players[n - 1])
        sheets.append(
            f'<section class="sheet" data-sheet="{n}"><h2>{head}</h2><div class="pages">{svgs}</div></section>'
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
        f'<a href="/">{w["new"]}</a></nav>'
        f'<nav class="sections" aria-label="{w["sections"]}"></nav>'
        f'<p class="message" role="status" aria-live="polite"></p></header>'
        f'<main><div class="sheets">{"".join(sheets)}</div>{_scores(game, lang)}</main>'
        f"{_join(config, f'/game/{game.id}', lang)}"
        f'<div class="dialog" id="picker" hidden><div class="choices"></div>'
        f'<button type="button" data-close>{w["cancel"]}</button></div>'
        f'<div class="dialog" id="numpad" hidden><form><input name="value" inputmode="decimal" maxlength="40" '
        f'autocomplete="off"><button type="submit">{w["ok"]}</button>'
        f'<button type="button" data-close>{w["cancel"]}</button></form></div>'
        f'<svg class="defs" width="0" height="0" aria-hidden="true">{defs_svg}</svg>'
        f'<script type="application/json" id="state">{_data(state)}</script>'
        f'<script type="application/json" id="info">{_data(info)}</script>'
    )
    return _page(f"{layout.title[lang]} — sheetgen", lang, config.page_token, body, "game", f' data-game="{game.id}"')


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
    return (
        f'<aside class="scores"><table><thead><tr><th></th>{heads}</tr></thead><tbody class="breakdown"></tbody>'
        f'<tfoot><tr class="total"><th scope="row">{w["total"]}</th>{totals}</tr>'
        f'<tr class="rank"><th scope="row">{w["rank"]}</th>{ranks}</tr></tfoot></table>'
        f'<p class="winners"></p><p class="kept"></p><ul class="warnings" aria-label="{w["warnings"]}"></ul>'
        f'<ul class="errors"></ul></aside>'
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
