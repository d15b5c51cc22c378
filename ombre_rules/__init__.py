"""ombre_rules: a rules DSL and one generic engine for the Ombre family of trick-taking games.

>>> from ombre_rules import load, State
>>> rules = load("ombre")
>>> state = State(rules, seed=1)
>>> state.phase_name
'auction'
"""
from .engine import Result, State
from .errors import IllegalActionError, InvalidActionError, OmbreError, SpecError
from .ruleset import Ruleset, load

__all__ = ["load", "Ruleset", "State", "Result", "OmbreError", "SpecError", "IllegalActionError",
           "InvalidActionError"]
__version__ = "0.1.0"
