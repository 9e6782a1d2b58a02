"""The standings' plot: each player's scores over time, as an SVG drawn here (no library,
nothing loaded from elsewhere). A game kept is a step along the time axis (games are
played in evenings, days or weeks apart: equal steps keep each game visible), its date
under some of the steps; a player's scores are joined by a line in the player's colour
(`s0`...`s7` in the style sheet, light and dark); each point names its player, score, date
and game. The legend is HTML beside it, so that it wraps on a phone."""

from __future__ import annotations

from html import escape

W, H = 440, 240  # the drawing's units; it is scaled to the page's width
LEFT, RIGHT, TOP, BOTTOM = 40, 14, 12, 30
DATES = 3  # dates under the time axis: the first, the middle and the last game's
COLOURS = 8  # classes s0..s7
MAX_POINTS = 400  # points drawn as dots (with their titles) at most: beyond, the lines alone


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _step(span: float) -> float:
    """A round step for about five ticks over `span`."""
    raw = max(span, 1) / 5
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for k in (1, 2, 5, 10):
        if raw <= k * magnitude:
            return k * magnitude
    return 10 * magnitude


def scores_over_time(series: dict, title: str, most: int = COLOURS) -> tuple[str, list]:
    """The plot of `series` ({player: [(played_at, total, kept id), ...]} oldest first) for
    the `most` players who played most: (SVG, legend items [(class, player)])."""
    shown = sorted(series, key=lambda p: (-len(series[p]), p.casefold()))[:most]
    games = sorted({(at, gid) for p in shown for at, _t, gid in series[p]})
    x_of = {g: k for k, g in enumerate(games)}
    totals = [t for p in shown for _a, t, _g in series[p]]
    low, high = min([0, *totals]), max([1, *totals])
    step = _step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    span_x = max(len(games) - 1, 1)

    def x(k: int) -> float:
        return LEFT + (W - LEFT - RIGHT) * (k / span_x if len(games) > 1 else 0.5)

    def y(v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (1 - (v - low) / max(high - low, 1))

    out = [
        f'<svg class="plot" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg">'
    ]
    v = low
    while v <= high:
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{W - RIGHT}" y1="{_n(y(v))}" y2="{_n(y(v))}"/>'
            f'<text class="tick" x="{LEFT - 5}" y="{_n(y(v) + 4)}" text-anchor="end">{int(v)}</text>'
        )
        v += step
    for k in sorted({round(i * (len(games) - 1) / (DATES - 1)) for i in range(DATES)}):
        anchor = "middle" if len(games) == 1 else "start" if k == 0 else "end" if k == len(games) - 1 else "middle"
        out.append(
            f'<text class="tick" x="{_n(x(k))}" y="{H - 10}" text-anchor="{anchor}">{escape(games[k][0][:10])}</text>'
        )
    dots = sum(len(series[p]) for p in shown) <= MAX_POINTS
    legend = []
    for n, player in enumerate(shown):
        cls = f"s{n % COLOURS}"
        points = [(x(x_of[(at, gid)]), y(t), at, t, gid) for at, t, gid in series[player]]
        path = " ".join(f"{_n(px)},{_n(py)}" for px, py, *_ in points)
        out.append(f'<g class="{cls}"><polyline points="{path}"/>')
        if dots:
            out += [
                f'<circle cx="{_n(px)}" cy="{_n(py)}" r="3.2"><title>{escape(player)}: {t} '
                f"({escape(at[:16].replace('T', ' '))}, #{gid})</title></circle>"
                for px, py, at, t, gid in points
            ]
        out.append("</g>")
        legend.append((cls, player))
    out.append(f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}"/></svg>')
    return "".join(out), legend
