"""Events in the order people number them, as the ``evallab`` binary lists them.

Every table the binary writes grouped by event puts "TCEC Season 4" before
"TCEC Season 10" and "Match 2" before "Match 10" (the Rust ``render::order``);
a frame you group yourself with polars sorts events as text. ``in_event_order``
gives it the binary's order:

>>> import polars as pl
>>> from evallab import in_event_order
>>> df = pl.DataFrame({"event": ["S 10", "S 9", None, "Match 2"], "games": [1, 2, 3, 4]})
>>> in_event_order(df)["event"].to_list()
['Match 2', 'S 9', 'S 10', None]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars

# Rust reads a run of digits as a u64: a larger number, or none at the end of
# the name, is u64::MAX.
_U64_MAX = 2**64 - 1
_RUNS = re.compile(r"([^0-9]*)([0-9]*)")


def natural_key(text: str) -> list[tuple[str, int]]:
    """The sort key of a name: (text, number) pairs, digits read as a number.

    >>> sorted(["Match 10", "Match 2"], key=natural_key)
    ['Match 2', 'Match 10']
    """
    key = []
    for words, digits in _RUNS.findall(text):
        if not words and not digits:
            continue
        key.append((words, min(int(digits), _U64_MAX) if digits else _U64_MAX))
    return key


def in_event_order(df: polars.DataFrame, column: str = "event") -> polars.DataFrame:
    """``df`` with its rows in the order of ``column``'s events by
    :func:`natural_key` (events without a name last), each event's rows in
    their order."""
    import polars as pl

    events = df[column].to_list()
    # Equal keys ("S 04", "S 4") in text order, as the binary's (sorted as
    # text first) keep theirs.
    names = sorted(set(events), key=lambda e: (e is None, natural_key(e) if e is not None else [], e or ""))
    rank = {e: i for i, e in enumerate(names)}
    ranks = pl.Series("__rank", [rank[e] for e in events], dtype=pl.UInt32)
    return df.with_columns(ranks).sort("__rank", maintain_order=True).drop("__rank")
