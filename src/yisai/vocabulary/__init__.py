"""The shared vocabulary of regulations and registrations: gender, professional status, rank.

Both ``yisai.regulation`` (rules written in these words) and ``yisai.registry`` (people described
in them) import it; neither imports the other's modules for these words, so the dependency runs
one way only: registry → regulation → vocabulary.
"""

from yisai.vocabulary.people import Gender, ProStatus
from yisai.vocabulary.rank import MIN_KYU, Rank, RankField

__all__ = ["MIN_KYU", "Gender", "ProStatus", "Rank", "RankField"]
