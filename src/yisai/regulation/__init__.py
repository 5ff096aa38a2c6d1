"""规程 as data: the schema, a TOML parser with line-accurate errors, and a Chinese summary."""

from yisai.regulation.loader import Issue, RegulationError, loads
from yisai.regulation.schema import Regulation

__all__ = ["Issue", "Regulation", "RegulationError", "loads"]
