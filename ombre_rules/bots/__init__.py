"""Bots that play any variant from what their seat sees: greedy and Monte-Carlo."""
from .greedy import GreedyPlayer
from .pimc import PimcPlayer

__all__ = ["GreedyPlayer", "PimcPlayer"]
