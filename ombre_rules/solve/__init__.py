"""Double-dummy analysis: the best each side can force with every hand open (`Analyst`, `Solver`), the
principal variation played out to the engine's settlement, and each card of a deal judged against it."""
from .analysis import Analyst, CardVerdict, Limits, explain
from .search import SearchLimit, Solver

__all__ = ["Analyst", "CardVerdict", "Limits", "SearchLimit", "Solver", "explain"]
