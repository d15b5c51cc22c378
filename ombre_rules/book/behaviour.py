"""What a rule set does, in forms two rule sets can be compared by: the payments of every made-up end of a deal
(the schedules, case by case), the cards a player must play for every card led in every trump context, and the
same seeded deals played by the same bots (their actions and results). `diff.py` compares them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine import State
from ..players import act, make_player
from .builder import occurring
from .cardwords import Cards
from .rules_text import trump_words
from .schedule import Builder as Schedules
from .words import Words, cap, header, join

DEALS = 8  # seeded deals played by both rule sets
DIMS = {"run": "the declarer's payment by the top trumps his side held", "doubles": "the declarer's payment doubled"}


@dataclass(frozen=True)
class Fact:
    """One compared fact: where it stands (its heading), what it is about, and what it is."""

    heading: str
    name: str
    words: str


@lru_cache(maxsize=8)
def payments(rules: Any) -> dict[str, Fact]:
    """Every case of every contract's schedule, keyed by the contract's name and the case (its trump group, its
    tricks and notes): its outcome and each role's payment."""
    w = Words(rules)
    sch = Schedules(rules, w)
    out: dict[str, Fact] = {}
    for c in occurring(rules):
        if c.base is not None:
            continue
        groups = sch.contract(c)
        if groups is None:
            continue
        for g in groups:
            trumps = [t.name for t in g.trumps if hasattr(t, "name")]
            where = f"trumps {join(trumps, 'or')}, " if trumps and len(groups) > 1 else ""
            for t in trumps or [""]:
                for case in g.cases:
                    cells = ", ".join(f"{header(role)} {a.text()}" for role, a in zip(g.roles, case.amounts,
                                                                                     strict=True))
                    words = f"{cap(w.outcome(case.outcome))}: {cells}; {w.pool} after: {_pool(case.pool)}"
                    if case.carry:
                        words += f"; for the next deal: {case.carry}"
                    out[f"{c.name}|{t}|{case.key}"] = Fact(c.title, f"{where}tricks {case.key}", words)
            for dim, (labels, dim_rows) in g.dims.items():
                for o, dim_cells in dim_rows:
                    out[f"{c.name}|{dim}|{o}"] = Fact(c.title, f"{cap(w.outcome(o))}, {DIMS[dim]}",
                                                      ", ".join(f"{lab}: {x}" for lab, x in zip(labels, dim_cells,
                                                                                               strict=True)))
    return out


def _pool(a: Any) -> str:
    from .scoring_text import _pool as pool_words

    return pool_words(a)


@lru_cache(maxsize=8)
def legal(rules: Any) -> dict[str, Fact]:
    """For each trump context a contract that can occur is played in, and each card led: the cards a player must
    play when he holds one, obligation by obligation (any card when none binds)."""
    out: dict[str, Fact] = {}
    cards = Cards(rules.deck)
    uses: dict[tuple, list[Any]] = {}
    for c in occurring(rules):
        if c.played and c.base is None:
            for t in rules.trump_choices(c):
                uses.setdefault((c.ranking, t.name if t is not None else "", c.follow_id), []).append(c)
    for (ranking, tname, fid), contracts in uses.items():
        titles = [c.title for c in contracts]
        suit = next((su for su in rules.deck.suits if su.name == tname), None)
        follows = rules.context(ranking, suit).follow(fid)
        where = f"{join(titles)}, {'trumps ' + tname if tname else 'no trumps'}"
        for led in rules.deck.cards:
            parts = []
            for i, (bind, must) in enumerate(follows[led.id]):
                parts.append(f"obligation {i + 1}: must play one of {cards.row(rules.deck.bits(must)) or 'none'}"
                             + (f" (binding only a hand holding one of {cards.row(rules.deck.bits(bind))})"
                                if bind != must else ""))
            out[f"{contracts[0].name}|{tname}|{led.name}"] = Fact("The cards a player must play",
                                                              f"{where}, {cards.name(led.id)} led",
                                                              "; ".join(parts) or "any card")
    return out


def ladder(rules: Any) -> dict[str, Fact]:
    """The contracts that can occur, in bidding order, with how each arises and its trumps."""
    from .builder import Builder
    from .rules_text import arises

    b = Builder(rules)
    out = {}
    order = sorted(b.occurs, key=lambda c: (not c.biddable, c.level, c.sub, c.index))
    for i, c in enumerate(order):
        how = f"bid, place {i + 1} from the lowest" if c.biddable else arises(b, c)
        out[c.name] = Fact("The contracts", c.title, f"{how}; trumps: {trump_words(b, c)}")
    return out


@dataclass
class Played:
    """One seeded deal played by greedy bots: its actions in words and its result."""

    seed: int
    actions: list[str]
    result: str


@lru_cache(maxsize=8)
def play(rules: Any, deals: int = DEALS) -> tuple[Played, ...]:
    """The deals of seeds 0.. played by one greedy bot per seat (each seeded by its seat)."""
    w = Words(rules)
    cards = Cards(rules.deck)
    bots = [make_player("greedy", s, rules) for s in range(rules.players)]
    out = []
    for seed in range(deals):
        st = State(rules, seed=seed)
        acts = []
        while not st.is_terminal:
            seat = st.current_player
            a = act(bots[seat], st, seat)
            acts.append(f"{_seat(st, seat, w)} {_action(rules, a, w, cards)}")
            st.apply(a)
        r = st.res
        assert r is not None  # played to its end
        what = (f"{cap(w.outcome(r.outcome))} in {rules.contract_by_name[r.contract].title}"
                if r.contract else cap(w.outcome(r.outcome)))
        pays = join([f"{_seat(st, s, w)} {_signed(p)}" for s, p in enumerate(r.payments)])
        out.append(Played(seed, acts, f"{what}; {pays}"))
    return tuple(out)


def _seat(st: State, seat: int, w: Words) -> str:
    n = st.rules.players
    out = st.rules.sitting(st.dealer, st.stand_for)
    playing = [s for s in ((st.dealer + i) % n for i in range(1, n + 1)) if s not in out]
    return w.position(seat, st.dealer, playing)


def _action(rules: Any, a: int, w: Words, cards: Cards) -> str:
    """An action in words: a bid with the contract's title, a card as rank and suit sign, a pass, a trump named."""
    text = rules.action_str(a)
    verb, _, arg = text.partition(" ")
    if verb == "bid":
        return f"bids {w.contract_named(arg)}"
    if verb == "trump":
        return f"names {arg} trumps"
    if arg and rules.deck.by_name.get(arg) is not None:
        return f"{verb}s {cards.text(arg)}" if not verb.endswith("s") else f"{verb} {cards.text(arg)}"
    return {"pass": "passes", "hold": "holds", "draw": "draws", "cede": "lets the other exchange first",
            "stop": "stops", "concede": "gives up", "continue": "plays on"}.get(verb, text)


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"
