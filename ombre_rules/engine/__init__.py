"""The generic engine: one deal as an explicit state machine of phases."""
from .state import AUCTION, CONSENT, DONE, EXCHANGE, PHASE_NAMES, PLAY, TRUMP, Result, State

__all__ = ["State", "Result", "AUCTION", "TRUMP", "EXCHANGE", "PLAY", "CONSENT", "DONE", "PHASE_NAMES"]
