"""Rules a person can read: the rulebook of a variant, the diff of two, the language reference, and the
account of a deal's payments.

The model (what to say) is built from a compiled Ruleset; the formats (Markdown, HTML, JSON) only show it:

    >>> from ombre_rules import load
    >>> from ombre_rules.book import rulebook_md
    >>> rulebook_md(load("ombre")).startswith("# ")
    True
"""
from __future__ import annotations

import json
from typing import Any

from .build import build
from .diff import Diff, diff_rules
from .html import diff_page, rulebook_page
from .markdown import diff_md as _diff_md
from .markdown import rulebook_md as _rulebook_md
from .model import Book

__all__ = ["Book", "Diff", "rulebook", "rulebook_md", "rulebook_html", "rulebook_json", "diff", "diff_md",
           "diff_html", "diff_json"]


def rulebook(rules: Any, examples: bool = True) -> Book:
    """The rulebook model of a ruleset (`examples=False`: without the worked deals, which the engine plays)."""
    return build(rules, examples=examples)


def rulebook_md(rules: Any, examples: bool = True) -> str:
    """The rulebook as Markdown."""
    return _rulebook_md(rulebook(rules, examples))


def rulebook_html(rules: Any, fragment: bool = False, examples: bool = True) -> str:
    """The rulebook as one self-contained HTML page; `fragment=True`: without <html>/<head>, to embed."""
    return rulebook_page(rulebook(rules, examples), rules, fragment)


def rulebook_json(rules: Any, examples: bool = True) -> str:
    """The rulebook model as JSON."""
    return json.dumps(rulebook(rules, examples).to_dict(), indent=1, ensure_ascii=False) + "\n"


def diff(rules_a: Any, rules_b: Any) -> Diff:
    """What differs from one ruleset to another: the rulebooks section by section, the payments case by case,
    the cards that must be played, and the same seeded deals played by the same bots."""
    return diff_rules(rules_a, rules_b)


def diff_md(rules_a: Any, rules_b: Any) -> str:
    """The diff as Markdown."""
    return _diff_md(diff(rules_a, rules_b))


def diff_html(rules_a: Any, rules_b: Any, fragment: bool = False) -> str:
    """The diff as HTML (a page, or with `fragment=True` a fragment to embed)."""
    return diff_page(diff(rules_a, rules_b), rules_b, fragment)


def diff_json(rules_a: Any, rules_b: Any) -> str:
    """The diff as JSON: {a, b, note, sections: [{title, changes: [{key, name, old, new, kind}]}]}."""
    return json.dumps(diff(rules_a, rules_b).to_dict(), indent=1, ensure_ascii=False) + "\n"
