"""Numbers typed by people: whole numbers, or sums like "10+20-10+40".

Nothing is ever evaluated: a sum is parsed with a regular expression into its
terms. Anything else (names, calls, exponents, floats) is rejected.
"""

from __future__ import annotations

import re

MAX_DIGITS = 9  # a term longer than this is no score a sheet can hold
# ASCII digits only: "١٢" or "１２" are not twelve
_TERM_RE = rf"[0-9]{{1,{MAX_DIGITS}}}"
_SUM = re.compile(rf"\s*[+-]?\s*{_TERM_RE}(?:\s*[+-]\s*{_TERM_RE})*\s*", re.ASCII)
_TERM = re.compile(r"([+-]?)\s*([0-9]+)", re.ASCII)


def parse_number(value) -> int | None:
    """The whole number `value` stands for, or None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) < 10**MAX_DIGITS else None
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 10**MAX_DIGITS else None
    if isinstance(value, str) and len(value) <= 200 and _SUM.fullmatch(value):
        total = 0
        for sign, digits in _TERM.findall(value.replace(" ", "")):
            total += -int(digits) if sign == "-" else int(digits)
        return total
    return None
