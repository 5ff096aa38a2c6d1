"""OpenGotha's pairing and handicap parameters (``PairingParameterSet``, ``HandicapParameterSet``).

Field defaults are the values OpenGotha assumes when a file omits the attribute, so a file
read with missing attributes pairs as OpenGotha would pair it. Ranks are OpenGotha integers
(1d = 0, 30k = -30), weights are OpenGotha's (large) integer costs.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED_SYSTEMS = ("SPLITANDRANDOM", "SPLITANDFOLD", "SPLITANDSLIP")
DUDD_MODES = ("TOP", "MID", "BOT")


@dataclass(frozen=True, slots=True)
class OGPairingParameters:
    """OpenGotha's ``PairingParameterSet`` (the weights of its pairing cost function)."""

    nx1_factor: float = 0.5  # paiStandardNX1Factor: concavity of the 'x' cost curves
    avoid_duplicate_game: int = 500_000_000_000_000  # paiBaAvoidDuplGame
    random: int = 0  # paiBaRandom
    deterministic: bool = True  # paiBaDeterministic
    balance_wb: int = 1000  # paiBaBalanceWB
    avoid_mixing_categories: int = 20_000_000_000_000  # paiMaAvoidMixingCategories
    minimize_score_difference: int = 100_000_000_000  # paiMaMinimizeScoreDifference
    dudd_weight: int = 100_000_000  # paiMaDUDDWeight
    compensate_dudd: bool = True  # paiMaCompensateDUDD
    dudd_upper_mode: str = "MID"  # paiMaDUDDUpperMode
    dudd_lower_mode: str = "MID"  # paiMaDUDDLowerMode
    maximize_seeding: int = 5_000_000  # paiMaMaximizeSeeding
    last_round_seed_system1: int = 2  # paiMaLastRoundForSeedSystem1 (1-based, as in the file)
    seed_system1: str = "SPLITANDRANDOM"  # paiMaSeedSystem1
    seed_system2: str = "SPLITANDFOLD"  # paiMaSeedSystem2
    additional_criterion1: str = "RATING"  # paiMaAdditionalPlacementCritSystem1
    additional_criterion2: str = "NULL"  # paiMaAdditionalPlacementCritSystem2
    rank_threshold: int = 3  # paiSeRankThreshold (4D)
    nb_wins_threshold_active: bool = True  # paiSeNbWinsThresholdActive
    bar_threshold_active: bool = True  # paiSeBarThresholdActive
    default_secondary: int = 100_000_000_000  # paiSeDefSecCrit (kept for round-trips)
    minimize_handicap: int = 0  # paiSeMinimizeHandicap
    avoid_same_geo: int = 100_000_000_000  # paiSeAvoidSameGeo
    mms_diff_rather_than_same_country: int = 1  # paiSePreferMMSDiffRatherThanSameCountry
    mms_diff_rather_than_same_club: int = 3  # paiSePreferMMSDiffRatherThanSameClub
    # paiSePreferMMSDiffRatherThanSameClubsGroup: OpenGotha 3.5x neither reads nor uses it (a
    # clubs group counts as half a club); kept, and reported when the file gives it (not 0)
    mms_diff_rather_than_same_clubs_group: int = 0


@dataclass(frozen=True, slots=True)
class OGHandicapParameters:
    """OpenGotha's ``HandicapParameterSet``."""

    based_on_mms: bool = True  # hdBasedOnMMS
    no_handicap_rank_threshold: int = 0  # hdNoHdRankThreshold (1D)
    correction: int = 1  # hdCorrection
    ceiling: int = 9  # hdCeiling
