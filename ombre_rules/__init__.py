"""ombre_rules: a rules DSL and one generic engine for the Ombre family of trick-taking games.

Load a variant by the id of a built-in variant or by the path of a variant file, then play it:
`rules = load("house.yaml")`, `state = State(rules, seed=1)`, `state.legal_actions()`, `state.apply(action)`.
"""
from .engine import Result, State
from .errors import IllegalActionError, InvalidActionError, OmbreError, SpecError
from .ruleset import Ruleset, load

__all__ = ["load", "Ruleset", "State", "Result", "OmbreError", "SpecError", "IllegalActionError",
           "InvalidActionError"]
__version__ = "0.1.0"
