"""Standings: scores, tie-break criteria, ranking with an ordered criteria list, and why.

Public API (pure, no I/O):
- ``StandingsPlayer``, ``StandingsInput``: what standings are computed from.
- ``compute_standings(inp, round_, criteria, subset)`` → ``Standings`` (rows with places,
  ``explain(player)`` in Chinese); ``resolve_list("score,sos,direct")`` for criteria names.
- ``compute_table`` / ``rank``: the Chinese criteria table and the regulation's ranking.
- ``compute_og_scores`` / ``og_order``: OpenGotha-compatible criteria and placement.
"""

from yisai.standings.compute import compute_standings, default_round, opengotha_standings
from yisai.standings.criteria import Value
from yisai.standings.model import StandingsInput, StandingsPlayer, games_up_to
from yisai.standings.names import CriterionRef, resolve, resolve_list
from yisai.standings.opengotha import OGParameters, OGScores, compute_og_scores, og_order
from yisai.standings.ranking import Decision, Explanation, RankKey, StandingRow, Standings, rank
from yisai.standings.table import ALL_CRITERIA, CriteriaTable, compute_table

__all__ = [
    "ALL_CRITERIA",
    "CriteriaTable",
    "CriterionRef",
    "Decision",
    "Explanation",
    "OGParameters",
    "OGScores",
    "RankKey",
    "StandingRow",
    "Standings",
    "StandingsInput",
    "StandingsPlayer",
    "Value",
    "compute_og_scores",
    "compute_standings",
    "compute_table",
    "default_round",
    "games_up_to",
    "og_order",
    "opengotha_standings",
    "rank",
    "resolve",
    "resolve_list",
]
