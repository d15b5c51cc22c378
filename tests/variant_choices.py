"""Every built-in variant with its default options and with each other choice of each option, loaded once per
test process (shared by the tests that sweep them all)."""
from functools import cache, lru_cache

from ombre_rules import load
from ombre_rules.spec.resolve import builtin_index, resolve


@lru_cache(maxsize=1)
def every_choice() -> list[tuple[str, tuple]]:
    """(path, ((option, choice),) or ()) for each built-in variant and option choice."""
    out = []
    for path in sorted(set(builtin_index().values())):
        spec = resolve(path)
        out.append((path, ()))
        out += [(path, ((k, c),)) for k, cs in spec.choices.items() for c in cs if c != spec.defaults[k]]
    return out


@cache
def rules_of(path: str, sel: tuple):
    return load(path, dict(sel))
