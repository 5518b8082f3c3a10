"""Seating: who sits at which table and on which seat, round by round.

A stage of its own, beside the protocol's: a roster and a shape (players, tables per
round, rounds) go in, a :class:`~.model.Schedule` comes out, with its quality figures and
their lower bounds. The CLI's `seat`, the page and the pre-filled protocol of `template`
use it; it reads nothing from the rating or the report.

- :mod:`.model` — the roster, the shape, the restrictions and the schedule;
- :mod:`.shape` — the shape asked for (tables, rounds or games per player) checked;
- :mod:`.tables` — who plays together: a constructive start, then tabu search;
- :mod:`.seats` — seat numbers for the groups fixed: an equitable edge colouring, then
  local search over the seat groups;
- :mod:`.figures` — the quality figures and the combinatorial lower bounds;
- :mod:`.optimise` — the two searches chained;
- :mod:`.readers` — schedules made elsewhere (one row per game, or JSON);
- :mod:`.export` — the schedule and its figures as plain data (JSON).
"""
