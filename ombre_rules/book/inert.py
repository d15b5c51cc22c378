"""Why two rule sets that differ only in an option's choice play and pay alike: the option acts only under
another option's choice (it is read only in that choice's part of the file), or nothing reads it at all (its
doc says what it stands for). Found in the file's text, so it holds for any option of any file."""
from __future__ import annotations

import json
import re
from typing import Any

from ..spec.resolve import fmt_value, parse_variant_string


def _mentions(node: Any, key: str) -> bool:
    return re.search(rf"\bopt\.{re.escape(key)}\b", json.dumps(node, default=str)) is not None


def _texts(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return [node] if isinstance(node, str) else []


def _gate(live: Any, key: str, options: dict[str, Any]) -> str:
    """Another option whose choice an expression reading opt.KEY is gated by, as `X is V (here it is W)`: an
    `opt.X == 'V'` or a bare `opt.X` (true) in the same expression, where X is not V now."""
    for text in _texts(live):
        if not re.search(rf"\bopt\.{re.escape(key)}\b", text):
            continue
        for other, value in re.findall(r"\bopt\.(\w+)\s*==\s*'([^']*)'", text):
            if other != key and other in options and fmt_value(options[other]) != value:
                return f"{other} is {value} (here it is {fmt_value(options[other])})"
        for other in re.findall(r"\bopt\.(\w+)\b(?!\s*(?:==|!=))", text):
            if other != key and options.get(other) is False:
                return f"{other} is true (here it is false)"
    return ""


def why_inert(a: Any, b: Any) -> str:
    """A sentence on why the diff of a and b is empty."""
    name_a, name_b = parse_variant_string(a.variant)[0], parse_variant_string(b.variant)[0]
    differ = [k for k in a.spec.options if k in b.spec.options and a.spec.options[k] != b.spec.options[k]]
    if name_a != name_b or a.spec.data.get("id") != b.spec.data.get("id") or not differ:
        return "The two rule sets deal, play and pay alike."
    return " ".join(_one(a, k, b.spec.options[k]) for k in differ)


def _one(a: Any, key: str, other: Any) -> str:
    spec = a.spec
    data = spec.data
    options = data.get("options") or {}
    doc = " ".join(str((options.get(key) or {}).get("doc", "")).split())
    was, now = fmt_value(spec.options[key]), fmt_value(other)
    head = f"Setting {key} to {now} instead of {was} changes nothing here"
    live = {k: v for k, v in data.items() if k != "options"}
    if _mentions(live, key):
        gate = _gate(live, key, spec.options)
        if gate:
            return f"{head}: it acts only when {gate}." + (f" It stands for: {doc}." if doc else "")
        return f"{head}: the rules read it, but no deal, rule or payment comes out differently." \
            + (f" It stands for: {doc}." if doc else "")
    under = []
    for o, spec_o in options.items():
        choices = spec_o.get("choices")
        if o == key or not isinstance(choices, dict):
            continue
        for c, patch in choices.items():
            if patch and _mentions(patch, key):
                under.append((o, fmt_value(c) if not isinstance(c, str) else c))
    if under:
        alts = "; ".join(f"{o} is {c} (here it is {fmt_value(spec.options[o])})" for o, c in under)
        return f"{head}: it acts only when {alts}." + (f" It stands for: {doc}." if doc else "")
    patch = ((options.get(key) or {}).get("choices") or {})
    changed = isinstance(patch, dict) and any(patch.get(c) for c in patch)
    if changed:
        return f"{head}: its choice changes the file, but not how a deal is dealt, bid, played or paid." \
            + (f" It stands for: {doc}." if doc else "")
    return f"{head}: no rule reads it." + (f" It stands for: {doc}." if doc else "")
