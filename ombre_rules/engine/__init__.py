"""The generic engine: one deal as an explicit state machine of phases."""
from .phases import (
    AUCTION,
    CALL,
    CONSENT,
    DECLARE,
    DEMAND,
    DONE,
    EXCHANGE,
    GIVE,
    GIVEBACK,
    LAYAWAY,
    PHASE_NAMES,
    PLAY,
    RAISE,
    SURRENDER,
    TAKEOVER,
    TRUMP,
    XPLAY,
)
from .state import Result, State

__all__ = ["State", "Result", "PHASE_NAMES", "AUCTION", "TRUMP", "EXCHANGE", "PLAY", "CONSENT", "DONE", "CALL",
           "GIVE", "DECLARE", "SURRENDER", "TAKEOVER", "XPLAY", "LAYAWAY", "DEMAND", "GIVEBACK", "RAISE"]
