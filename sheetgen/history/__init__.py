"""Keep the games: a local history of scored games in one SQLite file.

- `store`: the database (where it lives, schema versions and migrations, saving,
  reading, removing and re-scoring kept games);
- `report`: names and aliases, the history and the standings as tables (French or
  English), JSON and CSV.

Library code: no click here. Problems are `sheetgen.errors.HistoryError`s, which
the CLI prints as one `Error: ...` line.
"""
