"""The `sheetgen` command (`python -m sheetgen`, and the console script): the command
line of sheetgen.cli, with two shortcuts that keep a start fast.

- `sheetgen --help` (or `-h`) prints its text from the user cache (sheetgen.cache)
  when an earlier run left it there for the same code, Click and terminal width:
  Click alone takes longer to import than the whole answer may take.
- Pillow's Image module, which reportlab imports for bitmaps that sheetgen never
  draws, is loaded when it is first used rather than when reportlab is imported.
"""

from __future__ import annotations

import os
import sys

HELP_ARGS = (["--help"], ["-h"])


def main() -> None:
    if sys.argv[1:] in HELP_ARGS and _cached_help():
        return
    _lazy_pillow()
    from sheetgen.cli import main as cli_main

    cli_main()


def _help_key() -> str:
    """The cache key of the help text: sheetgen's code, Click, and what sets the width
    Click formats for (shutil.get_terminal_size's inputs)."""
    from sheetgen import cache

    try:
        size = tuple(os.get_terminal_size(sys.__stdout__.fileno()))
    except (AttributeError, ValueError, OSError):
        size = None
    width = (os.environ.get("COLUMNS"), os.environ.get("LINES"), size)
    return cache.key("help", cache.code_stamp(), cache.package_stamp("click"), width)


def _cached_help() -> bool:
    """Print the top-level help from the cache and say True; on a miss, store it (the
    text the command line prints, sheetgen.cli.help_text) and say False, for Click to
    print it as usual."""
    from sheetgen import cache

    if cache.cache_dir() is None:
        return False
    key = _help_key()
    text = cache.get("help", key)
    if isinstance(text, str) and text.isascii():
        try:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `sheetgen --help | head -1`, as sheetgen.cli.main says it
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            raise SystemExit(1) from None
        return True
    from sheetgen.cli import help_text

    cache.put("help", key, help_text())
    return False


class _LazyPillow:
    """A meta path finder for PIL.Image only: its real spec, loaded lazily
    (importlib.util.LazyLoader runs the module at its first attribute access)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "PIL.Image":
            return None
        from importlib.machinery import PathFinder
        from importlib.util import LazyLoader

        spec = PathFinder.find_spec(name, path)
        if spec is None or not hasattr(spec.loader, "exec_module"):
            return None
        spec.loader = LazyLoader(spec.loader)
        return spec


def _lazy_pillow() -> None:
    if "PIL.Image" not in sys.modules and _LazyPillow not in sys.meta_path:
        sys.meta_path.insert(0, _LazyPillow)


if __name__ == "__main__":
    main()
