"""`sheetgen serve`: score at the table, on the phones already there.

A Starlette application (app.py: routes, checks, events), its pages (pages.py: HTML
around the sheets that sheetgen.render.svg draws), its assets (assets.py: the script, the
style sheet and the bundled fonts, all inside the package), and the start and stop of the
server (run.py). No rules and no geometry here: the games are scored by sheetgen.api (the
game's own scorer, as `sheetgen score` does), and kept by sheetgen.history.
"""
