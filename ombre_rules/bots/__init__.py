"""Bots that play any variant from what their seat sees: greedy, Monte-Carlo over greedy play-outs, and
Monte-Carlo over double-dummy solves."""
from .greedy import GreedyPlayer
from .pimc import PimcPlayer
from .pimcdd import PimcddPlayer

__all__ = ["GreedyPlayer", "PimcPlayer", "PimcddPlayer"]
