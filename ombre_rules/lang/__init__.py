"""The expression language: Lark grammar, name checks, compilation to Python."""
from .compiler import Compiler, Expr, Let, Namespace, Site

__all__ = ["Compiler", "Expr", "Let", "Namespace", "Site"]
